/**
 * A row as given to insertOne / insertMany, checked against its table: unknown columns, values that do
 * not fit their column type, and missing primary key columns each get the Data API's error code.
 */
import { VectorDbError, type ErrorCode } from '../../errors/index.js';
import { isObject, type JsonObject } from '../../query/json.js';
import { primaryKeyColumns, type TableRecord, type TypeLookup } from './schema.js';
import { ValueProblem, coerceValue } from './values.js';

/**
 * Set (true) in a stored row that an update created and no insert has written since: the row has no primary
 * key liveness (Cassandra's row marker, which only INSERT writes), so it lives only while a non-key column
 * holds a value. Not a column name (those never start with `$`); rows written before it are inserted rows.
 */
export const WITHOUT_ROW_MARKER = '$noRowMarker';

/** Whether a row stays: it was inserted (has its row marker), or a non-key column of the table holds a value. */
export function rowIsLive(row: JsonObject, record: TableRecord): boolean {
  if (row[WITHOUT_ROW_MARKER] !== true) return true;
  const keyColumns = primaryKeyColumns(record);
  return Object.keys(record.columns).some((column) => !keyColumns.includes(column) && row[column] !== undefined && row[column] !== null);
}

const MAX_KEY_BYTES = 65535;
/** Below this many UTF-16 units a string cannot exceed MAX_KEY_BYTES in UTF-8 (3 bytes per unit at most). */
const MAX_KEY_CHARS = Math.floor(MAX_KEY_BYTES / 3);

/** The row in stored form; a column given as null (or an empty collection) stays, as null, to delete it. */
export function coerceRow(raw: unknown, record: TableRecord, types: TypeLookup): JsonObject {
  if (!isObject(raw)) throw VectorDbError.of('SHRED_BAD_DOCUMENT_TYPE', { type: raw === null ? 'null' : Array.isArray(raw) ? 'Array' : typeof raw });
  const unknown = Object.keys(raw).filter((column) => record.columns[column] === undefined);
  if (unknown.length > 0) throw unknownColumns(record, unknown);
  const row: JsonObject = {};
  const problems: string[] = [];
  for (const [column, value] of Object.entries(raw)) {
    try {
      row[column] = coerceValue(value, record.columns[column]!, types);
    } catch (error) {
      if (!(error instanceof ValueProblem)) throw error;
      problems.push(`${column}: ${error.message}`);
    }
  }
  if (problems.length > 0) throw VectorDbError.of('INVALID_COLUMN_VALUES', { keyspace: record.keyspace, table: record.name, problems: problems.join('; ') });
  const missing = primaryKeyColumns(record).filter((column) => row[column] === undefined || row[column] === null);
  if (missing.length > 0) {
    throw VectorDbError.of('MISSING_PRIMARY_KEY_COLUMNS', { keyspace: record.keyspace, table: record.name, primaryKeys: primaryKeyColumns(record).join(', '), missingColumns: missing.join(', ') });
  }
  // As Cassandra: a partition key value is never empty, and no key value exceeds 64 KiB.
  for (const column of primaryKeyColumns(record)) {
    const value = row[column];
    if (typeof value !== 'string') continue;
    const reason = value === '' && record.primaryKey.partitionBy.includes(column) ? 'a partition key value cannot be empty' : value.length > MAX_KEY_CHARS && new TextEncoder().encode(value).length > MAX_KEY_BYTES ? `a primary key value is at most ${MAX_KEY_BYTES} bytes` : undefined;
    if (reason) throw VectorDbError.of('INVALID_COLUMN_VALUES', { keyspace: record.keyspace, table: record.name, problems: `${column}: ${reason}` });
  }
  return row;
}

export function unknownColumns(record: TableRecord, unknown: readonly string[], code: ErrorCode = 'UNKNOWN_TABLE_COLUMNS'): VectorDbError {
  return VectorDbError.of(code, { keyspace: record.keyspace, table: record.name, unknownColumns: unknown.join(', '), allColumns: Object.keys(record.columns).join(', ') });
}

/** A value that does not fit its column, under the error code of the command part it came from. */
export function columnProblem(code: 'INVALID_UPDATE_COLUMN_VALUES' | 'INVALID_COLUMN_VALUES', record: TableRecord, column: string, problem: ValueProblem): VectorDbError {
  return VectorDbError.of(code, { keyspace: record.keyspace, table: record.name, problems: `${column}: ${problem.message}` });
}
