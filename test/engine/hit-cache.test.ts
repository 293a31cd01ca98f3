/**
 * The parsed-body cache of vector search hits (engine/collections/hit-cache.ts): what a vector find returns is never
 * older than the last acknowledged write, and documents handed out are the caller's own (changing them
 * never changes what later queries return). Over a real LevelDB through the command layer, plus the
 * cache's own generation rules.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { HitCache, hitCacheCost } from '../../src/engine/collections/hit-cache.js';
import { parseFilter } from '../../src/query/filter.js';
import type { JsonObject } from '../../src/query/json.js';
import type { SortSpec } from '../../src/query/sort.js';
import { toJsonText } from '../../src/query/exact-number.js';
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
  if (documents.length > 0) await run(db, { insertMany: { documents } });
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
      // The second round after a write to the other document (this one's body stays cached).
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

/** What a plain find by `_id` (no hit cache: the row cache and LevelDB) returns for each of `docs`. */
async function readBack(db: Database, docs: JsonObject[], projection: JsonObject = {}): Promise<JsonObject[]> {
  const out: JsonObject[] = [];
  for (const doc of docs) {
    const response = await run(db, { find: { filter: { _id: doc._id! }, projection } });
    out.push(...(((response.data as JsonObject).documents as JsonObject[]) ?? []));
  }
  return out;
}

describe('cached hit bodies across writes (kept per label, written bodies kept as written)', () => {
  it('a vector find right after a write returns the documents exactly as a read does (exact numbers, unicode, nesting)', async () => {
    const docs: JsonObject[] = [
      { _id: 'big', n: 12345678901234567890n as unknown as JsonObject, neg: -0, s: 'é\u2028😀', deep: { a: [1, { b: null }] }, $vector: [1, 0, 0] },
      // Over the cache's body limit (16 KiB): always read from LevelDB.
      { _id: 2.5, ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`t${i}`, 'x'.repeat(4000)])), $vector: [0.9, 0.1, 0] },
      { _id: { $date: 5 }, empty: {}, list: [], $vector: [0, 1, 0] },
    ];
    const db = await withDocuments(docs);
    const found = await nearest(db, [1, 0, 0]);
    expect(found.map((d) => d._id)).toEqual(['big', 2.5, { $date: 5 }]);
    expect(found).toEqual(await readBack(db, found));
    expect(toJsonText(found)).toBe(toJsonText(await readBack(db, found)));
    // And a second time (the bodies now parsed in the cache), and with $vector restored.
    expect(await nearest(db, [1, 0, 0])).toEqual(found);
    const withVector = await nearest(db, [1, 0, 0], { projection: { '*': 1 } });
    expect(withVector).toEqual(await readBack(db, withVector, { '*': 1 }));
  });

  it('after a random sequence of writes every hit equals what a read returns, and deleted documents are never hits', async () => {
    const db = await withDocuments([]);
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const vector = (): number[] => [random(), random(), random()];
    const live = new Set<number>();
    for (let step = 0; step < 160; step++) {
      const id = Math.floor(random() * 24);
      const action = random();
      if (action < 0.35) {
        await run(db, { findOneAndReplace: { filter: { _id: id }, replacement: { v: step, $vector: vector() }, options: { upsert: true } } });
        live.add(id);
      } else if (action < 0.6) {
        // Same vector kept (label kept): only the body changes.
        await run(db, { updateOne: { filter: { _id: id }, update: { $set: { v: step, nested: { at: step } } } } });
      } else if (action < 0.75) {
        await run(db, { updateOne: { filter: { _id: id }, update: { $set: { $vector: vector() } } } });
      } else if (action < 0.85) {
        await run(db, { deleteOne: { filter: { _id: id } } });
        live.delete(id);
      } else {
        await run(db, { insertMany: { documents: [{ _id: 100 + step, v: step, $vector: vector() }], options: { ordered: false } } });
        live.add(100 + step);
      }
      const response = await run(db, { find: { sort: { $vector: vector() }, options: { limit: 5 } } });
      const hits = (response.data as JsonObject).documents as JsonObject[];
      expect(hits.length).toBe(Math.min(5, live.size));
      for (const hit of hits) expect(live.has(hit._id as number)).toBe(true);
      expect(hits).toEqual(await readBack(db, hits));
    }
  });

  it('a find racing a write: once the write is acknowledged no find returns the old body', async () => {
    const db = await withDocuments(DOCS);
    for (let round = 0; round < 20; round++) {
      const before = nearest(db, [1, 0, 0]); // may see either body
      const write = run(db, { updateOne: { filter: { _id: 'a' }, update: { $set: { title: `round ${round}` } } } });
      const during = nearest(db, [1, 0, 0]);
      await Promise.all([before, write, during]);
      expect((await nearest(db, [1, 0, 0]))[0]!.title).toBe(`round ${round}`);
    }
  });

  it('an emptied collection (deleteMany) and its new documents', async () => {
    const db = await withDocuments(DOCS);
    await nearest(db, [1, 0, 0]);
    await run(db, { deleteMany: {} });
    await run(db, { insertMany: { documents: [{ _id: 'a', title: 'new', $vector: [1, 0, 0] }] } });
    expect(await nearest(db, [1, 0, 0])).toEqual([{ _id: 'a', title: 'new' }]);
  });
});

