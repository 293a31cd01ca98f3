/**
 * vectordb-local's own inspection commands (not in the Data API; a Data API server answers them with
 * COMMAND_UNKNOWN and the client falls back to what the Data API offers): getDatabaseStats (POST /v1) and
 * getCollectionStats (POST /v1/{keyspace}/{collection}), and verify (POST /v1: db.verify()'s report, as
 * SQLite's PRAGMA integrity_check). Reads only.
 */
import { CommandBody } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';
import type { JsonObject } from '../query/json.js';

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

const verify: CommandHandler = async (raw, ctx) => {
  new CommandBody('verify', raw, ['options']).noOptions();
  const report = await ctx.db.verify();
  return { status: { verify: report as unknown as JsonObject } };
};

export const STATS_COMMANDS: Record<string, CommandSpec> = {
  getDatabaseStats: { level: 'database', run: getDatabaseStats },
  getCollectionStats: { level: 'collection', run: getCollectionStats },
  verify: { level: 'database', run: verify },
};
