/**
 * DatabaseChannel: what a collection and a CassIO table need of their database, running commands on a
 * target (VectorDB satisfies it), so that they do not depend on VectorDB itself; and a collection's channel on it.
 */
import type { CommandResponse } from '../commands/response.js';
import type { JsonObject } from '../query/json.js';
import type { CollectionChannel } from './inserts.js';
import type { ProviderKeys } from './provider-keys.js';
import type { CommandTargetOptions } from './vector-db-options.js';

export interface DatabaseChannel {
  /** The response envelope, errors included (VectorDB.command). */
  command(command: JsonObject, target: CommandTargetOptions): Promise<CommandResponse>;
  /** The response, or the typed exception of its errors thrown (VectorDB.run). */
  run(command: JsonObject, target: CommandTargetOptions): Promise<CommandResponse>;
  /** Documents per insertMany request the database accepts. */
  insertManyLimit(): Promise<number>;
}

/** The channel of collection `name` of `keyspace`: commands run on it through `db` (with the collection's provider keys, if any). */
export function collectionChannel(db: DatabaseChannel, keyspace: string, name: string, keys: ProviderKeys = {}): CollectionChannel {
  const target: CommandTargetOptions = { keyspace, collection: name, ...keys };
  return {
    run: (command) => db.run(command, target),
    send: (command) => db.command(command, target),
    insertManyLimit: () => db.insertManyLimit(),
  };
}
