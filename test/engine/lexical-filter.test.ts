/**
 * A `{"$lexical": {"$match": ...}}` filter without a lexical sort (find pages, countDocuments, deleteMany,
 * updateMany, a field sort, a vector sort) takes its candidates from the collection's inverted index: on random
 * documents, every read answers exactly what a scan evaluating the whole filter answers, in storage order and
 * across pages; and none of them scans the collection (an `_id` clause still decides alone). Hot terms' postings
 * come from memory (the cache BM25 ranking keeps), and a write drops the terms it touches.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { DocumentStore } from '../../src/engine/collections/document-store.js';
import { LexicalIndex } from '../../src/engine/collections/lexical-index.js';
import { idKey } from '../../src/engine/collections/document-id.js';
import { parseFilter } from '../../src/query/filter.js';
import type { JsonObject, JsonValue } from '../../src/query/json.js';
import { rng } from '../support/random.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const TARGET = { ...KS, collection: 'c' };
const WORDS = ['apple', 'Banana', 'cherry', 'date', 'elder', 'fig', 'grape', 'honey', 'ice', 'jam', 'kiwi', 'lime'];
const N = 600;
let db: Database;

/** Ids of mixed types (numbers sort before strings; U+E000 before an emoji in LevelDB, not in JavaScript). */
function idOf(i: number): JsonValue {
  if (i % 5 === 0) return i;
  if (i % 7 === 0) return `\uE000${i}`;
  if (i % 11 === 0) return `\u{1F600}${i}`;
  return `id${String(i).padStart(4, '0')}`;
}

