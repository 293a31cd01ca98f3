/**
 * A reopened collection whose graph is a side file answers an unfiltered search before it has read
 * every vector key (CollectionVectors.openForSearch): only the labels at or past the snapshot's
 * coveredBelow are read first, and a hit's liveness and document come from its record. These check
 * that such answers are exact although the snapshot is older than the records (vectors deleted,
 * replaced and added since it was saved), that a snapshot saved with vectors pending covers them, that
 * writes made at once wait for the keys, and that an older build's snapshot (no coveredBelow) still
 * opens the way it did.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { CollectionVectors, type VectorSettings } from '../../src/engine/vectors/collection-vectors.js';
import { Database } from '../../src/engine/database.js';
import { readSnapshotGraph, readSnapshotMeta, writeSnapshot, type SnapshotMeta } from '../../src/engine/vectors/snapshot.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore } from '../../src/storage/index.js';
import { nativeLoads } from '../support/native.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const DIM = 8;
const N = 800;
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function openDb(dir: string): Promise<Database> {
  // relaxed: an acknowledgement then takes no turn of the event loop (the default's group-commit fsync lets the
  // background indexer catch up first), and the test needs the vectors still pending right after an insert.
  const db = await Database.open(dir, { vectorBackend: 'native', limits: { maxInsertManyDocuments: 100 }, durability: 'relaxed' });
  opened.push(db);
  return db;
}

async function run(db: Database, command: JsonObject): Promise<JsonObject> {
  const r = (await executeCommand(db, command, { ...KS, collection: 'v' })) as unknown as JsonObject;
  expect(r.errors).toBeUndefined();
  return r;
}

/** Document i's vector (pseudo-random, so no two are at the same distance); `version` > 0 is a replacement, far from every original. */
function vectorOf(i: number, version = 0): number[] {
  let seed = i * 0x9e3779b9; // mulberry32
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return Array.from({ length: DIM }, (_, d) => Math.fround(next() + (d === 0 ? version * 3 : 0)));
}

async function insert(db: Database, ids: readonly number[], version = 0): Promise<void> {
  for (let at = 0; at < ids.length; at += 100) {
    const documents = ids.slice(at, at + 100).map((i) => ({ _id: i, $vector: vectorOf(i, version) }));
    await run(db, { insertMany: { documents } });
  }
}

/** Replaces the vectors of these documents with version `version` of theirs. */
async function replace(db: Database, ids: readonly number[], version: number): Promise<void> {
  for (const i of ids) await run(db, { updateOne: { filter: { _id: i }, update: { $set: { $vector: vectorOf(i, version) } } } });
}

const distance = (a: readonly number[], b: readonly number[]): number => Math.hypot(...a.map((x, i) => x - b[i]!));

/** The k nearest of the live documents (id -> vector), by brute force. */
function exactNearest(live: ReadonlyMap<number, number[]>, query: readonly number[], k: number): number[] {
  return [...live]
    .map(([id, vector]) => ({ id, d: distance(vector, query) }))
    .sort((a, b) => a.d - b.d || a.id - b.id)
    .slice(0, k)
    .map((hit) => hit.id);
}

async function nearestIds(db: Database, query: number[], k: number): Promise<number[]> {
  const r = await run(db, { find: { sort: { $vector: query }, projection: { _id: 1 }, options: { limit: k, efSearch: 400 } } });
  return ((r.data as JsonObject).documents as JsonObject[]).map((d) => d._id as number);
}

async function createCollection(db: Database): Promise<VectorSettings> {
  await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: DIM, metric: 'euclidean' } } } }, KS);
  const record = db.collection(KS.keyspace, 'v').record;
  return { name: 'v', cid: record.cid, dimension: DIM, metric: 'euclidean', options: record.options, backend: 'native' };
}

