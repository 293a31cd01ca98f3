/**
 * An int8 collection reopened: its trained scale is kept (`vquant:`), so the rows are codes from the first
 * vector loaded (though fewer vectors than the training size are left) and a search, by the graph or by a
 * filter's exact scan of int8 rows, answers as before the close: the same top 10 with the same `$similarity`, on
 * each backend (the native ones answer from their graph file before the values are read: they are coded as
 * they arrive; native-rows' file holds the codes and the graph over them). A write after the reopen is found
 * too. An int8 collection made on hnswlib-node reopens on native-rows: its graph is rebuilt over int8 rows
 * in the background, with the same answers. A native-rows collection whose kept scale record was lost
 * (deleted with the database closed) answers alike from its graph file's codes and has the record written
 * again, with the file's scale. Also: a collection below the training size keeps float32 rows and answers exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { VectorDB, type VectorDBCollection } from '../../src/index.js';
import { nativeLoads } from '../support/native.js';
import { nativeRowsAvailable } from '../../src/vector-index/native-rows-backend.js';
import { KvStore } from '../../src/storage/index.js';
import { tempDir } from '../support/temp.js';
import { clustered, row } from '../vector-index/data.js';

const DIM = 24;
/** Past the training size (1,024); then 200 are deleted, leaving fewer. */
const N = 1100;
const DELETED = 200;
const ALL = clustered(77, N + 10, DIM, 8, 0.5, true);
const QUERIES = Array.from({ length: 10 }, (_, q) => Array.from(row(ALL, N + q, DIM)));
const DOCS = Array.from({ length: N }, (_, i) => ({ _id: i, group: i % 10, $vector: Array.from(row(ALL, i, DIM)) }));

const open: VectorDB[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.close().catch(() => undefined);
});

async function connect(dir: string, vectorBackend: 'wasm' | 'native' | 'native-rows' | 'auto'): Promise<VectorDB> {
  const db = new VectorDB('test-token', dir, undefined, { vectorBackend, limits: { maxInsertManyDocuments: 100 } });
  await db.connect();
  open.push(db);
  return db;
}

async function answers(collection: VectorDBCollection): Promise<{ _id: unknown; $similarity: unknown }[][]> {
  const out = [];
  for (const query of QUERIES) {
    for (const filter of [{}, { group: 3 }]) {
      const found = await collection.findVector(query, { filter, limit: 10, includeSimilarity: true, projection: { _id: 1 } });
      out.push(found.map((doc) => ({ _id: doc._id, $similarity: doc.$similarity })));
    }
  }
  return out;
}

