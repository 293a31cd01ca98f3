/**
 * A wasm collection whose graph spans several WebAssembly heaps (issue 31), through the engine: each heap's
 * room lowered by VECTORDB_WASM_HEAP_BYTES to about 600 vectors, 2,500 documents are indexed in 4+
 * segments, answer the exact top 10, and after a close the saved multi-segment graph is loaded back (not
 * rebuilt: nothing pending once it is in) and gives the same answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { similarityScore } from '../../src/vector-index/metric.js';
import { WASM_HEAP_ENV, wasmBytesPerElement } from '../../src/vector-index/wasm-capacity.js';
import { heapCount } from '../../src/vector-index/wasm-heaps.js';
import { tempDir } from '../support/temp.js';
import { clustered, row } from '../vector-index/data.js';

const KS = { keyspace: 'default_keyspace' };
const DIM = 32;
const N = 2500;
const dir = tempDir();
const vectors = clustered(8, N, DIM);
const queries = clustered(9, 10, DIM);
let db: Database;

const open = (): Promise<Database> => Database.open(dir, { limits: { maxInsertManyDocuments: 100 }, vectorBackend: 'wasm' });

async function top10(query: Float32Array): Promise<unknown[]> {
  const found = (await executeCommand(db, { find: { sort: { $vector: Array.from(query) }, projection: { _id: 1 }, options: { limit: 10 } } }, { ...KS, collection: 'v' })) as unknown as JsonObject;
  expect(found.errors).toBeUndefined();
  return ((found.data as JsonObject).documents as JsonObject[]).map((d) => d._id);
}

function exact(query: Float32Array): number[] {
  return Array.from({ length: N }, (_, i) => ({ i, s: similarityScore('cosine', query, row(vectors, i, DIM)) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, 10)
    .map((h) => h.i);
}

beforeAll(async () => {
  process.env[WASM_HEAP_ENV] = String(96 * 2 ** 20 + 600 * wasmBytesPerElement(DIM, 16));
  db = await open();
});

afterAll(async () => {
  delete process.env[WASM_HEAP_ENV];
  await db.close();
});

describe('a wasm collection over several heaps', () => {
  it('is indexed in segments, answers the exact top 10, and reloads its saved segments', async () => {
    await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, KS);
    for (let i = 0; i < N; i += 100) {
      const documents = Array.from({ length: 100 }, (_, j) => ({ _id: i + j, $vector: Array.from(row(vectors, i + j, DIM)) }));
      await executeCommand(db, { insertMany: { documents } }, { ...KS, collection: 'v' });
    }
    const collection = (await db.collection(KS.keyspace, 'v').vectors())!;
    await collection.waitForIndex();
    expect(heapCount()).toBeGreaterThanOrEqual(4);
    const before: unknown[][] = [];
    for (let q = 0; q < 10; q++) before.push(await top10(row(queries, q, DIM)));
    const hits = before.reduce((sum, ids, q) => sum + ids.filter((id) => exact(row(queries, q, DIM)).includes(id as number)).length, 0);
    expect(hits / 100).toBeGreaterThanOrEqual(0.95);
    await db.close();

    db = await open();
    const reopened = (await db.collection(KS.keyspace, 'v').vectors())!;
    await reopened.graphLoaded();
    expect(reopened.pendingCount).toBe(0);
    for (let q = 0; q < 10; q++) expect(await top10(row(queries, q, DIM))).toEqual(before[q]);
  });
});
