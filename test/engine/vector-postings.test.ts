/**
 * Filtered vector search from memory (engine/vectors/postings.ts): after random inserts, field updates,
 * vector updates, deletes and a reopen, every filter ($eq, $in, ranges, $and, $or, $exists, arrays, long
 * values) returns exactly the documents a brute-force scan finds, nearest first; and once the postings
 * are built, answering the filters that they can answer reads none of LevelDB's index entries.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { DocumentStore } from '../../src/engine/collections/document-store.js';
import type { JsonObject } from '../../src/query/json.js';
import { similarityScore } from '../../src/vector-index/metric.js';
import { rng } from '../support/random.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const DIM = 8;
const opened: Database[] = [];

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function open(dir: string): Promise<Database> {
  const db = await Database.open(dir, { limits: { maxInsertManyDocuments: 100 }, vectorBackend: 'wasm' });
  opened.push(db);
  return db;
}

async function run(db: Database, command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, { ...KS, collection: 'things' })) as unknown as JsonObject;
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response;
}

interface Thing {
  _id: number;
  cat: number;
  n: number;
  tags: string[];
  note?: string;
  $vector: number[];
}

function matches(doc: Thing, filter: JsonObject): boolean {
  return Object.entries(filter).every(([key, cond]) => {
    if (key === '$or') return (cond as JsonObject[]).some((f) => matches(doc, f));
    if (key === '$and') return (cond as JsonObject[]).every((f) => matches(doc, f));
    const value = (doc as unknown as Record<string, unknown>)[key];
    if (typeof cond !== 'object' || cond === null) return Array.isArray(value) ? value.includes(cond) : value === cond;
    return Object.entries(cond as JsonObject).every(([op, arg]) => {
      const v = value as number;
      switch (op) {
        case '$in':
          return (arg as unknown[]).some((a) => (Array.isArray(value) ? value.includes(a) : value === a));
        case '$gte':
          return typeof value === 'number' && v >= (arg as number);
        case '$lt':
          return typeof value === 'number' && v < (arg as number);
        case '$gt':
          return typeof value === 'number' && v > (arg as number);
        case '$exists':
          return (value !== undefined) === arg;
        default:
          throw new Error(`test model: ${op}`);
      }
    });
  });
}

const LONG = 'x'.repeat(300);

const FILTERS: JsonObject[] = [
  { cat: 3 },
  { cat: { $in: [1, 4, 7] } },
  { n: { $gte: 100, $lt: 180 } },
  { n: { $gt: 950 } },
  { cat: 2, n: { $lt: 500 } },
  { $or: [{ cat: 5 }, { tags: 'red' }] },
  { tags: 'blue' },
  { tags: { $in: ['red', 'green'] }, cat: { $in: [0, 1, 2, 3] } },
  { note: 'short' },
  { note: { $exists: true }, cat: 1 },
  { _id: { $in: [3, 50, 999, 4000] } },
  { cat: 42 },
];
/**
 * Filters the postings cannot answer (values too long to hold under `note`; `_id` values, never held: its
 * equalities come from document keys): LevelDB's index does.
 */
const LONG_VALUE_FILTERS: JsonObject[] = [{ note: LONG }, { note: { $exists: true } }, { _id: { $lt: 140 } }, { _id: { $gt: 1150 }, cat: 3 }, { _id: { $exists: true }, cat: 2 }];

