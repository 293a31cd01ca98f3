/**
 * Rows on the wire: projections of table reads (inclusion or exclusion of columns), the stored-to-JSON
 * conversion of each value, and the schemas the Data API sends beside rows (projectionSchema for reads,
 * primaryKeySchema for inserts), which clients such as astra-db-ts need to decode the values.
 */
import { VectorDbError, describeValue } from '../errors/index.js';
import type { Table } from '../engine/tables/table.js';
import { describeColumnType, primaryKeyColumns } from '../engine/tables/schema.js';
import { valueToWire } from '../engine/tables/values.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';

/** The columns a read returns, in table order. */
export function projectedColumns(table: Table, raw: JsonValue | undefined): string[] {
  const all = Object.keys(table.record.columns);
  if (raw === undefined || (isObject(raw) && Object.keys(raw).length === 0)) return all;
  if (!isObject(raw)) throw VectorDbError.of('UNSUPPORTED_PROJECTION_DEFINITION', { reason: `the projection must be an object, got ${describeValue(raw)}` });
  if (raw['*'] !== undefined) {
    if (Object.keys(raw).length > 1) throw VectorDbError.of('UNSUPPORTED_PROJECTION_DEFINITION', { reason: "'*' must be the only projection field" });
    return raw['*'] === 1 || raw['*'] === true ? all : [];
  }
  const entries = Object.entries(raw).filter(([column]) => column !== '$similarity' && column !== '$vector');
  const unknown = entries.map(([column]) => column).filter((column) => !all.includes(column));
  if (unknown.length > 0) {
    throw VectorDbError.of('UNKNOWN_TABLE_COLUMNS', { keyspace: table.record.keyspace, table: table.record.name, unknownColumns: unknown.join(', '), allColumns: all.join(', ') });
  }
  const include = entries.map(([, v]) => v === 1 || v === true);
  if (entries.some(([, v]) => v !== 0 && v !== 1 && typeof v !== 'boolean')) throw VectorDbError.of('UNSUPPORTED_PROJECTION_PARAM', { reason: 'table projections take 1 / true (include) or 0 / false (exclude) per column' });
  if (include.length === 0) return all;
  if (include.some((i) => i !== include[0])) throw VectorDbError.of('UNSUPPORTED_PROJECTION_DEFINITION', { reason: 'a projection cannot mix inclusion and exclusion' });
  const named = new Set(entries.map(([column]) => column));
  return include[0] ? all.filter((c) => named.has(c)) : all.filter((c) => !named.has(c));
}

/** A stored row as returned: the projected columns that have a value, then `$similarity` when asked for. */
export function rowToWire(table: Table, row: JsonObject, columns: readonly string[], similarity?: number): JsonObject {
  const out: JsonObject = {};
  const { columns: types } = table.record;
  for (const column of columns) {
    const value = row[column];
    if (value !== undefined && value !== null) out[column] = valueToWire(value, types[column]!, table.types);
  }
  if (similarity !== undefined) out.$similarity = similarity;
  return out;
}

export function projectionSchema(table: Table, columns: readonly string[], withSimilarity = false): JsonObject {
  const schema: JsonObject = {};
  for (const column of columns) schema[column] = describeColumnType(table.record.columns[column]!, table.types);
  if (withSimilarity) schema.$similarity = { type: 'float' };
  return schema;
}

export function primaryKeySchema(table: Table): JsonObject {
  return projectionSchema(table, primaryKeyColumns(table.record));
}

/** A row's primary key as insertedIds lists it: the key's values in key order (a blob as its bare base64, as the Data API sends it). */
export function primaryKeyToWire(table: Table, row: JsonObject): JsonValue[] {
  const { columns } = table.record;
  return primaryKeyColumns(table.record).map((column) => (columns[column]!.type === 'blob' ? row[column]! : valueToWire(row[column]!, columns[column]!, table.types)));
}
