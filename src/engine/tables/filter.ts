/**
 * Table filters: parses the Data API's filter on columns ($eq, $ne, $in, $nin, $lt, $lte, $gt, $gte; $in,
 * $nin, $all on lists, sets and maps, with $keys / $values on maps; $and, $or) into conditions on stored
 * values, and matches rows. Values are coerced to the column type, so comparisons use the key encoding.
 */
import { VectorDbError } from '../../errors/index.js';
import { isObject, type JsonObject, type JsonValue } from '../../query/json.js';
import { keys } from '../../storage/index.js';
import { encodeKeyPart } from './key-codec.js';
import type { ColumnType, ScalarType, TableRecord, TypeLookup } from './schema.js';
import { queryTerms, tokenize, type Analyzer } from '../../query/analyzers.js';
import { analyzeStored, analyzeText, analyzesText, columnAnalysis, textIndexAnalyzer, type TextAnalysis } from './text-analysis.js';
import { ValueProblem, coerceValue } from './values.js';

export type ScalarOperator = '$eq' | '$ne' | '$lt' | '$lte' | '$gt' | '$gte' | '$in' | '$nin' | '$match';
export type CollectionOperator = '$in' | '$nin' | '$all';
/** What of a column a condition reads: the value, or the elements / keys / values / entries of a collection. */
export type ConditionTarget = 'value' | 'values' | 'keys' | 'entries';

/** One condition on one column; `keys` are the encoded operands (a map entry: key part \0 value part). */
export interface Condition {
  readonly column: string;
  readonly operator: ScalarOperator | CollectionOperator;
  readonly target: ConditionTarget;
  readonly keys: readonly string[];
  /** Text compared in the analyzed form of the column's index (its keys are analyzed too). */
  readonly analysis?: TextAnalysis;
  /** `$match`: the analyzer of the column's text index (keys are the query's distinct tokens, all required). */
  readonly lexical?: Analyzer;
  /** `$match`: those tokens as the index's postings name them (its candidates are the rows holding every one). */
  readonly terms?: readonly string[];
  /** A scalar condition's operands in stored form (a partition key's token is computed from them). */
  readonly stored?: readonly JsonValue[];
}

export type TableFilter =
  | { readonly kind: 'all'; readonly parts: readonly TableFilter[] }
  | { readonly kind: 'any'; readonly parts: readonly TableFilter[] }
  | { readonly kind: 'condition'; readonly condition: Condition };

const SCALAR_OPERATORS = new Set(['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$nin']);
const COLLECTION_OPERATORS = new Set(['$in', '$nin', '$all']);
/** The scalar operators an analyzed text index answers in its analyzed form (ranges stay exact). */
const EQUALITY = new Set(['$eq', '$ne', '$in', '$nin']);

interface ParseContext {
  readonly record: TableRecord;
  readonly types: TypeLookup;
  /** Inside an `$or`: Cassandra takes no partition key restriction there. */
  readonly underOr?: boolean;
}

export function parseTableFilter(raw: JsonValue | undefined, record: TableRecord, types: TypeLookup): TableFilter {
  if (raw === undefined || raw === null) return { kind: 'all', parts: [] };
  if (!isObject(raw)) throw VectorDbError.of('FILTER_INVALID_EXPRESSION', { reason: 'the filter must be a JSON object' });
  return parseClauses(raw, { record, types });
}

function parseClauses(raw: JsonObject, ctx: ParseContext): TableFilter {
  const parts: TableFilter[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.some((v) => !isObject(v))) throw VectorDbError.of('FILTER_INVALID_EXPRESSION', { reason: `'${key}' needs an array of filter objects` });
      const inner = key === '$or' ? { ...ctx, underOr: true } : ctx;
      const sub = (value as JsonObject[]).map((v) => parseClauses(v, inner));
      parts.push({ kind: key === '$and' ? 'all' : 'any', parts: sub });
    } else if ((key === '$nor' || key === '$not') && namedColumns(value).some((c) => ctx.record.primaryKey.partitionBy.includes(c))) {
      // A negated $and is an $or of negations: the partition key would be restricted under an OR.
      throw partitionKeyUnderOr(namedColumns(value).find((c) => ctx.record.primaryKey.partitionBy.includes(c))!);
    } else if (key.startsWith('$')) {
      throw VectorDbError.of('FILTER_UNSUPPORTED_OPERATOR', { operator: key, hint: ': tables support $and and $or at the top of a filter' });
    } else {
      for (const condition of parseColumn(key, value, ctx)) parts.push({ kind: 'condition', condition });
    }
  }
  return parts.length === 1 && parts[0]!.kind !== 'condition' ? parts[0]! : { kind: 'all', parts };
}

