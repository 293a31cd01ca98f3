/**
 * Issue 31: insertMany's existence check reads nothing from LevelDB for ids its collection's key-presence
 * filter rules out (storage/key-presence.ts), and the filter never rules out a stored id: every kind of write
 * (inserts, upserts of each command: replaceOne is findOneAndReplace's, unordered insertMany) is noted in it, in the same process, while its scan
 * runs and before it starts (after a reopen); a failed scan leaves it unused. Real LevelDB; the reads are
 * counted at classic-level itself.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as ClassicLevelModule from 'classic-level';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { keys, KvStore } from '../../src/storage/index.js';
import type { KeyPresence } from '../../src/storage/key-presence.js';
import { tempDir } from '../support/temp.js';

const { ClassicLevel } = createRequire(import.meta.url)('classic-level') as typeof ClassicLevelModule;
const KS = 'default_keyspace';
const NAME = 'docs';
const TARGET = { keyspace: KS, collection: NAME };
const LIMITS = { limits: { maxInsertManyDocuments: 1000 } };
/** KvStore's own keys(), whatever spies wrap it. */
const keysOf = KvStore.prototype.keys;

afterEach(() => {
  vi.restoreAllMocks();
});

async function run(db: Database, command: JsonObject): Promise<{ status?: Record<string, unknown>; errors?: unknown[]; data?: unknown }> {
  return (await executeCommand(db, command, TARGET)) as { status?: Record<string, unknown>; errors?: unknown[]; data?: unknown };
}

const errorCodes = (response: { errors?: unknown[] }): string[] => (response.errors ?? []).map((e) => String((e as { errorCode?: string }).errorCode));

async function newDatabase(): Promise<{ db: Database; dir: string }> {
  const dir = tempDir();
  const db = await Database.open(dir, LIMITS);
  await db.createCollection(KS, NAME, {});
  return { db, dir };
}

/** The collection's key-presence filter (made by the first insert; made here when none has run yet). */
function presenceOf(db: Database): KeyPresence {
  return db.kvStore.keyPresence(keys.docPrefix(db.collection(KS, NAME).record.cid));
}

/** Counts LevelDB point reads of document keys, at classic-level (synchronous, async and batched). */
function countDocumentReads(): () => number {
  // The implementors' methods every public read goes through (abstract-level's _get, _getSync, _getMany).
  const level = ClassicLevel.prototype as unknown as Record<'_get' | '_getSync' | '_getMany', (key: unknown) => unknown>;
  const spies = [vi.spyOn(level, '_getSync'), vi.spyOn(level, '_get'), vi.spyOn(level, '_getMany')];
  return () => {
    let reads = 0;
    for (const spy of spies) {
      for (const [key] of spy.mock.calls) {
        for (const one of Array.isArray(key) ? key : [key]) if (String(one).startsWith('doc:')) reads++;
      }
    }
    return reads;
  };
}

/** Holds the scan of document keys (KvStore.keys over a `doc:` range) until the returned function is called. */
function holdDocumentKeyScans(): () => void {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  vi.spyOn(KvStore.prototype, 'keys').mockImplementation(function (this: KvStore, ...args: Parameters<KvStore['keys']>) {
    if (!String(args[0].gte).startsWith('doc:')) return keysOf.apply(this, args);
    const store = this;
    return (async function* () {
      await released;
      yield* keysOf.apply(store, args);
    })();
  });
  return release;
}

