/**
 * The fast path of a filtered vector search whose filter is one equality on an indexed path (planner.ts
 * singleEquality, vector-select.ts equalityLabels): which filters take it, and that every scalar type,
 * nested paths, array-valued fields and look-alike sub-documents give exactly the documents the filter
 * matches, nearest first, before and after writes, without reading LevelDB's index entries.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { DocumentStore } from '../../src/engine/collections/document-store.js';
import { singleEquality } from '../../src/engine/collections/planner.js';
import { parseFilter } from '../../src/query/filter.js';
import type { JsonObject } from '../../src/query/json.js';
import { similarityScore } from '../../src/vector-index/metric.js';
import { rng } from '../support/random.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const DIM = 6;
const WHEN = Date.UTC(2024, 5, 1);
const opened: Database[] = [];

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function run(db: Database, command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, { ...KS, collection: 'things' })) as unknown as JsonObject;
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response;
}

describe('singleEquality', () => {
  const all = () => true;
  const of = (filter: JsonObject, isIndexed: (path: string) => boolean = all) => singleEquality(parseFilter(filter, { isIndexed: all }), isIndexed);

  it('names the one index entry of a lone $eq on a filed path with an atomic value', () => {
    expect(of({ cat: 5 })?.indexPath).toBe('cat');
    expect(of({ cat: { $eq: 5 } })).toEqual(of({ cat: 5 }));
    expect(of({ 'g.h': 'x' })?.indexPath).toBe('g.h');
    expect(of({ when: { $date: WHEN } })?.indexPath).toBe('when');
    for (const value of [true, null, 'five', 5.5]) expect(of({ v: value })).toBeDefined();
    expect(of({ cat: 5 })).not.toEqual(of({ cat: 6 }));
    expect(of({ cat: 5 })).not.toEqual(of({ cat: '5' }));
  });

  it('leaves every other filter to the planner', () => {
    for (const filter of [
      {},
      { _id: 5 },
      { cat: 5, n: 1 },
      { cat: { $in: [5] } },
      { cat: { $gt: 5 } },
      { cat: { $ne: 5 } },
      { cat: [5] },
      { g: { h: 'x' } },
      { $or: [{ cat: 5 }] },
    ] as JsonObject[]) {
      expect(of(filter), JSON.stringify(filter)).toBeUndefined();
    }
    // A path whose entries are not filed (as when indexing denies it) has no entry to read.
    expect(of({ cat: 5 }, (path) => path !== 'cat')).toBeUndefined();
  });
});

describe('filtered vector search by one equality', () => {
  it('returns exactly the matching documents, nearest first, for every scalar type, before and after writes', async () => {
    const db = await Database.open(tempDir(), { limits: { maxInsertManyDocuments: 100 }, vectorBackend: 'wasm' });
    opened.push(db);
    await executeCommand(db, { createCollection: { name: 'things', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, KS);
    const rand = rng(33);
    const vector = () => Array.from({ length: DIM }, () => rand() * 2 - 1);
    const docs = new Map<number, JsonObject>();
    const thing = (id: number): JsonObject => {
      const cats: JsonObject['cat'][] = [id % 7, [id % 7, 5], { '0': 5 }, [[5]], String(id % 7)];
      const doc: JsonObject = {
        _id: id,
        cat: cats[id % 5 === 0 ? Math.floor(rand() * cats.length) : 0]!,
        s: `s${id % 4}`,
        b: id % 3 === 0,
        g: { h: `x${id % 5}` },
        when: { $date: WHEN + (id % 2) },
        $vector: vector(),
      };
      if (id % 6 === 0) doc.z = null;
      return doc;
    };
    for (let i = 0; i < 400; i += 100) {
      const batch = Array.from({ length: 100 }, (_, j) => thing(i + j));
      for (const doc of batch) docs.set(doc._id as number, doc);
      await run(db, { insertMany: { documents: batch } });
    }
    const collection = db.collection('default_keyspace', 'things');
    expect(await collection.postingsBuilt()).toBe(true);

    const FILTERS: JsonObject[] = [
      { cat: 5 },
      { cat: 3 },
      { cat: '3' },
      { cat: 99 },
      { s: 's2' },
      { b: true },
      { z: null },
      { 'g.h': 'x1' },
      { when: { $date: WHEN + 1 } },
    ];
    const check = async (label: string) => {
      const readsIndex = vi.spyOn(DocumentStore.prototype, 'indexKeys');
      for (const raw of FILTERS) {
        const filter = parseFilter(raw, { isIndexed: collection.isIndexed });
        for (let q = 0; q < 3; q++) {
          const query = vector();
          const truth = [...docs.values()]
            .filter((doc) => filter.matches(doc))
            .map((doc) => ({ id: doc._id, score: similarityScore('cosine', query, doc.$vector as number[]) }))
            .sort((a, b) => b.score - a.score)
            .slice(0, 15);
          const response = await run(db, { find: { filter: raw, sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 15 } } });
          const found = ((response.data as JsonObject).documents as JsonObject[]).map((d) => d._id);
          expect(found, `${label} ${JSON.stringify(raw)}`).toEqual(truth.map((t) => t.id));
        }
      }
      expect(readsIndex, label).not.toHaveBeenCalled();
      readsIndex.mockRestore();
    };
    await check('after inserts');

    for (let step = 0; step < 150; step++) {
      const id = Math.floor(rand() * 450);
      if (rand() < 0.4) {
        docs.delete(id);
        await run(db, { deleteOne: { filter: { _id: id } } });
      } else {
        const doc = thing(id + 1000 * Math.floor(rand() * 3));
        doc._id = id;
        docs.set(id, doc);
        const { _id, ...replacement } = doc;
        await run(db, { findOneAndReplace: { filter: { _id }, replacement, options: { upsert: true } } });
      }
    }
    await check('after replacements and deletes');
  });

  it('looks at the postings again after an await: a write that lands meanwhile is seen, not half-seen', async () => {
    const db = await Database.open(tempDir(), { vectorBackend: 'wasm' });
    opened.push(db);
    await executeCommand(db, { createCollection: { name: 'things', options: { vector: { dimension: 4, metric: 'cosine' } } } }, KS);
    // Inserted first: the smallest label, so moving it into cat 5 inserts it at the front of that entry's
    // labels and shifts the rest (a view taken before would lose its last label).
    await run(db, { insertOne: { document: { _id: 'mover', cat: 3, $vector: [1, 0.3, 0, 0] } } });
    // Look-alikes are filed under cat = 5 too (the index path drops the numeric segment) but do not match
    // {cat: 5}: nearest to the query, they fill the first round, so the search must go round again.
    const lookAlikes = Array.from({ length: 12 }, (_, i) => ({ _id: `look${i}`, cat: { '0': 5 }, $vector: [1, 0.01 * (i + 1), 0, 0] }));
    const matching = Array.from({ length: 8 }, (_, i) => ({ _id: `true${i}`, cat: 5, $vector: [1, 0.5 + 0.1 * i, 0.2, 0] }));
    await run(db, { insertMany: { documents: [...lookAlikes, ...matching] } });
    // Inserted last: the largest label, the last of the entry's labels, and the nearest match.
    await run(db, { insertOne: { document: { _id: 'last', cat: 5, $vector: [1, 0.2, 0, 0] } } });
    expect(await db.collection('default_keyspace', 'things').postingsBuilt()).toBe(true);

    const getHits = DocumentStore.prototype.getHits;
    let moved = false;
    const spy = vi.spyOn(DocumentStore.prototype, 'getHits').mockImplementation(async function (this: DocumentStore, ...args: Parameters<typeof getHits>) {
      if (!moved) {
        // The first round's bodies arrive after the write has committed and reached the postings.
        moved = true;
        await run(db, { updateOne: { filter: { _id: 'mover' }, update: { $set: { cat: 5 } } } });
      }
      return getHits.apply(this, args);
    });
    const response = await run(db, { find: { filter: { cat: 5 }, sort: { $vector: [1, 0, 0, 0] }, projection: { _id: 1 }, options: { limit: 3 } } });
    spy.mockRestore();
    expect(moved).toBe(true);
    const found = ((response.data as JsonObject).documents as JsonObject[]).map((d) => d._id);
    expect(found).toEqual(['last', 'mover', 'true0']);
  });
});
