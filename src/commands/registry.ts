/**
 * The single table of commands: name -> level and handler. A name not in this table is not a command.
 * Commands on a table target have their own table (TABLE_COMMANDS): the target decides which applies.
 */
import type { CommandLevel, CommandSpec } from './context.js';
import { DATABASE_COMMANDS } from './database-commands.js';
import { INDEX_COMMANDS } from './index-commands.js';
import { INSERT_COMMANDS } from './insert-commands.js';
import { KEYSPACE_COMMANDS } from './keyspace-commands.js';
import { READ_COMMANDS } from './read-commands.js';
import { RERANK_COMMANDS, RERANK_DATABASE_COMMANDS } from './rerank-commands.js';
import { STATS_COMMANDS, TABLE_STATS_COMMANDS } from './stats-commands.js';
import { WRITE_COMMANDS } from './write-commands.js';
import { TABLE_SCHEMA_COMMANDS, TABLE_KEYSPACE_COMMANDS } from './table-schema-commands.js';
import { TYPE_COMMANDS } from './type-commands.js';
import { TABLE_ROW_COMMANDS } from './table-row-commands.js';
import { TABLE_READ_COMMANDS } from './table-read-commands.js';

export const COMMANDS: Readonly<Record<string, CommandSpec>> = Object.freeze({
  ...DATABASE_COMMANDS,
  ...KEYSPACE_COMMANDS,
  ...INSERT_COMMANDS,
  ...READ_COMMANDS,
  ...RERANK_COMMANDS,
  ...WRITE_COMMANDS,
  ...STATS_COMMANDS,
  ...TABLE_KEYSPACE_COMMANDS,
  ...TYPE_COMMANDS,
  ...INDEX_COMMANDS,
  ...RERANK_DATABASE_COMMANDS,
});

/** Commands whose target is a table (POST /v1/{keyspace}/{table}). */
export const TABLE_COMMANDS: Readonly<Record<string, CommandSpec>> = Object.freeze({
  ...TABLE_SCHEMA_COMMANDS,
  ...TABLE_ROW_COMMANDS,
  ...TABLE_READ_COMMANDS,
  ...TABLE_STATS_COMMANDS,
});

export function lookupTableCommand(name: string): CommandSpec | undefined {
  return Object.prototype.hasOwnProperty.call(TABLE_COMMANDS, name) ? TABLE_COMMANDS[name] : undefined;
}

export function tableCommandNames(): string[] {
  return Object.keys(TABLE_COMMANDS);
}

export function commandsOfLevel(level: CommandLevel): string[] {
  return Object.entries(COMMANDS)
    .filter(([, spec]) => spec.level === level)
    .map(([name]) => name);
}

export function lookupCommand(name: string): CommandSpec | undefined {
  return Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
}
