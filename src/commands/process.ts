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
import { CommandContext, type CommandLevel, type CommandSpec, type CommandTarget, type RequestOptions } from './context.js';
import { commandsOfLevel, lookupCommand, lookupTableCommand, tableCommandNames } from './registry.js';
import { errorResponse, shapeResponse, type CommandResponse } from './response.js';

const LEVEL_NAMES: Record<CommandLevel, string> = { database: 'General', keyspace: 'Keyspace', collection: 'Collection' };

export function levelOf(target: CommandTarget): CommandLevel {
  if (target.collection !== undefined) return 'collection';
  if (target.keyspace !== undefined) return 'keyspace';
  return 'database';
}

/** Runs one Data API command against a database; never throws for a command error. */
export async function executeCommand(db: Database, command: unknown, target: CommandTarget = {}, request?: RequestOptions): Promise<CommandResponse> {
  try {
    const [name, body] = splitCommand(command);
    const level = levelOf(target);
    const tableSpec = level === 'collection' ? tableCommandSpec(db, name, target) : undefined;
    if (tableSpec) return shapeResponse(await tableSpec.run(body, new CommandContext(db, target, request)));
    const spec = lookupCommand(name);
    if (!spec || spec.level !== level) {
      throw VectorDbError.of('COMMAND_UNKNOWN', { command: name, level: LEVEL_NAMES[level], known: commandsOfLevel(level).join(', ') });
    }
    const result = await spec.run(body, new CommandContext(db, target, request));
    return shapeResponse(result);
  } catch (error) {
    return errorResponse(toVectorDbError(error));
  }
}

/**
 * The table command to run when the target is a table; UNSUPPORTED_TABLE_COMMAND for a collection command
 * sent to a table, UNSUPPORTED_COLLECTION_COMMAND for a table command sent to a collection.
 */
function tableCommandSpec(db: Database, name: string, target: CommandTarget): CommandSpec | undefined {
  const tableSpec = lookupTableCommand(name);
  const collectionSpec = lookupCommand(name);
  if (!tableSpec && collectionSpec?.level !== 'collection') return undefined;
  const table = db.findTable(target.keyspace!, target.collection!);
  if (table) {
    if (tableSpec) return tableSpec;
    throw VectorDbError.of('UNSUPPORTED_TABLE_COMMAND', { command: name, table: table.record.name, known: tableCommandNames().join(', ') });
  }
  if (!collectionSpec || collectionSpec.level !== 'collection') {
    db.collection(target.keyspace!, target.collection!); // UNKNOWN_COLLECTION_OR_TABLE when it is neither
    throw VectorDbError.of('UNSUPPORTED_COLLECTION_COMMAND', { command: name, collection: target.collection! });
  }
  return undefined;
}

function splitCommand(command: unknown): [string, unknown] {
  if (command === null || command === undefined) {
    throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', { field: 'command', value: '`null`', reason: 'must not be null' });
  }
  if (!isObject(command)) {
    throw VectorDbError.of('REQUEST_STRUCTURE_MISMATCH', { reason: 'a command must be a JSON Object with one key, the command name' });
  }
  if (nestsDeeperThan(command, MAX_COMMAND_DEPTH)) {
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

/**
 * Whether a container nests more than `max` levels (itself being the first). Recursion ends at
 * `max` + 1 levels, so no input can overflow the stack; it runs on every command, over every element
 * of a query vector, so the loops only test for containers.
 */
function nestsDeeperThan(container: object, max: number): boolean {
  if (max <= 0) return true;
  if (Array.isArray(container)) {
    const items = container as unknown[];
    return items.length > LONG_ARRAY ? longArrayNests(items, max) : arrayNests(items, max);
  }
  // A key loop, not Object.values: no array per object of every command.
  const record = container as Record<string, unknown>;
  for (const key in record) {
    const member = record[key];
    if (typeof member === 'object' && member !== null && Object.hasOwn(record, key) && nestsDeeperThan(member, max - 1)) return true;
  }
  return false;
}

/**
 * Arrays longer than this (more than insertMany's largest batch of documents) are scanned by a loop of
 * their own: nearly all are vectors, arrays of numbers. A loop that also sees arrays of objects reads
 * elements through code that first converts an array of doubles to one of boxed numbers (V8's elements
 * kind transition: a heap number per element, ~4 us a 384-dimension query vector in a perf profile).
 */
const LONG_ARRAY = 100;

function arrayNests(items: readonly unknown[], max: number): boolean {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'object' && item !== null && nestsDeeperThan(item, max - 1)) return true;
  }
  return false;
}

/** arrayNests, for long arrays (the same loop; see LONG_ARRAY for why it is another function). */
function longArrayNests(items: readonly unknown[], max: number): boolean {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'object' && item !== null && nestsDeeperThan(item, max - 1)) return true;
  }
  return false;
}

/** Any failure as a VectorDbError; unexpected ones (bugs) become UNEXPECTED_SERVER_ERROR. */
export function toVectorDbError(error: unknown): VectorDbError {
  if (isVectorDbError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason }, { cause: error });
}