describe('filtered vector search from the in-memory postings', () => {
  it('returns exactly the brute-force matches after random writes and after a reopen, without reading the index', async () => {
    const dir = tempDir();
    let db = await open(dir);
    const rand = rng(20);
    const vector = () => Array.from({ length: DIM }, () => rand() * 2 - 1);
    const model = new Map<number, Thing>();
    const thing = (id: number): Thing => {
      const doc: Thing = { _id: id, cat: Math.floor(rand() * 10), n: Math.floor(rand() * 1000), tags: ['red', 'green', 'blue'].filter(() => rand() < 0.4), $vector: vector() };
      const r = rand();
      if (r < 0.1) doc.note = 'short';
      else if (r < 0.2) doc.note = LONG + id;
      else if (r < 0.25) doc.note = LONG;
      return doc;
    };
    await executeCommand(db, { createCollection: { name: 'things', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, KS);
    for (let i = 0; i < 1200; i += 100) {
      const docs = Array.from({ length: 100 }, (_, j) => thing(i + j));
      for (const doc of docs) model.set(doc._id, doc);
      await run(db, { insertMany: { documents: docs as unknown as JsonObject[] } });
    }

    const check = async (label: string) => {
      for (const filter of LONG_VALUE_FILTERS) await expectExact(label, filter);
      const readsIndex = vi.spyOn(DocumentStore.prototype, 'indexKeys');
      for (const filter of FILTERS) await expectExact(label, filter);
      expect(readsIndex, label).not.toHaveBeenCalled();
      readsIndex.mockRestore();
    };
    const expectExact = async (label: string, filter: JsonObject) => {
      {
        for (let q = 0; q < 3; q++) {
          const query = vector();
          const truth = [...model.values()]
            .filter((doc) => matches(doc, filter))
            .map((doc) => ({ id: doc._id, score: similarityScore('cosine', query, doc.$vector) }))
            .sort((a, b) => b.score - a.score)
            .slice(0, 25);
          const response = await run(db, { find: { filter, sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 25 } } });
          const found = ((response.data as JsonObject).documents as JsonObject[]).map((d) => d._id);
          expect(found, `${label} ${JSON.stringify(filter)}`).toEqual(truth.map((t) => t.id));
        }
      }
    };

    // The postings are built in the background at open (from the empty collection here).
    expect(await db.collection('default_keyspace', 'things').postingsBuilt()).toBe(true);
    await check('after inserts');

    for (let step = 0; step < 300; step++) {
      const id = Math.floor(rand() * 1300);
      const r = rand();
      if (r < 0.3) {
        const doc = model.get(id);
        if (!doc) continue;
        const cat = Math.floor(rand() * 10);
        doc.cat = cat;
        await run(db, { updateOne: { filter: { _id: id }, update: { $set: { cat } } } });
      } else if (r < 0.5) {
        const doc = model.get(id);
        if (!doc) continue;
        doc.$vector = vector();
        doc.tags = rand() < 0.5 ? ['blue'] : [];
        await run(db, { updateOne: { filter: { _id: id }, update: { $set: { $vector: doc.$vector, tags: doc.tags } } } });
      } else if (r < 0.75) {
        model.delete(id);
        await run(db, { deleteOne: { filter: { _id: id } } });
      } else {
        const doc = thing(id);
        model.set(id, doc);
        const { _id, ...replacement } = doc;
        await run(db, { findOneAndReplace: { filter: { _id }, replacement: replacement as unknown as JsonObject, options: { upsert: true } } });
      }
    }
    await check('after updates and deletes');

    await db.close();
    db = await open(dir);
    // Writes made while the postings are built from the index are replayed after the build.
    const building = db.collection('default_keyspace', 'things').postingsBuilt();
    for (let step = 0; step < 40; step++) {
      const id = Math.floor(rand() * 1300);
      const doc = thing(id);
      model.set(id, doc);
      const { _id, ...replacement } = doc;
      await run(db, { findOneAndReplace: { filter: { _id }, replacement: replacement as unknown as JsonObject, options: { upsert: true } } });
    }
    expect(await building).toBe(true);
    await check('after reopen, with writes during the build');

    await run(db, { deleteMany: {} });
    model.clear();
    const docs = Array.from({ length: 50 }, (_, j) => thing(5000 + j));
    for (const doc of docs) model.set(doc._id, doc);
    await run(db, { insertMany: { documents: docs as unknown as JsonObject[] } });
    await check('after emptying and refilling');
  });

  it('answers a query made at once after a reopen, closes before the postings build starts, and builds them next time', async () => {
    const dir = tempDir();
    let db = await open(dir);
    await executeCommand(db, { createCollection: { name: 'things', options: { vector: { dimension: DIM, metric: 'euclidean' } } } }, KS);
    const docs = Array.from({ length: 200 }, (_, i) => ({ _id: i, cat: i % 5, $vector: Array.from({ length: DIM }, (_, d) => Math.sin(i * 7 + d) + 1.5) }));
    await run(db, { insertMany: { documents: docs.slice(0, 100) } });
    await run(db, { insertMany: { documents: docs.slice(100) } });
    await db.close();

    db = await open(dir);
    const query = docs[17]!.$vector;
    const first = await run(db, { find: { sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 1 } } });
    expect(((first.data as JsonObject).documents as JsonObject[])[0]?._id).toBe(17);
    await db.close(); // the postings build, started a macrotask after the vectors opened, may not have begun

    db = await open(dir);
    expect(await db.collection('default_keyspace', 'things').postingsBuilt()).toBe(true);
    const filtered = await run(db, { find: { filter: { cat: 2 }, sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 200 } } });
    const ids = ((filtered.data as JsonObject).documents as JsonObject[]).map((d) => d._id as number);
    expect(ids.sort((a, b) => a - b)).toEqual(docs.filter((d) => d.cat === 2).map((d) => d._id));
  });
});