describe('int8 collection reopened', () => {
  for (const backend of ['wasm', 'native', 'native-rows'] as const) {
    it.skipIf((backend === 'native' && !nativeLoads) || (backend === 'native-rows' && !nativeRowsAvailable()))(`${backend}: the same top 10 and $similarity, the rows coded at once`, async () => {
      const dir = tempDir();
      let db = await connect(dir, backend);
      let collection = await db.createCollection({ name: 'q', options: { vector: { dimension: DIM, metric: 'cosine', index: { quantization: 'int8' } } } });
      await collection.insertMany(DOCS, { chunkSize: 100 });
      await collection.deleteMany({ _id: { $lt: DELETED } });
      await collection.waitForIndex();
      expect((await collection.stats()).vector?.flatRowsAs).toBe('int8');
      const before = await answers(collection);
      await db.close();

      db = await connect(dir, backend);
      collection = await db.collection('q');
      // Coded from the start with the kept scale: 900 vectors would not train one.
      expect((await collection.stats()).vector).toMatchObject({ flatRowsAs: 'int8', vectors: N - DELETED });
      const after = await answers(collection);
      expect(after).toEqual(before);
      expect(after[1]!.length).toBe(10);
      // A vector written after the reopen is coded with the kept scale and found.
      const extra = Array.from(row(ALL, N + 3, DIM));
      await collection.insertOne({ _id: 'new', $vector: extra });
      const [first] = await collection.findVector(extra, { limit: 1, includeSimilarity: true, projection: { _id: 1 } });
      expect(first).toMatchObject({ _id: 'new', $similarity: 1 });
    });
  }

  it.skipIf(!nativeLoads || !nativeRowsAvailable())('made on hnswlib-node, reopened on native-rows: rebuilt over int8 rows, the same answers', async () => {
    const dir = tempDir();
    let db = await connect(dir, 'native');
    let collection = await db.createCollection({ name: 'q', options: { vector: { dimension: DIM, metric: 'cosine', index: { quantization: 'int8' } } } });
    await collection.insertMany(DOCS, { chunkSize: 100 });
    await collection.waitForIndex();
    expect((await collection.stats()).vector).toMatchObject({ backend: 'native', flatRowsAs: 'int8' });
    const before = await answers(collection);
    await db.close();

    db = await connect(dir, 'native-rows');
    collection = await db.collection('q');
    await collection.waitForIndex();
    expect((await collection.stats()).vector).toMatchObject({ backend: 'native-rows', flatRowsAs: 'int8', vectors: N, inGraph: N });
    expect(await answers(collection)).toEqual(before);
    await db.close();
    // Saved on native-rows: the next open reads the int8 graph file, and answers alike.
    db = await connect(dir, 'auto');
    collection = await db.collection('q');
    expect((await collection.stats()).vector).toMatchObject({ backend: 'native-rows', flatRowsAs: 'int8' });
    expect(await answers(collection)).toEqual(before);
  });

  it.skipIf(!nativeRowsAvailable())('native-rows, the scale record lost: the graph file keeps the scale, the record is written again', async () => {
    const dir = tempDir();
    let db = await connect(dir, 'native-rows');
    let collection = await db.createCollection({ name: 'q', options: { vector: { dimension: DIM, metric: 'cosine', index: { quantization: 'int8' } } } });
    await collection.insertMany(DOCS, { chunkSize: 100 });
    await collection.waitForIndex();
    const before = await answers(collection);
    await db.close();

    // The database closed: its only scale record goes.
    const range = { gte: 'vquant:', lt: 'vquant;' };
    const scaleRecords = async () => {
      const kv = await KvStore.open(dir);
      try {
        const found: [string, Uint8Array][] = [];
        for await (const entry of kv.entries(range)) found.push(entry);
        return found;
      } finally {
        await kv.close();
      }
    };
    const kept = await scaleRecords();
    expect(kept).toHaveLength(1);
    const kv = await KvStore.open(dir);
    await kv.batch([{ type: 'del', key: kept[0]![0] }]);
    await kv.close();
    expect(await scaleRecords()).toEqual([]);

    db = await connect(dir, 'native-rows');
    collection = await db.collection('q');
    expect((await collection.stats()).vector).toMatchObject({ backend: 'native-rows', flatRowsAs: 'int8', vectors: N });
    expect(await answers(collection)).toEqual(before);
    await db.close();
    // Written again, byte for byte the scale the graph file's codes were made with.
    expect(await scaleRecords()).toEqual(kept);
  });

  it('below the training size the rows stay float32 and searches are exact', async () => {
    const dir = tempDir();
    const db = await connect(dir, 'wasm');
    const collection = await db.createCollection({ name: 'small', options: { vector: { dimension: DIM, metric: 'euclidean', index: { quantization: 'int8' } } } });
    await collection.insertMany(
      Array.from({ length: 50 }, (_, i) => ({ _id: i, $vector: Array.from(row(ALL, i, DIM)) })),
      { chunkSize: 50 },
    );
    expect((await collection.stats()).vector?.flatRowsAs).toBe('float32');
    const [hit] = await collection.findVector(Array.from(row(ALL, 7, DIM)), { limit: 1, includeSimilarity: true, projection: { _id: 1 } });
    expect(hit).toMatchObject({ _id: 7, $similarity: 1 });
  });
});