/**
 * Cassandra restricts partition key columns only at the top of a WHERE clause (they choose the partitions to
 * read); it refuses one nested under OR, and the Data API passes that refusal on as INVALID_DATABASE_QUERY.
 */
function partitionKeyUnderOr(column: string): VectorDbError {
  return VectorDbError.of('INVALID_DATABASE_QUERY', {
    reason: `The database refused the query: Restriction on partition key column ${column} must not be nested under OR operator. Filter partition key columns at the top level of the filter (with $eq or $in), not inside $or, $nor or $not.`,
  });
}

/** The column names a (sub)filter mentions, at any depth of $and / $or / $nor / $not. */
function namedColumns(value: JsonValue): string[] {
  if (Array.isArray(value)) return value.flatMap(namedColumns);
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key.startsWith('$') ? namedColumns(inner) : [key]));
}

function parseColumn(column: string, value: JsonValue, ctx: ParseContext): Condition[] {
  const type = ctx.record.columns[column];
  if (!type) {
    throw VectorDbError.of('UNKNOWN_TABLE_COLUMNS', { keyspace: ctx.record.keyspace, table: ctx.record.name, unknownColumns: column, allColumns: Object.keys(ctx.record.columns).join(', ') });
  }
  if (ctx.underOr && ctx.record.primaryKey.partitionBy.includes(column)) throw partitionKeyUnderOr(column);
  const isOperators = isObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => k.startsWith('$')) && !isEjsonValue(value);
  const operators: [string, JsonValue][] = isOperators ? Object.entries(value as JsonObject) : [['$eq', value]];
  if (type.type === 'list' || type.type === 'set' || type.type === 'map') return operators.flatMap(([op, operand]) => collectionCondition(column, type, op, operand, ctx));
  if (type.type === 'vector' || type.type === 'userDefined') {
    throw VectorDbError.of('UNSUPPORTED_FILTERING_FOR_COLUMN_TYPES', { keyspace: ctx.record.keyspace, table: ctx.record.name, column, type: type.type, reason: ': vector and user-defined type columns cannot be filtered on' });
  }
  return operators.map(([op, operand]) => {
    if (op === '$match') return matchCondition(column, operand, ctx);
    if (!SCALAR_OPERATORS.has(op)) throw VectorDbError.of('FILTER_UNSUPPORTED_OPERATOR', { operator: op, hint: ` on column '${column}'` });
    const list = op === '$in' || op === '$nin';
    if (list && !Array.isArray(operand)) throw VectorDbError.of('FILTER_INVALID_EXPRESSION', { reason: `'${op}' on column '${column}' needs an array` });
    if (type.type === 'duration' && !['$eq', '$ne', '$in', '$nin'].includes(op)) {
      throw VectorDbError.of('UNSUPPORTED_FILTERING_FOR_COLUMN_TYPES', { keyspace: ctx.record.keyspace, table: ctx.record.name, column, type: 'duration', reason: `: durations cannot be compared with ${op}` });
    }
    const operands = list ? (operand as JsonValue[]) : [operand];
    const analysis = EQUALITY.has(op) && analyzesText(type, 'value') ? columnAnalysis(ctx.record, column, 'value') : undefined;
    const stored: JsonValue[] = [];
    const keys = operands.map((v) => encodeOperand(column, v, type, ctx, analysis, stored));
    return { column, operator: op as ScalarOperator, target: 'value' as const, keys, stored, ...(analysis ? { analysis } : {}) };
  });
}

