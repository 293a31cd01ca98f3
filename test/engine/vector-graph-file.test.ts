/**
 * The native backends' graph snapshot as a side file (storage/side-files.ts): hnswlib writes and reads
 * it by path, LevelDB keeps only our head and the metadata naming it. These check that a reopened
 * collection loads it whole, that a missing or damaged file only costs a rebuild (every vector is still
 * found), that a later save replaces it, that files nobody names are removed, that backups and restores
 * carry it, and that a store without a directory (memory) keeps the graph in LevelDB as before.
 */
import { existsSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { restoreDirectory } from '../../src/engine/database-files.js';
import { readSnapshotMeta, streamSnapshotGraph } from '../../src/engine/vectors/snapshot.js';
import { loadVectorIndex } from '../../src/vector-index/index.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore } from '../../src/storage/index.js';
import { runOn } from '../support/run-command.js';
import { tempDir } from '../support/temp.js';
import { nativeLoads } from '../support/native.js';
import { nativeRowsAvailable } from '../../src/vector-index/native-rows-backend.js';

const KS = { keyspace: 'default_keyspace' };
const N = 600;
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

let backend: 'native' | 'native-rows' = 'native';

async function openDb(dir: string, storage?: 'memory'): Promise<Database> {
  const db = await Database.open(dir, { vectorBackend: backend, limits: { maxInsertManyDocuments: 50 }, ...(storage ? { storage } : {}) });
  opened.push(db);
  return db;
}

const run = (db: Database, command: JsonObject): Promise<JsonObject> => runOn(db, { ...KS, collection: 'v' }, command);

const vectorOf = (i: number): number[] => [Math.cos(i / 7), Math.sin(i / 7), (i % 13) / 13, (i % 5) / 5];

async function insert(db: Database, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 50) {
    const documents = [];
    for (let j = i; j < Math.min(to, i + 50); j++) documents.push({ _id: j, $vector: vectorOf(j) });
    await run(db, { insertMany: { documents } });
  }
}

async function nearest(db: Database, i: number): Promise<unknown> {
  const r = await run(db, { findOne: { sort: { $vector: vectorOf(i) }, projection: { _id: 1 } } });
  return ((r.data as JsonObject).document as JsonObject)._id;
}

async function everyVectorFound(db: Database, count: number): Promise<void> {
  for (let i = 0; i < count; i += 37) expect(await nearest(db, i)).toBe(i);
}

const graphFiles = (dir: string): string[] => (existsSync(path.join(dir, 'side')) ? readdirSync(path.join(dir, 'side')).filter((f) => f.startsWith('graph-')) : []);

async function metaOf(dir: string, cid: number) {
  const kv = await KvStore.open(dir);
  try {
    return await readSnapshotMeta(kv, cid);
  } finally {
    await kv.close();
  }
}

async function create(db: Database): Promise<number> {
  await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: 4, metric: 'euclidean' } } } }, KS);
  return db.collection(KS.keyspace, 'v').record.cid;
}

