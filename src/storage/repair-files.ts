/**
 * The files repair (engine/integrity/repair.ts) works on, Node's side: the copy of the damaged directory set
 * aside first, LevelDB's own repair (ClassicLevel.repair: a fresh MANIFEST from the table and log files
 * found), and the lost+found file of the records that could not be kept. Has a browser twin
 * (repair-files.browser.ts), since an IndexedDB database has no files to repair.
 */
import { cp, open, readdir, type FileHandle } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as ClassicLevelModule from 'classic-level';
import { VectorDbError } from '../errors/index.js';
import { describeHolder, liveHolderPid } from './lock-holder.js';
import { mapLevelError } from './level-errors.js';

/** The sibling path `<dir><suffix>` of a database directory (its copy aside, its lost+found). */
export function besideDirectory(location: string, suffix: string): string {
  return path.resolve(location) + suffix;
}

/**
 * Refuses a directory that is absent, holds no database file, or is held by another live process (LevelDB's
 * repair takes no lock: it would rewrite files under a running database).
 */
export async function checkRepairable(location: string): Promise<void> {
  const entries = await readdir(location).catch(() => undefined);
  if (entries === undefined || !entries.some((name) => /^(CURRENT|MANIFEST-\d+|\d+\.(ldb|sst|log))$/.test(name))) {
    throw VectorDbError.of('DATABASE_CORRUPTED', { location, reason: 'there is no LevelDB database to repair in this directory (no CURRENT, MANIFEST, table or log file)' });
  }
  // This process's own HOLDER outlives its close: a database still open here is the caller's to close.
  const holder = liveHolderPid(location);
  if (holder !== undefined && holder !== process.pid) throw VectorDbError.of('DATABASE_LOCKED', { location, holder: describeHolder(location) });
}

/** Copies the whole directory (LevelDB's files and side files) to `target`, which must not exist. */
export async function copyDirectoryAside(location: string, target: string): Promise<void> {
  await cp(location, target, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
}

/** LevelDB's repair of the directory: rewrites CURRENT and MANIFEST from the table and log files it can read. */
export async function repairLevel(location: string): Promise<void> {
  const { ClassicLevel } = createRequire(import.meta.url)('classic-level') as typeof ClassicLevelModule;
  try {
    await ClassicLevel.repair(location);
  } catch (error) {
    throw mapLevelError(error, location, 'open');
  }
}

/** The NDJSON file of records repair could not keep: created at the first record, fsynced when closed. */
export class LostAndFound {
  readonly path: string;
  #file: FileHandle | undefined;
  #count = 0;

  constructor(file: string) {
    this.path = file;
  }

  /** Records moved here so far. */
  get count(): number {
    return this.#count;
  }

  /** Appends one record: its key, why it was not kept, and its value as stored (base64). */
  async add(key: string, why: string, value: Uint8Array): Promise<void> {
    this.#file ??= await open(this.path, 'wx');
    const line = JSON.stringify({ key, why, value: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') });
    await this.#file.write(`${line}\n`);
    this.#count++;
  }

  async close(): Promise<void> {
    if (this.#file === undefined) return;
    await this.#file.sync();
    await this.#file.close();
    this.#file = undefined;
  }
}
