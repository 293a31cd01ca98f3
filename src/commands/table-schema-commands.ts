/**
 * Table DDL commands: createTable, listTables, dropTable and dropIndex (keyspace level); alterTable,
 * createIndex, createVectorIndex, createTextIndex and listIndexes (on a table). Responses as the Data API
 * shapes them.
 */
import { describeIndex, describeTable } from '../engine/tables/schema.js';
import { CommandBody } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';
import { isObject } from '../query/json.js';
import { resolveAlterServices, resolveColumnServices } from './table-vectorize.js';

const OK = { status: { ok: 1 } };

const createTable: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('createTable', raw, ['name', 'definition', 'options']);
  const ifNotExists = body.options(['ifNotExists']).boolean('ifNotExists', false);
  const name = body.require('name');
  const keyspace = ctx.existingKeyspace();
  const definition = body.get('definition');
  const resolved = isObject(definition) ? { ...definition, columns: (await resolveColumnServices(ctx, `${keyspace}.${String(name)}`, definition.columns))! } : definition;
  await ctx.db.tableDdl(keyspace, (catalog) => catalog.createTable(keyspace, name, resolved, ifNotExists));
  return OK;
};

const listTables: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('listTables', raw, ['options']);
  const explain = body.options(['explain']).boolean('explain', false);
  const keyspace = ctx.existingKeyspace();
  const tables = ctx.db.listTables(keyspace);
  const types = ctx.db.tableCatalog.typeLookup(keyspace);
  return { status: { tables: explain ? tables.map((t) => describeTable(t.record, types)) : tables.map((t) => t.record.name) } };
};

const dropTable: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('dropTable', raw, ['name', 'options']);
  const ifExists = body.options(['ifExists']).boolean('ifExists', false);
  const name = body.string('name');
  const keyspace = ctx.existingKeyspace();
  await ctx.db.tableDdl(keyspace, (catalog) => catalog.dropTable(keyspace, name, ifExists));
  return OK;
};

const dropIndex: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('dropIndex', raw, ['name', 'options']);
  const ifExists = body.options(['ifExists']).boolean('ifExists', false);
  const name = body.string('name');
  const keyspace = ctx.existingKeyspace();
  await ctx.db.tableDdl(keyspace, (catalog) => catalog.dropIndex(keyspace, name, ifExists));
  return OK;
};

const alterTable: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('alterTable', raw, ['operation']);
  const table = ctx.table();
  const operation = await resolveAlterServices(ctx, table, body.require('operation'));
  await ctx.db.tableDdl(ctx.keyspace, (catalog) => catalog.alterTable(table, operation));
  return OK;
};

/** createIndex, createVectorIndex and createTextIndex: the same body, a different kind of index. */
function indexCreator(command: 'createIndex' | 'createVectorIndex' | 'createTextIndex'): CommandHandler {
  return async (raw, ctx) => {
    const body = new CommandBody(command, raw, ['name', 'definition', 'indexType', 'options']);
    const ifNotExists = body.options(['ifNotExists']).boolean('ifNotExists', false);
    const table = ctx.table();
    await ctx.db.tableDdl(ctx.keyspace, (catalog) => catalog[command](table, body.require('name'), body.get('definition'), ifNotExists));
    return OK;
  };
}

const listIndexes: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('listIndexes', raw, ['options']);
  const explain = body.options(['explain']).boolean('explain', false);
  const { indexes } = ctx.table().record;
  return { status: { indexes: explain ? indexes.map(describeIndex) : indexes.map((i) => i.name) } };
};

export const TABLE_KEYSPACE_COMMANDS: Record<string, CommandSpec> = {
  createTable: { level: 'keyspace', run: createTable },
  listTables: { level: 'keyspace', run: listTables },
  dropTable: { level: 'keyspace', run: dropTable },
  dropIndex: { level: 'keyspace', run: dropIndex },
};

export const TABLE_SCHEMA_COMMANDS: Record<string, CommandSpec> = {
  alterTable: { level: 'collection', run: alterTable },
  createIndex: { level: 'collection', run: indexCreator('createIndex') },
  createVectorIndex: { level: 'collection', run: indexCreator('createVectorIndex') },
  createTextIndex: { level: 'collection', run: indexCreator('createTextIndex') },
  listIndexes: { level: 'collection', run: listIndexes },
};
