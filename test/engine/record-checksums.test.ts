/**
 * Checksums of truth records through the engine: a damaged document body, vector record or table row is
 * DATABASE_CORRUPTED naming the collection (table) and `_id` (primary key), never a changed answer; a
 * database written before checksums (format 3, test/fixtures/format-3-db, written by the build before them)
 * opens and reads as it was, and a rewritten record is sealed.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { keys, type KvStore } from '../../src/storage/index.js';
import { isSealed } from '../../src/storage/record-checksum.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const COLL = { ...KS, collection: 'docs' };
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function open(dir: string): Promise<Database> {
  const db = await Database.open(dir);
  opened.push(db);
  return db;
}

type Envelope = { data?: { documents?: Record<string, unknown>[]; document?: Record<string, unknown> | null }; errors?: { errorCode: string; message: string }[] };
const run = (db: Database, command: object, target: object = COLL): Promise<Envelope> => executeCommand(db, command, target) as Promise<Envelope>;

/** Changes one byte of the stored (sealed) value under the first key with `prefix` for which `pick` holds. */
async function damage(kv: KvStore, prefix: string, pick: (key: string) => boolean = () => true): Promise<string> {
  for await (const chunk of kv.rawEntryChunks({ gte: prefix, lt: prefix + keys.HIGH })) {
    for (const [key, value] of chunk) {
      if (!pick(key)) continue;
      const changed = Uint8Array.from(value);
      changed[changed.length - 2]! ^= 0x04;
      await kv.rawBatch([{ type: 'put', key, value: changed }]);
      return key;
    }
  }
  throw new Error(`nothing under ${prefix}`);
}

