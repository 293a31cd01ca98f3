/**
 * The command pipeline, in one place:
 *   1. shape: the body is one JSON object with exactly one key, the command name;
 *   2. resolve: the name is a command of the target's level (database, keyspace or collection);
 *   3. execute: the handler validates its fields and runs on the engine;
 *   4. respond: the result becomes the {status, data, errors} envelope.
 * One catch turns any failure into an error envelope; nothing else builds error envelopes.
 */
import { VectorDbError, isVectorDbError } from '../errors/index.js';
import type { Database } from '../engine/database.js';
import { isObject } from '../query/json.js';
import { CommandContext, type CommandLevel, type CommandTarget } from './context.js';
import { commandsOfLevel, lookupCommand } from './registry.js';
import { errorResponse, shapeResponse, type CommandResponse } from './response.js';

const LEVEL_NAMES: Record<CommandLevel, string> = { database: 'General', keyspace: 'Keyspace', collection: 'Collection' };

export function levelOf(target: CommandTarget): CommandLevel {
  if (target.collection !== undefined) return 'collection';
  if (target.keyspace !== undefined) return 'keyspace';
  return 'database';
}

/** Runs one Data API command against a database; never throws for a command error. */
export async function executeCommand(db: Database, command: unknown, target: CommandTarget = {}): Promise<CommandResponse> {
  try {
    const [name, body] = splitCommand(command);
    const level = levelOf(target);
    const spec = lookupCommand(name);
    if (!spec || spec.level !== level) {
      throw VectorDbError.of('COMMAND_UNKNOWN', { command: name, level: LEVEL_NAMES[level], known: commandsOfLevel(level).join(', ') });
    }
    const result = await spec.run(body, new CommandContext(db, target));
    return shapeResponse(result);
  } catch (error) {
    return errorResponse(toVectorDbError(error));
  }
}

function splitCommand(command: unknown): [string, unknown] {
  if (command === null || command === undefined) {
    throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: 'command', value: '`null`', reason: 'must not be null' });
  }
  if (!isObject(command)) {
    throw VectorDbError.of('REQUEST_STRUCTURE_MISMATCH', { reason: 'a command must be a JSON Object with one key, the command name' });
  }
  const depth = nestingDepth(command, MAX_COMMAND_DEPTH);
  if (depth > MAX_COMMAND_DEPTH) {
    throw VectorDbError.of('REQUEST_STRUCTURE_MISMATCH', {
      reason: `the command nests JSON more than ${MAX_COMMAND_DEPTH} levels deep (documents may nest at most 16 levels)`,
    });
  }
  const names = Object.keys(command);
  if (names.length !== 1) {
    throw VectorDbError.of('REQUEST_STRUCTURE_MISMATCH', {
      reason: `a command must be a JSON Object with exactly one key, the command name; got ${names.length} keys (${names.join(', ')})`,
    });
  }
  return [names[0]!, command[names[0]!]];
}

/** Deeper commands are refused before any recursive code (parsers, mingo, the shredder) sees them. */
const MAX_COMMAND_DEPTH = 128;

/** The nesting depth of a JSON value, counted without recursion; stops counting past `max`. */
function nestingDepth(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > max) return deepest;
    const children = Array.isArray(node) ? (node as unknown[]) : Object.values(node);
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Any failure as a VectorDbError; unexpected ones (bugs) become UNEXPECTED_SERVER_ERROR. */
export function toVectorDbError(error: unknown): VectorDbError {
  if (isVectorDbError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason }, { cause: error });
}
