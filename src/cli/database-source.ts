/**
 * Where a data command reads or writes: a data directory (`--data`), a database of a home (`--home` with
 * `--database`), or a Data API endpoint (`--endpoint` with `--token`), each opened as a VectorDB through
 * client/, so every tool works the same embedded or over HTTP. Also the options' definitions and help text.
 */
import { Command, Option } from 'commander';
import { isUuid } from '../admin/index.js';
import { VectorDB } from '../client/vector-db.js';
import { VectorDBAdmin } from '../client/vector-db-admin.js';
import { DEFAULT_KEYSPACE } from '../engine/database.js';

export interface SourceFlags {
  data?: string;
  endpoint?: string;
  home?: string;
  database?: string;
  token?: string;
  keyspace: string;
}

/** Adds --data / --endpoint / --home --database / --token / --keyspace to a command. */
export function withDatabaseOptions(command: Command, role = 'database'): Command {
  return command
    .addOption(new Option('-d, --data <dir>', `the ${role}: a data directory`).conflicts(['endpoint', 'home']))
    .addOption(new Option('-e, --endpoint <url>', `the ${role}: a Data API endpoint (vectordb-local serve, or any Data API server); needs --token`).conflicts(['home']))
    .addOption(new Option('--home <dir>', `the ${role}: a database of this home (with --database)`).env('VECTORDB_HOME'))
    .addOption(new Option('--database <id|name>', 'the database of the home (an id, or a name with an Organization Administrator token)'))
    .addOption(new Option('-t, --token <token>', 'the token (an endpoint or home needs one; a data directory takes any)').env('VECTORDB_TOKEN'))
    .addOption(new Option('-k, --keyspace <name>', 'the keyspace').default(DEFAULT_KEYSPACE));
}

/** A readable description of where the flags point. */
export function describeSource(flags: SourceFlags): string {
  if (flags.endpoint !== undefined) return flags.endpoint;
  if (flags.database !== undefined) return `database ${flags.database} of home ${flags.home ?? '~/.vectordb-local'}`;
  return flags.data ?? './data';
}

/** Opens the database the flags name (default: ./data). Throws an Error with a message for the user. */
export async function openDatabase(flags: SourceFlags): Promise<VectorDB> {
  if (flags.endpoint !== undefined) {
    if (!flags.token) throw new Error('--endpoint needs --token (or VECTORDB_TOKEN)');
    return new VectorDB(flags.token, flags.endpoint, flags.keyspace);
  }
  if (flags.database !== undefined) {
    if (!flags.token) throw new Error('--database needs --token (or VECTORDB_TOKEN)');
    const home = flags.home !== undefined ? { home: flags.home } : {};
    if (isUuid(flags.database)) return VectorDB.fromDatabaseId(flags.token, flags.database, { ...home, keyspace: flags.keyspace });
    return new VectorDBAdmin(flags.token, home).database(flags.database, flags.keyspace);
  }
  if (flags.home !== undefined && flags.data === undefined) throw new Error('--home needs --database <id|name>');
  return new VectorDB(flags.token || 'local', flags.data ?? './data', flags.keyspace).connect();
}

/** Creates the keyspace when missing (a data command's target). */
export async function ensureKeyspace(db: VectorDB, keyspace: string): Promise<void> {
  if (!(await db.isKeyspaceExists(keyspace))) await db.run({ createKeyspace: { name: keyspace } }, { keyspace: null });
}

/** The message of an error for a one-line report. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
