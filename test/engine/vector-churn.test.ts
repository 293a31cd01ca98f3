/**
 * Vector churn (every vector replaced several times: each change takes a new label): the exact-scan
 * store's rows and the graph's elements stay within a small multiple of the live vectors (rows reused,
 * graph compacted: engine/vectors/compaction.ts), searches stay exact before, during and after a
 * compaction and after reopening, and the reopened collection finds every vector. Both backends: on the
 * event loop from the sources, and the native backend's worker-thread rebuild from the built package.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { executeCommand as srcExecute } from '../../src/commands/index.js';
import { Database as SrcDatabase } from '../../src/engine/database.js';
import { ROOT, buildPackage } from '../durability/built-package.js';
import { nativeLoads } from '../support/native.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const target = { ...KS, collection: 'churn' };
const N = 1200;
const DIM = 8;
const ROUNDS = 5;
const CATS = 50;

interface Api {
  executeCommand: Function;
  Database: any;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** Exact top k by the Data API's euclidean score 1 / (1 + d^2), ties by id. */
function bruteForce(vectors: Map<number, number[]>, query: number[], k: number, allowed?: (id: number) => boolean): number[] {
  const scored: { id: number; score: number }[] = [];
  for (const [id, v] of vectors) {
    if (allowed && !allowed(id)) continue;
    let d2 = 0;
    for (let i = 0; i < DIM; i++) d2 += (v[i]! - query[i]!) ** 2;
    scored.push({ id, score: 1 / (1 + d2) });
  }
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return scored.slice(0, k).map((s) => s.id);
}

