/**
 * User-defined type commands (keyspace level): createType, listTypes, alterType, dropType.
 */
import { describeFields } from '../engine/tables/schema.js';
import { CommandBody } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';

const OK = { status: { ok: 1 } };

const createType: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('createType', raw, ['name', 'definition', 'options']);
  const ifNotExists = body.options(['ifNotExists']).boolean('ifNotExists', false);
  const name = body.require('name');
  const keyspace = ctx.existingKeyspace();
  await ctx.db.tableDdl(keyspace, (catalog) => catalog.createType(keyspace, name, body.get('definition'), ifNotExists));
  return OK;
};

const listTypes: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('listTypes', raw, ['options']);
  const explain = body.options(['explain']).boolean('explain', false);
  const keyspace = ctx.existingKeyspace();
  const catalog = ctx.db.tableCatalog;
  const types = catalog.listTypes(keyspace);
  const lookup = catalog.typeLookup(keyspace);
  return {
    status: {
      types: explain
        ? types.map((t) => ({ type: 'userDefined', udtName: t.name, definition: { fields: describeFields(t.fields, lookup) }, apiSupport: { createTable: true, insert: true, read: true, filter: false, cqlDefinition: '' } }))
        : types.map((t) => t.name),
    },
  };
};

const alterType: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('alterType', raw, ['name', 'add', 'rename']);
  const name = body.string('name');
  const keyspace = ctx.existingKeyspace();
  await ctx.db.tableDdl(keyspace, (catalog) => catalog.alterType(keyspace, name, body.get('add'), body.get('rename')));
  return OK;
};

const dropType: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('dropType', raw, ['name', 'options']);
  const ifExists = body.options(['ifExists']).boolean('ifExists', false);
  const name = body.string('name');
  const keyspace = ctx.existingKeyspace();
  await ctx.db.tableDdl(keyspace, (catalog) => catalog.dropType(keyspace, name, ifExists));
  return OK;
};

export const TYPE_COMMANDS: Record<string, CommandSpec> = {
  createType: { level: 'keyspace', run: createType },
  listTypes: { level: 'keyspace', run: listTypes },
  alterType: { level: 'keyspace', run: alterType },
  dropType: { level: 'keyspace', run: dropType },
};
