/**
 * The Data API's embedding source models and the similarity function each implies when no metric is given
 * (stargate/data-api's EmbeddingSourceModel: every named model is dot_product, `other` is cosine), and the
 * reading of a metric or source model name as the Data API reads them for a table's vector index: in any
 * case, kept in the Data API's spelling.
 */
import { VectorDbError, describeValue } from '../../errors/index.js';
import type { JsonValue } from '../../query/json.js';
import { METRICS, type Metric } from '../../vector-index/metric.js';

export const SOURCE_MODEL_METRICS = Object.freeze({
  ada002: 'dot_product',
  bert: 'dot_product',
  'cohere-v3': 'dot_product',
  gecko: 'dot_product',
  'nv-qa-4': 'dot_product',
  'openai-v3-large': 'dot_product',
  'openai-v3-small': 'dot_product',
  other: 'cosine',
} satisfies Record<string, Metric>);

export type SourceModel = keyof typeof SOURCE_MODEL_METRICS;

export const SOURCE_MODELS = Object.keys(SOURCE_MODEL_METRICS) as readonly SourceModel[];

/** The metric a source model implies when the caller names none. */
export function metricOfSourceModel(sourceModel: SourceModel): Metric {
  return SOURCE_MODEL_METRICS[sourceModel];
}

/**
 * A vector index's metric and source model from its options, as the Data API decides them: names in any
 * case (`EUCLIDEAN`, `Dot_Product`), a missing or blank source model is `other`, a missing or blank metric
 * is the source model's. An unknown name is UNKNOWN_VECTOR_METRIC / UNKNOWN_VECTOR_SOURCE_MODEL.
 */
export function decideIndexMetric(metric: JsonValue | undefined, sourceModel: JsonValue | undefined): { metric: Metric; sourceModel: SourceModel } {
  const model = named(sourceModel, SOURCE_MODELS);
  if (model === null) throw VectorDbError.of('UNKNOWN_VECTOR_SOURCE_MODEL', { knownSourceModels: SOURCE_MODELS.join(', '), unknownSourceModel: describeValue(sourceModel ?? null) });
  const chosen = named(metric, METRICS);
  if (chosen === null) throw VectorDbError.of('UNKNOWN_VECTOR_METRIC', { knownMetrics: METRICS.join(', '), unknownMetric: describeValue(metric ?? null) });
  return { metric: chosen ?? metricOfSourceModel(model ?? 'other'), sourceModel: model ?? 'other' };
}

/** The known name `raw` spells in any case; undefined when absent or blank, null when unknown. */
function named<T extends string>(raw: JsonValue | undefined, known: readonly T[]): T | undefined | null {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
  if (typeof raw !== 'string') return null;
  return known.find((name) => name === raw.toLowerCase()) ?? null;
}
