/**
 * alterTable's rules, as Cassandra's ALTER TABLE: `add` columns (one dropped earlier comes back only with
 * its old type, and without its old values), `drop` non-key, unindexed columns (their values stay in the
 * rows, unread, until the name is added back); and the Data API's `addVectorize` / `dropVectorize`, which
 * give vector columns an embedding provider or take it away. Decides the new definition and the work to do before it is
 * written; the catalog writes it.
 */
import { VectorDbError, describeValue } from '../../errors/index.js';
import { isObject, type JsonObject } from '../../query/json.js';
import type { Limits } from '../limits.js';
import { describeColumnType, parseColumnService, parseColumnType, primaryKeyColumns, type ColumnType, type TableRecord, type TypeLookup } from './schema.js';
import type { TableStore } from './store.js';

export interface AlteredTable {
  readonly record: TableRecord;
  /** Runs before the record is written (under the table's write mutex). */
  readonly work?: (store: TableStore) => Promise<void>;
}

export function alterTableRecord(record: TableRecord, operation: unknown, ctx: { limits: Limits; types: TypeLookup }): AlteredTable {
  if (!isObject(operation) || Object.keys(operation).length !== 1) {
    throw VectorDbError.of('MISSING_ALTER_TABLE_OPERATIONS', { operations: describeValue(operation) });
  }
  const [kind, spec] = Object.entries(operation)[0]!;
  if (kind === 'add') return addColumns(record, isObject(spec) && isObject(spec.columns) ? spec.columns : undefined, ctx);
  if (kind === 'drop') return dropColumns(record, isObject(spec) && Array.isArray(spec.columns) ? (spec.columns as unknown[]) : undefined);
  if (kind === 'addVectorize') return addVectorize(record, isObject(spec) && isObject(spec.columns) ? spec.columns : undefined);
  if (kind === 'dropVectorize') return dropVectorize(record, isObject(spec) && Array.isArray(spec.columns) ? (spec.columns as unknown[]) : undefined);
  throw VectorDbError.of('MISSING_ALTER_TABLE_OPERATIONS', { operations: `'${kind}'` });
}

/** The vector columns named, or the Data API's error for unknown and non-vector ones. */
function vectorColumns(record: TableRecord, names: readonly string[], adding: boolean): void {
  const vars = { keyspace: record.keyspace, table: record.name, allColumns: Object.keys(record.columns).join(', '), vectorColumns: Object.keys(record.columns).filter((c) => record.columns[c]!.type === 'vector').join(', ') };
  const unknown = names.filter((c) => record.columns[c] === undefined);
  if (unknown.length > 0) throw VectorDbError.of(adding ? 'CANNOT_VECTORIZE_UNKNOWN_COLUMNS' : 'CANNOT_DROP_VECTORIZE_FROM_UNKNOWN_COLUMNS', { ...vars, unknownColumns: unknown.join(', ') });
  const nonVector = names.filter((c) => record.columns[c]!.type !== 'vector');
  if (nonVector.length > 0) throw VectorDbError.of(adding ? 'CANNOT_VECTORIZE_NON_VECTOR_COLUMNS' : 'CANNOT_DROP_VECTORIZE_FROM_NON_VECTOR_COLUMNS', { ...vars, nonVectorColumns: nonVector.join(', ') });
}

/** `addVectorize: {columns: {column: service}}`: vector columns get (or change) their embedding provider. */
function addVectorize(record: TableRecord, added: JsonObject | undefined): AlteredTable {
  if (!added || Object.keys(added).length === 0) throw VectorDbError.of('MISSING_ALTER_TABLE_OPERATIONS', { operations: 'an addVectorize without columns' });
  vectorColumns(record, Object.keys(added), true);
  const columns: Record<string, ColumnType> = { ...record.columns };
  for (const [column, service] of Object.entries(added)) columns[column] = { ...(columns[column] as ColumnType & { type: 'vector' }), service: parseColumnService(column, service) };
  return { record: { ...record, columns } };
}

