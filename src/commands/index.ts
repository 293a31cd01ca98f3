/**
 * The command layer's surface for the layers above it (transport, http, graphql): running a Data API command
 * on a database, the command registry, and the response envelope.
 */
export { executeCommand, levelOf, toVectorDbError } from './process.js';
export { COMMANDS, commandsOfLevel, lookupCommand } from './registry.js';
export { errorEnvelope, httpStatusOfResponse, type CommandResponse, type ResponseData } from './response.js';
export type { CommandLevel, CommandTarget, RequestOptions } from './context.js';
