/**
 * The graph snapshot is saved in steps (the table copied a slice at a time, the chunks a few per
 * batch) so that a long load never holds the event loop. These check what the steps must not break:
 * a save interrupted half-way leaves no snapshot (never a torn one) and reopening still finds every
 * vector; writes made while a snapshot is being saved are all there after reopening.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { readSnapshotMeta, writeSnapshot } from '../../src/engine/vector-snapshot.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore, keys } from '../../src/storage/index.js';
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
  it('an interrupted save leaves no snapshot, and every vector is found after reopening', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, KS);
    await insert(db, 0, 300);
    const vectors = (await db.collection('default_keyspace', 'v').vectors())!;
    await vectors.waitForIndex();
    await vectors.saveSnapshot();
    const cid = db.collection('default_keyspace', 'v').record.cid;
    expect(await readSnapshotMeta(db.kvStore, cid)).toBeDefined();

    // A save that dies after its first chunk batch (as a crash would): 12 MB of graph, 3 chunks.
    const kv = db.kvStore;
    let batches = 0;
    const dying = new Proxy(kv, {
      get(target, property, receiver) {
        if (property === 'batch') {
          return async (ops: Parameters<KvStore['batch']>[0]) => {
            if (++batches > 2) throw new Error('crash');
            await target.batch(ops);
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const graph = [new Uint8Array(12 * 1024 * 1024).fill(3)];
    await expect(writeSnapshot(dying, cid, { graph, labelLimit: 300, table: [new Uint8Array(16)] })).rejects.toThrow('crash');
    expect(batches).toBe(3);
    expect(await readSnapshotMeta(kv, cid)).toBeUndefined();
    await db.close();

    db = await openDb(dir);
    for (const i of [0, 123, 299]) expect(await nearest(db, i)).toBe(i);
    const reopened = (await db.collection('default_keyspace', 'v').vectors())!;
    expect(reopened.size).toBe(300);
    await reopened.waitForIndex();
    expect(await nearest(db, 42)).toBe(42);
    await db.close(); // saves a snapshot again: without metadata to go by, it clears the leftover chunks

    const after = await KvStore.open(dir);
    const meta = (await readSnapshotMeta(after, cid))!;
    const prefix = keys.vectorIndexChunkPrefix(cid);
    let stored = 0;
    for await (const _ of after.entries({ gte: prefix, lt: prefix + keys.HIGH })) stored++;
    expect(stored).toBe(meta.chunks + meta.tableChunks!);
    await after.close();
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
