/**
 * A collection's definition: vector settings, indexing policy and defaultId, validated from
 * createCollection options and compared for idempotent re-creation. Also answers "is this path indexed?".
 */
import { VectorDbError, describeValue } from '../../errors/index.js';
import { isObject, type JsonObject, type JsonValue } from '../../query/json.js';
import { DEFAULT_ID_TYPES, type DefaultIdType } from './document-id.js';
import type { Limits } from '../limits.js';

import { METRICS, type Metric } from '../../vector-index/metric.js';
import type { VectorIndexOptions, VectorOptions } from '../vectors/settings.js';
import type { Quantization } from '../../vector-index/index.js';
import { SOURCE_MODELS, metricOfSourceModel, type SourceModel } from '../vectors/source-models.js';
import { describeVectorizeService, parseVectorizeService, type VectorizeService } from '../vectors/vectorize-service.js';
import { parseLexicalOptions, parseRerankOptions, DEFAULT_LEXICAL, DEFAULT_RERANK, type LexicalOptions, type RerankOptions } from './hybrid-options.js';

export { analyzerOf, type LexicalOptions, type RerankOptions, type RerankService } from './hybrid-options.js';

export { METRICS, type Metric } from '../../vector-index/metric.js';
export type { VectorIndexOptions } from '../vectors/settings.js';


export interface CollectionOptions {
  readonly vector?: VectorOptions;
  readonly indexing?: { readonly allow: readonly string[] } | { readonly deny: readonly string[] };
  readonly defaultId?: { readonly type: DefaultIdType };
  /** `$lexical` (BM25) search; absent on collections from before it: disabled. */
  readonly lexical?: LexicalOptions;
  /** findAndRerank's reranking service; absent on collections from before it: disabled. */
  readonly rerank?: RerankOptions;
}

/** A stored collection: its number (key prefix), names and options. */
export interface CollectionRecord {
  readonly cid: number;
  readonly keyspace: string;
  readonly name: string;
  readonly options: CollectionOptions;
}

const OPTION_FIELDS = ['vector', 'indexing', 'defaultId', 'lexical', 'rerank'];

/**
 * Validates createCollection `options` into a normalized definition. A new collection without `lexical` or
 * `rerank` gets the Data API's defaults: lexical enabled with the `standard` analyzer, the `nvidia` reranker.
 */
export function parseCollectionOptions(raw: unknown, limits: Limits): CollectionOptions {
  if (raw === undefined || raw === null) return { lexical: DEFAULT_LEXICAL, rerank: DEFAULT_RERANK };
  if (!isObject(raw)) throw invalidOptions(`'options' must be an Object, got ${describeValue(raw)}`);
  for (const field of Object.keys(raw)) {
    if (!OPTION_FIELDS.includes(field)) {
      throw VectorDbError.of('INVALID_CREATE_COLLECTION_FIELD', { field, known: OPTION_FIELDS.map((f) => `'${f}'`).join(', ') });
    }
  }
  const options: { -readonly [K in keyof CollectionOptions]: CollectionOptions[K] } = {};
  if (raw.vector !== undefined && raw.vector !== null) options.vector = parseVectorOptions(raw.vector, limits);
  if (raw.indexing !== undefined && raw.indexing !== null) options.indexing = parseIndexing(raw.indexing);
  if (raw.defaultId !== undefined && raw.defaultId !== null) options.defaultId = parseDefaultId(raw.defaultId);
  options.lexical = parseLexicalOptions(raw.lexical);
  options.rerank = parseRerankOptions(raw.rerank);
  return options;
}