async function churnScenario(api: Api, backend: 'wasm' | 'native', onWorker: boolean): Promise<void> {
  const { executeCommand, Database } = api;
  const dir = tempDir();
  let db = await Database.open(dir, { vectorBackend: backend, limits: { maxInsertManyDocuments: 200 } });
  const run = async (command: object) => {
    const result = await executeCommand(db, command, target);
    expect(result.errors).toBeUndefined();
    return result;
  };
  const rand = rng(backend === 'wasm' ? 11 : 12);
  const current = new Map<number, number[]>();
  const fresh = () => Array.from({ length: DIM }, () => Math.fround(rand()));
  await executeCommand(db, { createCollection: { name: 'churn', options: { vector: { dimension: DIM, metric: 'euclidean' } } } }, KS);
  for (let i = 0; i < N; i += 200) {
    const documents = Array.from({ length: 200 }, (_, j) => {
      current.set(i + j, fresh());
      return { _id: i + j, cat: (i + j) % CATS, $vector: current.get(i + j) };
    });
    await run({ insertMany: { documents } });
  }
  let vectors = await db.collection(KS.keyspace, 'churn').vectors();
  await vectors.waitForIndex();

  const ids = async (command: object): Promise<number[]> => (await run(command)).data.documents.map((d: { _id: number }) => d._id);
  /** Filtered (exact scan) searches equal the brute force; unfiltered ones find each vector first and the brute force's neighbours. */
  const checkExact = async (seed: number): Promise<void> => {
    const pick = rng(seed);
    for (let q = 0; q < 3; q++) {
      const query = fresh();
      const cat = Math.floor(((pick() + 1) / 2) * CATS) % CATS;
      const filtered = await ids({ find: { filter: { cat }, sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 5 } } });
      expect(filtered).toEqual(bruteForce(current, query, 5, (id) => id % CATS === cat));
      const all = await ids({ find: { sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 10 } } });
      const want = bruteForce(current, query, 10);
      expect(all.filter((id) => want.includes(id)).length).toBeGreaterThanOrEqual(9);
      const id = Math.floor(((pick() + 1) / 2) * N) % N;
      expect((await ids({ find: { sort: { $vector: current.get(id) }, projection: { _id: 1 }, options: { limit: 1 } } }))[0]).toBe(id);
    }
  };
  await checkExact(1);

  let sawCompacting = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < N; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => {
          const id = i + j;
          current.set(id, fresh());
          return run({ updateOne: { filter: { _id: id }, update: { $set: { $vector: current.get(id) } } } });
        }),
      );
    }
    // Once the dead reach the live, a compaction starts: the old graph answers while the new one is built.
    const before = vectors.footprint().compactions;
    for (let t = 0; t < 500 && !vectors.footprint().compacting && vectors.footprint().compactions === before; t++) await new Promise((r) => setTimeout(r, 2));
    if (vectors.footprint().compacting) {
      sawCompacting++;
      await checkExact(100 + round);
    }
    await checkExact(10 + round);
    const { graphElements, flatRows } = vectors.footprint();
    // Before the indexer catches up the graph holds at most the live, the dead up to the threshold, and one round's worth more.
    expect(graphElements).toBeLessThanOrEqual(4 * N);
    expect(flatRows).toBeLessThanOrEqual(N + 50);
  }
  await vectors.waitForIndex();
  await checkExact(99);
  expect(vectors.footprint().compactions).toBeGreaterThan(0);
  expect(sawCompacting).toBeGreaterThan(0);
  if (onWorker) expect(vectors.offThreadBuilds).toBeGreaterThan(0);
  const stats = (await db.collectionStats(KS.keyspace, 'churn')).vector;
  expect(stats.vectors).toBe(N);
  expect(stats.graphElements).toBeLessThanOrEqual(3 * N);
  expect(stats.flatRows).toBeLessThanOrEqual(N + 50);
  expect(stats.compactions).toBe(vectors.footprint().compactions);
  expect(vectors.indexInfo().backend).toBe(backend);
  await db.close();

  // Reopened: the compact graph was saved; every vector is found, nothing stale comes back.
  const sideFiles = existsSync(path.join(dir, 'side')) ? readdirSync(path.join(dir, 'side')).filter((f) => f.startsWith('graph-')) : [];
  if (backend === 'native') {
    // The snapshot's file, and at most one more: a compaction still building when the database closed leaves
    // its file, which the next open removes (removeGraphFiles keeps only the snapshot's).
    expect(sideFiles.length).toBeGreaterThanOrEqual(1);
    expect(sideFiles.length).toBeLessThanOrEqual(2);
    // About what a graph of N live vectors takes (M 16: ~ N x (dim x 4 + 2 M x 4 + 100) bytes), not 6 N.
    const smallest = Math.min(...sideFiles.map((file) => statSync(path.join(dir, 'side', file)).size));
    expect(smallest).toBeLessThan(3 * N * (DIM * 4 + 2 * 16 * 4 + 100));
  }
  db = await Database.open(dir, { vectorBackend: backend });
  vectors = await db.collection(KS.keyspace, 'churn').vectors();
  await vectors.graphLoaded();
  await vectors.valuesReady();
  expect(vectors.size).toBe(N);
  expect(vectors.pendingCount).toBe(0);
  expect(vectors.footprint().graphElements).toBeLessThanOrEqual(3 * N);
  expect(vectors.footprint().flatRows).toBe(N);
  for (let id = 0; id < N; id++) {
    expect((await ids({ find: { sort: { $vector: current.get(id) }, projection: { _id: 1 }, options: { limit: 1 } } }))[0]).toBe(id);
  }
  await checkExact(1234);
  await db.close();
}

describe('vector churn', () => {
  it('wasm backend (event-loop compaction): bounded rows and graph, exact results, full reopen', async () => {
    await churnScenario({ executeCommand: srcExecute, Database: SrcDatabase }, 'wasm', false);
  }, 120_000);

  it.skipIf(!nativeLoads)('native backend from the sources (no worker file: event-loop compaction)', async () => {
    await churnScenario({ executeCommand: srcExecute, Database: SrcDatabase }, 'native', false);
  }, 120_000);

  describe.skipIf(!nativeLoads)('built package', () => {
    let dist: Api;
    beforeAll(async () => {
      await buildPackage();
      const url = (file: string) => pathToFileURL(path.join(ROOT, 'dist', file)).href;
      const [commands, database] = await Promise.all([import(url('commands/index.js')), import(url('engine/database.js'))]);
      dist = { executeCommand: commands.executeCommand, Database: database.Database };
    });

    it('native backend (worker-thread compaction, its file adopted as the snapshot)', async () => {
      await churnScenario(dist, 'native', true);
    }, 120_000);
  });
});