/** One document written by each kind of write, `tag` naming the round (ids `<kind>-<tag>`). */
async function writeEachKind(db: Database, tag: string): Promise<string[]> {
  const ids = ['insertOne', 'insertMany', 'updateOne', 'updateMany', 'findOneAndUpdate', 'findOneAndReplace'].map((kind) => `${kind}-${tag}`);
  const [one, many, update, updateMany, fUpdate, fReplace] = ids as [string, string, string, string, string, string];
  const responses = [
    await run(db, { insertOne: { document: { _id: one, n: 1 } } }),
    await run(db, { insertMany: { documents: [{ _id: many, n: 2 }], options: { ordered: false } } }),
    await run(db, { updateOne: { filter: { _id: update }, update: { $set: { n: 3 } }, options: { upsert: true } } }),
    await run(db, { updateMany: { filter: { _id: updateMany }, update: { $set: { n: 4 } }, options: { upsert: true } } }),
    await run(db, { findOneAndUpdate: { filter: { _id: fUpdate }, update: { $set: { n: 5 } }, options: { upsert: true } } }),
    await run(db, { findOneAndReplace: { filter: { _id: fReplace }, replacement: { n: 6 }, options: { upsert: true } } }),
  ];
  for (const response of responses) expect(response.errors).toBeUndefined();
  return ids;
}

/** Every id is refused by insertOne, and by an unordered insertMany (which inserts the fresh id beside it). */
async function expectDuplicates(db: Database, ids: readonly string[], fresh: string): Promise<void> {
  for (const id of ids) {
    expect(errorCodes(await run(db, { insertOne: { document: { _id: id } } })), id).toEqual(['DOCUMENT_ALREADY_EXISTS']);
  }
  const many = await run(db, { insertMany: { documents: [...ids.map((_id) => ({ _id })), { _id: fresh }], options: { ordered: false } } });
  expect(errorCodes(many)).toEqual(ids.map(() => 'DOCUMENT_ALREADY_EXISTS'));
  expect(many.status?.insertedIds).toEqual([fresh]);
}