/** `{column: {$match: "text"}}`: every token of the text, as the column's text index analyzes it. */
function matchCondition(column: string, operand: JsonValue, ctx: ParseContext): Condition {
  const { record } = ctx;
  const index = record.indexes.find((i) => i.kind === 'text' && i.column === column);
  if (!index) {
    const indexedColumns = record.indexes.filter((i) => i.kind === 'text').map((i) => i.column).join(', ') || '(none)';
    throw VectorDbError.of('CANNOT_LEXICAL_FILTER_NON_INDEXED_COLUMNS', { keyspace: record.keyspace, table: record.name, indexedColumns, filterColumns: column });
  }
  if (typeof operand !== 'string') throw VectorDbError.of('FILTER_INVALID_EXPRESSION', { reason: `'$match' on column '${column}' needs a string` });
  const lexical = textIndexAnalyzer(index.analyzer);
  return matchOn(column, queryTerms(operand, lexical), lexical);
}

/** The `$match` condition that a row's text in `column` holds every one of `terms` (distinct, analyzed by `lexical`). */
export function matchOn(column: string, terms: readonly string[], lexical: Analyzer): Condition {
  return { column, operator: '$match', target: 'value', keys: terms.map((t) => encodeKeyPart(t, 'text')), lexical, terms };
}

function collectionCondition(column: string, type: Extract<ColumnType, { type: 'list' | 'set' | 'map' }>, op: string, operand: JsonValue, ctx: ParseContext): Condition[] {
  const bad = (reason: string) => VectorDbError.of('INVALID_MAP_SET_LIST_FILTER', { type: type.type, column, reason });
  if (type.type === 'map' && (op === '$keys' || op === '$values')) {
    if (!isObject(operand) || Object.keys(operand).length !== 1) throw bad(`'${op}' needs one of $in, $nin, $all`);
    const [inner, values] = Object.entries(operand)[0]!;
    const elementType = op === '$keys' ? type.keyType : type.valueType;
    return [elementCondition(column, inner, values, elementType, op === '$keys' ? 'keys' : 'values', bad, ctx, type)];
  }
  if (type.type === 'map') {
    if (!COLLECTION_OPERATORS.has(op) || !Array.isArray(operand)) throw bad(`use $in, $nin or $all with an array of [key, value] entries, or $keys / $values`);
    const entryKeys = operand.map((entry) => {
      if (!Array.isArray(entry) || entry.length !== 2) throw bad('each entry must be a [key, value] array');
      return encodeOperand(column, entry[0]!, type.keyType, ctx) + keys.SEP + encodeOperand(column, entry[1]!, type.valueType, ctx);
    });
    return [{ column, operator: op as CollectionOperator, target: 'entries', keys: entryKeys }];
  }
  return [elementCondition(column, op, operand, type.valueType, 'values', bad, ctx, type)];
}

function elementCondition(column: string, op: string, operand: JsonValue, type: ColumnType, target: ConditionTarget, bad: (reason: string) => VectorDbError, ctx: ParseContext, columnType: ColumnType): Condition {
  if (!COLLECTION_OPERATORS.has(op) || !Array.isArray(operand)) throw bad('use $in, $nin or $all with an array of values');
  const analysis = analyzesText(columnType, target) ? columnAnalysis(ctx.record, column, target) : undefined;
  return { column, operator: op as CollectionOperator, target, keys: operand.map((v) => encodeOperand(column, v, type, ctx, analysis)), ...(analysis ? { analysis } : {}) };
}

function isEjsonValue(value: JsonObject): boolean {
  const names = Object.keys(value);
  return names.length === 1 && ['$binary', '$date', '$uuid'].includes(names[0]!);
}

