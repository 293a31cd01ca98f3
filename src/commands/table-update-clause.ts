/**
 * A table updateOne's update clause as the Data API's TableUpdateResolver reads it: `$set`, `$unset`, `$push`
 * (one element, `{"$each": [...]}`, a map entry as `[key, value]` or `{key: value}`) and `$pullAll` (elements, or
 * a map's keys), each column changed by one operation only, never a primary key column; `$push` / `$pullAll`
 * only on list, set and map columns. Produces the engine's RowUpdate; values are coerced by the engine.
 */
import { VectorDbError } from '../errors/index.js';
import type { RowUpdate } from '../engine/tables/table.js';
import { primaryKeyColumns, type TableRecord } from '../engine/tables/schema.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';

const OPERATORS = ['$set', '$unset', '$push', '$pullAll'] as const;
const COLLECTION_TYPES = new Set(['list', 'set', 'map']);

export function parseTableUpdate(record: TableRecord, update: JsonValue | undefined): RowUpdate {
  const vars = { keyspace: record.keyspace, table: record.name };
  if (!isObject(update) || Object.keys(update).length === 0) throw VectorDbError.of('MISSING_UPDATE_OPERATIONS', vars);
  const unsupported = Object.keys(update).filter((op) => !(OPERATORS as readonly string[]).includes(op));
  if (unsupported.length > 0) throw VectorDbError.of('UNSUPPORTED_UPDATE_OPERATIONS_FOR_TABLE', { operators: unsupported.join(', ') });
  const clause = (op: string): JsonObject => (isObject(update[op]) ? (update[op] as JsonObject) : {});
  const named = OPERATORS.flatMap((op) => Object.keys(clause(op)));
  if (named.length === 0) throw VectorDbError.of('MISSING_UPDATE_OPERATIONS', vars);
  const unknown = named.filter((c) => record.columns[c] === undefined);
  if (unknown.length > 0) throw VectorDbError.of('UNKNOWN_TABLE_COLUMNS', { ...vars, unknownColumns: unknown.join(', '), allColumns: Object.keys(record.columns).join(', ') });
  const duplicates = [...new Set(named.filter((c, i) => named.indexOf(c) !== i))];
  if (duplicates.length > 0) throw VectorDbError.of('UNSUPPORTED_OVERLAPPING_UPDATE_OPERATIONS', { duplicateAssignmentColumns: duplicates.sort().join(', ') });
  const keyColumns = named.filter((c) => primaryKeyColumns(record).includes(c));
  if (keyColumns.length > 0) throw VectorDbError.of('UNSUPPORTED_UPDATE_FOR_PRIMARY_KEY_COLUMNS', { ...vars, columns: keyColumns.join(', ') });
  for (const op of ['$push', '$pullAll'] as const) {
    const notCollections = Object.keys(clause(op)).filter((c) => !COLLECTION_TYPES.has(record.columns[c]!.type)).sort();
    if (notCollections.length > 0) throw VectorDbError.of('UNSUPPORTED_UPDATE_OPERATOR', { ...vars, operator: op, unsupportedColumns: notCollections.join(', ') });
  }
  const push: Record<string, JsonValue[]> = {};
  for (const [column, operand] of Object.entries(clause('$push'))) push[column] = pushedItems(record, column, operand);
  const pull: Record<string, JsonValue[]> = {};
  for (const [column, operand] of Object.entries(clause('$pullAll'))) {
    if (!Array.isArray(operand)) throw VectorDbError.of('INVALID_UPDATE_COLUMN_VALUES', { ...vars, problems: `${column}: $pullAll needs an array of the elements (for a map: the keys) to remove` });
    pull[column] = operand;
  }
  return { set: clause('$set'), unset: Object.keys(clause('$unset')), push, pull };
}

/** The elements a `$push` adds, normalised as TableUpdatePushResolver does: map entries become `[key, value]` pairs. */
function pushedItems(record: TableRecord, column: string, operand: JsonValue): JsonValue[] {
  const misuse = (reason: string) => VectorDbError.of('INVALID_PUSH_OPERATOR_USAGE', { reason });
  const isMap = record.columns[column]!.type === 'map';
  const each = isObject(operand) && '$each' in operand ? operand.$each : undefined;
  if (isObject(operand) && each !== undefined) {
    if (Object.keys(operand).length !== 1) throw misuse(`extraneous '${Object.keys(operand).find((k) => k !== '$each')}' field encountered`);
    if (!Array.isArray(each)) throw misuse('invalid usage of $each, $each value needs to be an array');
    return isMap ? each.map((entry) => mapEntry(entry, misuse)) : each;
  }
  if (!isMap) {
    if (Array.isArray(operand)) throw misuse('combine $push and $each for adding multiple elements');
    return [operand];
  }
  if (Array.isArray(operand) || isObject(operand)) return [mapEntry(operand, misuse)];
  throw misuse('use correct $push format to update target map column');
}

function mapEntry(entry: JsonValue, misuse: (reason: string) => VectorDbError): JsonValue[] {
  if (Array.isArray(entry)) {
    if (entry.some((v) => Array.isArray(v) || isObject(v))) throw misuse('combine $push and $each for adding multiple elements');
    if (entry.length !== 2) throw misuse('To use tuple format for indicating a map entry, provided array must be size of 2');
    return entry;
  }
  if (isObject(entry)) {
    if (Object.keys(entry).length !== 1) throw misuse('a map entry given as an object must have exactly one key');
    const [key, value] = Object.entries(entry)[0]!;
    return [key, value];
  }
  throw misuse('please use correct map entry format');
}