describe('the existence check and the key-presence filter', () => {
  it('a fresh-id insertMany reads no document from LevelDB once the filter is complete', async () => {
    const { db } = await newDatabase();
    try {
      expect((await run(db, { insertOne: { document: { _id: 'first' } } })).errors).toBeUndefined();
      expect(await presenceOf(db).scanned).toBe(true);
      const reads = countDocumentReads();
      const documents = Array.from({ length: 300 }, (_, i) => ({ _id: `new${i}`, n: i }));
      const response = await run(db, { insertMany: { documents, options: { ordered: true } } });
      expect(response.errors).toBeUndefined();
      expect(response.status?.insertedIds).toHaveLength(300);
      expect(reads()).toBe(0);
      // A duplicate is still read, and caught.
      expect(errorCodes(await run(db, { insertOne: { document: { _id: 'new7' } } }))).toEqual(['DOCUMENT_ALREADY_EXISTS']);
      expect(reads()).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  });

  it('catches duplicates of every kind of write: in the process, after a reopen before its scan completes, and after', async () => {
    const { db, dir } = await newDatabase();
    let reopened: Database | undefined;
    try {
      // Written while the filter's scan is held (its first write starts it), and once it is complete; after
      // the reopen, all are written before the filter exists (found by its scan).
      const release = holdDocumentKeyScans();
      const during = await writeEachKind(db, 'during');
      expect(presenceOf(db).state).toBe('scanning');
      await expectDuplicates(db, during, 'fresh-1');
      release();
      expect(await presenceOf(db).scanned).toBe(true);
      const after = await writeEachKind(db, 'after');
      const all = [...during, ...after, 'fresh-1'];
      await expectDuplicates(db, all, 'fresh-2');
      await db.close();

      reopened = await Database.open(dir, LIMITS);
      const releaseAgain = holdDocumentKeyScans();
      await expectDuplicates(reopened, [...all, 'fresh-2'], 'fresh-3');
      expect(presenceOf(reopened).state).toBe('scanning');
      releaseAgain();
      expect(await presenceOf(reopened).scanned).toBe(true);
      await expectDuplicates(reopened, [...all, 'fresh-2', 'fresh-3'], 'fresh-4');
    } finally {
      await (reopened ?? db).close();
    }
  });

  it('a deleted id can be inserted again; concurrent inserts of one id give exactly one OK', async () => {
    const { db } = await newDatabase();
    try {
      expect((await run(db, { insertOne: { document: { _id: 'x', v: 1 } } })).errors).toBeUndefined();
      expect(await presenceOf(db).scanned).toBe(true);
      expect((await run(db, { deleteOne: { filter: { _id: 'x' } } })).status?.deletedCount).toBe(1);
      expect((await run(db, { insertOne: { document: { _id: 'x', v: 2 } } })).errors).toBeUndefined();
      expect(errorCodes(await run(db, { insertOne: { document: { _id: 'x' } } }))).toEqual(['DOCUMENT_ALREADY_EXISTS']);

      const racers = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? run(db, { insertOne: { document: { _id: 'race', i } } }) : run(db, { insertMany: { documents: [{ _id: 'race', i }] } }))));
      expect(racers.filter((r) => r.errors === undefined)).toHaveLength(1);
      expect(racers.flatMap(errorCodes)).toEqual(Array(5).fill('DOCUMENT_ALREADY_EXISTS'));
    } finally {
      await db.close();
    }
  });

  it('a collection reopened with many documents: its old ids are caught, new ones mostly not read', async () => {
    const { db, dir } = await newDatabase();
    const N = 5000;
    for (let from = 0; from < N; from += 1000) {
      const documents = Array.from({ length: 1000 }, (_, i) => ({ _id: `old${from + i}` }));
      expect((await run(db, { insertMany: { documents } })).errors).toBeUndefined();
    }
    await db.close();
    const reopened = await Database.open(dir, LIMITS);
    try {
      expect((await run(reopened, { insertOne: { document: { _id: 'new-first' } } })).errors).toBeUndefined();
      expect(await presenceOf(reopened).scanned).toBe(true);
      // Keys it took for ones it had (false positives while it filled) are not counted.
      expect(presenceOf(reopened).count).toBeGreaterThan(0.98 * N);
      expect(presenceOf(reopened).count).toBeLessThanOrEqual(N + 1);
      const old = Array.from({ length: 200 }, (_, i) => ({ _id: `old${i * 25}` }));
      const response = await run(reopened, { insertMany: { documents: old, options: { ordered: false } } });
      expect(errorCodes(response)).toEqual(Array(200).fill('DOCUMENT_ALREADY_EXISTS'));
      const reads = countDocumentReads();
      const fresh = Array.from({ length: 1000 }, (_, i) => ({ _id: `new${i}` }));
      expect((await run(reopened, { insertMany: { documents: fresh } })).errors).toBeUndefined();
      // Only the filter's false positives are read (about 1 %).
      expect(reads()).toBeLessThan(30);
    } finally {
      await reopened.close();
    }
  });

  it('a scan that fails leaves the filter unused: every id is read, duplicates are caught', async () => {
    const { db } = await newDatabase();
    try {
      expect((await run(db, { insertMany: { documents: [{ _id: 'a' }, { _id: 'b' }] } })).errors).toBeUndefined();
      await db.close();
    } catch (error) {
      await db.close();
      throw error;
    }
    const reopened = await Database.open(db.kvStore.location, LIMITS);
    try {
      vi.spyOn(KvStore.prototype, 'keys').mockImplementation(function (this: KvStore, ...args: Parameters<KvStore['keys']>) {
        if (!String(args[0].gte).startsWith('doc:')) return keysOf.apply(this, args);
        return (async function* () {
          yield* [];
          throw new Error('a failing scan');
        })();
      });
      const reads = countDocumentReads();
      expect(errorCodes(await run(reopened, { insertOne: { document: { _id: 'a' } } }))).toEqual(['DOCUMENT_ALREADY_EXISTS']);
      expect(await presenceOf(reopened).scanned).toBe(false);
      expect(presenceOf(reopened).state).toBe('failed');
      const response = await run(reopened, { insertMany: { documents: [{ _id: 'b' }, { _id: 'c' }], options: { ordered: false } } });
      expect(errorCodes(response)).toEqual(['DOCUMENT_ALREADY_EXISTS']);
      expect(response.status?.insertedIds).toEqual(['c']);
      expect(reads()).toBeGreaterThanOrEqual(3);
    } finally {
      await reopened.close();
    }
  });
});
