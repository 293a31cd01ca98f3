/**
 * The graph built on a worker thread (the built package: the worker is a compiled file): a bulk load is
 * searchable exactly while the worker builds, deletions made meanwhile never come back, and the swapped
 * in graph answers every vector (native backend, when hnswlib-node loads here).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { clustered } from '../vector-index/data.js';
import { nativeLoads } from '../support/native.js';

const target = { keyspace: 'default_keyspace', collection: 'bulk' };
const N = 2000;
const DIM = 16;

describe.skipIf(!nativeLoads)('graph build on a worker thread', () => {
  let dist: { executeCommand: Function; Database: any };
  beforeAll(async () => {
    await buildPackage();
    const url = (file: string) => pathToFileURL(path.join(ROOT, 'dist', file)).href;
    const [commands, database] = await Promise.all([import(url('commands/index.js')), import(url('engine/database.js'))]);
    dist = { executeCommand: commands.executeCommand, Database: database.Database };
  });

  it('answers exactly during the build, forgets deletions made meanwhile, and swaps in a complete graph', async () => {
    const { executeCommand, Database } = dist;
    const dir = tempDir();
    const db = await Database.open(dir, { limits: { maxInsertManyDocuments: 100 }, vectorBackend: 'native' });
    const run = async (command: object) => {
      const result = await executeCommand(db, command, target);
      expect(result.errors).toBeUndefined();
      return result;
    };
    await executeCommand(db, { createCollection: { name: 'bulk', options: { vector: { dimension: DIM, metric: 'euclidean' } } } }, { keyspace: 'default_keyspace' });
    const data = clustered(5, N, DIM, 8);
    const vectorOf = (i: number) => Array.from(data.subarray(i * DIM, (i + 1) * DIM));
    for (let i = 0; i < N; i += 100) {
      await run({ insertMany: { documents: Array.from({ length: 100 }, (_, j) => ({ _id: i + j, $vector: vectorOf(i + j) })) } });
    }
    const vectors = await db.collection('default_keyspace', 'bulk').vectors();
    // While the worker builds, what the graph lacks is scanned exactly: the nearest to a vector is itself.
    expect(vectors.pendingCount).toBeGreaterThan(0);
    const nearest = async (i: number) => (await run({ find: { sort: { $vector: vectorOf(i) }, projection: { _id: 1 }, options: { limit: 1 } } })).data.documents[0]?._id;
    expect(await nearest(N - 1)).toBe(N - 1);
    await run({ deleteMany: { filter: { _id: { $in: [0, 1, 2, N - 1] } } } });
    await vectors.waitForIndex();
    expect(vectors.offThreadBuilds).toBeGreaterThan(0);
    expect(vectors.pendingCount).toBe(0);
    expect(vectors.indexInfo().backend).toBe('native');
    for (const i of [3, 500, 1500, N - 2]) expect(await nearest(i)).toBe(i);
    for (const gone of [0, 1, 2, N - 1]) expect(await nearest(gone)).not.toBe(gone);
    expect(vectors.size).toBe(N - 4);

    // The worker's graph file became the snapshot as it was (native: hnswlib wrote it; LevelDB holds our head).
    // (A save the build queued may still be writing its file: the one before goes once it lands.)
    await expect.poll(() => readdirSync(path.join(dir, 'side')).filter((f) => f.startsWith('graph-')), { timeout: 20_000 }).toHaveLength(1);
    // A second bulk load starts the worker from the graph there (handed over as a file, then removed).
    const builds = vectors.offThreadBuilds;
    for (let i = N; i < 2 * N; i += 100) {
      await run({ insertMany: { documents: Array.from({ length: 100 }, (_, j) => ({ _id: i + j, $vector: vectorOf((i + j) % N) })) } });
    }
    await vectors.waitForIndex();
    expect(vectors.offThreadBuilds).toBeGreaterThan(builds);
    expect(vectors.pendingCount).toBe(0);
    for (const i of [N + 3, N + 1500]) {
      const twins = (await run({ find: { sort: { $vector: vectorOf(i % N) }, projection: { _id: 1 }, options: { limit: 2 } } })).data.documents.map((d: { _id: number }) => d._id);
      expect(twins.sort((a: number, b: number) => a - b)).toEqual([i % N, i]);
    }
    while ((await run({ deleteMany: { filter: { _id: { $gte: N } } } })).status.moreData) continue;
    expect(readdirSync(path.join(dir, 'side')).filter((f) => f.endsWith('.base'))).toEqual([]);
    await db.close();

    // Reopened: the snapshot saved after the build holds the worker's graph.
    const again = await Database.open(dir, { vectorBackend: 'native' });
    const reopened = await again.collection('default_keyspace', 'bulk').vectors();
    await reopened.graphLoaded();
    expect(reopened.size).toBe(N - 4);
    expect(reopened.pendingCount).toBe(0);
    expect((await executeCommand(again, { find: { sort: { $vector: vectorOf(7) }, projection: { _id: 1 }, options: { limit: 1 } } }, target)).data.documents[0]._id).toBe(7);
    await again.close();
  });
});
