/**
 * The parsed-body cache of vector search hits (engine/hit-cache.ts): what a vector find returns is never
 * older than the last acknowledged write, and documents handed out are the caller's own (changing them
 * never changes what later queries return). Over a real LevelDB through the command layer, plus the
 * cache's own generation rules.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { HitCache } from '../../src/engine/hit-cache.js';
import { parseFilter } from '../../src/query/filter.js';
import type { JsonObject } from '../../src/query/json.js';
import type { SortSpec } from '../../src/query/sort.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const TARGET = { ...KS, collection: 'docs' };
const opened: Database[] = [];

afterAll(async () => {
  for (const db of opened) await db.close();
});

async function run(db: Database, command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, TARGET)) as unknown as JsonObject;
  expect(response.errors).toBeUndefined();
  return response;
}

async function withDocuments(documents: JsonObject[]): Promise<Database> {
  const db = await Database.open(tempDir(), { vectorBackend: 'wasm' });
  opened.push(db);
  await executeCommand(db, { createCollection: { name: 'docs', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, KS);
  await run(db, { insertMany: { documents } });
  return db;
}

/** The documents of a vector find nearest to `vector` (default projection unless given). */
async function nearest(db: Database, vector: number[], extra: JsonObject = {}): Promise<JsonObject[]> {
  const response = await run(db, { find: { sort: { $vector: vector }, options: { limit: 3 }, ...extra } });
  return (response.data as JsonObject).documents as JsonObject[];
}

const DOCS: JsonObject[] = [
  { _id: 'a', title: 'first', tags: ['x', 'y'], meta: { n: 1 }, $vector: [1, 0, 0] },
  { _id: 'b', title: 'second', tags: [], meta: { n: 2 }, $vector: [0, 1, 0] },
  { _id: 'c', title: 'third', tags: ['z'], meta: { n: 3 }, $vector: [0, 0, 1] },
];

