/**
 * The LevelDB directories of a home's databases: creating one, running keyspace DDL on one (through the
 * process-wide shared database, so a VectorDB open on it sees the change), and deleting one only when no
 * VectorDB, server or other process has it open. Knows directories, not the registry.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Database } from '../engine/database.js';
import { VectorDbError } from '../errors/index.js';
import { KvStore } from '../storage/index.js';
import { EmbeddedTransport } from '../transport/embedded.js';
import { DELETED_PREFIX } from './home-paths.js';

/** Creates the LevelDB of a new database, with its `default_keyspace`. */
export async function createDatabaseFiles(dir: string): Promise<void> {
  const db = await Database.open(dir);
  await db.close();
}

/** Runs fn on the open database in `dir` (shared with any VectorDB of this process); DATABASE_LOCKED if another process has it. */
export async function withDatabase<T>(dir: string, label: string, fn: (db: Database) => Promise<T>): Promise<T> {
  if (!existsSync(dir)) throw VectorDbError.of('DATABASE_NOT_FOUND', { database: label, where: ` (its directory '${dir}' is missing)` });
  const transport = new EmbeddedTransport(dir);
  try {
    return await fn(await transport.database());
  } finally {
    await transport.close();
  }
}

/**
 * Opens `dir` exclusively, proving nobody has it open (LevelDB refuses a second open of a directory in this
 * process as well as in another): DATABASE_IN_USE otherwise. Undefined when the directory does not exist.
 */
export async function holdExclusively(dir: string, label: string): Promise<KvStore | undefined> {
  if (!existsSync(dir)) return undefined;
  try {
    return await KvStore.open(dir);
  } catch (error) {
    if (!(error instanceof VectorDbError) || error.code !== 'DATABASE_LOCKED') throw error;
    const where = heldByThisProcess(error) ? 'in this process (a VectorDB or server still holds it)' : 'in another process';
    throw VectorDbError.of('DATABASE_IN_USE', { database: label, where }, { cause: error });
  }
}

/**
 * Moves a (just closed) database directory aside at once, so nothing opens it by path any more; returns where
 * it went, for removeMovedAside. A crash before the removal leaves only a `.deleted-*` directory behind.
 */
export async function moveAside(dir: string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined;
  const aside = path.join(path.dirname(dir), `${DELETED_PREFIX}${path.basename(dir)}-${randomBytes(4).toString('hex')}`);
  await rename(dir, aside);
  return aside;
}

export async function removeMovedAside(aside: string | undefined): Promise<void> {
  if (aside !== undefined) await rm(aside, { recursive: true, force: true });
}

/** LevelDB says "already held by process" when the holder is this process. */
function heldByThisProcess(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (/already held by process/i.test(current.message)) return true;
  }
  return false;
}
