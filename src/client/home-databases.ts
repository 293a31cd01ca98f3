/**
 * The databases of a home, opened: `connectDatabaseById` (VectorDB.fromDatabaseId: the token checked against the
 * home, then the database connected and its keyspace checked) and `openDatabase` (that connection and check,
 * shared with VectorDBAdmin.database), with the administration layer loaded on use and its failures turned
 * into typed exceptions. Works on any database that can be opened so (VectorDB is one), made by the caller.
 */
import { resolveHome } from '../admin/home-paths.js';
import { DEFAULT_KEYSPACE } from '../engine/database.js';
import { VectorDbError } from '../errors/index.js';
import { clientException, exceptionFor, typedErrors } from './errors.js';
import type { DatabaseByIdOptions, VectorDBOptions } from './vector-db-options.js';

/**
 * The administration layer (registry, tokens, scrypt: node:crypto), loaded at the first administration call,
 * not at import: an app that only opens a database never needs it (~4 ms of a cold import).
 */
export const adminLayer = (): Promise<typeof import('../admin/index.js')> => import('../admin/index.js');

/** What opening a database needs of it (VectorDB satisfies it). */
export interface OpeningDatabase {
  connect(): Promise<unknown>;
  close(): Promise<void>;
  isKeyspaceExists(keyspace: string): Promise<boolean>;
  findAllKeyspaceNames(): Promise<string[]>;
}

/**
 * Opens a database of a home by its UUID, as `new VectorDB(token, databaseId[, region][, keyspace])` does in the
 * seed: checks the token against the home, then connects and checks the keyspace.
 */
export async function connectDatabaseById<D extends OpeningDatabase>(
  token: string,
  databaseId: string,
  options: DatabaseByIdOptions,
  create: (endpoint: string, keyspace: string, options: VectorDBOptions) => D,
): Promise<D> {
  const { keyspace = DEFAULT_KEYSPACE, region, home, ...vectorDbOptions } = options;
  return typed(async () => {
    const { checkDatabaseToken, databaseDirectory, findDatabase, readRegistry } = await adminLayer();
    const dir = resolveHome(home);
    await checkDatabaseToken(dir, databaseId, token);
    const record = findDatabase(await readRegistry(dir), databaseId);
    if (record === undefined || (region !== undefined && record.region !== region)) {
      const actually = record === undefined ? '' : ` (it is in region '${record.region}')`;
      throw VectorDbError.of('DATABASE_NOT_FOUND', { database: databaseId, where: ` in region '${region ?? ''}' of home '${dir}'${actually}` });
    }
    const endpoint = databaseDirectory(dir, record.id);
    return openDatabase(create(endpoint, keyspace, vectorDbOptions), keyspace);
  });
}

/** Connects `db` and checks that its keyspace exists; closes it and throws otherwise. */
export async function openDatabase<D extends OpeningDatabase>(db: D, keyspace: string): Promise<D> {
  try {
    await db.connect();
    if (!(await db.isKeyspaceExists(keyspace))) {
      const known = await db.findAllKeyspaceNames();
      throw clientException('UNKNOWN_KEYSPACE', 'SCHEMA', 'Unknown keyspace', `Keyspace '${keyspace}' does not exist in the database. Existing keyspaces: [${known.join(', ')}].`);
    }
    return db;
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

/** Runs fn, turning a VectorDbError or a server's error response into the typed exception of its code. */
export async function typed<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await typedErrors(fn);
  } catch (error) {
    // Only the admin layer throws a RemoteAdminError: it is loaded if one was thrown.
    if (error instanceof Error && error.name === 'RemoteAdminError' && error instanceof (await adminLayer()).RemoteAdminError) throw exceptionFor(error.response);
    throw error;
  }
}
