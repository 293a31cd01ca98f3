/**
 * A table's definition: column types of the Data API (scalars, list/set/map, vector(dimension),
 * user-defined types), the primary key (partition columns, clustering columns and their order) and its
 * indexes; parsed from createTable / alterTable JSON, described back as listTables and projectionSchema show it.
 */
import { VectorDbError, describeValue } from '../../errors/index.js';
import { isObject, type JsonObject, type JsonValue } from '../../query/json.js';
import type { Metric } from '../../vector-index/metric.js';
import type { Limits } from '../limits.js';
import { describeVectorizeService, parseVectorizeService, type VectorizeService } from '../vectors/vectorize-service.js';

export const SCALAR_TYPES = [
  'ascii', 'bigint', 'blob', 'boolean', 'date', 'decimal', 'double', 'duration', 'float', 'inet',
  'int', 'smallint', 'text', 'time', 'timestamp', 'timeuuid', 'tinyint', 'uuid', 'varchar', 'varint',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export type ColumnType =
  | { readonly type: ScalarType }
  /** `service`: the embedding provider of text written to (or sorted by on) this column. */
  | { readonly type: 'vector'; readonly dimension: number; readonly service?: VectorizeService }
  | { readonly type: 'list' | 'set'; readonly valueType: ColumnType }
  | { readonly type: 'map'; readonly keyType: ColumnType; readonly valueType: ColumnType }
  | { readonly type: 'userDefined'; readonly udtName: string };

/** A regular index (on a scalar, or the values/keys/entries of a collection column) or a vector index. */
export interface TableIndex {
  readonly name: string;
  readonly column: string;
  readonly kind: 'regular' | 'vector' | 'text';
  /** What of a list/set/map column is indexed. */
  readonly target?: 'values' | 'keys' | 'entries';
  /** Regular index: the Data API's text analysis options as described (defaults filled in for text). */
  readonly options?: JsonObject;
  /** Its entries and filters use the analyzed text (tables/text-analysis.ts); indexes made before analysis lack it. */
  readonly analyzed?: boolean;
  /** Text index: its analyzer as createTextIndex gave it (query/analyzers.ts reads it). */
  readonly analyzer?: JsonValue;
  /** Vector index: its metric, source model and the number of its vector records (storage/keys.ts). */
  readonly metric?: Metric;
  readonly sourceModel?: string;
  readonly vid?: number;
}

export interface PrimaryKey {
  readonly partitionBy: readonly string[];
  readonly partitionSort: readonly (readonly [string, 1 | -1])[];
}

export interface TableRecord {
  readonly tid: number;
  readonly keyspace: string;
  readonly name: string;
  readonly columns: Readonly<Record<string, ColumnType>>;
  readonly primaryKey: PrimaryKey;
  readonly indexes: readonly TableIndex[];
  /**
   * Columns dropped by alterTable: rows keep their old values (unread) until the name is added back, which
   * first deletes them (Cassandra never shows values written before a drop). Re-adding takes the same type.
   */
  readonly droppedColumns?: readonly string[];
  /**
   * The row key layout (storage/keys.ts): 2 puts the partition's Murmur3 token first (partitions in token
   * order, as Cassandra's); absent (1) is a table of an earlier build, its partitions in key order.
   */
  readonly keyFormat?: 2;
  /** The type each dropped column had (absent for columns dropped before types were kept: any type may return). */
  readonly droppedColumnTypes?: Readonly<Record<string, ColumnType>>;
}

/** The user-defined types a definition may reference (name -> fields), or undefined when unknown. */
export type TypeLookup = (name: string) => Readonly<Record<string, ColumnType>> | undefined;

const COLLECTION_KINDS = new Set(['list', 'set', 'map']);
const KEY_UNSUPPORTED = new Set(['list', 'set', 'map', 'vector', 'duration', 'userDefined']);

/** Parses one column's type: `"text"`, `{type: "text"}`, `{type: "list", valueType}`, `{type: "vector", dimension}`, ... */
export function parseColumnType(column: string, raw: unknown, ctx: { keyspace: string; limits: Limits; types: TypeLookup }, nested = false): ColumnType {
  const spec: JsonObject = typeof raw === 'string' ? { type: raw } : isObject(raw) ? raw : {};
  const type = spec.type;
  if (typeof type !== 'string') throw unknownType(column, raw);
  if ((SCALAR_TYPES as readonly string[]).includes(type)) return { type: type as ScalarType };
  if (type === 'vector') {
    const dimension = spec.dimension;
    if (dimension === undefined || dimension === null) throw VectorDbError.of('MISSING_DIMENSION_IN_VECTOR_COLUMN', { column });
    if (typeof dimension !== 'number' || !Number.isInteger(dimension) || dimension < 1 || dimension > ctx.limits.maxVectorDimension) {
      throw VectorDbError.of('UNSUPPORTED_VECTOR_DIMENSION', { column, dimension: describeValue(dimension), max: ctx.limits.maxVectorDimension });
    }
    if (nested) throw VectorDbError.of('UNSUPPORTED_LIST_DEFINITION', { column, reason: 'a vector cannot be nested in a list, set or map' });
    // The command layer has checked the provider is registered (commands/table-vectorize.ts).
    if (spec.service !== undefined && spec.service !== null) return { type: 'vector', dimension, service: parseColumnService(column, spec.service) };
    return { type: 'vector', dimension };
  }
  if (type === 'userDefined') {
    const udtName = spec.udtName;
    if (typeof udtName !== 'string' || ctx.types(udtName) === undefined) {
      throw VectorDbError.of('UNKNOWN_USER_DEFINED_TYPE', { column, type: describeValue(udtName), keyspace: ctx.keyspace });
    }
    return { type: 'userDefined', udtName };
  }
  if (COLLECTION_KINDS.has(type)) {
    const code = type === 'map' ? 'UNSUPPORTED_MAP_DEFINITION' : type === 'set' ? 'UNSUPPORTED_SET_DEFINITION' : 'UNSUPPORTED_LIST_DEFINITION';
    if (nested) throw VectorDbError.of(code, { column, reason: 'a list, set or map cannot be nested in another' });
    const element = (field: 'valueType' | 'keyType'): ColumnType => {
      if (spec[field] === undefined || spec[field] === null) throw VectorDbError.of(code, { column, reason: `'${field}' is required` });
      const parsed = parseColumnType(column, spec[field], ctx, true);
      if (COLLECTION_KINDS.has(parsed.type)) throw VectorDbError.of(code, { column, reason: 'a list, set or map cannot be nested in another' });
      return parsed;
    };
    if (type === 'map') {
      const keyType = element('keyType');
      if (keyType.type === 'userDefined') throw VectorDbError.of(code, { column, reason: 'map keys cannot be a user-defined type' });
      return { type: 'map', keyType, valueType: element('valueType') };
    }
    return { type, valueType: element('valueType') } as ColumnType;
  }
  throw unknownType(column, raw);
}

/** A vector column's `service` (createTable, alterTable add and addVectorize). */
export function parseColumnService(column: string, raw: JsonValue): VectorizeService {
  return parseVectorizeService(raw, (message) => VectorDbError.of('INVALID_VECTORIZE_FIELD_CONFIGURATION', { field: column, message }));
}

function unknownType(column: string, raw: unknown): VectorDbError {
  return VectorDbError.of('UNKNOWN_DATA_TYPE', { column, type: describeValue(raw), known: [...SCALAR_TYPES, 'list', 'set', 'map', 'vector', 'userDefined'].join(', ') });
}

/** Parses createTable's `definition` into columns and primary key. */
export function parseTableDefinition(raw: unknown, ctx: { keyspace: string; limits: Limits; types: TypeLookup }): { columns: Record<string, ColumnType>; primaryKey: PrimaryKey } {
  if (!isObject(raw)) throw structure('definition', raw, 'must be an Object with columns and primaryKey');
  const rawColumns = raw.columns;
  if (!isObject(rawColumns) || Object.keys(rawColumns).length === 0) throw structure('definition.columns', rawColumns, 'must be an Object naming at least one column');
  const columns: Record<string, ColumnType> = {};
  for (const [name, type] of Object.entries(rawColumns)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,47}$/.test(name)) {
      throw VectorDbError.of('UNSUPPORTED_SCHEMA_NAME', { kind: 'Column', name, max: 48 });
    }
    columns[name] = parseColumnType(name, type, ctx);
  }
  return { columns, primaryKey: parsePrimaryKey(raw.primaryKey, columns) };
}

