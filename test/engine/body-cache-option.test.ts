/**
 * The bodyCacheBytes option (engine/database.ts): the budget of the database's row cache and of each vector
 * collection's search-hit cache. With 0 nothing is cached and every read still answers as with the default;
 * stats report what the caches hold, the hot postings of lexical and text indexes included (12 bytes a
 * posting); bad values are refused. Over real LevelDB through the command layer,
 * and through the client (VectorDB options).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/client/vector-db.js';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore } from '../../src/storage/index.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const TARGET = { ...KS, collection: 'docs' };
const opened: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const db of opened) await db.close();
});

async function run(db: Database, command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, TARGET)) as unknown as JsonObject;
  expect(response.errors).toBeUndefined();
  return response;
}

const documents: JsonObject[] = Array.from({ length: 60 }, (_, i) => ({
  _id: `d${i}`,
  cat: i % 3,
  title: `document ${i}`,
  $vector: [Math.cos(i / 7), Math.sin(i / 7), (i % 5) / 5],
}));

/** A database (wasm backend: runs everywhere) with the documents, its graph caught up. */
async function withDocuments(bodyCacheBytes?: number): Promise<Database> {
  const db = await Database.open(tempDir(), { vectorBackend: 'wasm', ...(bodyCacheBytes === undefined ? {} : { bodyCacheBytes }) });
  opened.push(db);
  await executeCommand(db, { createCollection: { name: 'docs', options: { vector: { dimension: 3, metric: 'cosine' } } } }, KS);
  for (let from = 0; from < documents.length; from += 20) await run(db, { insertMany: { documents: documents.slice(from, from + 20) } });
  await (await db.collection('default_keyspace', 'docs').vectors())!.waitForIndex();
  return db;
}

/** What a mix of reads answers: vector finds (filtered or not, with $vector and $similarity), point reads, a scan. */
async function reads(db: Database): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let q = 0; q < 12; q++) {
    const vector = [Math.cos(q / 3), Math.sin(q / 3), 0.5];
    for (const filter of [{}, { cat: q % 3 }] as JsonObject[]) {
      const found = await run(db, { find: { filter, sort: { $vector: vector }, projection: { $vector: 1, title: 1 }, options: { limit: 5, includeSimilarity: true } } });
      out.push((found.data as JsonObject).documents);
    }
    out.push((await run(db, { findOne: { filter: { _id: `d${q * 4}` } } })).data);
  }
  out.push(((await run(db, { find: { filter: { cat: 1 } } })).data as JsonObject).documents);
  return out;
}

