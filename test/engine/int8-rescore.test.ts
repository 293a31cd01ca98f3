/**
 * The exact rescore of an int8 collection's graph search (engine/vectors/rank.ts rescoreHits, on native-rows:
 * the graph ranks on the codes): on tight clusters, where the codes alone misrank the top 10, the graph's
 * shortlist ranked from the stored vectors answers the exact float32 top 10, ids and order; and it reads
 * the stored vectors of that shortlist only, each once, and none again for the hits' `$similarity`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { KvStore, keys } from '../../src/storage/index.js';
import { shortlistSize } from '../../src/vector-index/exact-rescore.js';
import { HnswIndex } from '../../src/vector-index/hnsw-index.js';
import { nativeRowsAvailable } from '../../src/vector-index/native-rows-backend.js';
import { tempDir } from '../support/temp.js';
import { clustered, naiveTopK, row } from '../vector-index/data.js';

const DIM = 32;
const N = 3000;
const Q = 20;
const K = 10;
/**
 * Tight clusters: neighbours' scores lie within the codes' error of each other, so the codes put true top-10
 * members as far down as 26th (a shortlist of k, or of 2k, misses some); shortlistSize(10) = 30 holds them all.
 */
const ALL = clustered(91, N + Q, DIM, 8, 0.1, true);
const LABELS = Array.from({ length: N }, (_, i) => i);
const DOCS = Array.from({ length: N }, (_, i) => ({ _id: i, $vector: Array.from(row(ALL, i, DIM)) }));
const queryOf = (q: number) => Array.from(row(ALL, N + q, DIM));

const open: VectorDB[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of open.splice(0)) await db.close().catch(() => undefined);
});

async function int8Collection() {
  const db = new VectorDB('test-token', tempDir(), undefined, { vectorBackend: 'native-rows', bodyCacheBytes: 0, limits: { maxInsertManyDocuments: 1000 } });
  await db.connect();
  open.push(db);
  const collection = await db.createCollection({ name: 'q', options: { vector: { dimension: DIM, metric: 'cosine', index: { quantization: 'int8', efSearch: 256 } } } });
  await collection.insertMany(DOCS, { chunkSize: 1000 });
  await collection.waitForIndex();
  expect((await collection.stats()).vector?.flatRowsAs).toBe('int8');
  return collection;
}

/** Counts the vector records read on the calling thread (the rescore's reads), by label. */
function spyVectorReads(): { reads: () => string[] } {
  const reads: string[] = [];
  const getManySync = KvStore.prototype.getManySync;
  vi.spyOn(KvStore.prototype, 'getManySync').mockImplementation(function (this: KvStore, wanted: readonly string[]) {
    for (const key of wanted) if (key.startsWith(keys.VECTOR_VALUES_TAG)) reads.push(key);
    return getManySync.call(this, wanted);
  });
  return { reads: () => reads.splice(0) };
}

describe.skipIf(!nativeRowsAvailable())('int8 graph search, rescored exactly', () => {
  it('answers the exact float32 top 10 where the codes alone misrank it', async () => {
    const collection = await int8Collection();
    const search = vi.spyOn(HnswIndex.prototype, 'search');
    let misranked = 0;
    for (let q = 0; q < Q; q++) {
      const query = queryOf(q);
      const exact = naiveTopK('cosine', query, ALL, DIM, LABELS, K).map((hit) => hit.label);
      const found = await collection.findVector(query, { limit: K, projection: { _id: 1 } });
      expect(found.map((doc) => doc._id)).toEqual(exact);
      // The graph was asked for the shortlist, and its own best 10 (by the codes) were not the answer.
      const [, asked] = search.mock.calls.at(-1)!;
      expect(asked).toBe(shortlistSize(K));
      const byCodes = search.mock.results.at(-1)!.value as { label: number }[];
      if (byCodes.slice(0, K).some((hit, i) => hit.label !== exact[i])) misranked++;
    }
    expect(misranked).toBeGreaterThan(Q / 2);
  });

  it('reads the shortlist\'s stored vectors once each, none the last shortlist held, none again for $similarity', async () => {
    const collection = await int8Collection();
    const search = vi.spyOn(HnswIndex.prototype, 'search');
    const spy = spyVectorReads();
    let before = new Set<number>();
    const order = [0, 1, 2, 3, 3, 4, 1];
    for (const [at, q] of order.entries()) {
      const found = await collection.findVector(queryOf(q), { limit: K, includeSimilarity: true, projection: { _id: 1 } });
      const shortlist = (search.mock.results.at(-1)!.value as { label: number }[]).map((hit) => hit.label);
      expect(shortlist).toHaveLength(shortlistSize(K));
      const read = spy.reads().map((key) => Number.parseInt(key.slice(key.lastIndexOf('\0') + 1), 16));
      // Exactly the shortlist's labels the previous shortlist lacked, each once (a repeated query: none).
      expect(read.sort((a, b) => a - b)).toEqual(shortlist.filter((label) => !before.has(label)).sort((a, b) => a - b));
      if (at > 0 && order[at - 1] === q) expect(read).toEqual([]);
      else expect(read.length).toBeGreaterThan(0);
      before = new Set(shortlist);
      // The answer and its scores are those of the stored vectors (float32 $similarity against the float64 one).
      const exact = naiveTopK('cosine', queryOf(q), ALL, DIM, LABELS, K);
      expect(found.map((doc) => doc._id)).toEqual(exact.map((hit) => hit.label));
      found.forEach((doc, i) => expect(doc.$similarity).toBeCloseTo(exact[i]!.score, 6));
    }
  });
});
