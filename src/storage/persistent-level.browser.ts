/**
 * The persistent store of this runtime, the browser's side (swapped in for persistent-level.ts by the
 * browser build): browser-level over the IndexedDB database named `location`. IndexedDB lets every tab
 * write, so a Web Lock of the same name makes a second tab (or worker) fail with LEVEL_LOCKED, like a
 * second process on a LevelDB directory; the lock is held until the store closes.
 */
import { BrowserLevel } from 'browser-level';
import { VectorDbError } from '../errors/index.js';
import type * as NodeLevel from './persistent-level.js';

export type { PersistentLevel } from './persistent-level.js';

/** Web Locks do not say which tab holds a lock, so the DATABASE_LOCKED message names none. */
export const describeHolder: typeof NodeLevel.describeHolder = () => '';

/** An IndexedDB database has no files to name. */
export const describeFiles: typeof NodeLevel.describeFiles = () => '';

/** An IndexedDB database that cannot be opened: no files to name, no repair command (that is for a directory). */
export const unopenable: typeof NodeLevel.unopenable = (location, reason, options) =>
  VectorDbError.of('DATABASE_CORRUPTED', { location, reason: `it cannot be opened: ${reason}` }, options);

/** The part of the Web Locks API used here (the project's lib has no DOM types). */
interface LockManager {
  request(name: string, options: { ifAvailable: boolean }, callback: (lock: object | null) => Promise<void>): Promise<void>;
}

/** The Web Lock name that guards the IndexedDB database `location`. */
const lockName = (location: string): string => `vectordb-local:${location}`;

/**
 * IndexedDB stores a typed array by structured clone, which takes the whole buffer behind the view: a value
 * that is part of a larger buffer (a snapshot chunk cut from a graph segment's bytes) is copied to a buffer
 * of its own first, or every such chunk would store the whole segment.
 */
const ownBuffers = {
  name: 'view-own-buffer',
  format: 'view' as const,
  encode: (value: Uint8Array): Uint8Array => (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice()),
  decode: (value: Uint8Array): Uint8Array => value,
};

export const openPersistentLevel: typeof NodeLevel.openPersistentLevel = async (location) => {
  const release = await acquireLock(location);
  try {
    // No name prefix: the IndexedDB database is called exactly what the user passed.
    const db = new BrowserLevel<string, Uint8Array>(location, { prefix: '', keyEncoding: 'utf8', valueEncoding: ownBuffers });
    await db.open({ createIfMissing: true });
    // IndexedDB does not tell one database's size (navigator.storage.estimate() is the whole origin's).
    return { db, wrote: () => undefined, beforeClose: async () => undefined, afterClose: async () => release(), diskBytes: async () => 0, flushWrites: async () => undefined, syncs: false };
  } catch (error) {
    release();
    throw error;
  }
};

/** Takes the database's Web Lock, or rejects with LEVEL_LOCKED when another tab or worker holds it. */
async function acquireLock(location: string): Promise<() => void> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks === undefined) {
    // Without Web Locks (an old engine, or an insecure context) nothing can tell tabs apart.
    const reason = 'this page has no Web Locks (navigator.locks), so two tabs could write at once; serve the page over https or from localhost';
    throw VectorDbError.of('STORAGE_IO_ERROR', { location, reason });
  }
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const granted = await new Promise<boolean>((resolve, reject) => {
    locks
      .request(lockName(location), { ifAvailable: true }, async (lock) => {
        resolve(lock !== null);
        if (lock !== null) await held;
      })
      .catch(reject);
  });
  if (!granted) throw Object.assign(new Error(`the IndexedDB database '${location}' is open in another tab or worker`), { code: 'LEVEL_LOCKED' });
  return release;
}
