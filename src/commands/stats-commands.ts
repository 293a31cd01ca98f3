/**
 * vectordb-local's own inspection commands (not in the Data API; a Data API server answers them with
 * COMMAND_UNKNOWN and the client falls back to what the Data API offers): getDatabaseStats (POST /v1) and
 * getCollectionStats (POST /v1/{keyspace}/{collection}), getTableStats (POST /v1/{keyspace}/{table}), verify (POST /v1: db.verify()'s report, as
 * SQLite's PRAGMA integrity_check), and findCollectionFields (POST /v1/{keyspace}: each collection's field
 * record, its generation and the collection's id, what the GraphQL layer builds a collection's type from). Reads only.
 */
import { CommandBody, invalid } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';
import { isObject, type JsonObject } from '../query/json.js';

const getDatabaseStats: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('getDatabaseStats', raw, ['options']);
  const keyspace = body.options(['keyspace']).string('keyspace');
  const stats = await ctx.db.stats(keyspace);
  return { status: { stats: stats as unknown as JsonObject } };
};

const getCollectionStats: CommandHandler = async (raw, ctx) => {
  new CommandBody('getCollectionStats', raw, ['options']).noOptions();
  const collection = ctx.collection();
  const stats = await ctx.db.collectionStats(collection.record.keyspace, collection.record.name);
  return { status: { stats: stats as unknown as JsonObject } };
};

const getTableStats: CommandHandler = async (raw, ctx) => {
  new CommandBody('getTableStats', raw, ['options']).noOptions();
  const { keyspace, name } = ctx.table().record;
  return { status: { stats: (await ctx.db.tableStats(keyspace, name)) as unknown as JsonObject } };
};

const verify: CommandHandler = async (raw, ctx) => {
  new CommandBody('verify', raw, ['options']).noOptions();
  const report = await ctx.db.verify();
  return { status: { verify: report as unknown as JsonObject } };
};

/**
 * Each collection of the keyspace with its id (the database's number for it, never reused: a collection dropped
 * and created again under its name has another) and its field record's generation (no document read: kept in
 * memory), and its fields (top-level path -> kinds of value held, query/field-kind.ts) unless `options.known`
 * names the collection with that same id and generation (`{name: {id, generation}}`): a caller that cached the
 * fields asks only whether they changed.
 */
const findCollectionFields: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('findCollectionFields', raw, ['options']);
  const known = body.options(['known']).raw('known') ?? {};
  if (!isObject(known)) throw invalid('options.known', known, 'must be an object of collection name -> {id, generation}');
  const collections: JsonObject[] = [];
  for (const record of ctx.db.listCollections(ctx.existingKeyspace())) {
    const fields = await ctx.db.collection(record.keyspace, record.name).fieldRecord();
    const entry = { name: record.name, id: record.cid, generation: fields.generation };
    const cached = known[record.name];
    const unchanged = isObject(cached) && cached.id === entry.id && cached.generation === entry.generation;
    collections.push(unchanged ? entry : { ...entry, fields: fields.fields() });
  }
  return { status: { collections } };
};

export const STATS_COMMANDS: Record<string, CommandSpec> = {
  getDatabaseStats: { level: 'database', run: getDatabaseStats },
  getCollectionStats: { level: 'collection', run: getCollectionStats },
  verify: { level: 'database', run: verify },
  findCollectionFields: { level: 'keyspace', run: findCollectionFields },
};

/** The inspection commands of a table target. */
export const TABLE_STATS_COMMANDS: Record<string, CommandSpec> = {
  getTableStats: { level: 'collection', run: getTableStats },
};
