/**
 * insertMany writes its documents in pipelined sub-batches (INSERT_SUB_BATCH each, one write in flight):
 * results must be exactly those of one batch. Ordered stops at the first failure wherever it falls,
 * unordered tries each, duplicates are caught across sub-batches (within the request and against stored
 * documents), vectors get their records, and a sub-batch whose write fails is never reported OK. A staged
 * sub-batch is committed or discarded on every path, so a lexical index keeps using its in-memory postings.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { INSERT_SUB_BATCH } from '../../src/engine/collections/insert.js';
import { Database } from '../../src/engine/database.js';
import { VectorDbError } from '../../src/errors/index.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore } from '../../src/storage/kv-store.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const SUB = INSERT_SUB_BATCH;
const MAX = 4 * SUB + 3; // more than four sub-batches in one request
let db: Database;
let serial = 0;

beforeAll(async () => {
  db = await Database.open(tempDir(), { limits: { maxInsertManyDocuments: MAX, maxCollections: 20 } });
});

afterAll(async () => {
  await db.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function newCollection(options: JsonObject = {}): Promise<string> {
  const name = `c${serial++}`;
  const response = await executeCommand(db, { createCollection: { name, options } }, KS);
  expect(response.errors).toBeUndefined();
  return name;
}

async function insert(collection: string, documents: JsonObject[], ordered: boolean): Promise<{ statuses: string[]; ids: unknown[]; errors: string[]; insertedIds: unknown[] }> {
  const response = await executeCommand(db, { insertMany: { documents, options: { ordered, returnDocumentResponses: true } } }, { ...KS, collection });
  const responses = (response.status?.documentResponses ?? []) as { _id: unknown; status: string }[];
  const insertedIds = responses.filter((r) => r.status === 'OK').map((r) => r._id);
  return { statuses: responses.map((r) => r.status), ids: responses.map((r) => r._id), errors: (response.errors ?? []).map((e) => String((e as { errorCode?: string }).errorCode)), insertedIds };
}

async function storedIds(collection: string): Promise<string[]> {
  const ids: string[] = [];
  let pageState: string | undefined;
  do {
    const response = await executeCommand(db, { find: { filter: {}, options: pageState ? { pageState } : {} } }, { ...KS, collection });
    for (const doc of dataOf(response).documents as JsonObject[]) ids.push(doc._id as string);
    pageState = (dataOf(response).nextPageState as string | null) ?? undefined;
  } while (pageState !== undefined);
  return ids.sort();
}

const dataOf = (response: { data?: unknown }) => (response.data ?? {}) as { documents?: JsonObject[]; document?: JsonObject | null; nextPageState?: string | null };

const docs = (n: number, from = 0): JsonObject[] => Array.from({ length: n }, (_, i) => ({ _id: `d${String(from + i).padStart(4, '0')}`, n: from + i, tag: `t${(from + i) % 7}` }));

describe('insertMany in sub-batches', () => {
  it('a request of several sub-batches inserts everything, readable and indexed after', async () => {
    const c = await newCollection();
    const r = await insert(c, docs(MAX), true);
    expect(r.errors).toEqual([]);
    expect(r.statuses).toEqual(Array(MAX).fill('OK'));
    expect(r.ids).toEqual(docs(MAX).map((d) => d._id));
    expect(await storedIds(c)).toEqual(docs(MAX).map((d) => d._id));
    const found = await executeCommand(db, { find: { filter: { tag: 't3' } } }, { ...KS, collection: c });
    expect((dataOf(found).documents as JsonObject[]).map((d) => d.n).sort((a, b) => Number(a) - Number(b))).toEqual(docs(MAX).filter((d) => d.tag === 't3').map((d) => d.n));
  });

  it('ordered: a failure in a later sub-batch keeps the earlier documents and skips the rest', async () => {
    const c = await newCollection();
    const documents = docs(MAX);
    const bad = SUB + 3; // in the second sub-batch
    documents[bad] = { _id: 'bad', a: { $x: 1 } }; // invalid field name: fails when shredded
    const r = await insert(c, documents, true);
    expect(r.errors).toHaveLength(1);
    expect(r.statuses).toEqual([...Array(bad).fill('OK'), 'ERROR', ...Array(MAX - bad - 1).fill('SKIPPED')]);
    expect(r.ids[MAX - 1]).toBe(documents[MAX - 1]!._id); // skipped documents still report their _id
    expect(await storedIds(c)).toEqual(documents.slice(0, bad).map((d) => d._id));
  });

  it('ordered: a duplicate of an earlier sub-batch stops there; unordered: only the duplicates fail', async () => {
    for (const ordered of [true, false]) {
      const c = await newCollection();
      const documents = docs(MAX);
      documents[2 * SUB + 1] = { _id: documents[1]!._id, n: -1 }; // repeats a document of the first sub-batch
      documents[3 * SUB] = { _id: documents[SUB + 5]!._id, n: -2 }; // and one of the second
      const r = await insert(c, documents, ordered);
      if (ordered) {
        expect(r.statuses).toEqual([...Array(2 * SUB + 1).fill('OK'), 'ERROR', ...Array(MAX - 2 * SUB - 2).fill('SKIPPED')]);
        expect(await storedIds(c)).toEqual(documents.slice(0, 2 * SUB + 1).map((d) => d._id).sort());
      } else {
        expect(r.errors).toEqual(['DOCUMENT_ALREADY_EXISTS', 'DOCUMENT_ALREADY_EXISTS']);
        expect(r.statuses.filter((s) => s === 'OK')).toHaveLength(MAX - 2);
        expect(r.statuses[2 * SUB + 1]).toBe('ERROR');
        expect(r.statuses[3 * SUB]).toBe('ERROR');
        const expected = [...new Set(documents.map((d) => d._id as string))].sort();
        expect(await storedIds(c)).toEqual(expected);
        const kept = await executeCommand(db, { findOne: { filter: { _id: documents[1]!._id } } }, { ...KS, collection: c });
        expect((dataOf(kept).document as JsonObject).n).toBe(1); // the first one stays
      }
    }
  });

  it('duplicates of stored documents fail in any sub-batch', async () => {
    const c = await newCollection();
    await insert(c, [{ _id: 'd0003', n: 'old' }, { _id: `d${String(3 * SUB + 2).padStart(4, '0')}`, n: 'old' }], true);
    const r = await insert(c, docs(MAX), false);
    expect(r.errors).toEqual(['DOCUMENT_ALREADY_EXISTS', 'DOCUMENT_ALREADY_EXISTS']);
    expect(r.statuses[3]).toBe('ERROR');
    expect(r.statuses[3 * SUB + 2]).toBe('ERROR');
    expect(r.statuses.filter((s) => s === 'OK')).toHaveLength(MAX - 2);
    expect(await storedIds(c)).toHaveLength(MAX);
  });

  it('vectors across sub-batches: every document keeps its own vector and is found by vector search', async () => {
    const c = await newCollection({ vector: { dimension: 3, metric: 'euclidean' } });
    const documents = docs(MAX).map((d, i): JsonObject => ({ ...d, $vector: [i, i % 5, 1] }));
    const r = await insert(c, documents, true);
    expect(r.statuses).toEqual(Array(MAX).fill('OK'));
    for (const i of [0, SUB - 1, SUB, 2 * SUB + 7, MAX - 1]) {
      const found = await executeCommand(db, { findOne: { filter: { _id: documents[i]!._id }, projection: { $vector: 1 } } }, { ...KS, collection: c });
      expect((dataOf(found).document as JsonObject).$vector).toEqual([i, i % 5, 1]);
      const nearest = await executeCommand(db, { find: { sort: { $vector: [i, i % 5, 1] }, options: { limit: 1 } } }, { ...KS, collection: c });
      expect((dataOf(nearest).documents as JsonObject[])[0]!._id).toBe(documents[i]!._id);
    }
    const count = await executeCommand(db, { countDocuments: {} }, { ...KS, collection: c });
    expect(count.status?.count).toBe(MAX);
  });

  it('a sub-batch whose write fails is reported failed, never OK (ordered: the rest skipped)', async () => {
    for (const ordered of [true, false]) {
      const c = await newCollection({ vector: { dimension: 2, metric: 'cosine' } });
      const original = KvStore.prototype.prepare;
      const victim = docs(1, SUB)[0]!._id as string; // the first document of the second sub-batch
      let failures = 0;
      vi.spyOn(KvStore.prototype, 'prepare').mockImplementation(function (this: KvStore, ops) {
        const prepared = original.call(this, ops);
        if (failures === 0 && ops.some((op) => op.key.includes(victim))) {
          failures++;
          // The batch is released unwritten and its write fails, as LevelDB reports an I/O error.
          vi.spyOn(prepared, 'write').mockImplementation(async () => {
            await prepared.discard();
            throw VectorDbError.of('STORAGE_IO_ERROR', { location: 'test', reason: 'injected' });
          });
        }
        return prepared;
      });
      const documents = docs(MAX).map((d, i): JsonObject => ({ ...d, $vector: [1, i + 1] }));
      const r = await insert(c, documents, ordered);
      vi.restoreAllMocks();
      const failedWrite = Array(SUB).fill('ERROR');
      if (ordered) {
        expect(r.statuses).toEqual([...Array(SUB).fill('OK'), ...failedWrite, ...Array(MAX - 2 * SUB).fill('SKIPPED')]);
        expect(r.errors).toEqual(Array(SUB).fill('STORAGE_IO_ERROR'));
        expect(await storedIds(c)).toEqual(documents.slice(0, SUB).map((d) => d._id));
      } else {
        expect(r.statuses).toEqual([...Array(SUB).fill('OK'), ...failedWrite, ...Array(MAX - 2 * SUB).fill('OK')]);
        expect(await storedIds(c)).toEqual([...documents.slice(0, SUB), ...documents.slice(2 * SUB)].map((d) => d._id));
      }
      // The documents reported OK are whole (vector included) and searchable; the failed ones are absent.
      for (const i of [0, SUB + 1, MAX - 1]) {
        const found = await executeCommand(db, { findOne: { filter: { _id: documents[i]!._id }, projection: { $vector: 1 } } }, { ...KS, collection: c });
        expect((dataOf(found).document as JsonObject | null)?.$vector ?? null).toEqual(r.statuses[i] === 'OK' ? [1, i + 1] : null);
      }
      const nearest = await executeCommand(db, { find: { sort: { $vector: [1, SUB + 2] }, options: { limit: MAX } } }, { ...KS, collection: c });
      expect((dataOf(nearest).documents as JsonObject[]).map((d) => d._id as string).sort()).toEqual(await storedIds(c));
      // A retry of the failed documents succeeds.
      const retry = await insert(c, documents.slice(SUB, 2 * SUB), true);
      expect(retry.statuses).toEqual(Array(SUB).fill('OK'));
    }
  });

  it('a write failing with an unexpected error leaves no staged sub-batch behind: lexical postings come from memory again', async () => {
    const c = await newCollection({ lexical: { enabled: true, analyzer: 'standard' } });
    const lexical = (from: number, n: number): JsonObject[] => docs(n, from).map((d, i): JsonObject => ({ ...d, $lexical: `apple ${i % 2 === 0 ? 'pear' : 'plum'} word${from + i}` }));
    const original = KvStore.prototype.prepare;
    const first = docs(1)[0]!._id as string;
    vi.spyOn(KvStore.prototype, 'prepare').mockImplementation(function (this: KvStore, ops) {
      const prepared = original.call(this, ops);
      if (ops.some((op) => op.key.includes(first))) {
        // Not a VectorDbError: the wait on this write throws while the next sub-batch is staged.
        vi.spyOn(prepared, 'write').mockImplementation(async () => {
          await prepared.discard();
          throw new Error('injected');
        });
      }
      return prepared;
    });
    const failed = await executeCommand(db, { insertMany: { documents: lexical(0, 3 * SUB) } }, { ...KS, collection: c });
    vi.restoreAllMocks();
    expect(failed.errors?.length).toBeGreaterThan(0);
    expect(await storedIds(c)).toEqual([]); // the second sub-batch was staged, never written
    expect((await insert(c, lexical(1000, 2 * SUB), true)).statuses).toEqual(Array(2 * SUB).fill('OK'));
    // Reads of posting records, counted on the LevelDB range scans under the collection's lexical prefix.
    let postingReads = 0;
    const scans = KvStore.prototype.textEntryChunks;
    vi.spyOn(KvStore.prototype, 'textEntryChunks').mockImplementation(function (this: KvStore, range, size) {
      if (typeof range.gte === 'string' && range.gte.startsWith('lex:') && range.gte.includes('\u0000p\u0000')) postingReads++;
      return scans.call(this, range, size);
    });
    const query = async (): Promise<string[]> => {
      const found = await executeCommand(db, { find: { sort: { $lexical: 'pear' }, options: { limit: 1000 } } }, { ...KS, collection: c });
      return (dataOf(found).documents as JsonObject[]).map((d) => d._id as string).sort();
    };
    const expected = lexical(1000, 2 * SUB).filter((d) => String(d.$lexical).includes('pear')).map((d) => d._id as string).sort();
    expect(await query()).toEqual(expected);
    const coldReads = postingReads;
    expect(coldReads).toBeGreaterThan(0);
    expect(await query()).toEqual(expected);
    expect(postingReads).toBe(coldReads); // the second query read its postings from memory
  });
});
