/**
 * A document's `$vector` is stored once, in its vector record; the body keeps a reference. These tests
 * check what a user sees of that: values come back as float32 (shortest decimal form) in the form they
 * were sent, only when asked for, through every read path (find, findOne, sorted, vector sort, updates
 * returning documents), after reopening, and that the stored body really is small.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { idKey } from '../../src/engine/collections/document-id.js';
import { DocumentStore } from '../../src/engine/collections/document-store.js';
import { float32Numbers, vectorRefOf } from '../../src/engine/collections/stored-vector.js';
import type { JsonObject } from '../../src/query/json.js';
import { keys } from '../../src/storage/index.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const opened: Database[] = [];

async function open(dir = tempDir()): Promise<Database> {
  const db = await Database.open(dir, { vectorBackend: 'wasm' });
  opened.push(db);
  return db;
}

afterAll(async () => {
  for (const db of opened) await db.close();
});

async function run(db: Database, command: JsonObject, collection = 'docs'): Promise<JsonObject> {
  const response = (await executeCommand(db, command, { ...KS, collection })) as unknown as JsonObject;
  expect(response.errors).toBeUndefined();
  return response;
}

const data = (r: JsonObject) => r.data as JsonObject;

async function withCollection(): Promise<{ db: Database; dir: string }> {
  const dir = tempDir();
  const db = await open(dir);
  await executeCommand(db, { createCollection: { name: 'docs', options: { vector: { dimension: 3, metric: 'dot_product' } } } }, KS);
  return { db, dir };
}

describe('float32 values', () => {
  it('come back as the shortest decimal that reads back as the same float32', () => {
    const values = Float32Array.from([0.1, 1 / 3, -2.5, 0, 1e-8, 123456.789, 3.4e38]);
    const numbers = float32Numbers(values);
    expect(numbers.slice(0, 4)).toEqual([0.1, 0.33333334, -2.5, 0]);
    numbers.forEach((n, i) => expect(Math.fround(n)).toBe(values[i]));
    expect(numbers[4]).toBe(1e-8);
    expect(numbers[5]).toBe(123456.79);
  });
});

describe('stored $vector', () => {
  it('is a reference in the body, and the values come back (as float32) only when projected', async () => {
    const { db } = await withCollection();
    await run(db, { insertOne: { document: { _id: 'a', n: 1, $vector: [0.1, 1 / 3, 0.5] } } });
    const body = await storedBody(db, 'a');
    expect(body).toBeDefined();
    const stored = JSON.parse(body!) as JsonObject;
    expect(vectorRefOf(stored)).toEqual({ label: 0, form: 'array' });
    expect(body!.length).toBeLessThan(60);

    const plain = data(await run(db, { findOne: { filter: { _id: 'a' } } })).document as JsonObject;
    expect(plain).toEqual({ _id: 'a', n: 1 });
    const all = data(await run(db, { findOne: { filter: { _id: 'a' }, projection: { '*': 1 } } })).document as JsonObject;
    expect(all).toEqual({ _id: 'a', n: 1, $vector: [0.1, 0.33333334, 0.5] });
    const found = data(await run(db, { find: { filter: { n: 1 }, projection: { $vector: 1 } } })).documents as JsonObject[];
    expect(found).toEqual([{ _id: 'a', n: 1, $vector: [0.1, 0.33333334, 0.5] }]);
    const sorted = data(await run(db, { find: { sort: { n: 1 }, projection: { $vector: 1, n: 1 } } })).documents as JsonObject[];
    expect(sorted).toEqual([{ _id: 'a', n: 1, $vector: [0.1, 0.33333334, 0.5] }]);
    const byVector = data(await run(db, { find: { sort: { $vector: [1, 0, 0] }, projection: { '*': 1 } } })).documents as JsonObject[];
    expect(byVector).toEqual([{ _id: 'a', n: 1, $vector: [0.1, 0.33333334, 0.5] }]);
    const byVectorPlain = data(await run(db, { find: { sort: { $vector: [1, 0, 0] } } })).documents as JsonObject[];
    expect(byVectorPlain).toEqual([{ _id: 'a', n: 1 }]);
  });

  it('keeps the $binary form it was sent in', async () => {
    const { db } = await withCollection();
    const binary = Buffer.alloc(12);
    [0.25, -1, 2].forEach((v, i) => binary.writeFloatBE(v, i * 4));
    const $binary = binary.toString('base64');
    await run(db, { insertOne: { document: { _id: 'b', $vector: { $binary } } } });
    const doc = data(await run(db, { findOne: { filter: { _id: 'b' }, projection: { $vector: 1 } } })).document as JsonObject;
    expect(doc).toEqual({ _id: 'b', $vector: { $binary } });
  });

  it('answers $exists and survives updates of other fields, vector changes, unset and reopen', async () => {
    const { db, dir } = await withCollection();
    await run(db, { insertMany: { documents: [{ _id: 1, $vector: [1, 0, 0] }, { _id: 2, $vector: null }, { _id: 3 }] } });
    const withVector = data(await run(db, { find: { filter: { $vector: { $exists: true } } } })).documents as JsonObject[];
    expect(withVector.map((d) => d._id)).toEqual([1]);

    const updated = data(await run(db, { findOneAndUpdate: { filter: { _id: 1 }, update: { $set: { tag: 'x' } }, projection: { '*': 1 }, options: { returnDocument: 'after' } } }));
    expect(updated.document).toEqual({ _id: 1, $vector: [1, 0, 0], tag: 'x' });
    // Setting the same vector changes nothing.
    const same = await run(db, { updateOne: { filter: { _id: 1 }, update: { $set: { $vector: [1, 0, 0] } } } });
    expect(same.status).toEqual({ matchedCount: 1, modifiedCount: 0 });
    await run(db, { updateOne: { filter: { _id: 1 }, update: { $set: { $vector: [0, 1, 0] } } } });
    const top = data(await run(db, { find: { sort: { $vector: [0, 1, 0] }, projection: { '*': 1 }, options: { includeSimilarity: true } } })).documents as JsonObject[];
    expect(top).toEqual([{ _id: 1, $vector: [0, 1, 0], tag: 'x', $similarity: 1 }]);

    await run(db, { updateOne: { filter: { _id: 3 }, update: { $set: { $vector: [0, 0, 2] } } } });
    await run(db, { updateOne: { filter: { _id: 1 }, update: { $unset: { $vector: '' } } } });
    const afterUnset = data(await run(db, { findOne: { filter: { _id: 1 }, projection: { '*': 1 } } })).document;
    expect(afterUnset).toEqual({ _id: 1, tag: 'x' });

    await db.close();
    const reopened = await open(dir);
    const docs = data(await run(reopened, { find: { projection: { '*': 1 }, sort: { _id: 1 } } })).documents as JsonObject[];
    expect(docs).toEqual([{ _id: 1, tag: 'x' }, { _id: 2, $vector: null }, { _id: 3, $vector: [0, 0, 2] }]);
  });

  it('reads a deleted label from its record, and re-reads a body whose vector changed meanwhile', async () => {
    const { db } = await withCollection();
    await run(db, { insertOne: { document: { _id: 'r', $vector: [1, 2, 3] } } });
    const collection = db.collection('default_keyspace', 'docs');
    await collection.vectors();
    // A body read before a concurrent replace: its label is gone from memory and from the records.
    const staleBody = JSON.parse((await storedBody(db, 'r'))!) as JsonObject;
    await run(db, { findOneAndReplace: { filter: { _id: 'r' }, replacement: { $vector: [3, 2, 1], v: 2 } } });
    // A store without the collection's memory: labels are read from their records.
    const store = new DocumentStore(db.kvStore, collection.record.cid, 3);
    expect(await store.restoreVector(idKey('r'), staleBody)).toEqual({ _id: 'r', $vector: [3, 2, 1], v: 2 });
    const current = JSON.parse((await storedBody(db, 'r'))!) as JsonObject;
    expect(vectorRefOf(current)?.label).toBe(1);
    expect(await store.restoreVector(idKey('r'), current)).toEqual({ _id: 'r', $vector: [3, 2, 1], v: 2 });
    // A vector search hit whose document changed since the search is not returned as it was.
    const labelKeys = { keyOf: () => idKey('r') };
    expect(await store.getHits([{ label: 0 }], labelKeys)).toEqual([null]);
    expect(await store.getHits([{ label: 1 }], labelKeys)).toEqual([{ key: idKey('r'), doc: { _id: 'r', $vector: { $label: 1 }, v: 2 } }]);
  });
});

/** The stored body of the document with this `_id`, as LevelDB holds it. */
async function storedBody(db: Database, id: string): Promise<string | undefined> {
  const { cid } = db.collection('default_keyspace', 'docs').record;
  return db.kvStore.getString(keys.docKey(cid, idKey(id)));
}
