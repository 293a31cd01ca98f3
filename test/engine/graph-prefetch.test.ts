/**
 * Reading a collection's graph file while its database opens (engine/vectors/graph-prefetch.ts): a saved graph
 * file leaves a hint naming it; Database.open, told which collection comes first, starts hnswlib's read
 * from the hint, and the collection takes that read only when its snapshot names the same file. These
 * check the hint's upkeep (written with each file snapshot, gone with the collection), that the read is
 * taken and answers exactly, that a wrong, stale or malformed hint is dropped without harm, and the
 * client's path (VectorDB.collection names the collection).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { readSnapshotMeta } from '../../src/engine/vectors/snapshot.js';
import { EmbeddedTransport } from '../../src/transport/embedded.js';
import type { JsonObject } from '../../src/query/json.js';
import { nativeLoads } from '../support/native.js';
import { tempDir } from '../support/temp.js';

const KS = 'default_keyspace';
const NAME = 'v';
const FIRST = { keyspace: KS, collection: NAME };
const DIM = 8;
const N = 600;
const HINT = `hint-${KS}.${NAME}.json`;
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function openDb(dir: string, first?: typeof FIRST): Promise<Database> {
  const db = await Database.open(dir, { vectorBackend: 'native', limits: { maxInsertManyDocuments: 100 } }, first);
  opened.push(db);
  return db;
}

async function run(db: Database, command: JsonObject, collection: string = NAME): Promise<JsonObject> {
  const r = (await executeCommand(db, command, { keyspace: KS, collection })) as unknown as JsonObject;
  expect(r.errors).toBeUndefined();
  return r;
}

/** Document i's vector (pseudo-random: no two at the same distance from a probe). */
function vectorOf(i: number): number[] {
  let seed = (i + 1) * 0x9e3779b9;
  return Array.from({ length: DIM }, () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return Math.fround(((seed >>> 0) % 100_000) / 100_000);
  });
}

/** A data directory holding collection `v` of N vectors, closed (so its graph is saved as a file). */
async function savedCollection(): Promise<string> {
  const dir = tempDir();
  const db = await openDb(dir);
  await executeCommand(db, { createCollection: { name: NAME, options: { vector: { dimension: DIM, metric: 'euclidean' } } } }, { keyspace: KS });
  for (let at = 0; at < N; at += 100) {
    await run(db, { insertMany: { documents: Array.from({ length: 100 }, (_, j) => ({ _id: at + j, $vector: vectorOf(at + j) })) } });
  }
  await db.close();
  return dir;
}

const hintOf = (dir: string): JsonObject => JSON.parse(readFileSync(path.join(dir, 'side', HINT), 'utf8')) as JsonObject;

/** The k nearest documents to `query` by brute force. */
function exactNearest(query: readonly number[], k: number): number[] {
  const distance = (i: number): number => Math.hypot(...vectorOf(i).map((x, d) => x - query[d]!));
  return Array.from({ length: N }, (_, i) => i)
    .sort((a, b) => distance(a) - distance(b))
    .slice(0, k);
}

async function nearestIds(db: Database, query: number[], k = 10): Promise<number[]> {
  const r = await run(db, { find: { sort: { $vector: query }, projection: { _id: 1 }, options: { limit: k, efSearch: 400 } } });
  return ((r.data as JsonObject).documents as JsonObject[]).map((d) => d._id as number);
}

const PROBES = [0, 7, 99, 250, 599].map(vectorOf);

async function expectExact(db: Database): Promise<void> {
  for (const query of PROBES) expect(await nearestIds(db, query)).toEqual(exactNearest(query, 10));
}

describe.skipIf(!nativeLoads)('reading the graph file while the database opens (native)', () => {
  it('leaves a hint naming the snapshot graph file, and removes it with the collection', async () => {
    const dir = await savedCollection();
    const db = await openDb(dir);
    const meta = (await readSnapshotMeta(db.kvStore, db.collection(KS, NAME).record.cid))!;
    expect(meta.file).toBeDefined();
    expect(hintOf(dir)).toEqual({ file: meta.file, fileBytes: meta.fileBytes, dimension: DIM, metric: 'euclidean' });
    await executeCommand(db, { deleteCollection: { name: NAME } }, { keyspace: KS });
    expect(existsSync(path.join(dir, 'side', HINT))).toBe(false);
    expect(readdirSync(path.join(dir, 'side'))).toEqual([]);
  });

  it('takes the read started at open, and answers exactly', async () => {
    const dir = await savedCollection();
    const db = await openDb(dir, FIRST);
    await expectExact(db);
    expect(db.graphPrefetchState).toBe('taken');
  });

  it('drops the read when the hint names another file, and opens from the snapshot as before', async () => {
    const dir = await savedCollection();
    // A hint naming a graph file of another length: as if the snapshot moved on and the hint was lost.
    const hint = hintOf(dir);
    writeFileSync(path.join(dir, 'side', HINT), JSON.stringify({ ...hint, fileBytes: (hint.fileBytes as number) - 8 }));
    let db = await openDb(dir, FIRST);
    await expectExact(db);
    expect(db.graphPrefetchState).toBe('discarded');
    await db.close();
    // A hint naming a file that is gone.
    writeFileSync(path.join(dir, 'side', HINT), JSON.stringify({ ...hint, file: 'graph-1-gone.hnsw' }));
    db = await openDb(dir, FIRST);
    await expectExact(db);
    expect(db.graphPrefetchState).toBe('discarded');
  });

  it('ignores a malformed hint', async () => {
    const dir = await savedCollection();
    for (const text of ['{not json', JSON.stringify({ file: '../LOCK', fileBytes: 1, dimension: DIM, metric: 'euclidean' }), JSON.stringify({ file: 'graph-1-x.hnsw' })]) {
      writeFileSync(path.join(dir, 'side', HINT), text);
      const db = await openDb(dir, FIRST);
      expect(db.graphPrefetchState).toBeUndefined();
      await expectExact(db);
      await db.close();
    }
  });

  it('frees the read when the collection named first does not exist', async () => {
    const dir = await savedCollection();
    const missing = await openDb(dir, { keyspace: KS, collection: 'missing' });
    expect(missing.graphPrefetchState).toBeUndefined(); // no hint of that name
    await missing.close();
    // A hint left by a collection that is no more (its drop was interrupted before the hint went).
    writeFileSync(path.join(dir, 'side', `hint-${KS}.ghost.json`), readFileSync(path.join(dir, 'side', HINT)));
    const db = await openDb(dir, { keyspace: KS, collection: 'ghost' });
    await expect.poll(() => db.graphPrefetchState).toBe('discarded');
    await expectExact(db);
  });

  it('the embedded transport passes the collection warmed before its first command to Database.open', async () => {
    const dir = await savedCollection();
    const transport = new EmbeddedTransport(dir, { vectorBackend: 'native' });
    try {
      transport.warm({ keyspace: KS, collection: NAME });
      const db = await transport.database();
      await expectExact(db);
      expect(db.graphPrefetchState).toBe('taken');
    } finally {
      await transport.close();
    }
  });

  it('VectorDB.collection names the collection: a reopened client answers exactly', async () => {
    const dir = await savedCollection();
    const client = new VectorDB('token', dir, KS, { vectorBackend: 'native' });
    try {
      const collection = await client.collection(NAME);
      for (const query of PROBES) {
        const found = await collection.findVector(query, { limit: 10, projection: { _id: 1 }, efSearch: 400 });
        expect(found.map((d) => d._id)).toEqual(exactNearest(query, 10));
      }
    } finally {
      await client.close();
    }
  });
});
