/**
 * DatabaseChannel: what a collection and a CassIO table need of their database, running commands on a
 * target (VectorDB satisfies it), so that they do not depend on VectorDB itself.
 */
import type { CommandResponse } from '../commands/response.js';
import type { JsonObject } from '../query/json.js';
import type { CommandTargetOptions } from './vector-db-options.js';

export interface DatabaseChannel {
  /** The response envelope, errors included (VectorDB.command). */
  command(command: JsonObject, target: CommandTargetOptions): Promise<CommandResponse>;
  /** The response, or the typed exception of its errors thrown (VectorDB.run). */
  run(command: JsonObject, target: CommandTargetOptions): Promise<CommandResponse>;
  /** Documents per insertMany request the database accepts. */
  insertManyLimit(): Promise<number>;
}
