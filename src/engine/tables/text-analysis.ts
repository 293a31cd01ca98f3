/**
 * Text analysis of a table's regular index on text (the Data API's `caseSensitive`, `normalize`, `ascii`, as
 * Cassandra SAI's non-tokenizing analyzer applies them): the one place that decides which index analyzes a
 * column and what the analyzed form of a string is. Index entries and the $eq / $ne / $in / $nin (and, on list,
 * set and map elements, $in / $nin / $all) conditions of a filter both use the analyzed form.
 */
import { VectorDbError, describeValue } from '../../errors/index.js';
import { asciiFold, parseAnalyzer, type Analyzer } from '../../query/analyzers.js';
import type { JsonObject, JsonValue } from '../../query/json.js';
import type { ColumnType, TableIndex, TableRecord } from './schema.js';

export interface TextAnalysis {
  readonly caseSensitive: boolean;
  readonly normalize: boolean;
  readonly ascii: boolean;
}

/** The analyzer of a text index (createTextIndex's `options.analyzer`, default `standard`; query/analyzers.ts). */
export function textIndexAnalyzer(raw: JsonValue | undefined): Analyzer {
  return parseAnalyzer(raw, (reason) => VectorDbError.of('INVALID_INDEX_DEFINITION', { reason }));
}

/** What a condition or index entry reads of a column: the value, or the elements / keys / values / entries. */
type Target = 'value' | 'values' | 'keys' | 'entries';

const TEXT_TYPES = new Set(['text', 'ascii', 'varchar']);

/** The analysis the index applies, or undefined when it matches exactly (the defaults, or an index from before analysis). */
export function indexAnalysis(index: TableIndex): TextAnalysis | undefined {
  if (index.kind !== 'regular' || index.analyzed !== true || index.options === undefined) return undefined;
  const { caseSensitive = true, normalize = false, ascii = false } = index.options as Partial<Record<keyof TextAnalysis, boolean>>;
  return caseSensitive && !normalize && !ascii ? undefined : { caseSensitive, normalize, ascii };
}

/** The analysis a filter on `column` (reading `target`) uses: that of the column's regular index for the target. */
export function columnAnalysis(record: TableRecord, column: string, target: Target): TextAnalysis | undefined {
  const index = record.indexes.find((i) => i.kind === 'regular' && i.column === column && (i.target ?? 'value') === target);
  return index === undefined ? undefined : indexAnalysis(index);
}

/** Whether the analyzed part of a column of this type (for this target) is text: only text is analyzed. */
export function analyzesText(type: ColumnType, target: Target): boolean {
  if (target === 'value') return TEXT_TYPES.has(type.type);
  if (type.type === 'list' || type.type === 'set') return TEXT_TYPES.has(type.valueType.type);
  if (type.type === 'map') return TEXT_TYPES.has((target === 'keys' ? type.keyType : type.valueType).type);
  return false;
}

/** NFC normalization, then lower case, then ASCII folding (accents stripped, as Lucene's ASCIIFoldingFilter does for Latin letters). */
export function analyzeText(text: string, analysis: TextAnalysis): string {
  let out = analysis.normalize ? text.normalize('NFC') : text;
  if (!analysis.caseSensitive) out = out.toLowerCase();
  if (analysis.ascii) out = asciiFold(out);
  return out;
}

/** A stored value with the analyzed part (the value, or a collection's elements / keys / values) analyzed. */
export function analyzeStored(stored: JsonValue, type: ColumnType, target: Target, analysis: TextAnalysis): JsonValue {
  const text = (v: JsonValue): JsonValue => (typeof v === 'string' ? analyzeText(v, analysis) : v);
  if (target === 'value') return text(stored);
  if (type.type === 'map' && Array.isArray(stored)) {
    return (stored as JsonValue[][]).map(([k, v]) => (target === 'keys' ? [text(k!), v!] : target === 'values' ? [k!, text(v!)] : [k!, v!]));
  }
  return Array.isArray(stored) ? stored.map(text) : stored;
}

const OPTION_NAMES = ['ascii', 'caseSensitive', 'normalize'] as const;

/**
 * A regular index's options as createIndex stores and listIndexes describes them: on text (a text column, or the
 * text elements / keys / values an index reads) the three analysis options with their defaults; none elsewhere
 * (an entries index ignores them, as the Data API does). `analyzed` marks an index whose entries are analyzed.
 */
export function describeIndexOptions(type: ColumnType, target: Target, raw: JsonObject | undefined, column: string): { options: JsonObject; analyzed?: true } {
  const given = raw ?? {};
  for (const [name, value] of Object.entries(given)) {
    if (!(OPTION_NAMES as readonly string[]).includes(name)) throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: `definition.options.${name}`, value: describeValue(value), reason: `regular index options are ${OPTION_NAMES.join(', ')}` });
    if (typeof value !== 'boolean') throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: `definition.options.${name}`, value: describeValue(value), reason: 'must be true or false' });
  }
  // As the Data API: an entries index takes no analysis, and a collection index given no options lists none
  // (only a text column's own index shows the defaults).
  if (target === 'entries' || (target !== 'value' && raw === undefined)) return { options: {} };
  if (!analyzesText(type, target)) {
    if (Object.keys(given).length > 0) throw VectorDbError.of('UNSUPPORTED_TEXT_ANALYSIS_FOR_DATA_TYPES', { column, type: type.type });
    return { options: {} };
  }
  const options: JsonObject = { ascii: false, caseSensitive: true, normalize: false, ...given };
  const analysis = options as unknown as TextAnalysis;
  return analysis.caseSensitive && !analysis.ascii && !analysis.normalize ? { options } : { options, analyzed: true };
}