function documents(seed: number): JsonObject[] {
  const random = rng(seed);
  const text = () => Array.from({ length: 1 + Math.floor(random() * 10) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  return Array.from({ length: N }, (_, i) => {
    const doc: JsonObject = { _id: idOf(i), g: ['a', 'b', 'c'][i % 3]!, n: Math.floor(random() * 100), $vector: [random() + 0.01, random(), random()] };
    if (random() < 0.9) doc.$lexical = text();
    return doc;
  });
}

async function run(command: JsonObject): Promise<{ data?: JsonObject; status?: JsonObject }> {
  const r = await executeCommand(db, command, TARGET);
  expect(r.errors).toBeUndefined();
  return r as { data?: JsonObject; status?: JsonObject };
}

/** The stored documents the whole filter matches, in storage order, from a scan. */
async function truthDocs(filter: JsonObject): Promise<JsonObject[]> {
  const collection = db.collection('default_keyspace', 'c');
  const parsed = parseFilter(filter, { isIndexed: collection.isIndexed, lexical: { analyzer: collection.analyzer, disabled: () => new Error('disabled') } });
  const docs: JsonObject[] = [];
  for await (const stored of new DocumentStore(db.kvStore, collection.record.cid).scan()) if (parsed.matches(stored.doc)) docs.push(stored.doc);
  return docs;
}

const truth = async (filter: JsonObject): Promise<JsonValue[]> => (await truthDocs(filter)).map((d) => d._id!);

async function allPages(filter: JsonObject): Promise<JsonValue[]> {
  const ids: JsonValue[] = [];
  let pageState: string | undefined;
  do {
    const data = (await run({ find: { filter, projection: { _id: 1 }, options: pageState ? { pageState } : {} } })).data as { documents: JsonObject[]; nextPageState: string | null };
    ids.push(...data.documents.map((d) => d._id!));
    pageState = data.nextPageState ?? undefined;
  } while (pageState !== undefined);
  return ids;
}

/** Random filters: one to three words (one sometimes unknown), alone or with other clauses. */
function filters(seed: number, count: number): JsonObject[] {
  const random = rng(seed);
  const word = () => (random() < 0.05 ? 'nowhere' : WORDS[Math.floor(random() * WORDS.length)]!.toUpperCase());
  const others: JsonObject[] = [{}, { g: 'a' }, { n: { $gte: 40 } }, { g: { $in: ['b', 'c'] }, n: { $lt: 70 } }, { $or: [{ g: 'a' }, { n: { $lt: 20 } }] }, { n: { $ne: 3 } }];
  return Array.from({ length: count }, () => {
    const $match = Array.from({ length: 1 + Math.floor(random() * 3) }, word).join(' ');
    return { ...others[Math.floor(random() * others.length)]!, $lexical: { $match } };
  });
}

beforeEach(async () => {
  db = await Database.open(tempDir(), { limits: { maxInsertManyDocuments: 100 } });
  await executeCommand(db, { createCollection: { name: 'c', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, KS);
  const docs = documents(7);
  for (let i = 0; i < docs.length; i += 100) await run({ insertMany: { documents: docs.slice(i, i + 100) } });
  return () => db.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a $lexical match filter without a lexical sort', () => {
  it('finds, pages and counts exactly what a scan evaluating the filter finds, in storage order', async () => {
    for (const filter of filters(11, 40)) {
      const expected = await truth(filter);
      expect(await allPages(filter), JSON.stringify(filter)).toEqual(expected);
      expect((await run({ countDocuments: { filter } })).status, JSON.stringify(filter)).toEqual({ count: expected.length });
    }
  });

  it('narrows a field sort and a vector sort alike', async () => {
    for (const filter of filters(12, 15)) {
      const expected = await truthDocs(filter);
      const ids = new Set(expected.map((d) => JSON.stringify(d._id)));
      const sorted = ((await run({ find: { filter, sort: { n: -1 }, projection: { _id: 1, n: 1 } } })).data as { documents: JsonObject[] }).documents;
      expect(sorted.map((d) => d.n)).toEqual(expected.map((d) => d.n as number).sort((a, b) => b - a).slice(0, 20));
      for (const d of sorted) expect(ids.has(JSON.stringify(d._id))).toBe(true);
      const nearest = ((await run({ find: { filter, sort: { $vector: [0.5, 0.5, 0.5] }, projection: { _id: 1 }, options: { limit: 1000 } } })).data as { documents: JsonObject[] }).documents;
      // Few vectors: the search is exact, so it returns every match.
      expect(new Set(nearest.map((d) => JSON.stringify(d._id)))).toEqual(ids);
    }
  });

  it('updateMany and deleteMany change exactly the matches', async () => {
    const filter = { g: { $ne: 'b' }, $lexical: { $match: 'apple cherry' } };
    const expected = await truth(filter);
    expect(expected.length).toBeGreaterThan(20); // more than a page of updateMany
    let modified = 0;
    let pageState: string | undefined;
    do {
      const status = (await run({ updateMany: { filter, update: { $set: { touched: true } }, ...(pageState ? { options: { pageState } } : {}) } })).status!;
      modified += status.modifiedCount as number;
      pageState = (status.nextPageState as string | undefined) ?? undefined;
    } while (pageState !== undefined);
    expect(modified).toBe(expected.length);
    expect(await truth({ touched: true })).toEqual(expected);
    let deleted = 0;
    for (;;) {
      const status = (await run({ deleteMany: { filter } })).status!;
      deleted += status.deletedCount as number;
      if (status.moreData !== true) break;
    }
    expect(deleted).toBe(expected.length);
    expect(await truth({ touched: true })).toEqual([]);
    expect((await run({ countDocuments: { filter: {} } })).status).toEqual({ count: N - expected.length });
  });

  it('reads its terms postings and the documents holding them, never a scan; an _id clause reads no postings', async () => {
    const filter = { $lexical: { $match: 'fig honey' } };
    const expected = await truth(filter);
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.length).toBeLessThan(N / 4);
    const narrowed = await truth({ ...filter, g: 'a' });
    const scan = vi.spyOn(DocumentStore.prototype, 'scan');
    const getMany = vi.spyOn(DocumentStore.prototype, 'getMany');
    const postings = vi.spyOn(LexicalIndex.prototype, 'termPostings');
    const read = () => new Set(getMany.mock.calls.flatMap(([keys]) => keys));
    const keysOf = (ids: JsonValue[]) => new Set(ids.map((id) => idKey(id)));
    expect(await allPages(filter)).toEqual(expected);
    // The pages read the documents holding both words (64 candidates at a time), no other.
    expect(read()).toEqual(keysOf(expected));
    getMany.mockClear();
    expect((await run({ countDocuments: { filter: { ...filter, g: 'a' } } })).status).toEqual({ count: narrowed.length });
    expect(read()).toEqual(keysOf(narrowed)); // the postings narrowed by g's index entries
    expect(((await run({ find: { filter, sort: { $vector: [1, 1, 1] }, options: { limit: 3 } } })).data as { documents: unknown[] }).documents).toHaveLength(3);
    expect(scan).not.toHaveBeenCalled();
    expect(postings).toHaveBeenCalled();
    postings.mockClear();
    const id = expected[0]!;
    expect(((await run({ findOne: { filter: { ...filter, _id: id } } })).data!.document as JsonObject)._id).toEqual(id);
    expect(postings).not.toHaveBeenCalled();
  });

  it('takes hot terms postings from memory, and a write drops the terms it touches', async () => {
    const filter = { $lexical: { $match: 'fig honey' } };
    const lexicalReads = vi.spyOn(db.kvStore, 'textEntryChunks');
    /** The terms whose postings were read from LevelDB since the last call. */
    const termsRead = (): string[] => {
      const terms = lexicalReads.mock.calls.map(([range]) => String(range.gte)).filter((gte) => gte.startsWith('lex:')).map((gte) => gte.split('\u0000')[2]!);
      lexicalReads.mockClear();
      return terms.sort();
    };
    const expected = await truth(filter);
    expect(await allPages(filter)).toEqual(expected);
    expect(termsRead()).toEqual(['fig', 'honey']); // read once (the first page), then cached
    expect(await allPages(filter)).toEqual(expected);
    expect((await run({ countDocuments: { filter } })).status).toEqual({ count: expected.length });
    expect(termsRead()).toEqual([]); // from memory
    // A document with both words, and one losing 'fig': 'fig' is read again, 'honey' (untouched by the second) too.
    const loser = expected.find((id) => typeof id === 'string')!;
    await run({ insertOne: { document: { _id: 'new', $lexical: 'honey fig' } } });
    await run({ updateOne: { filter: { _id: loser }, update: { $set: { $lexical: 'honey' } } } });
    const after = await truth(filter);
    expect(after).toContain('new');
    expect(after).not.toContain(loser);
    expect(await allPages(filter)).toEqual(after);
    expect(termsRead()).toEqual(['fig', 'honey']);
    // A write that touches neither word leaves their postings in memory.
    await run({ insertOne: { document: { _id: 'other', $lexical: 'kiwi lime' } } });
    expect(await allPages(filter)).toEqual(after);
    expect(termsRead()).toEqual([]);
  });
});