/** The saved snapshot as it is now: its metadata, head and graph file (copied aside). */
async function keepSnapshot(dir: string, cid: number, openKv?: KvStore): Promise<{ meta: SnapshotMeta; head: Uint8Array; copy: string }> {
  const kv = openKv ?? (await KvStore.open(dir));
  try {
    const meta = (await readSnapshotMeta(kv, cid))!;
    expect(meta.file).toBeDefined();
    expect(meta.coveredBelow).toBeDefined();
    const head = (await readSnapshotGraph(kv, cid, meta))!;
    const copy = path.join(tempDir(), meta.file!);
    copyFileSync(path.join(dir, 'side', meta.file!), copy);
    return { meta, head, copy };
  } finally {
    if (openKv === undefined) await kv.close();
  }
}

/** Puts a kept snapshot back: the records are then newer than the snapshot, as after a crash. */
async function restoreSnapshot(dir: string, cid: number, kept: { meta: SnapshotMeta; head: Uint8Array; copy: string }, options: { withCoveredBelow: boolean }): Promise<void> {
  copyFileSync(kept.copy, path.join(dir, 'side', kept.meta.file!));
  const kv = await KvStore.open(dir);
  try {
    const { labelLimit, coveredBelow, file } = kept.meta;
    await writeSnapshot(kv, cid, { graph: [kept.head], labelLimit, file: file!, ...(options.withCoveredBelow ? { coveredBelow: coveredBelow! } : {}) });
  } finally {
    await kv.close();
  }
}

/**
 * A collection of N whose saved snapshot predates a third of its documents being deleted, a tenth having
 * their vectors replaced and 100 being added: the live documents and the data directory.
 */
async function staleSnapshotCollection(options: { withCoveredBelow: boolean }): Promise<{ dir: string; settings: VectorSettings; live: Map<number, number[]> }> {
  const dir = tempDir();
  let db = await openDb(dir);
  const settings = await createCollection(db);
  const ids = Array.from({ length: N }, (_, i) => i);
  await insert(db, ids);
  await db.close();
  const kept = await keepSnapshot(dir, settings.cid);

  db = await openDb(dir);
  const live = new Map(ids.map((i) => [i, vectorOf(i)]));
  const deleted = ids.filter((i) => i % 3 === 0);
  for (let at = 0; at < deleted.length; at += 100) {
    const filter = { _id: { $in: deleted.slice(at, at + 100) } };
    while (((await run(db, { deleteMany: { filter } })).status as JsonObject).moreData === true);
  }
  for (const i of deleted) live.delete(i);
  const replaced = ids.filter((i) => i % 10 === 1 && live.has(i));
  await replace(db, replaced, 1);
  for (const i of replaced) live.set(i, vectorOf(i, 1));
  const added = Array.from({ length: 100 }, (_, j) => N + j);
  await insert(db, added);
  for (const i of added) live.set(i, vectorOf(i));
  await db.close(); // saves a newer snapshot, which is then replaced by the kept one
  await restoreSnapshot(dir, settings.cid, kept, options);
  return { dir, settings, live };
}

const probes = (live: ReadonlyMap<number, number[]>): number[][] => [0, 3, 11, 21, 300, 301, 599, 600, N + 5, N + 99].map((i) => live.get(i) ?? vectorOf(i));