describe('vector find with cached hit bodies', () => {
  it('returns a field changed by an update that kept the vector (and its label)', async () => {
    const db = await withDocuments(DOCS);
    expect((await nearest(db, [1, 0, 0]))[0]).toEqual({ _id: 'a', title: 'first', tags: ['x', 'y'], meta: { n: 1 } });
    // Same vector: the document keeps its label, so only the write's invalidation can drop the cached body.
    await run(db, { updateOne: { filter: { _id: 'a' }, update: { $set: { title: 'changed', 'meta.n': 10 } } } });
    expect((await nearest(db, [1, 0, 0]))[0]).toEqual({ _id: 'a', title: 'changed', tags: ['x', 'y'], meta: { n: 10 } });
    await run(db, { findOneAndReplace: { filter: { _id: 'a' }, replacement: { title: 'replaced', $vector: [1, 0, 0] } } });
    expect((await nearest(db, [1, 0, 0]))[0]).toEqual({ _id: 'a', title: 'replaced' });
  });

  it('never returns a deleted document or one whose vector moved away', async () => {
    const db = await withDocuments(DOCS);
    expect((await nearest(db, [0, 1, 0])).map((d) => d._id)).toEqual(['b', 'a', 'c']);
    await run(db, { deleteOne: { filter: { _id: 'b' } } });
    await run(db, { updateOne: { filter: { _id: 'a' }, update: { $set: { $vector: [-5, -5, -5] } } } });
    expect((await nearest(db, [0, 1, 0])).map((d) => d._id)).toEqual(['c', 'a']);
    await run(db, { deleteMany: {} });
    expect(await nearest(db, [0, 1, 0])).toEqual([]);
  });

  it('hands out copies: changing returned documents changes nothing stored or cached', async () => {
    const db = await withDocuments(DOCS);
    const first = await nearest(db, [1, 0, 0]);
    (first[0]!.tags as string[]).push('mutated');
    (first[0]!.meta as JsonObject).n = 99;
    first[0]!.title = 'mutated';
    const second = await nearest(db, [1, 0, 0]);
    expect(second[0]).toEqual({ _id: 'a', title: 'first', tags: ['x', 'y'], meta: { n: 1 } });
    // The engine's own results too (before projection): select returns documents callers may change.
    const collection = db.collection('default_keyspace', 'docs');
    const sort: SortSpec = { kind: 'vector', vector: Float32Array.from([1, 0, 0]), raw: [1, 0, 0] };
    const filter = parseFilter(undefined, { isIndexed: () => true });
    const { documents } = await collection.select({ filter, sort, limit: 1, withVector: false });
    (documents[0]!.doc.meta as JsonObject).n = -1;
    delete documents[0]!.doc.title;
    expect((await nearest(db, [1, 0, 0]))[0]).toEqual({ _id: 'a', title: 'first', tags: ['x', 'y'], meta: { n: 1 } });
  });

  it('hands out documents of their own under every projection, from find and findOne, cached or just read', async () => {
    const uuid = '0192d3a0-8f3c-7e1a-9b2d-4c5e6f708192';
    const docs: JsonObject[] = [
      { _id: { $uuid: uuid }, title: 'first', tags: ['x', 'y'], meta: { n: 1, list: [{ m: 1 }] }, $vector: [1, 0, 0] },
      { _id: { $date: 1700000000000 }, title: 'second', tags: ['z'], meta: { n: 2, list: [] }, $vector: [0, 1, 0] },
    ];
    const db = await withDocuments(docs);
    const expected: [JsonObject, JsonObject][] = [
      [{}, { _id: { $uuid: uuid }, title: 'first', tags: ['x', 'y'], meta: { n: 1, list: [{ m: 1 }] } }],
      [{ _id: 1 }, { _id: { $uuid: uuid }, title: 'first', tags: ['x', 'y'], meta: { n: 1, list: [{ m: 1 }] } }],
      [{ 'meta.list': 1 }, { _id: { $uuid: uuid }, meta: { list: [{ m: 1 }] } }],
      [{ tags: { $slice: 1 }, meta: 1 }, { _id: { $uuid: uuid }, tags: ['x'], meta: { n: 1, list: [{ m: 1 }] } }],
    ];
    const mutate = (doc: JsonObject): void => {
      (doc._id as JsonObject).$uuid = 'mutated';
      if (Array.isArray(doc.tags)) (doc.tags as string[]).push('mutated');
      const meta = doc.meta as JsonObject | undefined;
      if (meta) ((meta.list as JsonObject[])[0] ??= {}).m = 'mutated';
    };
    for (let round = 0; round < 2; round++) {
      for (const [projection, want] of expected) {
        const [found] = await nearest(db, [1, 0, 0], { projection });
        expect(found).toEqual(want);
        mutate(found!);
        const one = (await run(db, { findOne: { sort: { $vector: [1, 0, 0] }, projection } })).data as JsonObject;
        expect(one.document).toEqual(want);
        mutate(one.document as JsonObject);
      }
      // The second round reads every body again after a write: not from the cache.
      await run(db, { updateOne: { filter: { title: 'second' }, update: { $set: { seen: true } } } });
    }
  });

  it('keeps vector values out of the cached bodies when a find returns them', async () => {
    const db = await withDocuments(DOCS);
    await nearest(db, [0, 0, 1]);
    const withVectors = await nearest(db, [0, 0, 1], { projection: { $vector: 1, title: 1 } });
    expect(withVectors[0]).toEqual({ _id: 'c', title: 'third', $vector: [0, 0, 1] });
    expect((await nearest(db, [0, 0, 1]))[0]).toEqual({ _id: 'c', title: 'third', tags: ['z'], meta: { n: 3 } });
    expect((await nearest(db, [0, 0, 1], { projection: { '*': 1 } }))[0]).toEqual({ ...DOCS[2], $vector: [0, 0, 1] });
  });

  it('returns what is stored after the database is reopened', async () => {
    const dir = tempDir();
    let db = await Database.open(dir, { vectorBackend: 'wasm' });
    await executeCommand(db, { createCollection: { name: 'docs', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, KS);
    await run(db, { insertMany: { documents: DOCS } });
    await nearest(db, [1, 0, 0]);
    await run(db, { updateOne: { filter: { _id: 'a' }, update: { $set: { title: 'after' } } } });
    await db.close();
    db = await Database.open(dir, { vectorBackend: 'wasm' });
    opened.push(db);
    expect((await nearest(db, [1, 0, 0]))[0]).toMatchObject({ _id: 'a', title: 'after' });
  });
});

describe('HitCache', () => {
  const body = (n: number): JsonObject => ({ _id: n, nested: { list: [n, { deep: n }] } });

  it('returns a deep copy with the key, and nothing for an unknown label', () => {
    const cache = new HitCache(1 << 20, 1 << 10);
    expect(cache.get(1, 0)).toBeUndefined();
    const original = body(1);
    cache.fill(1, 'k1', original, 40, 0);
    const copy = cache.get(1, 0)!;
    expect(copy).toEqual({ key: 'k1', doc: original });
    expect(copy.doc).not.toBe(original);
    expect(copy.doc.nested).not.toBe(original.nested);
    ((copy.doc.nested as JsonObject).list as JsonObject[])[1]!.deep = 'changed';
    expect(cache.get(1, 0)!.doc).toEqual(body(1));
  });

  it('empties at a newer generation, and drops bodies read before a write committed', () => {
    const cache = new HitCache(1 << 20, 1 << 10);
    cache.get(1, 0);
    cache.fill(1, 'k1', body(1), 40, 0);
    expect(cache.get(1, 1)).toBeUndefined();
    expect(cache.size).toBe(0);
    // A read that started at generation 1 finishes after a lookup at generation 2 (a write committed).
    cache.get(2, 2);
    cache.fill(2, 'k2', body(2), 40, 1);
    expect(cache.get(2, 2)).toBeUndefined();
    cache.fill(2, 'k2', body(2), 40, 2);
    expect(cache.get(2, 2)?.key).toBe('k2');
  });

  it('keeps within its budget, dropping the oldest bodies first, and skips big bodies', () => {
    const cache = new HitCache(3 * (100 + 256), 200);
    for (let label = 0; label < 5; label++) cache.fill(label, `k${label}`, body(label), 100, 0);
    expect(cache.size).toBe(3);
    expect(cache.get(0, 0)).toBeUndefined();
    expect(cache.get(4, 0)?.key).toBe('k4');
    cache.fill(9, 'k9', body(9), 201, 0);
    expect(cache.get(9, 0)).toBeUndefined();
  });
});