/** `dropVectorize: {columns: [column]}`: vector columns lose their provider (their vectors stay). */
function dropVectorize(record: TableRecord, dropped: unknown[] | undefined): AlteredTable {
  if (!dropped || dropped.length === 0 || dropped.some((c) => typeof c !== 'string')) throw VectorDbError.of('MISSING_ALTER_TABLE_OPERATIONS', { operations: 'a dropVectorize without columns' });
  vectorColumns(record, dropped as string[], false);
  const columns: Record<string, ColumnType> = { ...record.columns };
  for (const column of dropped as string[]) columns[column] = { type: 'vector', dimension: (columns[column] as ColumnType & { type: 'vector' }).dimension };
  return { record: { ...record, columns } };
}

function addColumns(record: TableRecord, added: JsonObject | undefined, ctx: { limits: Limits; types: TypeLookup }): AlteredTable {
  if (!added || Object.keys(added).length === 0) throw VectorDbError.of('MISSING_ALTER_TABLE_OPERATIONS', { operations: 'an add without columns' });
  const columns: Record<string, ColumnType> = { ...record.columns };
  const existing = Object.keys(added).filter((c) => columns[c] !== undefined);
  if (existing.length > 0) throw VectorDbError.of('CANNOT_ADD_EXISTING_COLUMNS', { keyspace: record.keyspace, table: record.name, existingColumns: existing.join(', ') });
  const readded: string[] = [];
  for (const [column, raw] of Object.entries(added)) {
    const type = parseColumnType(column, raw, { keyspace: record.keyspace, limits: ctx.limits, types: ctx.types });
    columns[column] = type;
    if (!record.droppedColumns?.includes(column)) continue;
    // As Cassandra: a dropped column comes back only with its type (its old values never do).
    const previous = record.droppedColumnTypes?.[column];
    if (previous && JSON.stringify(previous) !== JSON.stringify(type)) {
      const shown = (t: ColumnType) => JSON.stringify(describeColumnType(t, ctx.types));
      throw VectorDbError.of('CANNOT_ADD_PREVIOUSLY_DROPPED_COLUMN', { keyspace: record.keyspace, table: record.name, columnName: column, columnType: shown(type), previousType: shown(previous) });
    }
    readded.push(column);
  }
  const droppedColumnTypes = { ...record.droppedColumnTypes };
  for (const column of readded) delete droppedColumnTypes[column];
  const droppedColumns = (record.droppedColumns ?? []).filter((c) => !readded.includes(c));
  // The old values go first: a crash before the record is written leaves the column dropped, and empty.
  return { record: { ...record, columns, droppedColumns, droppedColumnTypes }, work: readded.length > 0 ? (store) => store.forgetColumns(readded) : undefined };
}

function dropColumns(record: TableRecord, dropped: unknown[] | undefined): AlteredTable {
  if (!dropped || dropped.length === 0 || dropped.some((c) => typeof c !== 'string')) throw VectorDbError.of('MISSING_ALTER_TABLE_OPERATIONS', { operations: 'a drop without columns' });
  const names = dropped as string[];
  const columns: Record<string, ColumnType> = { ...record.columns };
  const vars = { keyspace: record.keyspace, table: record.name };
  const unknown = names.filter((c) => columns[c] === undefined);
  if (unknown.length > 0) throw VectorDbError.of('CANNOT_DROP_UNKNOWN_COLUMNS', { ...vars, columns: unknown.join(', ') });
  const keyColumns = names.filter((c) => primaryKeyColumns(record).includes(c));
  if (keyColumns.length > 0) throw VectorDbError.of('CANNOT_DROP_PRIMARY_KEY_COLUMNS', { ...vars, columns: keyColumns.join(', ') });
  const indexes = record.indexes.filter((i) => names.includes(i.column));
  if (indexes.length > 0) throw VectorDbError.of('CANNOT_DROP_INDEXED_COLUMNS', { ...vars, columns: indexes.map((i) => i.column).join(', '), indexes: indexes.map((i) => i.name).join(', ') });
  const droppedColumnTypes = { ...record.droppedColumnTypes };
  for (const column of names) {
    droppedColumnTypes[column] = columns[column]!;
    delete columns[column];
  }
  return { record: { ...record, columns, droppedColumns: [...new Set([...(record.droppedColumns ?? []), ...names])], droppedColumnTypes } };
}
