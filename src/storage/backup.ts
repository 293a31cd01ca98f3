/**
 * Backup and restore of a whole database directory, Node's side (backup.browser.ts is the browser's): a
 * backup is a key-for-key copy from one snapshot of the live store (kv-copy.ts), written into a partial
 * sibling and renamed into place when complete (backup-marker.ts: atomic, an interrupted one is refused); a
 * restore copies a backup into a fresh directory and swaps it in, refusing a target whose LevelDB lock is
 * held (a database in use) and a source that is an interrupted backup.
 */
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ClassicLevel } from 'classic-level';
import { VectorDbError } from '../errors/index.js';
import { refuseIncompleteBackup, writeBackupAtomically } from './backup-marker.js';
import { copyStore } from './kv-copy.js';
import { KvStore } from './kv-store.js';
import { mapLevelError } from './level-errors.js';
import { copySideFiles } from './side-files.js';

/** A directory a copy may be written to: absent, or empty. */
export async function checkEmptyTarget(target: string): Promise<void> {
  if (!existsSync(target)) return;
  const entries = await readdir(target).catch(() => undefined);
  if (entries === undefined) throw VectorDbError.of('STORAGE_TARGET_NOT_EMPTY', { location: target, reason: 'exists and is not a directory' });
  if (entries.length > 0) throw VectorDbError.of('STORAGE_TARGET_NOT_EMPTY', { location: target, reason: `is not empty (${entries.length} entries)` });
}

/**
 * Writes a new database into `target` (absent or empty) as a backup is written (backup-marker.ts): `fill(partial,
 * begin)` fills a store it opens in the partial sibling, calling `begin()` once it is open; a logical copy of
 * another database (a Data API endpoint's) is written so.
 */
export async function createStoreAtomically(target: string, source: string, fill: (partial: string, begin: () => Promise<void>) => Promise<number>): Promise<number> {
  await checkEmptyTarget(target);
  return writeBackupAtomically(target, source, fill);
}

/**
 * Copies the live store into `target` (absent or empty) as of one snapshot: into its partial sibling first,
 * renamed into place once complete (backup-marker.ts).
 */
export async function backupStore(kv: KvStore, target: string, onProgress?: (copiedKeys: number) => void): Promise<number> {
  await checkEmptyTarget(target);
  return writeBackupAtomically(target, kv.location, (partial, begin) => copyInto(kv, partial, onProgress, begin));
}

/**
 * Copies `from` into a new store at `target`, closed (and so flushed to table files) when done; `begin` runs
 * once the new store is open, before anything is copied.
 */
async function copyInto(from: KvStore, target: string, onProgress?: (copiedKeys: number) => void, begin?: () => Promise<void>): Promise<number> {
  const copy = await KvStore.open(target);
  let copied: number;
  try {
    await begin?.();
    copied = await copyStore(from, copy, onProgress);
  } finally {
    await copy.close();
  }
  // Files beside the keys (graph snapshots) after them: those the copied keys name were written before.
  if (from.storage === 'persistent') await copySideFiles(from.location, target);
  return copied;
}

/**
 * Makes `target` a copy of the database in `source` (a backup, or any database directory not in use).
 * `target` may be absent, empty, or a database not in use (it is replaced); DATABASE_LOCKED when it is
 * in use, STORAGE_TARGET_NOT_EMPTY when it holds something that is not a database.
 */
export async function restoreStore(source: string, target: string, onProgress?: (copiedKeys: number) => void): Promise<number> {
  refuseIncompleteBackup(source);
  if (!existsSync(path.join(source, 'CURRENT'))) throw VectorDbError.of('STORAGE_IO_ERROR', { location: source, reason: 'not a database directory (no CURRENT file)' });
  const replacing = existsSync(target) && (await readdir(target).catch(() => [])).length > 0;
  if (replacing && !existsSync(path.join(target, 'CURRENT'))) {
    throw VectorDbError.of('STORAGE_TARGET_NOT_EMPTY', { location: target, reason: 'holds files but no database, so restore will not replace it' });
  }
  // Held from before the copy until the swap: no one opens the old database meanwhile.
  const lock = replacing ? await lockDatabase(target) : undefined;
  const staging = `${target}.restoring-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    const from = await KvStore.open(source);
    let copied: number;
    try {
      copied = await copyInto(from, staging, onProgress);
    } finally {
      await from.close();
    }
    if (lock) {
      const old = `${target}.replaced-${process.pid}`;
      await rename(target, old);
      await rename(staging, target);
      await lock.close();
      await rm(old, { recursive: true, force: true });
    } else {
      await rm(target, { recursive: true, force: true });
      await rename(staging, target);
    }
    return copied;
  } catch (error) {
    await lock?.close().catch(() => undefined);
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

async function lockDatabase(location: string): Promise<ClassicLevel<string, Uint8Array>> {
  const { ClassicLevel } = await import('classic-level');
  const db = new ClassicLevel<string, Uint8Array>(location, { keyEncoding: 'utf8', valueEncoding: 'view' });
  try {
    await db.open({ createIfMissing: false });
  } catch (error) {
    throw mapLevelError(error, location, 'open');
  }
  return db;
}
