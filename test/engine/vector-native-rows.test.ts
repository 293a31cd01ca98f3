/**
 * The engine on the native-rows backend (our addon, native/): each vector held once (the graph reads the
 * rows the collection keeps, before and after a reopen), bulk inserts on several threads, a reopen through
 * `new VectorDB(...)` answering the same top 10, a compaction over the same rows, and an hnswlib-node
 * graph rebuilt over the addon's rows when 'auto' finds the addon. Real LevelDB in temp dirs; skipped where
 * the addon was not built.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { readSnapshotMeta } from '../../src/engine/vectors/snapshot.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore } from '../../src/storage/index.js';
import { HnswIndex } from '../../src/vector-index/hnsw-index.js';
import { isRowsGraphFile, nativeRowsAvailable } from '../../src/vector-index/native-rows-backend.js';
import { nativeLoads } from '../support/native.js';
import { runOn } from '../support/run-command.js';
import { tempDir } from '../support/temp.js';
import { clustered, row } from '../vector-index/data.js';

const KS = { keyspace: 'default_keyspace' };
const DIM = 32;
const N = 1500;
const data = clustered(21, N + 200, DIM);
const vectorOf = (i: number): number[] => Array.from(row(data, i, DIM));
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function openDb(dir: string, vectorBackend: 'auto' | 'native' = 'auto'): Promise<Database> {
  const db = await Database.open(dir, { vectorBackend, limits: { maxInsertManyDocuments: 100 } });
  opened.push(db);
  return db;
}

const run = (db: Database, command: JsonObject): Promise<JsonObject> => runOn(db, { ...KS, collection: 'v' }, command);

async function create(db: Database): Promise<number> {
  await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, KS);
  return db.collection(KS.keyspace, 'v').record.cid;
}

async function insert(db: Database, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 100) {
    const documents = [];
    for (let j = i; j < Math.min(to, i + 100); j++) documents.push({ _id: j, $vector: vectorOf(j) });
    await run(db, { insertMany: { documents } });
  }
}

const queryOf = (q: number): number[] => vectorOf(q * 13).map((x, i) => x + ((q + i) % 3) * 0.01);
const findTop10 = (q: number): JsonObject => ({ find: { sort: { $vector: queryOf(q) }, projection: { _id: 1 }, options: { limit: 10 } } });
const ids = (r: JsonObject): unknown[] => ((r.data as JsonObject).documents as JsonObject[]).map((d) => d._id);

async function vectorsOf(db: Database) {
  return (await db.collection(KS.keyspace, 'v').vectors())!;
}

describe.skipIf(!nativeRowsAvailable())('the native-rows backend in the engine', () => {
  it('holds each vector once, inserts in bulk off the event loop, and reopens (VectorDB) with the same top 10', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    const cid = await create(db);
    await insert(db, 0, N);
    const vectors = await vectorsOf(db);
    await vectors.waitForIndex();
    expect(vectors.indexInfo().backend).toBe('native-rows');
    // One row per vector: the graph inserted the rows the collection keeps (no second copy).
    expect(vectors.footprint()).toMatchObject({ graphElements: N, flatRows: N });
    const before: unknown[][] = [];
    for (let q = 0; q < 10; q++) before.push(ids(await run(db, findTop10(q))));
    await db.close();

    const kv = await KvStore.open(dir);
    const meta = await readSnapshotMeta(kv, cid);
    await kv.close();
    expect(isRowsGraphFile(path.join(dir, 'side', meta!.file!))).toBe(true);

    const client = new VectorDB('token', dir, KS.keyspace);
    try {
      for (let q = 0; q < 10; q++) {
        const r = (await client.command(findTop10(q), { collection: 'v' })) as unknown as JsonObject;
        expect(ids(r)).toEqual(before[q]);
      }
    } finally {
      await client.close();
    }

    // Reopened, the rows come from the graph file: the values read in the background add none.
    db = await openDb(dir);
    const again = await vectorsOf(db);
    await again.graphLoaded();
    await again.valuesReady();
    expect(again.pendingCount).toBe(0);
    expect(again.footprint()).toMatchObject({ graphElements: N, flatRows: N });
    await db.close();
  });

  it('a vector deleted while its insert runs off the event loop leaves the graph too', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    await create(db);
    await insert(db, 0, 200);
    const vectors = await vectorsOf(db);
    await vectors.waitForIndex();
    // The next parallel insert runs at once, but the indexer sees it settle only once the deletion has
    // committed: the window a bulk load opens (a deletion while the insert is in flight).
    const original = HnswIndex.prototype.addStored;
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    HnswIndex.prototype.addStored = function (this: HnswIndex, labels: readonly number[], threads?: number): Promise<void> {
      const inserting = original.call(this, labels, threads);
      held++;
      return gate.then(() => inserting);
    };
    try {
      await insert(db, 200, 300);
      await run(db, { deleteOne: { filter: { _id: 201 } } }); // in the first batch the indexer took
      expect(held).toBeGreaterThan(0);
      release();
      await vectors.waitForIndex();
    } finally {
      HnswIndex.prototype.addStored = original;
    }
    const { graphElements, graphDeleted } = vectors.footprint();
    expect(graphElements - graphDeleted).toBe(299);
    const r = await run(db, { find: { sort: { $vector: vectorOf(201) }, projection: { _id: 1 }, options: { limit: 3 } } });
    expect(ids(r)).not.toContain(201);
    await db.close();
  });

  it('compacts over the same rows: deleted vectors leave the graph, their rows are reused', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    await create(db);
    await insert(db, 0, 1200);
    const vectors = await vectorsOf(db);
    await vectors.waitForIndex();
    // deleteMany deletes a page at a time (moreData says when to go on).
    while (((await run(db, { deleteMany: { filter: { _id: { $lt: 1100 } } } })).status as JsonObject).moreData === true);
    await insert(db, 1200, 1300);
    await vectors.waitForIndex();
    const after = vectors.footprint();
    expect(after.compactions).toBeGreaterThanOrEqual(1);
    expect(after.graphElements).toBeLessThan(400);
    expect(after.flatRows).toBeLessThanOrEqual(1300); // the deleted vectors' rows were freed and reused
    for (let i = 1100; i < 1300; i += 17) {
      const r = await run(db, { findOne: { sort: { $vector: vectorOf(i) }, projection: { _id: 1 } } });
      expect(((r.data as JsonObject).document as JsonObject)._id).toBe(i);
    }
    await db.close();
  });

  it.skipIf(!nativeLoads)("an hnswlib-node graph is rebuilt over the addon's rows when 'auto' finds the addon", async () => {
    const dir = tempDir();
    let db = await openDb(dir, 'native');
    await create(db);
    await insert(db, 0, 500);
    await (await vectorsOf(db)).waitForIndex();
    await db.close();
    db = await openDb(dir, 'auto');
    const vectors = await vectorsOf(db);
    await vectors.graphLoaded();
    await vectors.waitForIndex();
    expect(vectors.indexInfo().backend).toBe('native-rows');
    expect(vectors.footprint()).toMatchObject({ graphElements: 500, flatRows: 500 });
    for (let i = 0; i < 500; i += 23) {
      const r = await run(db, { findOne: { sort: { $vector: vectorOf(i) }, projection: { _id: 1 } } });
      expect(((r.data as JsonObject).document as JsonObject)._id).toBe(i);
    }
    await db.close();
  });
});