function parseVectorOptions(raw: JsonValue, limits: Limits): NonNullable<CollectionOptions['vector']> {
  if (!isObject(raw)) throw invalidOptions(`'vector' must be an Object, got ${describeValue(raw)}`);
  const known = ['dimension', 'size', 'metric', 'function', 'sourceModel', 'service', 'index'];
  for (const field of Object.keys(raw)) {
    if (!known.includes(field)) throw VectorDbError.of('INVALID_CREATE_COLLECTION_FIELD', { field: `vector.${field}`, known: known.map((f) => `'${f}'`).join(', ') });
  }
  // The command layer has checked the provider and filled in its dimension when none was given.
  const service = raw.service === undefined || raw.service === null ? undefined : parseVectorizeService(raw.service, invalidOptions);
  const dimension = raw.dimension ?? raw.size;
  if (dimension === undefined || dimension === null) {
    throw invalidOptions("The 'dimension' can not be null if 'service' is not provided");
  }
  if (typeof dimension !== 'number' || !Number.isInteger(dimension) || dimension <= 0) {
    throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: 'dimension', value: describeValue(dimension), reason: 'must be a positive integer' });
  }
  if (dimension > limits.maxVectorDimension) {
    throw VectorDbError.of('VECTOR_SEARCH_TOO_BIG_VALUE', { dimension, max: limits.maxVectorDimension });
  }
  const sourceModel = raw.sourceModel ?? 'other';
  if (typeof sourceModel !== 'string' || !(SOURCE_MODELS as readonly string[]).includes(sourceModel)) {
    throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: 'sourceModel', value: describeValue(sourceModel), reason: `sourceModel can only be one of ${SOURCE_MODELS.join(', ')}` });
  }
  const metric = raw.metric ?? raw.function ?? metricOfSourceModel(sourceModel as SourceModel);
  if (typeof metric !== 'string' || !(METRICS as readonly string[]).includes(metric)) {
    throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: 'metric', value: describeValue(metric), reason: "function name can only be 'dot_product', 'cosine' or 'euclidean'" });
  }
  const vector: { dimension: number; metric: Metric; sourceModel: string; index?: VectorIndexOptions; service?: VectorizeService } = { dimension, metric: metric as Metric, sourceModel };
  if (raw.index !== undefined && raw.index !== null) {
    const index = parseIndexOptions(raw.index);
    if (Object.keys(index).length > 0) vector.index = index; // `{}` (or only 'none') names the defaults, as no index does
  }
  if (service !== undefined) vector.service = service;
  return vector;
}

/** The accepted range of each HNSW knob (a find's per-query `efSearch` too). */
export const INDEX_OPTION_BOUNDS: Readonly<Record<Exclude<keyof VectorIndexOptions, 'quantization'>, readonly [number, number]>> = Object.freeze({
  m: [2, 128],
  efConstruction: [8, 4096],
  efSearch: [1, 4096],
});

/** The accepted values of `vector.index.quantization` ('none', the default, is not stored). */
export const QUANTIZATIONS: readonly Quantization[] = ['none', 'int8'];

function parseIndexOptions(raw: JsonValue): VectorIndexOptions {
  if (!isObject(raw)) throw invalidOptions(`'vector.index' must be an Object, got ${describeValue(raw)}`);
  const result: { -readonly [K in keyof VectorIndexOptions]: VectorIndexOptions[K] } & Record<string, unknown> = {};
  const bounds: Record<string, readonly [number, number]> = INDEX_OPTION_BOUNDS;
  for (const [field, value] of Object.entries(raw)) {
    if (field === 'quantization') {
      if (typeof value !== 'string' || !(QUANTIZATIONS as readonly string[]).includes(value)) {
        throw invalidOptions(`'vector.index.quantization' must be one of ${QUANTIZATIONS.map((q) => `'${q}'`).join(', ')}, got ${describeValue(value)}`);
      }
      // 'none' is what no option means: stored as absent, so that both name the same collection.
      if (value !== 'none') result.quantization = value as Quantization;
      continue;
    }
    const range = Object.prototype.hasOwnProperty.call(bounds, field) ? bounds[field] : undefined;
    if (!range) throw VectorDbError.of('INVALID_CREATE_COLLECTION_FIELD', { field: `vector.index.${field}`, known: "'m', 'efConstruction', 'efSearch', 'quantization'" });
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1]) {
      throw invalidOptions(`'vector.index.${field}' must be an integer from ${range[0]} to ${range[1]}, got ${describeValue(value)}`);
    }
    result[field] = value;
  }
  return result;
}

function parseIndexing(raw: JsonValue): NonNullable<CollectionOptions['indexing']> {
  if (!isObject(raw)) throw VectorDbError.of('INVALID_INDEXING_DEFINITION', { reason: `'indexing' must be an Object, got ${describeValue(raw)}` });
  const unknown = Object.keys(raw).filter((k) => k !== 'allow' && k !== 'deny');
  if (unknown.length > 0) throw VectorDbError.of('INVALID_CREATE_COLLECTION_FIELD', { field: `indexing.${unknown[0]}`, known: "'allow', 'deny'" });
  const hasAllow = raw.allow !== undefined && raw.allow !== null;
  const hasDeny = raw.deny !== undefined && raw.deny !== null;
  if (hasAllow && hasDeny) throw VectorDbError.of('INVALID_INDEXING_DEFINITION', { reason: "'allow' and 'deny' cannot be used together" });
  if (!hasAllow && !hasDeny) throw VectorDbError.of('INVALID_INDEXING_DEFINITION', { reason: "'allow' or 'deny' should be provided" });
  const which = hasAllow ? 'allow' : 'deny';
  const list = raw[which];
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || p.length === 0)) {
    throw VectorDbError.of('INVALID_INDEXING_DEFINITION', { reason: `'${which}' must be an array of non-empty path strings` });
  }
  const paths = list as string[];
  if (new Set(paths).size !== paths.length) throw VectorDbError.of('INVALID_INDEXING_DEFINITION', { reason: `'${which}' cannot contain duplicates` });
  if (paths.includes('*') && paths.length > 1) throw VectorDbError.of('INVALID_INDEXING_DEFINITION', { reason: `'*' must be the only entry of '${which}'` });
  return which === 'allow' ? { allow: paths } : { deny: paths };
}