async function seeded(): Promise<{ db: Database; dir: string }> {
  const dir = tempDir();
  const db = await open(dir);
  await run(db, { createCollection: { name: 'docs', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, KS);
  const documents = Array.from({ length: 20 }, (_, i) => ({ _id: `d${i}`, text: `text ${i}`, n: i, $vector: [i, 1, 2] }));
  expect((await run(db, { insertMany: { documents } })).errors).toBeUndefined();
  await run(db, { createTable: { name: 'people', definition: { columns: { id: 'int', name: 'text' }, primaryKey: 'id' } } }, KS);
  await run(db, { insertMany: { documents: [{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }] } }, { ...KS, collection: 'people' });
  return { db, dir };
}

describe('record checksums', () => {
  it('every truth record is sealed when written', async () => {
    const { db } = await seeded();
    let truth = 0;
    for await (const chunk of db.kvStore.rawEntryChunks({})) {
      for (const [key, value] of chunk) {
        if (!keys.isTruthKey(key)) continue;
        truth++;
        expect(isSealed(key, value), key).toBe(true);
      }
    }
    expect(truth).toBeGreaterThan(20 + 20 + 20 + 2);
  });

  it('a damaged body is DATABASE_CORRUPTED naming the collection and _id; the others still read', async () => {
    const { db } = await seeded();
    await damage(db.kvStore, keys.docPrefix(1), (key) => key.endsWith('sd7'));
    const one = await run(db, { findOne: { filter: { _id: 'd7' } } });
    expect(one.errors?.[0]).toMatchObject({ errorCode: 'DATABASE_CORRUPTED', message: expect.stringMatching(/document _id "d7" of collection default_keyspace\.docs/) });
    const all = await run(db, { find: { filter: {}, options: { limit: 50 } } });
    expect(all.errors?.[0]?.errorCode).toBe('DATABASE_CORRUPTED');
    const other = await run(db, { findOne: { filter: { _id: 'd8' }, projection: { $vector: 1, text: 1 } } });
    expect(other.data?.document).toEqual({ _id: 'd8', text: 'text 8', $vector: [8, 1, 2] });
  });

  it('a damaged vector record is an error, never another vector', async () => {
    const { db, dir } = await seeded();
    await db.close();
    const again = await open(dir);
    const key = await damage(again.kvStore, keys.vectorValuesPrefix(1));
    await again.close();
    const third = await open(dir);
    // The graph file holds the vectors too, so a search may not need the damaged record: error or right answer.
    const search = await run(third, { find: { sort: { $vector: [3, 1, 2] }, options: { limit: 3 }, projection: { $vector: 1 } } });
    if (search.errors) expect(search.errors[0]?.errorCode).toBe('DATABASE_CORRUPTED');
    else expect(search.data?.documents).toEqual([3, 2, 4].map((i) => ({ _id: `d${i}`, text: `text ${i}`, n: i, $vector: [i, 1, 2] })));
    await expect(third.kvStore.getMany([key])).rejects.toMatchObject({ code: 'DATABASE_CORRUPTED', message: expect.stringMatching(/vector record \(label \d+\) of collection default_keyspace\.docs/) });
  });

  it('a damaged table row is DATABASE_CORRUPTED naming the table', async () => {
    const { db } = await seeded();
    const tid = (await run(db, { findOne: { filter: { id: 1 } } }, { ...KS, collection: 'people' })).data?.document;
    expect(tid).toMatchObject({ id: 1, name: 'ann' });
    await damage(db.kvStore, 'row:');
    const rows = await run(db, { find: { filter: {} } }, { ...KS, collection: 'people' });
    expect(rows.errors?.[0]).toMatchObject({ errorCode: 'DATABASE_CORRUPTED', message: expect.stringMatching(/row with primary key .* of table default_keyspace\.people/) });
  });
});

describe('a database written before checksums (format 3)', () => {
  it('opens and reads as it was, and a rewritten record gets its checksum', async () => {
    const dir = path.join(tempDir(), 'db');
    cpSync(path.join(import.meta.dirname, '../fixtures/format-3-db'), dir, { recursive: true });
    const db = await open(dir);
    expect(await db.kvStore.getString(keys.META_FORMAT)).toBe(String(keys.FORMAT_VERSION));
    const d4 = await run(db, { findOne: { filter: { _id: 'd4' }, projection: { $vector: 1, text: 1, tag: 1 } } });
    expect(d4.data?.document).toEqual({ _id: 'd4', text: 'old text 4', tag: 'other', $vector: [4, 1, 2, 3] });
    const threes = await run(db, { find: { filter: { tag: 'three' }, projection: { _id: 1 } } });
    expect(threes.data?.documents?.map((d) => d._id).sort()).toEqual(['d0', 'd3', 'd6', 'd9']);
    const near = await run(db, { find: { sort: { $vector: [5.1, 1, 2, 3] }, options: { limit: 2 }, projection: { _id: 1 } } });
    expect(near.data?.documents?.map((d) => d._id)).toEqual(['d5', 'd6']);
    const exact = await run(db, { findOne: { filter: { _id: 'exact' } } });
    expect(String(exact.data?.document?.big)).toBe('9000000000000000123');
    const people = await run(db, { find: { filter: { age: 40 } } }, { ...KS, collection: 'people' });
    expect(people.data?.documents).toEqual([{ id: 2, name: 'bob', age: 40 }]);

    const raw = async (key: string): Promise<Uint8Array> => {
      for await (const chunk of db.kvStore.rawEntryChunks({ gte: key, lte: key })) return chunk[0]![1];
      throw new Error(key);
    };
    const d4Key = keys.docKey(1, 'sd4');
    expect(isSealed(d4Key, await raw(d4Key))).toBe(false);
    await run(db, { updateOne: { filter: { _id: 'd4' }, update: { $set: { text: 'new text' } } } });
    expect(isSealed(d4Key, await raw(d4Key))).toBe(true);
    expect(isSealed(keys.docKey(1, 'sd5'), await raw(keys.docKey(1, 'sd5')))).toBe(false);
    expect((await run(db, { findOne: { filter: { _id: 'd4' } } })).data?.document).toMatchObject({ text: 'new text', n: 4 });
  });
});
