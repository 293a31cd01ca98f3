/**
 * Keyspace-level commands (POST /v1/{keyspace}): createCollection, findCollections, deleteCollection.
 */
import { CommandBody, invalid } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';
import { resolveServiceOptions } from './vectorize.js';

const createCollection: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('createCollection', raw, ['name', 'options']);
  const name = body.require('name');
  if (typeof name !== 'string') throw invalid('name', name, 'must be a string');
  const keyspace = ctx.existingKeyspace();
  await ctx.db.createCollection(keyspace, name, await resolveServiceOptions(ctx, `${keyspace}.${name}`, body.get('options')));
  return { status: { ok: 1 } };
};

const findCollections: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('findCollections', raw, ['options']);
  const explain = body.options(['explain']).boolean('explain', false);
  const records = ctx.db.listCollections(ctx.existingKeyspace());
  const collections = explain ? records.map((r) => ctx.db.describeCollection(r)) : records.map((r) => r.name);
  return { status: { collections } };
};

const deleteCollection: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('deleteCollection', raw, ['name', 'options']);
  body.noOptions();
  const name = body.require('name');
  if (typeof name !== 'string') throw invalid('name', name, 'must be a string');
  await ctx.db.deleteCollection(ctx.existingKeyspace(), name);
  return { status: { ok: 1 } };
};

export const KEYSPACE_COMMANDS: Record<string, CommandSpec> = {
  createCollection: { level: 'keyspace', run: createCollection },
  findCollections: { level: 'keyspace', run: findCollections },
  deleteCollection: { level: 'keyspace', run: deleteCollection },
};