function parsePrimaryKey(raw: JsonValue | undefined, columns: Record<string, ColumnType>): PrimaryKey {
  const all = Object.keys(columns).join(', ');
  let partitionBy: string[];
  let partitionSort: [string, 1 | -1][] = [];
  if (typeof raw === 'string') partitionBy = [raw];
  else if (isObject(raw)) {
    const by = raw.partitionBy;
    if (!Array.isArray(by) || by.some((c) => typeof c !== 'string')) throw structure('definition.primaryKey.partitionBy', by, 'must be an array of column names');
    partitionBy = by as string[];
    const sort = raw.partitionSort ?? {};
    if (!isObject(sort)) throw structure('definition.primaryKey.partitionSort', sort, 'must be an Object of column: 1 or -1');
    for (const [column, order] of Object.entries(sort)) {
      if (order !== 1 && order !== -1) throw structure(`definition.primaryKey.partitionSort.${column}`, order, 'must be 1 (ascending) or -1 (descending)');
      partitionSort.push([column, order]);
    }
  } else throw VectorDbError.of('MISSING_PARTITION_COLUMNS');
  if (partitionBy.length === 0) throw VectorDbError.of('MISSING_PARTITION_COLUMNS');
  const unknown = partitionBy.filter((c) => columns[c] === undefined);
  if (unknown.length > 0) throw VectorDbError.of('UNKNOWN_PARTITION_COLUMNS', { unknownColumns: unknown.join(', '), allColumns: all });
  const badSort = partitionSort.filter(([c]) => columns[c] === undefined || partitionBy.includes(c)).map(([c]) => c);
  if (badSort.length > 0) throw VectorDbError.of('UNKNOWN_PARTITION_SORT_COLUMNS', { unknownColumns: badSort.join(', '), allColumns: all });
  for (const column of [...partitionBy, ...partitionSort.map(([c]) => c)]) {
    const type = columns[column]!.type;
    if (KEY_UNSUPPORTED.has(type)) throw VectorDbError.of('UNSUPPORTED_PRIMARY_KEY_TYPE', { column, type });
  }
  if (new Set(partitionBy).size !== partitionBy.length) throw structure('definition.primaryKey.partitionBy', partitionBy, 'names a column twice');
  return { partitionBy, partitionSort };
}