describe.each([
  { name: 'native' as const, loads: nativeLoads },
  { name: 'native-rows' as const, loads: nativeRowsAvailable() },
])('the graph snapshot as a side file ($name backend)', ({ name, loads }) => {
  beforeEach(() => {
    backend = name;
  });
  it.skipIf(!loads)('is written by hnswlib, named by the metadata, and loaded whole at reopen', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    const cid = await create(db);
    await insert(db, 0, N);
    await (await db.collection(KS.keyspace, 'v').vectors())!.waitForIndex();
    await db.close();
    const meta = await metaOf(dir, cid);
    expect(meta?.file).toBeDefined();
    expect(graphFiles(dir)).toEqual([meta!.file]);
    expect(meta!.bytes).toBeLessThan(64 * 1024); // the chunks hold our head only

    // A build that knows no side files streams the chunks, finds our head alone, and rebuilds.
    const kv = await KvStore.open(dir);
    await expect(loadVectorIndex(streamSnapshotGraph(kv, cid, meta!), { dimension: 4, metric: 'euclidean', backend })).rejects.toMatchObject({ code: 'VECTOR_INDEX_INCOMPATIBLE' });
    await kv.close();

    db = await openDb(dir);
    const vectors = (await db.collection(KS.keyspace, 'v').vectors())!;
    await vectors.graphLoaded();
    expect(vectors.pendingCount).toBe(0);
    await everyVectorFound(db, N);

    // A later save replaces the file; the old one goes.
    await insert(db, N, N + 100);
    await run(db, { deleteMany: { filter: { _id: { $in: [1, 2, 3] } } } });
    await db.close();
    const next = await metaOf(dir, cid);
    expect(next?.file).toBeDefined();
    expect(next!.file).not.toBe(meta!.file);
    expect(graphFiles(dir)).toEqual([next!.file]);
    db = await openDb(dir);
    await everyVectorFound(db, N + 100);
    for (const gone of [1, 2, 3]) expect(await nearest(db, gone)).not.toBe(gone);

    // Dropping the collection removes its files.
    await executeCommand(db, { deleteCollection: { name: 'v' } }, KS);
    expect(graphFiles(dir)).toEqual([]);
    await db.close();
  });

  it.skipIf(!loads)('a missing or damaged file, or a stray one, costs only a rebuild: every vector is still found', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    const cid = await create(db);
    await insert(db, 0, N);
    await db.close();
    const meta = await metaOf(dir, cid);
    const file = path.join(dir, 'side', meta!.file!);

    truncateSync(file, 1000);
    const stray = path.join(dir, 'side', `graph-${cid.toString(36)}-stray.hnsw`);
    writeFileSync(stray, 'left by an interrupted save');
    db = await openDb(dir);
    expect(await nearest(db, 5)).toBe(5);
    expect(existsSync(stray)).toBe(false);
    const vectors = (await db.collection(KS.keyspace, 'v').vectors())!;
    await vectors.graphLoaded();
    await vectors.waitForIndex();
    expect(vectors.pendingCount).toBe(0);
    await everyVectorFound(db, N);
    await db.close(); // saves the rebuilt graph

    const rebuilt = await metaOf(dir, cid);
    expect(graphFiles(dir)).toEqual([rebuilt!.file]);
    const rebuiltFile = path.join(dir, 'side', rebuilt!.file!);
    writeFileSync(rebuiltFile, ''); // then lost altogether
    db = await openDb(dir);
    await everyVectorFound(db, N);
    await db.close();
  });

  it.skipIf(!loads)('a backup and a restore carry the graph file: the copy opens with its graph loaded', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    const cid = await create(db);
    await insert(db, 0, N);
    await (await db.collection(KS.keyspace, 'v').vectors())!.waitForIndex();
    await db.close();
    db = await openDb(dir);
    const backup = path.join(tempDir(), 'backup');
    await db.backup(backup);
    await db.close();
    expect(graphFiles(backup)).toEqual([(await metaOf(backup, cid))!.file]);
    const restored = path.join(tempDir(), 'restored');
    await restoreDirectory(backup, restored);
    for (const copy of [backup, restored]) {
      const opened = await openDb(copy);
      const vectors = (await opened.collection(KS.keyspace, 'v').vectors())!;
      await vectors.graphLoaded();
      expect(vectors.pendingCount).toBe(0);
      await everyVectorFound(opened, N);
      await opened.close();
    }
  });

  it.skipIf(!loads)('answers from the graph file before the values are read, exactly: filters, $similarity, $vector, writes', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    await create(db);
    const M = 3000;
    for (let i = 0; i < M; i += 50) {
      const documents = [];
      for (let j = i; j < i + 50; j++) documents.push({ _id: j, cat: j % 50, $vector: vectorOf(j) });
      await run(db, { insertMany: { documents } });
    }
    await (await db.collection(KS.keyspace, 'v').vectors())!.waitForIndex();
    await db.close();

    db = await openDb(dir);
    const vectors = (await db.collection(KS.keyspace, 'v').vectors())!;
    // Right after open the values are usually still being read: what these queries need is read at once.
    // A filter small enough for an exact scan, with the Data API's score: the same as a plain scan gives.
    const q = vectorOf(1234);
    const filtered = await run(db, { find: { filter: { cat: 34 }, sort: { $vector: q }, projection: { _id: 1, $vector: 1 }, options: { limit: 5, includeSimilarity: true } } });
    const hits = (filtered.data as JsonObject).documents as JsonObject[];
    const expected = Array.from({ length: M / 50 }, (_, j) => 34 + 50 * j)
      .map((n) => ({ n, d: vectorOf(n).reduce((sum, x, i) => sum + (x - q[i]!) ** 2, 0) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, 5);
    expect(hits.map((h) => h._id)).toEqual(expected.map((e) => e.n));
    expect(hits[0]!.$similarity).toBe(1);
    expect((hits[1]!.$vector as number[]).map(Math.fround)).toEqual(vectorOf(expected[1]!.n).map(Math.fround));
    // Writes meanwhile: a changed vector, a deletion.
    await run(db, { updateOne: { filter: { _id: 7 }, update: { $set: { $vector: vectorOf(100_007) } } } });
    await run(db, { deleteOne: { filter: { _id: 8 } } });
    await vectors.valuesReady();
    expect(vectors.valuesLoaded).toBe(true);
    expect(vectors.size).toBe(M - 1);
    expect(await nearest(db, 100_007)).toBe(7);
    expect(await nearest(db, 8)).not.toBe(8);
    for (let i = 0; i < M; i += 97) if (i !== 7 && i !== 8) expect(await nearest(db, i)).toBe(i);
    await db.close();
  });

  it.skipIf(!loads)('a store without a directory keeps the graph in LevelDB', async () => {
    const db = await openDb(`mem-${Date.now()}`, 'memory');
    await create(db);
    await insert(db, 0, 200);
    const vectors = (await db.collection(KS.keyspace, 'v').vectors())!;
    await vectors.waitForIndex();
    await vectors.saveSnapshot();
    await everyVectorFound(db, 200);
    await db.close();
  });
});
