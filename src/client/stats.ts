/**
 * db.stats() and collection.stats(): vectordb-local's getDatabaseStats / getCollectionStats commands, or,
 * on a Data API server that does not know them (COMMAND_UNKNOWN), what the Data API itself tells:
 * document counts and vector settings, with the storage figures left out.
 * Internal to the client (not exported by the package).
 */
import type { CommandResponse } from '../commands/response.js';
import type { CollectionStats, DatabaseStats } from '../engine/stats-types.js';
import { exceptionFor } from './errors.js';
import type { JsonObject } from '../query/json.js';

export type { CollectionStats, DatabaseStats, TableStats, VectorStats } from '../engine/stats-types.js';

/** What a stats reader needs of the database. */
export interface StatsChannel {
  command(command: JsonObject, target: { keyspace?: string | null; collection?: string }): Promise<CommandResponse>;
}

/** Stats as reported by a server without the stats commands: no storage figures. */
export type PartialCollectionStats = Omit<CollectionStats, 'bytesOnDisk' | 'indexEntries' | 'cachedBytes' | 'vector'> & Partial<Pick<CollectionStats, 'bytesOnDisk' | 'indexEntries' | 'cachedBytes' | 'vector'>>;

export async function databaseStats(channel: StatsChannel, keyspaces: readonly string[] | undefined): Promise<DatabaseStats> {
  // Database-level commands: `keyspace: null` (no keyspace means the working keyspace).
  const response = await channel.command({ getDatabaseStats: keyspaces?.length === 1 ? { options: { keyspace: keyspaces[0]! } } : {} }, { keyspace: null });
  if (!unknownCommand(response)) return checked(response).status!.stats as unknown as DatabaseStats;
  const names = keyspaces ?? ((checked(await channel.command({ findKeyspaces: {} }, { keyspace: null })).status?.keyspaces ?? []) as string[]);
  const collections: CollectionStats[] = [];
  for (const keyspace of names) {
    const listed = checked(await channel.command({ findCollections: { options: { explain: true } } }, { keyspace })).status?.collections as unknown as { name: string }[];
    for (const { name } of listed) collections.push((await collectionStats(channel, keyspace, name)) as CollectionStats);
  }
  // Tables: the Data API tells no row count, so none are reported.
  return { bytesOnDisk: Number.NaN, cachedBytes: Number.NaN, keyspaces: names, collections, tables: [] };
}

export async function collectionStats(channel: StatsChannel, keyspace: string, name: string): Promise<PartialCollectionStats> {
  const target = { keyspace, collection: name };
  const response = await channel.command({ getCollectionStats: {} }, target);
  if (!unknownCommand(response)) return checked(response).status!.stats as unknown as CollectionStats;
  const count = checked(await channel.command({ estimatedDocumentCount: {} }, target)).status?.count as number;
  return { keyspace, name, documents: count };
}

function unknownCommand(response: CommandResponse): boolean {
  return response.errors?.[0]?.errorCode === 'COMMAND_UNKNOWN' || response.errors?.[0]?.errorCode === 'NO_COMMAND_MATCHED';
}

function checked(response: CommandResponse): CommandResponse {
  if (response.errors && response.errors.length > 0) throw exceptionFor(response);
  return response;
}