describe('bodyCacheBytes', () => {
  it('0 caches no body, and every read answers as with the default caches, also after writes', async () => {
    const cached = await withDocuments();
    const uncached = await withDocuments(0);
    expect(await reads(uncached)).toEqual(await reads(cached));
    expect(await reads(uncached)).toEqual(await reads(cached)); // the second round: what the default cached
    for (const db of [cached, uncached]) {
      await run(db, { updateOne: { filter: { _id: 'd4' }, update: { $set: { title: 'changed' } } } });
      await run(db, { deleteOne: { filter: { _id: 'd8' } } });
    }
    expect(await reads(uncached)).toEqual(await reads(cached));
    expect(uncached.cachedBytes).toBe(0);
    const stats = await uncached.stats();
    expect(stats.cachedBytes).toBe(0);
    expect(stats.collections[0]!.cachedBytes).toBe(0);
  });

  it('by default, stats tell the bytes the caches hold after reads', async () => {
    const db = await withDocuments();
    await reads(db);
    const stats = await db.stats();
    expect(stats.collections[0]!.cachedBytes).toBeGreaterThan(0);
    expect(stats.cachedBytes).toBeGreaterThan(stats.collections[0]!.cachedBytes);
    expect(stats.cachedBytes).toBe(db.cachedBytes);
  });

  it('a small budget bounds what is cached', async () => {
    const db = await withDocuments(8 * 1024);
    await reads(db);
    expect(db.cachedBytes).toBeGreaterThan(0);
    // The row cache (8 KiB) and the collection's hit cache (half that).
    expect(db.cachedBytes).toBeLessThanOrEqual(8 * 1024 + 4 * 1024);
  });

  it('refuses a budget that is not a whole number of bytes, 0 or more', async () => {
    for (const bad of [-1, 1.5, Number.NaN, '1024' as unknown as number]) {
      await expect(Database.open(tempDir(), { bodyCacheBytes: bad })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });

  it('the row cache of a store opened with rowCacheBytes 0 keeps nothing, and reads see every write', async () => {
    const kv = await KvStore.open(tempDir(), 'persistent', { rowCacheBytes: 0 });
    opened.push(kv);
    await kv.batch([{ type: 'put', key: 'k', value: 'one' }]);
    expect(await kv.getString('k')).toBe('one');
    expect(kv.cachedBytes).toBe(0);
    await kv.batch([{ type: 'put', key: 'k', value: 'two' }]);
    expect(await kv.getString('k')).toBe('two');
    const cached = await KvStore.open(tempDir());
    opened.push(cached);
    await cached.batch([{ type: 'put', key: 'k', value: 'one' }]);
    await cached.getString('k');
    expect(cached.cachedBytes).toBeGreaterThan(0);
  });
});

describe('the hot postings in cachedBytes', () => {
  it("a collection's lexical index and a table's text index: their postings in memory count, a write drops them", async () => {
    const db = await Database.open(tempDir(), { bodyCacheBytes: 0 }); // no body cache: cachedBytes is the postings alone
    opened.push(db);
    await executeCommand(db, { createCollection: { name: 'docs' } }, KS);
    const words = (i: number) => (i % 3 === 0 ? 'apple pie' : 'banana bread');
    await run(db, { insertMany: { documents: Array.from({ length: 20 }, (_, i) => ({ _id: `d${i}`, $lexical: words(i) })) } });
    const table = { ...KS, collection: 't' };
    const onTable = async (command: JsonObject) => expect((await executeCommand(db, command, table)).errors).toBeUndefined();
    expect((await executeCommand(db, { createTable: { name: 't', definition: { columns: { id: 'int', body: 'text' }, primaryKey: 'id' } } }, KS)).errors).toBeUndefined();
    await onTable({ insertMany: { documents: Array.from({ length: 10 }, (_, id) => ({ id, body: words(id) })) } });
    await onTable({ createTextIndex: { name: 'body_text', definition: { column: 'body' } } });
    expect(db.cachedBytes).toBe(0);
    // 'apple': 7 of the 20 documents, by a $match filter (one term, read in key order: 12 bytes a posting).
    await run(db, { find: { filter: { $lexical: { $match: 'apple' } } } });
    expect((await db.stats()).collections[0]!.cachedBytes).toBe(7 * 12);
    // 'apple' in 4 of the 10 rows, by the table's lexical sort.
    await onTable({ find: { sort: { body: 'apple' } } });
    const stats = await db.stats();
    expect(stats.cachedBytes).toBe(7 * 12 + 4 * 12);
    expect(db.cachedBytes).toBe(stats.cachedBytes);
    // A write with 'apple' drops the collection's cached postings of it; the table's stay.
    await run(db, { insertOne: { document: { _id: 'new', $lexical: 'apple tart' } } });
    expect(db.cachedBytes).toBe(4 * 12);
  });
});

describe('VectorDBOptions.bodyCacheBytes', () => {
  it('reaches the embedded database: 0 caches nothing, reads are right', async () => {
    const db = new VectorDB('token', tempDir(), undefined, { bodyCacheBytes: 0, vectorBackend: 'wasm' });
    opened.push(db);
    const docs = await db.createCollection('docs', 3, 'cosine');
    await docs.insertMany(documents.slice(0, 20));
    for (let round = 0; round < 2; round++) {
      const near = await docs.findVector(documents[7]!.$vector as number[], { limit: 1 });
      expect(near.map((d) => d._id)).toEqual(['d7']);
    }
    expect((await docs.findOne({ filter: { _id: 'd5' } }))?.title).toBe('document 5');
    expect((await db.stats()).cachedBytes).toBe(0);
  });

  it('is refused when not a whole number of bytes, or for an http endpoint', () => {
    expect(() => new VectorDB('token', tempDir(), undefined, { bodyCacheBytes: -5 })).toThrow(TypeError);
    expect(() => new VectorDB('token', 'http://127.0.0.1:1', undefined, { bodyCacheBytes: 0 })).toThrow(/embedded databases only/);
  });
});