describe('HitCache', () => {
  const body = (n: number): JsonObject => ({ _id: n, nested: { list: [n, { deep: n }] } });
  const newCache = (maxBytes = 1 << 20, maxBodyBytes = 1 << 10): HitCache => new HitCache(maxBytes, maxBodyBytes, (text) => JSON.parse(text) as JsonObject);

  it('returns a deep copy with the key, and nothing for an unknown label', () => {
    const cache = newCache();
    expect(cache.get(1)).toBeUndefined();
    const original = body(1);
    cache.fill(1, 'k1', original, 40);
    const copy = cache.get(1)!;
    expect(copy).toEqual({ key: 'k1', doc: original });
    expect(copy.doc).not.toBe(original);
    expect(copy.doc.nested).not.toBe(original.nested);
    ((copy.doc.nested as JsonObject).list as JsonObject[])[1]!.deep = 'changed';
    expect(cache.get(1)!.doc).toEqual(body(1));
  });

  it('looks up a search\'s hits at once: cached ones at their positions (text parsed once), others left as they were', () => {
    const cache = newCache();
    cache.fill(1, 'k1', body(1), 40);
    cache.fillWritten(3, 'k3', JSON.stringify(body(3)));
    const hits = [{ label: 3 }, { label: 2 }, { label: 1 }, { label: 900 }];
    const lent: ({ key: string; doc: JsonObject } | null)[] = [null, null, null, null];
    cache.lookUp(hits, lent, true);
    expect(lent).toEqual([{ key: 'k3', doc: body(3) }, null, { key: 'k1', doc: body(1) }, null]);
    expect(lent[0]!.doc).toBe(cache.peek(3)!.doc); // shared: the cached bodies themselves, the text parsed once
    expect(lent[2]!.doc).toBe(cache.peek(1)!.doc);
    const copies: ({ key: string; doc: JsonObject } | null)[] = [null, null, null, null];
    cache.lookUp(hits, copies, false);
    expect(copies).toEqual(lent);
    expect(copies[0]!.doc).not.toBe(lent[0]!.doc);
    expect(copies[2]!.doc.nested).not.toBe(lent[2]!.doc.nested);
  });

  it('keeps written bodies as text, parsed once at their first hit; invalidate and clear drop entries', () => {
    const cache = newCache();
    cache.fillWritten(1, 'k1', JSON.stringify(body(1)));
    const lent = cache.peek(1)!;
    expect({ key: lent.key, doc: lent.doc }).toEqual({ key: 'k1', doc: body(1) });
    expect(cache.peek(1)!.doc).toBe(lent.doc); // parsed once, then lent as is
    expect(cache.get(1)!.doc).not.toBe(lent.doc);
    cache.fillWritten(1, 'k1', JSON.stringify({ _id: 1, changed: true }));
    expect(cache.get(1)!.doc).toEqual({ _id: 1, changed: true });
    cache.fill(2, 'k2', body(2), 40);
    cache.invalidate(1);
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)?.key).toBe('k2');
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('keeps within its budget, dropping the oldest bodies first, and skips big bodies', () => {
    const cache = newCache(3 * hitCacheCost(100), 200);
    for (let label = 0; label < 5; label++) cache.fill(label, `k${label}`, body(label), 100);
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBe(3 * hitCacheCost(100));
    expect(cache.get(0)).toBeUndefined();
    expect(cache.get(4)?.key).toBe('k4');
    cache.fill(9, 'k9', body(9), 201);
    expect(cache.get(9)).toBeUndefined();
    // A written body too big to keep also drops the label's older body.
    cache.fillWritten(4, 'k4', JSON.stringify({ _id: 4, text: 'x'.repeat(300) }));
    expect(cache.get(4)).toBeUndefined();
  });

  it('labels far apart and out of order, replaced and dropped entries, over many evictions', () => {
    const cache = newCache(100 * hitCacheCost(10), 1 << 10);
    const live = new Map<number, string>();
    for (let i = 0; i < 5000; i++) {
      const label = (i * 7919) % 3001;
      if (i % 5 === 4) {
        cache.invalidate(label);
        live.delete(label);
      } else {
        cache.fill(label, `k${label}.${i}`, { i }, 10);
        live.set(label, `k${label}.${i}`);
      }
    }
    expect(cache.size).toBeLessThanOrEqual(100);
    let found = 0;
    for (let label = 0; label < 3001; label++) {
      const entry = cache.get(label);
      if (entry === undefined) continue;
      found++;
      expect(entry.key).toBe(live.get(label)); // never an older body of the label
    }
    expect(found).toBe(cache.size);
    expect(cache.get(1e6)).toBeUndefined();
  });

  it('holds 4 bytes per label however few bodies it keeps, and reuses the entries of dropped bodies', () => {
    // Room for about 50 bodies: a bulk load of 20,000 labels keeps the newest and allocates no more entries.
    const cache = newCache(50 * hitCacheCost(20), 1 << 10);
    for (let label = 0; label < 20_000; label++) cache.fillWritten(label, `k${label}`, JSON.stringify({ _id: label }).padEnd(20));
    expect(cache.size).toBeGreaterThan(40);
    expect(cache.size).toBeLessThanOrEqual(50);
    const { labelBytes, entries } = cache.footprint;
    expect(labelBytes).toBeGreaterThanOrEqual(4 * 20_000);
    expect(labelBytes).toBeLessThanOrEqual(4 * 1.5 * 20_000);
    expect(entries).toBeLessThanOrEqual(51);
    expect(cache.peek(19_999)?.key).toBe('k19999');
    expect(cache.peek(0)).toBeUndefined();
    // Replacing and dropping bodies reuses entries: none are added while the count stays within the budget.
    for (let round = 0; round < 100; round++) {
      const label = 19_990 + (round % 10);
      if (round % 3 === 0) cache.invalidate(label);
      else cache.fill(label, `r${round}`, { round }, 20);
    }
    expect(cache.footprint.entries).toBeLessThanOrEqual(entries + 1);
    expect(cache.get(19_998)?.doc).toEqual({ round: 98 }); // its last round
    expect(cache.get(19_999)).toBeUndefined(); // dropped in round 99, its last
    cache.clear();
    expect(cache.footprint).toEqual({ labelBytes: 0, entries: 0 });
  });
});