function encodeOperand(column: string, value: JsonValue, type: ColumnType, ctx: ParseContext, analysis?: TextAnalysis, storedOut?: JsonValue[]): string {
  try {
    const stored = coerceValue(value, type, ctx.types);
    if (stored === null) throw new ValueProblem('a filter value cannot be null');
    storedOut?.push(stored);
    return storedKey(analysis && typeof stored === 'string' ? analyzeText(stored, analysis) : stored, type);
  } catch (error) {
    if (!(error instanceof ValueProblem)) throw error;
    throw VectorDbError.of('INVALID_FILTER_COLUMN_VALUES', { keyspace: ctx.record.keyspace, table: ctx.record.name, problems: `${column}: ${error.message}` });
  }
}

/** The key encoding of a stored scalar or user-defined value. */
export function storedKey(stored: JsonValue, type: ColumnType): string {
  return type.type === 'userDefined' ? JSON.stringify(stored) : encodeKeyPart(stored, type.type as ScalarType);
}

/** The encoded elements a condition target reads from a stored value (one for a scalar). */
export function targetKeys(stored: JsonValue, type: ColumnType, target: ConditionTarget): string[] {
  if (target === 'value') return [storedKey(stored, type)];
  if (type.type === 'map') {
    const entries = stored as [JsonValue, JsonValue][];
    if (target === 'keys') return entries.map(([k]) => storedKey(k, type.keyType));
    if (target === 'values') return entries.map(([, v]) => storedKey(v, type.valueType));
    return entries.map(([k, v]) => storedKey(k, type.keyType) + keys.SEP + storedKey(v, type.valueType));
  }
  if (type.type === 'list' || type.type === 'set') return (stored as JsonValue[]).map((v) => storedKey(v, type.valueType));
  return [];
}

/** Whether a stored row matches the filter. */
export function matchesRow(filter: TableFilter, row: JsonObject, record: TableRecord): boolean {
  switch (filter.kind) {
    case 'all':
      return filter.parts.every((part) => matchesRow(part, row, record));
    case 'any':
      return filter.parts.some((part) => matchesRow(part, row, record));
    case 'condition':
      return matchesCondition(filter.condition, row, record);
  }
}

function matchesCondition(condition: Condition, row: JsonObject, record: TableRecord): boolean {
  const stored = row[condition.column];
  const { operator, keys: operands } = condition;
  if (stored === undefined) return operator === '$ne' || operator === '$nin';
  const type = record.columns[condition.column]!;
  if (condition.lexical) {
    const tokens = new Set(tokenize(stored as string, condition.lexical).map((t) => encodeKeyPart(t, 'text')));
    return operands.length > 0 && operands.every((k) => tokens.has(k));
  }
  const present = targetKeys(condition.analysis ? analyzeStored(stored, type, condition.target, condition.analysis) : stored, type, condition.target);
  if (condition.target !== 'value') {
    if (operator === '$all') return operands.every((k) => present.includes(k));
    const any = operands.some((k) => present.includes(k));
    return operator === '$in' ? any : !any;
  }
  const key = present[0]!;
  switch (operator) {
    case '$eq':
      return key === operands[0];
    case '$ne':
      return key !== operands[0];
    case '$in':
      return operands.includes(key);
    case '$nin':
      return !operands.includes(key);
    case '$lt':
      return keys.compareKeys(key, operands[0]!) < 0;
    case '$lte':
      return keys.compareKeys(key, operands[0]!) <= 0;
    case '$gt':
      return keys.compareKeys(key, operands[0]!) > 0;
    case '$gte':
      return keys.compareKeys(key, operands[0]!) >= 0;
    default:
      return false;
  }
}

/** The top-level conditions every match must meet (the planner's starting points). */
export function requiredConditions(filter: TableFilter): Condition[] {
  if (filter.kind === 'condition') return [filter.condition];
  if (filter.kind === 'any') return filter.parts.length === 1 ? requiredConditions(filter.parts[0]!) : [];
  return filter.parts.flatMap(requiredConditions);
}

/** Every column the filter names. */
export function filterColumns(filter: TableFilter): string[] {
  if (filter.kind === 'condition') return [filter.condition.column];
  return [...new Set(filter.parts.flatMap(filterColumns))];
}

export function isEmptyFilter(filter: TableFilter): boolean {
  return filter.kind === 'all' && filter.parts.length === 0;
}
