/**
 * CommandRunner: how the GraphQL layer runs a Data API command (in process: executeCommand; in a client: its
 * transport). Taken by GraphqlService (service.ts) and the keyspaces-and-collections schema (ddl-schema.ts).
 */
import type { CommandResponse, CommandTarget } from '../commands/index.js';
import type { JsonObject } from '../query/json.js';

export type CommandRunner = (command: JsonObject, target: CommandTarget) => Promise<CommandResponse>;
