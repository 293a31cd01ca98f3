/**
 * The persistent store of this runtime, Node's side: classic-level (LevelDB) in a directory. LevelDB's LOCK
 * file refuses a second process (LEVEL_LOCKED, mapped by level-errors.ts). A new database is created only in
 * an empty or absent directory (database-directory.ts decides); any other is opened, or refused, as it is. Has a browser twin
 * (persistent-level.browser.ts) that the browser build puts in its place; both export the same names.
 */
import { readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as ClassicLevelModule from 'classic-level';
import type { AbstractLevel } from 'abstract-level';
import { mayCreateDatabase } from './database-directory.js';
import { IdleFlush } from './idle-flush.js';
import { recordHolder } from './lock-holder.js';

export { describeHolder } from './lock-holder.js';
export { describeFiles, unopenable } from './database-directory.js';

/**
 * LevelDB's memtable size. Index entries make many small keys per document; a larger memtable than
 * LevelDB's 4 MB default means fewer level-0 compactions (measured then: 100k indexed inserts 5.6k -> 7.4k
 * docs/s at 32 MB). But its memory outlives it: the memtable is thousands of 4 KB blocks malloc'd by
 * whichever of libuv's threads ran each write, so once flushed, glibc keeps most of it as free memory in
 * those threads' arenas (only a free top of an arena goes back to the system). Measured on a loaded 20k x
 * 384 collection (bench/peers, RSS after a full GC): 32 MB -> 8 MB cut glibc's free memory from ~59 to
 * ~35 MB and RSS by ~20 MB, for ~5 % more CPU in a bulk load (20k x 384 insertMany: 4.9 -> 5.15 s).
 */
const WRITE_BUFFER_BYTES = 8 * 1024 * 1024;

/**
 * After this long without a write, a memtable holding at least IDLE_FLUSH_MIN_BYTES is written to a table
 * file, giving its memory back (it would otherwise stay resident until the next burst or close).
 */
const IDLE_FLUSH_MS = 1000;
const IDLE_FLUSH_MIN_BYTES = 4 * 1024 * 1024;

/** A key below every key the engine writes: compacting [SEP_KEY, SEP_KEY] touches no table. */
const SEP_KEY = '\u0000';

export interface PersistentLevel {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the stores differ only in their input formats
  readonly db: AbstractLevel<any, string, Uint8Array>;
  /** Called after each write with about how many bytes it added (LevelDB: counts toward an idle flush). */
  wrote(bytes: number): void;
  /** Called before closing (LevelDB: flush the memtable so the next open replays no log). */
  beforeClose(): Promise<void>;
  /** Called after closing (releases a lock held outside the store, if any). */
  afterClose(): Promise<void>;
  /** The bytes the store takes on disk (0 where the runtime cannot tell). */
  diskBytes(): Promise<number>;
  /**
   * Writes buffered writes out to the store's files now (LevelDB: the memtable to a table file, which its size
   * estimates count; they leave the memtable out), so that a size measured next includes them.
   */
  flushWrites(): Promise<void>;
  /**
   * Whether a write's `sync` flushes it to a disk (LevelDB's log): then full durability syncs. IndexedDB commits
   * each transaction durably on its own, and has no sync to ask for.
   */
  readonly syncs: boolean;
}

/**
 * Opens the LevelDB at `location`, creating it only where there is none; rejects with DATABASE_LOCKED when
 * another process holds it, DATABASE_CORRUPTED when it cannot be opened as it is (every file left as it was).
 */
export async function openPersistentLevel(location: string): Promise<PersistentLevel> {
  const createIfMissing = await mayCreateDatabase(location);
  // Loaded at the first open, not at import (classic-level and abstract-level: ~17 ms, 30 files); with
  // require(), as it is CommonJS: import() would also scan its entry for export names (~3 ms more).
  const { ClassicLevel } = createRequire(import.meta.url)('classic-level') as typeof ClassicLevelModule;
  const db = new ClassicLevel<string, Uint8Array>(location, { keyEncoding: 'utf8', valueEncoding: 'view', writeBufferSize: WRITE_BUFFER_BYTES });
  await db.open({ createIfMissing }); // its failures are mapped by KvStore.open (level-errors.ts)
  recordHolder(location);
  // A compaction of an empty range only writes the memtable to disk (on the thread pool; writes go on
  // into a fresh memtable meanwhile). If that fails, the log is still there: the next open replays it.
  const flushMemtable = async (): Promise<void> => {
    if (db.status === 'open') await db.compactRange(SEP_KEY, SEP_KEY).catch(() => undefined);
  };
  const idle = new IdleFlush({ flush: flushMemtable, idleMs: IDLE_FLUSH_MS, minBytes: IDLE_FLUSH_MIN_BYTES, bufferBytes: WRITE_BUFFER_BYTES });
  return {
    db,
    wrote: (bytes) => idle.wrote(bytes),
    beforeClose: async () => {
      await idle.close();
      await flushMemtable();
    },
    afterClose: async () => undefined,
    diskBytes: () => directoryBytes(location),
    flushWrites: flushMemtable,
    syncs: true,
  };
}

/** The bytes of every file of a LevelDB directory. */
async function directoryBytes(location: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(location, { withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(path.join(location, entry.name))).size;
  }
  return bytes;
}