describe.skipIf(!nativeLoads)('answering before every vector key is read (native graph file)', () => {
  it('answers exactly from a snapshot older than the records, before the keys are read', async () => {
    const { dir, settings, live } = await staleSnapshotCollection({ withCoveredBelow: true });
    const db = await openDb(dir);
    const vectors = await CollectionVectors.openForSearch(db.kvStore, settings);
    try {
      // Nothing awaited since: the keys are still being read, so these searches use the records only.
      expect(() => vectors.labelsNow()).toThrow(/still being read/);
      for (const query of probes(live)) {
        const hits = vectors.search(Float32Array.from(query), 10, undefined, 400);
        const ids = hits.map((hit) => JSON.parse(vectors.keyOf(hit.label)!.slice(1)) as number);
        expect(ids).toEqual(exactNearest(live, query, 10));
      }
      await vectors.keysRead();
      expect(vectors.size).toBe(live.size);
      expect(vectors.labelsNow().size).toBe(live.size);
      await vectors.waitForIndex();
      expect(vectors.pendingCount).toBe(0);
      for (const query of probes(live)) {
        const ids = vectors.search(Float32Array.from(query), 10, undefined, 400).map((hit) => JSON.parse(vectors.keyOf(hit.label)!.slice(1)) as number);
        expect(ids).toEqual(exactNearest(live, query, 10));
      }
    } finally {
      await vectors.close(false);
    }
  });

  it('through the API: the first searches, a write made at once and later searches are all exact', async () => {
    const { dir, live } = await staleSnapshotCollection({ withCoveredBelow: true });
    const db = await openDb(dir);
    const first = probes(live).map((query) => nearestIds(db, query, 10));
    // A vector replaced at once: the write waits for the keys, so the old vector is gone for good.
    const rewrite = replace(db, [2], 2).then(() => live.set(2, vectorOf(2, 2)));
    const answers = await Promise.all(first);
    await rewrite;
    // The first answers were made before or after the write: either is exact for one of the two states.
    const before = new Map(live);
    before.set(2, vectorOf(2, 0));
    probes(before).forEach((query, i) => expect([exactNearest(before, query, 10), exactNearest(live, query, 10)]).toContainEqual(answers[i]));
    for (const query of [...probes(live), vectorOf(2, 0), vectorOf(2, 2)]) expect(await nearestIds(db, query, 10)).toEqual(exactNearest(live, query, 10));
    await db.close();
  });

  it('a snapshot saved while vectors were pending covers them only below the first pending label, and reopens exact', async () => {
    const dir = tempDir();
    let db = await openDb(dir);
    const settings = await createCollection(db);
    await insert(db, Array.from({ length: 300 }, (_, i) => i));
    const vectors = (await db.collection(KS.keyspace, 'v').vectors())!;
    await vectors.waitForIndex();
    await insert(db, Array.from({ length: 300 }, (_, i) => 300 + i));
    expect(vectors.pendingCount).toBeGreaterThan(0); // no turn of the event loop since: nothing indexed
    await vectors.saveSnapshot();
    const kept = await keepSnapshot(dir, settings.cid, db.kvStore);
    // Labels from 300 on were pending when the save was asked for; the indexer may take some in before
    // the graph is written, and coveredBelow is the first label still pending then.
    expect(kept.meta.coveredBelow).toBeGreaterThanOrEqual(300);
    expect(kept.meta.labelLimit).toBe(600);
    await db.close();
    await restoreSnapshot(dir, settings.cid, kept, { withCoveredBelow: true });

    db = await openDb(dir);
    const reopened = await CollectionVectors.openForSearch(db.kvStore, settings);
    try {
      const live = new Map(Array.from({ length: 600 }, (_, i) => [i, vectorOf(i)] as [number, number[]]));
      for (const i of [0, 299, 300, 450, 599]) {
        const hits = reopened.search(Float32Array.from(vectorOf(i)), 5, undefined, 400);
        expect(hits.map((hit) => JSON.parse(reopened.keyOf(hit.label)!.slice(1)) as number)).toEqual(exactNearest(live, vectorOf(i), 5));
      }
    } finally {
      await reopened.close(false);
    }
  });

  it("an older build's snapshot (no coveredBelow) reads every key first, and answers exactly", async () => {
    const { dir, settings, live } = await staleSnapshotCollection({ withCoveredBelow: false });
    const db = await openDb(dir);
    const vectors = await CollectionVectors.openForSearch(db.kvStore, settings);
    try {
      expect(vectors.labelsNow().size).toBe(live.size); // no throw: every key was read before it resolved
      for (const query of probes(live)) {
        const ids = vectors.search(Float32Array.from(query), 10, undefined, 400).map((hit) => JSON.parse(vectors.keyOf(hit.label)!.slice(1)) as number);
        expect(ids).toEqual(exactNearest(live, query, 10));
      }
    } finally {
      await vectors.close(false);
    }
  });
});
