/**
 * Row writes on a table: insertOne, insertMany (insertedIds or documentResponses, with primaryKeySchema),
 * updateOne ($set / $unset / $push / $pullAll by full primary key, CQL's upsert), deleteOne (full primary key)
 * and deleteMany (primary key columns only; an empty filter truncates), both answering deletedCount -1 as the Data API does.
 */
import { VectorDbError } from '../errors/index.js';
import type { RowOutcome, Table } from '../engine/tables/table.js';
import { parseTableFilter, requiredConditions, filterColumns, type TableFilter } from '../engine/tables/filter.js';
import { primaryKeyColumns } from '../engine/tables/schema.js';
import { coerceValue } from '../engine/tables/values.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';
import { CommandBody } from './command-body.js';
import { readInsertMany } from './insert-commands.js';
import type { CommandHandler, CommandSpec } from './context.js';
import type { CommandResult } from './response.js';
import { parseTableUpdate } from './table-update-clause.js';
import { vectorizeRows, vectorizeTableUpdate } from './table-vectorize.js';
import { primaryKeySchema, primaryKeyToWire } from './table-wire.js';

const insertOne: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('insertOne', raw, ['document', 'options']);
  body.noOptions();
  const document = body.get('document');
  if (document === undefined) throw VectorDbError.of('SHRED_BAD_DOCUMENT_TYPE', { type: 'null' });
  const table = ctx.table();
  const [outcome] = await table.insertRows(await vectorizeRows(ctx, table, [document]), true);
  if (outcome!.status === 'ERROR') throw outcome!.error;
  return { status: { primaryKeySchema: primaryKeySchema(table), insertedIds: [primaryKeyToWire(table, (outcome as { row: JsonObject }).row)] } };
};

const insertMany: CommandHandler = async (raw, ctx) => {
  const { documents, ordered, withResponses } = readInsertMany(raw, ctx.db.limits.maxInsertManyDocuments, 'rows');
  const table = ctx.table();
  // Every vector of the command is computed before the first write: a provider failure writes nothing.
  return insertResult(table, await table.insertRows(await vectorizeRows(ctx, table, documents), ordered), withResponses);
};

function insertResult(table: Table, outcomes: readonly RowOutcome[], withResponses: boolean): CommandResult {
  const errors: VectorDbError[] = [];
  const status: JsonObject = { primaryKeySchema: primaryKeySchema(table) };
  if (withResponses) {
    status.documentResponses = outcomes.map((outcome) => {
      const entry: JsonObject = { _id: outcome.row ? primaryKeyToWire(table, outcome.row) : null, status: outcome.status };
      if (outcome.status === 'ERROR') {
        entry.errorsIdx = errors.length;
        errors.push(outcome.error);
      }
      return entry;
    });
  } else {
    const ids: JsonValue[] = [];
    for (const outcome of outcomes) {
      if (outcome.status === 'OK') ids.push(primaryKeyToWire(table, outcome.row));
      else if (outcome.status === 'ERROR') errors.push(outcome.error);
    }
    status.insertedIds = ids;
  }
  return { status, errors };
}

/** The full primary key an updateOne / deleteOne filter names with $eq, as a row of stored values. */
function primaryKeyFilter(table: Table, raw: JsonValue | undefined, command: string): JsonObject {
  const record = table.record;
  const vars = { keyspace: record.keyspace, table: record.name, command, primaryKeys: primaryKeyColumns(record).join(', ') };
  if (raw === undefined || (isObject(raw) && Object.keys(raw).length === 0)) throw VectorDbError.of('MISSING_FILTER_FOR_UPDATE_DELETE', vars);
  const filter = parseTableFilter(raw, record, table.types);
  checkOnlyKeyColumns(table, filter, command);
  const conditions = requiredConditions(filter);
  if (filter.kind !== 'all' || conditions.length !== filter.parts.length || conditions.some((c) => c.operator !== '$eq')) {
    throw VectorDbError.of('INVALID_PRIMARY_KEY_FILTER', { keyspace: record.keyspace, table: record.name, reason: `${command} takes only $eq on each primary key column` });
  }
  const missing = primaryKeyColumns(record).filter((column) => !conditions.some((c) => c.column === column));
  if (missing.length > 0) throw VectorDbError.of('MISSING_FULL_PRIMARY_KEY_FOR_UPDATE_DELETE', { ...vars, missingColumns: missing.join(', ') });
  const keyRow: JsonObject = {};
  const given = raw as JsonObject;
  for (const column of primaryKeyColumns(record)) {
    const value = given[column];
    const operand = isObject(value) && '$eq' in value ? value.$eq : value;
    keyRow[column] = coerceValue(operand!, record.columns[column]!, table.types)!;
  }
  return keyRow;
}

/** updateOne and deleteOne on a table name their row by primary key: a sort has nothing to choose. */
function refuseSort(body: CommandBody, command: string): void {
  const sort = body.get('sort');
  if (sort !== undefined && !(isObject(sort) && Object.keys(sort).length === 0)) {
    throw VectorDbError.of('SORT_CLAUSE_INVALID', { reason: `${command} on a table takes no sort: its filter names one row by its primary key` });
  }
}

function checkOnlyKeyColumns(table: Table, filter: TableFilter, command: string): void {
  const record = table.record;
  const keyColumns = primaryKeyColumns(record);
  const others = filterColumns(filter).filter((c) => !keyColumns.includes(c));
  if (others.length > 0) {
    throw VectorDbError.of('UNSUPPORTED_NON_PRIMARY_KEY_FILTER_FOR_UPDATE_DELETE', { keyspace: record.keyspace, table: record.name, command, primaryKeys: keyColumns.join(', '), columns: others.join(', ') });
  }
}

const updateOne: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('updateOne', raw, ['filter', 'update', 'sort', 'options']);
  body.options(['upsert']);
  refuseSort(body, 'updateOne');
  const table = ctx.table();
  const record = table.record;
  const keyRow = primaryKeyFilter(table, body.get('filter'), 'updateOne');
  const update = parseTableUpdate(record, await vectorizeTableUpdate(ctx, table, body.get('update')));
  const outcome = await table.updateRow(keyRow, update);
  return { status: { matchedCount: outcome.matched ? 1 : 0, modifiedCount: outcome.matched && outcome.modified ? 1 : 0 } };
};

/** Cassandra does not count the rows a DELETE removes: the Data API answers -1 for every table delete. */
const TABLE_DELETED_COUNT = -1;

const deleteOne: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('deleteOne', raw, ['filter', 'sort', 'options']);
  body.noOptions();
  refuseSort(body, 'deleteOne');
  const table = ctx.table();
  await table.deleteRow(primaryKeyFilter(table, body.get('filter'), 'deleteOne'));
  return { status: { deletedCount: TABLE_DELETED_COUNT } };
};

const deleteMany: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('deleteMany', raw, ['filter', 'options']);
  body.noOptions();
  const table = ctx.table();
  const filter = parseTableFilter(body.get('filter'), table.record, table.types);
  checkOnlyKeyColumns(table, filter, 'deleteMany');
  await table.deleteRows(filter);
  return { status: { deletedCount: TABLE_DELETED_COUNT } };
};

export const TABLE_ROW_COMMANDS: Record<string, CommandSpec> = {
  insertOne: { level: 'collection', run: insertOne },
  insertMany: { level: 'collection', run: insertMany },
  updateOne: { level: 'collection', run: updateOne },
  deleteOne: { level: 'collection', run: deleteOne },
  deleteMany: { level: 'collection', run: deleteMany },
};
