/**
 * The query planner over real LevelDB: indexed clauses read only their index range (the candidate set is
 * exactly the matching documents for scalar equality), ranges merge, AND intersects, OR unions, and
 * only filters without an indexed clause scan. Also checks that candidates are always a superset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { DocumentStore } from '../../src/engine/collections/document-store.js';
import { planCandidates } from '../../src/engine/collections/planner.js';
import { parseFilter } from '../../src/query/filter.js';
import { keys } from '../../src/storage/index.js';
import type { JsonObject } from '../../src/query/json.js';
import { tempDir } from '../support/temp.js';

let db: Database;
const KS = { keyspace: 'default_keyspace' };
const N = 500;

function doc(i: number): JsonObject {
  return {
    _id: `d${String(i).padStart(4, '0')}`,
    group: `g${i % 25}`,
    n: i,
    even: i % 2 === 0,
    tags: [`t${i % 7}`, `t${(i + 1) % 7}`],
    items: [{ a: i % 5 }, { a: (i + 1) % 5, b: i % 4 === 0 ? 'x' : 'y' }],
    nested: { k: i % 10, deep: { s: `s${i % 3}` } },
    when: { $date: 1_700_000_000_000 + i * 60_000 },
    note: i % 50 === 0 ? null : `note ${i}`,
    ...(i % 3 === 0 ? { sometimes: i } : {}),
  };
}

beforeAll(async () => {
  db = await Database.open(tempDir(), { limits: { maxInsertManyDocuments: 100 } });
  await executeCommand(db, { createCollection: { name: 'c', options: { indexing: { deny: ['secret'] } } } }, KS);
  for (let i = 0; i < N; i += 100) {
    const documents = Array.from({ length: 100 }, (_, j) => ({ ...doc(i + j), secret: 'hidden' }));
    const response = await executeCommand(db, { insertMany: { documents } }, { ...KS, collection: 'c' });
    expect(response.errors).toBeUndefined();
  }
});

afterAll(async () => {
  await db.close();
});

async function plan(rawFilter: JsonObject) {
  const collection = db.collection('default_keyspace', 'c');
  const filter = parseFilter(rawFilter, { isIndexed: collection.isIndexed });
  const store = new DocumentStore(db.kvStore, collection.record.cid);
  const result = await planCandidates(filter, { store, isIndexed: collection.isIndexed, maxCandidates: 100_000 });
  // The truth, by evaluating the filter on every document.
  const matching: string[] = [];
  for await (const stored of store.scan()) if (filter.matches(stored.doc)) matching.push(stored.key);
  return { result, matching };
}

describe('planner', () => {
  const cases: { name: string; filter: JsonObject; expect: 'exact' | 'superset' | 'scan'; maxCandidates?: number }[] = [
    { name: 'scalar equality reads exactly its matches', filter: { group: 'g3' }, expect: 'exact' },
    { name: 'number equality', filter: { n: 42 }, expect: 'exact' },
    { name: 'boolean equality', filter: { even: true }, expect: 'exact' },
    { name: 'null equality', filter: { note: null }, expect: 'exact' },
    { name: 'array element equality', filter: { tags: 't3' }, expect: 'exact' },
    { name: '$in of scalars', filter: { group: { $in: ['g1', 'g2'] } }, expect: 'exact' },
    { name: 'range on numbers', filter: { n: { $gte: 100, $lt: 120 } }, expect: 'exact', maxCandidates: 20 },
    { name: 'range on dates', filter: { when: { $gt: { $date: 1_700_000_000_000 + 400 * 60_000 } } }, expect: 'exact', maxCandidates: 99 },
    { name: 'range on strings (array elements make it a superset)', filter: { group: { $lt: 'g11' } }, expect: 'superset' },
    { name: 'nested path', filter: { 'nested.deep.s': 's1' }, expect: 'exact' },
    { name: 'positional path', filter: { 'items.1.b': 'x' }, expect: 'superset' },
    { name: 'array literal equality via a leaf', filter: { tags: ['t1', 't2'] }, expect: 'superset' },
    { name: 'sub-document literal equality via a leaf', filter: { nested: { k: 3, deep: { s: 's0' } } }, expect: 'superset' },
    { name: 'AND picks and intersects', filter: { group: 'g4', even: true }, expect: 'exact' },
    { name: 'OR of indexed clauses unions', filter: { $or: [{ group: 'g1' }, { n: 3 }] }, expect: 'exact' },
    { name: '$all probes one value', filter: { tags: { $all: ['t1', 't2'] } }, expect: 'superset' },
    { name: '$exists true', filter: { sometimes: { $exists: true } }, expect: 'exact', maxCandidates: 167 },
    { name: '_id lookup', filter: { _id: { $in: ['d0001', 'd0002', 'nope'] } }, expect: 'superset', maxCandidates: 3 },
    { name: '$ne alone scans', filter: { group: { $ne: 'g1' } }, expect: 'scan' },
    { name: '$exists false alone scans', filter: { sometimes: { $exists: false } }, expect: 'scan' },
    { name: 'OR with an unindexable branch scans', filter: { $or: [{ group: 'g1' }, { n: { $ne: 3 } }] }, expect: 'scan' },
    { name: 'AND uses its indexable clause next to $ne', filter: { group: 'g2', n: { $ne: 2 } }, expect: 'superset', maxCandidates: 20 },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const { result, matching } = await plan(c.filter);
      if (c.expect === 'scan') {
        expect(result.kind).toBe('scan');
        return;
      }
      expect(result.kind).toBe('keys');
      const keys = result.kind === 'keys' ? result.keys : [];
      for (const key of matching) expect(keys).toContain(key);
      if (c.expect === 'exact') expect([...keys]).toEqual(matching);
      expect(keys.length).toBeLessThanOrEqual(c.maxCandidates ?? Math.max(matching.length * 4, 1));
      expect(keys.length).toBeLessThan(N);
    });
  }

  it('denied paths are rejected by the filter, never planned', () => {
    const collection = db.collection('default_keyspace', 'c');
    expect(() => parseFilter({ secret: 'hidden' }, { isIndexed: collection.isIndexed })).toThrow(/not indexed/);
  });

  it('an _id lookup for an id no document can have (an unpaired surrogate) matches nothing, not its UTF-8 twin', async () => {
    const target = { keyspace: 'default_keyspace', collection: 'c' };
    await executeCommand(db, { insertOne: { document: { _id: '\uFFFD', n: -1 } } }, target);
    const filter = { _id: { $in: ['\uD800', '\uDFFF', '\uFFFD'] } };
    expect((await executeCommand(db, { countDocuments: { filter } }, target)).status).toEqual({ count: 1 });
    const found = await executeCommand(db, { find: { filter } }, target);
    expect((found.data as { documents: JsonObject[] }).documents).toEqual([{ _id: '\uFFFD', n: -1 }]);
    expect((await executeCommand(db, { deleteMany: { filter } }, target)).status).toEqual({ deletedCount: 1 });
  });

  it('index entries follow updates and deletes', async () => {
    const target = { keyspace: 'default_keyspace', collection: 'c' };
    await executeCommand(db, { updateOne: { filter: { _id: 'd0007' }, update: { $set: { group: 'moved' } } } }, target);
    expect((await plan({ group: 'moved' })).result).toEqual({ kind: 'keys', keys: ['sd0007'] });
    expect((await plan({ group: 'g7' })).matching).not.toContain('sd0007');
    const before = await plan({ group: 'g7' });
    expect(before.result.kind === 'keys' && before.result.keys).not.toContain('sd0007');
    await executeCommand(db, { deleteOne: { filter: { _id: 'd0007' } } }, target);
    expect((await plan({ group: 'moved' })).result).toEqual({ kind: 'keys', keys: [] });
  });
});

describe('indexing rules on positional and nested paths', () => {
  /** Entries of an array's elements file under the array's path: denying a position cannot drop them. */
  const DENIED = ['tags.0', 'items.a'];
  const docs: JsonObject[] = [
    { _id: 'p1', tags: ['red', 'blue'], address: { zip: '1', city: 'x' }, items: [{ a: 1, b: 2 }] },
    { _id: 'p2', tags: ['blue', 'red'], address: { city: 'x', zip: '2' }, items: [{ a: 2 }] },
    { _id: 'p3', tags: [['red', 'blue']], address: [{ zip: '1', city: 'x' }] },
    ...Array.from({ length: 60 }, (_, i) => ({ _id: `f${i}`, tags: [`t${i % 5}`], address: { zip: `z${i}`, city: `c${i % 3}` }, items: [{ a: i }] })),
  ];

  async function withCollection(name: string, indexing: JsonObject, check: (run: (filter: JsonObject) => Promise<{ found: string[]; truth: string[]; planned: string }>) => Promise<void>) {
    await executeCommand(db, { createCollection: { name, options: { indexing } } }, KS);
    const response = await executeCommand(db, { insertMany: { documents: docs } }, { ...KS, collection: name });
    expect(response.errors).toBeUndefined();
    const collection = db.collection('default_keyspace', name);
    const store = new DocumentStore(db.kvStore, collection.record.cid);
    await check(async (rawFilter) => {
      const r = await executeCommand(db, { find: { filter: rawFilter } }, { ...KS, collection: name });
      expect(r.errors, JSON.stringify(rawFilter)).toBeUndefined();
      const filter = parseFilter(rawFilter, { isIndexed: collection.isIndexed });
      const plan = await planCandidates(filter, { store, isIndexed: collection.isIndexed, maxCandidates: 100_000 });
      const found = (r.data as { documents: JsonObject[] }).documents.map((d) => String(d._id)).sort();
      const truth = docs.filter((d) => filter.matches(d)).map((d) => String(d._id)).sort();
      return { found, truth, planned: plan.kind };
    });
    await executeCommand(db, { deleteCollection: { name } }, KS);
  }

  it('deny: a denied position does not hide array elements from filters on the array', async () => {
    await withCollection('denied_positions', { deny: DENIED }, async (run) => {
      const filters: JsonObject[] = [
        { tags: 'red' },
        { tags: ['red', 'blue'] },
        { tags: { $all: ['blue', 'red'] } },
        { tags: { $in: ['red', 't1'] } },
        { 'items.0.a': 1 },
      ];
      for (const filter of filters) {
        const { found, truth, planned } = await run(filter);
        expect(found, JSON.stringify(filter)).toEqual(truth);
        expect(truth.length, JSON.stringify(filter)).toBeGreaterThan(0);
        if (!('items.0.a' in filter)) expect(planned, JSON.stringify(filter)).toBe('keys');
      }
    });
  });

  it('a collection written by an earlier build, with a deny rule naming a position, gets the missing entries at open', async () => {
    const dir = tempDir();
    let legacy = await Database.open(dir, { limits: { maxInsertManyDocuments: 100 } });
    await executeCommand(legacy, { createCollection: { name: 'old', options: { indexing: { deny: DENIED } } } }, KS);
    expect((await executeCommand(legacy, { insertMany: { documents: docs } }, { ...KS, collection: 'old' })).errors).toBeUndefined();
    // What an earlier build left: no entry for an element at a denied position, and no rule marker.
    const cid = legacy.collection('default_keyspace', 'old').record.cid;
    const positionZero = new Set(docs.map((d) => (Array.isArray(d.tags) && typeof d.tags[0] === 'string' ? `${String(d._id)}\u0000${d.tags[0]}` : '')));
    const stale: string[] = [];
    for await (const key of legacy.kvStore.keys({ gte: keys.indexPathPrefix(cid, 'tags'), lt: keys.indexPathPrefix(cid, 'tags') + keys.HIGH })) {
      const [, , value, docKey] = key.split('\u0000');
      if (positionZero.has(`${docKey!.slice(1)}\u0000${value!.slice(1)}`)) stale.push(key);
    }
    expect(stale.length).toBeGreaterThan(60);
    await legacy.kvStore.batch([...stale.map((key) => ({ type: 'del' as const, key })), { type: 'del', key: keys.indexRuleKey(cid) }]);
    const missed = await executeCommand(legacy, { find: { filter: { tags: 'red' } } }, { ...KS, collection: 'old' });
    expect((missed.data as { documents: JsonObject[] }).documents.map((d) => d._id)).toEqual(['p2']);
    await legacy.close();

    legacy = await Database.open(dir);
    try {
      const found = await executeCommand(legacy, { find: { filter: { tags: 'red' } } }, { ...KS, collection: 'old' });
      expect((found.data as { documents: JsonObject[] }).documents.map((d) => d._id).sort()).toEqual(['p1', 'p2']);
      expect(await legacy.kvStore.getString(keys.indexRuleKey(cid))).toBe(keys.INDEX_RULE);
      // Emptying the collection keeps its rule; dropping it takes the rule too.
      await executeCommand(legacy, { deleteMany: { filter: {} } }, { ...KS, collection: 'old' });
      expect(await legacy.kvStore.getString(keys.indexRuleKey(cid))).toBe(keys.INDEX_RULE);
      await executeCommand(legacy, { deleteCollection: { name: 'old' } }, KS);
      expect(await legacy.kvStore.getString(keys.indexRuleKey(cid))).toBeUndefined();
    } finally {
      await legacy.close();
    }
  });

  it('allow: a positional path allowed alone is filtered by a scan, never from a partial index', async () => {
    await withCollection('allowed_positions', { allow: ['tags.0', 'address.city'] }, async (run) => {
      const positional = await run({ 'tags.0': 'red' });
      expect(positional.found).toEqual(positional.truth);
      expect(positional.found).toEqual(['p1', 'p3']);
      expect(positional.planned).toBe('scan');
      const city = await run({ 'address.city': 'x' });
      expect(city.found).toEqual(city.truth);
      expect(city.planned).toBe('keys');
    });
  });
});

