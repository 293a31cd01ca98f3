/**
 * Vector sort through the engine: recall against exact search, every metric's $similarity, vector updates
 * and deletes, filtered search at several selectivities, and reopening with a saved or a missing index.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { dataApiSimilarity, similarityScore, type Metric } from '../../src/vector-index/metric.js';
import { tempDir } from '../support/temp.js';
import { clustered, rng } from '../vector-index/data.js';

const KS = { keyspace: 'default_keyspace' };
const opened: Database[] = [];

async function open(dir = tempDir()): Promise<Database> {
  const db = await Database.open(dir, { limits: { maxInsertManyDocuments: 100, maxCollections: 20 }, vectorBackend: 'wasm' });
  opened.push(db);
  return db;
}

afterAll(async () => {
  for (const db of opened) await db.close();
});

async function run(db: Database, collection: string, command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, { ...KS, collection })) as unknown as JsonObject;
  expect(response.errors).toBeUndefined();
  return response;
}

async function load(db: Database, name: string, vectors: Float32Array, dim: number, metric: Metric, extra: (i: number) => JsonObject = () => ({})) {
  await executeCommand(db, { createCollection: { name, options: { vector: { dimension: dim, metric } } } }, KS);
  const n = vectors.length / dim;
  for (let i = 0; i < n; i += 100) {
    const documents = [];
    for (let j = i; j < Math.min(n, i + 100); j++) documents.push({ _id: j, $vector: Array.from(vectors.subarray(j * dim, (j + 1) * dim)), ...extra(j) });
    await run(db, name, { insertMany: { documents } });
  }
}

function exactTop(vectors: Float32Array, dim: number, metric: Metric, query: Float32Array, k: number, allow: (i: number) => boolean = () => true): number[] {
  const scored: { i: number; s: number }[] = [];
  for (let i = 0; i < vectors.length / dim; i++) if (allow(i)) scored.push({ i, s: similarityScore(metric, query, vectors.subarray(i * dim, (i + 1) * dim)) });
  return scored.sort((a, b) => b.s - a.s).slice(0, k).map((x) => x.i);
}

async function findIds(db: Database, name: string, query: Float32Array, k: number, filter?: JsonObject): Promise<number[]> {
  const response = await run(db, name, { find: { ...(filter ? { filter } : {}), sort: { $vector: Array.from(query) }, options: { limit: k } } });
  return ((response.data as JsonObject).documents as JsonObject[]).map((d) => d._id as number);
}

function recall(found: number[], truth: number[]): number {
  const set = new Set(truth);
  return found.filter((id) => set.has(id)).length / truth.length;
}

describe('vector search through the engine', () => {
  const dim = 32;
  const n = 3000;
  const vectors = clustered(7, n, dim, 12, 0.3);
  const queries = clustered(99, 30, dim, 12, 0.3);

  it('recall@10 against exact search is at least 0.95, once indexed and while indexing', async () => {
    const db = await open();
    await load(db, 'recall', vectors, dim, 'cosine', (i) => ({ bucket: i % 100 }));
    let total = 0;
    for (let q = 0; q < 30; q++) {
      const query = queries.subarray(q * dim, (q + 1) * dim);
      total += recall(await findIds(db, 'recall', query, 10), exactTop(vectors, dim, 'cosine', query, 10));
    }
    expect(total / 30).toBeGreaterThanOrEqual(0.95);
    const vectorsState = await db.collection('default_keyspace', 'recall').vectors()!;
    await vectorsState.waitForIndex();
    expect(vectorsState.pendingCount).toBe(0);
    total = 0;
    for (let q = 0; q < 30; q++) {
      const query = queries.subarray(q * dim, (q + 1) * dim);
      total += recall(await findIds(db, 'recall', query, 10), exactTop(vectors, dim, 'cosine', query, 10));
    }
    expect(total / 30).toBeGreaterThanOrEqual(0.95);

    // Filtered search at several selectivities: exact scans of candidates (1 to 50 %), and the graph
    // searched unfiltered with its hits filtered when the filter matches most of the collection (90 %).
    for (const keep of [1, 10, 50, 90]) {
      let sum = 0;
      for (let q = 0; q < 10; q++) {
        const query = queries.subarray(q * dim, (q + 1) * dim);
        const found = await findIds(db, 'recall', query, 10, { bucket: { $lt: keep } });
        for (const id of found) expect(id % 100).toBeLessThan(keep);
        sum += recall(found, exactTop(vectors, dim, 'cosine', query, 10, (i) => i % 100 < keep));
      }
      expect(sum / 10, `recall at ${keep}% selectivity`).toBeGreaterThanOrEqual(0.95);
    }
    // A filter the indexes cannot narrow ($ne) is still exact.
    const query = queries.subarray(0, dim);
    const found = await findIds(db, 'recall', query, 10, { bucket: { $ne: 3 } });
    expect(recall(found, exactTop(vectors, dim, 'cosine', query, 10, (i) => i % 100 !== 3))).toBeGreaterThanOrEqual(0.9);
  });

  for (const metric of ['cosine', 'dot_product', 'euclidean'] as const) {
    it(`reports $similarity for ${metric} by the Data API formula`, async () => {
      const db = await open();
      const small = clustered(3, 50, 8, 4, 0.3, metric !== 'euclidean');
      await load(db, `m_${metric}`, small, 8, metric);
      const query = small.subarray(8, 16);
      const response = await run(db, `m_${metric}`, { find: { sort: { $vector: Array.from(query) }, options: { limit: 5, includeSimilarity: true, includeSortVector: true } } });
      const docs = (response.data as JsonObject).documents as JsonObject[];
      expect(docs[0]!._id).toBe(1);
      for (const doc of docs) {
        const id = doc._id as number;
        expect(doc.$similarity).toBe(dataApiSimilarity(metric, query, small.subarray(id * 8, id * 8 + 8)));
        expect(Object.keys(doc).at(-1)).toBe('$similarity');
      }
      expect((response.status as JsonObject).sortVector).toEqual(Array.from(query));
    });
  }

  it('follows vector updates and deletes, and never returns documents without a vector', async () => {
    const db = await open();
    await executeCommand(db, { createCollection: { name: 'moves', options: { vector: { dimension: 2, metric: 'euclidean' } } } }, KS);
    await run(db, 'moves', { insertMany: { documents: [{ _id: 'a', $vector: [0, 0] }, { _id: 'b', $vector: [10, 10] }, { _id: 'c', $vector: [5, 5] }, { _id: 'none' }] } });
    const nearest = async (v: number[]) => ((await run(db, 'moves', { find: { sort: { $vector: v }, options: { limit: 10 } } })).data as JsonObject).documents as JsonObject[];
    expect((await nearest([0, 0])).map((d) => d._id)).toEqual(['a', 'c', 'b']);
    await run(db, 'moves', { updateOne: { filter: { _id: 'b' }, update: { $set: { $vector: [0.1, 0.1] } } } });
    expect((await nearest([0, 0])).map((d) => d._id)).toEqual(['a', 'b', 'c']);
    await run(db, 'moves', { updateOne: { filter: { _id: 'a' }, update: { $unset: { $vector: 1 } } } });
    expect((await nearest([0, 0])).map((d) => d._id)).toEqual(['b', 'c']);
    await run(db, 'moves', { findOneAndReplace: { filter: { _id: 'none' }, replacement: { $vector: [0, 0.01] } } });
    await run(db, 'moves', { deleteOne: { filter: { _id: 'c' } } });
    expect((await nearest([0, 0])).map((d) => d._id)).toEqual(['none', 'b']);
    await run(db, 'moves', { deleteMany: {} });
    expect(await nearest([0, 0])).toEqual([]);
  });

  it('is the same after reopening, with the index saved, stale, or damaged', async () => {
    const dir = tempDir();
    let db = await open(dir);
    const rand = rng(5);
    const small = clustered(11, 600, 16, 6, 0.3);
    await load(db, 'persist', small, 16, 'cosine');
    await run(db, 'persist', { deleteMany: { filter: { _id: { $in: [0, 1, 2, 3] } } } });
    const query = Float32Array.from({ length: 16 }, () => rand());
    const before = await findIds(db, 'persist', query, 20);
    await db.close();

    // Saved on close: reopening answers the same.
    db = await open(dir);
    expect(await findIds(db, 'persist', query, 20)).toEqual(before);
    const cid = db.collection('default_keyspace', 'persist').record.cid;
    await (await db.collection('default_keyspace', 'persist').vectors())!.saveSnapshot();
    // A write after the last snapshot is replayed from the vector records at the next open.
    await run(db, 'persist', { deleteOne: { filter: { _id: before[0] } } });
    await db.kvStore.batch([]); // nothing pending
    const afterDelete = await findIds(db, 'persist', query, 19);
    await db.close();
    db = await open(dir);
    expect(await findIds(db, 'persist', query, 19)).toEqual(afterDelete);
    expect(afterDelete).not.toContain(before[0]);
    await db.close();

    // A damaged snapshot is rebuilt from the records.
    db = await open(dir);
    const { vectorIndexChunkPrefix } = await import('../../src/storage/keys.js');
    const chunkKey = `${vectorIndexChunkPrefix(cid)}000000`;
    const chunk = await db.kvStore.get(chunkKey);
    expect(chunk).toBeDefined();
    await db.kvStore.batch([{ type: 'put', key: chunkKey, value: new Uint8Array(chunk!.length).fill(7) }]);
    await db.close();
    db = await open(dir);
    expect(await findIds(db, 'persist', query, 19)).toEqual(afterDelete);
  });
});
