export { executeCommand, levelOf, toVectorDbError } from './process.js';
export { COMMANDS, commandsOfLevel, lookupCommand } from './registry.js';
export { errorEnvelope, httpStatusOfResponse, type CommandResponse, type ResponseData } from './response.js';
export type { CommandLevel, CommandTarget, RequestOptions } from './context.js';
