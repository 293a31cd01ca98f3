/**
 * The graph snapshot is saved in steps (the graph serialized off the event loop, the chunks a few per
 * batch) so that a long load never holds the event loop. These check what the steps must not break:
 * a save interrupted half-way leaves the previous snapshot whole (never a torn one) and reopening still
 * finds every vector; writes made while a snapshot is being saved are all there after reopening; a
 * snapshot saved before there were two slots is read, and replaced, like any other.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { readSnapshotGraph, readSnapshotMeta, writeSnapshot } from '../../src/engine/vectors/snapshot.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore, keys } from '../../src/storage/index.js';
import { failingBatches } from '../support/failing-batches.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function openDb(dir: string): Promise<Database> {
  const db = await Database.open(dir, { vectorBackend: 'wasm' });
  opened.push(db);
  return db;
}

async function run(db: Database, command: JsonObject): Promise<JsonObject> {
  const r = (await executeCommand(db, command, { ...KS, collection: 'v' })) as unknown as JsonObject;
  expect(r.errors).toBeUndefined();
  return r;
}

async function storedChunks(kv: KvStore, cid: number): Promise<number> {
  const prefix = keys.vectorIndexChunkPrefix(cid);
  let stored = 0;
  for await (const _ of kv.entries({ gte: prefix, lt: prefix + keys.HIGH })) stored++;
  return stored;
}

const vectorOf = (i: number): number[] => [Math.cos(i / 7), Math.sin(i / 7), (i % 13) / 13];

async function insert(db: Database, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 20) {
    const documents = [];
    for (let j = i; j < Math.min(to, i + 20); j++) documents.push({ _id: j, $vector: vectorOf(j) });
    await run(db, { insertMany: { documents } });
  }
}

async function nearest(db: Database, i: number): Promise<unknown> {
  const r = await run(db, { findOne: { sort: { $vector: vectorOf(i) }, projection: { _id: 1 } } });
  return ((r.data as JsonObject).document as JsonObject)._id;
}

describe('saving the vector snapshot in steps', () => {
  it('an interrupted save leaves the previous snapshot whole, and every vector is found after reopening', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, KS);
    await insert(db, 0, 300);
    const vectors = (await db.collection('default_keyspace', 'v').vectors())!;
    await vectors.waitForIndex();
    await vectors.saveSnapshot();
    const cid = db.collection('default_keyspace', 'v').record.cid;
    const kv = db.kvStore;
    const saved = (await readSnapshotMeta(kv, cid))!;
    const savedGraph = (await readSnapshotGraph(kv, cid, saved))!;
    // Changes after that snapshot, which only the records have (under the 25 % that triggers a save).
    await insert(db, 300, 350);
    await run(db, { deleteOne: { filter: { _id: 5 } } });
    await vectors.waitForIndex();

    // A save that dies after its first chunk batch (as a crash would): 12 MB of graph, 3 chunks.
    const dying = failingBatches(kv, 1);
    const graph = [new Uint8Array(12 * 1024 * 1024).fill(3)];
    await expect(writeSnapshot(dying.store, cid, { graph, labelLimit: 300, table: [new Uint8Array(16)] })).rejects.toThrow('crash');
    expect(dying.batches()).toBe(2);
    expect(await readSnapshotMeta(kv, cid)).toEqual(saved);
    expect(Buffer.from((await readSnapshotGraph(kv, cid, saved))!).equals(Buffer.from(savedGraph))).toBe(true);
    await db.close();

    db = await openDb(dir);
    for (const i of [0, 123, 299, 320]) expect(await nearest(db, i)).toBe(i);
    const reopened = (await db.collection('default_keyspace', 'v').vectors())!;
    expect(reopened.size).toBe(349);
    await reopened.waitForIndex();
    for (const i of [42, 349]) expect(await nearest(db, i)).toBe(i);
    expect(await nearest(db, 5)).not.toBe(5);
    await insert(db, 350, 400);
    await reopened.waitForIndex();
    await db.close(); // saves a snapshot again; the chunks the interrupted save left are cleared

    const after = await KvStore.open(dir);
    const meta = (await readSnapshotMeta(after, cid))!;
    expect(meta.labelLimit).toBe(400);
    expect(meta.tableChunks).toBeUndefined(); // the vectors are in their records only
    expect(await storedChunks(after, cid)).toBe(meta.chunks);
    await after.close();
  });

  it('reads a snapshot saved before there were two slots, and replaces it', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, KS);
    await insert(db, 0, 200);
    const cid = db.collection('default_keyspace', 'v').record.cid;
    await db.close();

    // The first format: chunks at slot a's keys, metadata without a slot.
    let kv = await KvStore.open(dir);
    const first = (await readSnapshotMeta(kv, cid))!;
    expect(first.slot).toBe('a');
    const { slot: _slot, ...legacy } = first;
    await kv.batch([{ type: 'put', key: keys.vectorIndexMetaKey(cid), value: JSON.stringify(legacy) }]);
    expect(await readSnapshotGraph(kv, cid, legacy)).toBeDefined();
    await kv.close();

    db = await openDb(dir);
    const vectors = (await db.collection('default_keyspace', 'v').vectors())!;
    expect(vectors.size).toBe(200);
    await insert(db, 200, 300);
    await vectors.waitForIndex();
    for (const i of [0, 199, 250]) expect(await nearest(db, i)).toBe(i);
    await db.close();

    kv = await KvStore.open(dir);
    const meta = (await readSnapshotMeta(kv, cid))!;
    expect(meta.slot).toBe('s');
    expect(meta.labelLimit).toBe(300);
    expect(await storedChunks(kv, cid)).toBe(meta.chunks);
    await kv.close();
  });

  it('keeps the writes made while a snapshot is being saved', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, KS);
    await insert(db, 0, 400);
    const vectors = (await db.collection('default_keyspace', 'v').vectors())!;
    await vectors.waitForIndex();
    const saving = vectors.saveSnapshot();
    await insert(db, 400, 500);
    await run(db, { deleteOne: { filter: { _id: 7 } } });
    await saving;
    await vectors.waitForIndex();
    await db.close();

    db = await openDb(dir);
    const reopened = (await db.collection('default_keyspace', 'v').vectors())!;
    expect(reopened.size).toBe(499);
    for (const i of [0, 399, 400, 499]) expect(await nearest(db, i)).toBe(i);
    expect(await nearest(db, 7)).not.toBe(7);
    await reopened.waitForIndex();
    expect(await nearest(db, 450)).toBe(450);
    await db.close();
  });
});