function structure(field: string, value: unknown, reason: string): VectorDbError {
  return VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field, value: value === undefined ? '`null`' : describeValue(value), reason });
}

/** The primary key columns in key order (partition, then clustering). */
export function primaryKeyColumns(record: Pick<TableRecord, 'primaryKey'>): string[] {
  return [...record.primaryKey.partitionBy, ...record.primaryKey.partitionSort.map(([c]) => c)];
}

/** A column type as listTables and projectionSchema describe it (a user-defined type with its fields). */
export function describeColumnType(type: ColumnType, types: TypeLookup): JsonObject {
  switch (type.type) {
    case 'vector':
      return type.service ? { type: 'vector', dimension: type.dimension, service: describeVectorizeService(type.service) } : { type: 'vector', dimension: type.dimension };
    case 'list':
    case 'set':
      return { type: type.type, valueType: describeElement(type.valueType, types) };
    case 'map':
      return { type: 'map', keyType: describeElement(type.keyType, types), valueType: describeElement(type.valueType, types) };
    case 'userDefined':
      return { type: 'userDefined', udtName: type.udtName, definition: { fields: describeFields(types(type.udtName) ?? {}, types) } };
    default:
      return { type: type.type };
  }
}

function describeElement(type: ColumnType, types: TypeLookup): JsonValue {
  return type.type === 'userDefined' ? describeColumnType(type, types) : type.type;
}

export function describeFields(fields: Readonly<Record<string, ColumnType>>, types: TypeLookup): JsonObject {
  const out: JsonObject = {};
  for (const [name, type] of Object.entries(fields)) out[name] = describeColumnType(type, types);
  return out;
}

/** createTable's definition as listTables (explain) shows it. */
export function describeTable(record: TableRecord, types: TypeLookup): JsonObject {
  const partitionSort: JsonObject = {};
  for (const [column, order] of record.primaryKey.partitionSort) partitionSort[column] = order;
  return {
    name: record.name,
    definition: {
      columns: describeFields(record.columns, types),
      primaryKey: { partitionBy: [...record.primaryKey.partitionBy], partitionSort },
    },
  };
}

/** An index as listIndexes (explain) shows it. */
export function describeIndex(index: TableIndex): JsonObject {
  if (index.kind === 'vector') {
    return { name: index.name, definition: { column: index.column, options: { metric: index.metric ?? 'cosine', sourceModel: index.sourceModel ?? 'other' } }, indexType: 'vector' };
  }
  if (index.kind === 'text') return { name: index.name, definition: { column: index.column, options: { analyzer: index.analyzer ?? 'standard' } }, indexType: 'text' };
  // As the Data API: a whole-map index (its entries) is listed by the plain column name, as createIndex takes it.
  const column: JsonValue = index.target === undefined || index.target === 'entries' ? index.column : { [index.column]: `$${index.target}` };
  return { name: index.name, definition: { column, options: index.options ?? {} }, indexType: 'regular' };
}