function parseDefaultId(raw: JsonValue): { type: DefaultIdType } {
  const type = isObject(raw) ? raw.type : undefined;
  if (!isObject(raw) || typeof type !== 'string' || !(DEFAULT_ID_TYPES as readonly string[]).includes(type)) {
    throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', {
      field: 'defaultId',
      value: describeValue(raw),
      reason: "Id type can only be 'objectId', 'uuid' , 'uuidv6' or 'uuidv7'",
    });
  }
  return { type: type as DefaultIdType };
}

function invalidOptions(reason: string): VectorDbError {
  return VectorDbError.of('INVALID_CREATE_COLLECTION_OPTIONS', { reason });
}

/**
 * True when two definitions are the same collection (createCollection is then a no-op). Loads its package
 * here, not at import: only a createCollection of an existing name needs it (~3 ms of a cold import).
 */
export async function sameOptions(a: CollectionOptions, b: CollectionOptions): Promise<boolean> {
  const { default: stableStringify } = await import('fast-json-stable-stringify');
  // A collection from before lexical and rerank existed is the same as one asking for their defaults.
  const plain = (o: CollectionOptions, other: CollectionOptions): CollectionOptions => {
    const { lexical, rerank, ...rest } = o;
    const keep = { ...rest } as { -readonly [K in keyof CollectionOptions]: CollectionOptions[K] };
    // An empty `vector.index` (stored by earlier builds for `index: {}`) names the defaults, as none does.
    if (keep.vector?.index !== undefined && Object.keys(keep.vector.index).length === 0) {
      const { index: _empty, ...vector } = keep.vector;
      keep.vector = vector;
    }
    if (lexical !== undefined && (other.lexical !== undefined || stableStringify(lexical) !== stableStringify(DEFAULT_LEXICAL))) keep.lexical = lexical;
    if (rerank !== undefined && (other.rerank !== undefined || stableStringify(rerank) !== stableStringify(DEFAULT_RERANK))) keep.rerank = rerank;
    return keep;
  };
  return stableStringify(plain(a, b)) === stableStringify(plain(b, a));
}

/** The options as findCollections with `explain` reports them. */
export function describeOptions(options: CollectionOptions): JsonObject {
  const out: JsonObject = {};
  if (options.vector) {
    const vector: JsonObject = { dimension: options.vector.dimension, metric: options.vector.metric, sourceModel: options.vector.sourceModel };
    if (options.vector.index) vector.index = { ...options.vector.index };
    if (options.vector.service) vector.service = describeVectorizeService(options.vector.service);
    out.vector = vector;
  }
  if (options.indexing) out.indexing = 'allow' in options.indexing ? { allow: [...options.indexing.allow] } : { deny: [...options.indexing.deny] };
  if (options.defaultId) out.defaultId = { type: options.defaultId.type };
  out.lexical = options.lexical?.enabled ? { enabled: true, analyzer: options.lexical.analyzer ?? 'standard' } : { enabled: false };
  out.rerank = options.rerank?.enabled ? { enabled: true, service: { ...options.rerank.service } as JsonObject } : { enabled: false };
  return out;
}

/** Builds the "is this path indexed?" predicate of an indexing policy (prefix semantics). */
export function indexingPredicate(options: CollectionOptions): (path: string) => boolean {
  const indexing = options.indexing;
  if (!indexing) return () => true;
  const covers = (entry: string, path: string): boolean => entry === '*' || path === entry || path.startsWith(`${entry}.`);
  if ('deny' in indexing) {
    const deny = indexing.deny;
    return (path) => !deny.some((entry) => covers(entry, path));
  }
  const allow = indexing.allow;
  return (path) => path === '$vector' || allow.some((entry) => covers(entry, path));
}
