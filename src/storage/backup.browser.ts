/**
 * Backup and restore, the browser's side (swapped in for backup.ts by the browser build): a backup copies
 * the live store, as of one snapshot, into a new IndexedDB database of the given name. Restore replaces a
 * database by renaming directories, which IndexedDB cannot do atomically, so it is Node's only.
 */
import { VectorDbError } from '../errors/index.js';
import { copyStore } from './kv-copy.js';
import { KvStore } from './kv-store.js';
import type * as NodeBackup from './backup.js';

export const checkEmptyTarget: typeof NodeBackup.checkEmptyTarget = async (target) => {
  const store = await KvStore.open(target);
  try {
    if (!(await store.isEmpty())) throw VectorDbError.of('STORAGE_TARGET_NOT_EMPTY', { location: target, reason: 'is an IndexedDB database that holds data' });
  } finally {
    await store.close();
  }
};

export const backupStore: typeof NodeBackup.backupStore = async (kv, target, onProgress) => {
  const copy = await KvStore.open(target);
  try {
    if (!(await copy.isEmpty())) throw VectorDbError.of('STORAGE_TARGET_NOT_EMPTY', { location: target, reason: 'is an IndexedDB database that holds data' });
    return await copyStore(kv, copy, onProgress);
  } finally {
    await copy.close();
  }
};

export const createStoreAtomically: typeof NodeBackup.createStoreAtomically = async (target) => {
  throw VectorDbError.of('STORAGE_IO_ERROR', { location: target, reason: 'a new database is written atomically into a directory, which a browser has not' });
};

export const restoreStore: typeof NodeBackup.restoreStore = async (source, target) => {
  const reason = `restore replaces a database in one step, which IndexedDB cannot do; open the backup '${source}' by its name instead of restoring it over '${target}'`;
  throw VectorDbError.of('STORAGE_IO_ERROR', { location: target, reason });
};
