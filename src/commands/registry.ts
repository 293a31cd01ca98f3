/**
 * The single table of commands: name -> level and handler. A name not in this table is not a command.
 */
import type { CommandLevel, CommandSpec } from './context.js';
import { DATABASE_COMMANDS } from './database-commands.js';
import { INDEX_COMMANDS } from './index-commands.js';
import { INSERT_COMMANDS } from './insert-commands.js';
import { KEYSPACE_COMMANDS } from './keyspace-commands.js';
import { READ_COMMANDS } from './read-commands.js';
import { WRITE_COMMANDS } from './write-commands.js';

export const COMMANDS: Readonly<Record<string, CommandSpec>> = Object.freeze({
  ...DATABASE_COMMANDS,
  ...KEYSPACE_COMMANDS,
  ...INSERT_COMMANDS,
  ...READ_COMMANDS,
  ...WRITE_COMMANDS,
  ...INDEX_COMMANDS,
});

export function commandsOfLevel(level: CommandLevel): string[] {
  return Object.entries(COMMANDS)
    .filter(([, spec]) => spec.level === level)
    .map(([name]) => name);
}

export function lookupCommand(name: string): CommandSpec | undefined {
  return Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
}
