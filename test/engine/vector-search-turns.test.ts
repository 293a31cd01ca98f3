/**
 * Searches answered from memory never wait on I/O, so a loop of them would hold the event loop and the
 * graph would never catch up (every search an exact scan of what it lacks): while the graph lags, a
 * search lets the event loop turn now and then. Both ways of building: in steps on the event loop
 * (wasm) and on a worker thread (native, when hnswlib-node loads here; the worker is a compiled file).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { clustered } from '../vector-index/data.js';
import { nativeLoads } from '../support/native.js';

const target = { keyspace: 'default_keyspace', collection: 'loop' };
const N = 3000;
const DIM = 16;
/** Far more searches than a caught-up graph needs here; a starved one never gets there. */
const MAX_SEARCHES = 100_000;

describe('a loop of searches while the graph lags', () => {
  let dist: { executeCommand: Function; Database: any };
  beforeAll(async () => {
    await buildPackage();
    const url = (file: string) => pathToFileURL(path.join(ROOT, 'dist', file)).href;
    const [commands, database] = await Promise.all([import(url('commands/index.js')), import(url('engine/database.js'))]);
    dist = { executeCommand: commands.executeCommand, Database: database.Database };
  });

  const backends = [{ backend: 'wasm', skip: false }, { backend: 'native', skip: !nativeLoads }];
  for (const { backend, skip } of backends) {
    it.skipIf(skip)(`lets the graph catch up (${backend})`, async () => {
      const { executeCommand, Database } = dist;
      // relaxed: an acknowledgement then takes no turn of the event loop (the default's group-commit fsync lets the
      // background indexer catch up first), and the test needs the vectors still pending right after an insert.
      const db = await Database.open(tempDir(), { limits: { maxInsertManyDocuments: 100 }, vectorBackend: backend, durability: 'relaxed' });
      try {
        await executeCommand(db, { createCollection: { name: 'loop', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, { keyspace: 'default_keyspace' });
        const data = clustered(7, N, DIM, 8);
        const vectorOf = (i: number) => Array.from(data.subarray(i * DIM, (i + 1) * DIM));
        for (let i = 0; i < N; i += 100) {
          const result = await executeCommand(db, { insertMany: { documents: Array.from({ length: 100 }, (_, j) => ({ _id: i + j, $vector: vectorOf(i + j) })) } }, target);
          expect(result.errors).toBeUndefined();
        }
        const vectors = await db.collection('default_keyspace', 'loop').vectors();
        expect(vectors.pendingCount).toBeGreaterThan(0);
        // The same query every time: after the first, its hits' bodies come from memory (no I/O to wait on).
        const find = { find: { sort: { $vector: vectorOf(42) }, projection: { _id: 1 }, options: { limit: 5 } } };
        let searches = 0;
        let nearest: unknown;
        while (vectors.pendingCount > 0 && searches < MAX_SEARCHES) {
          nearest = (await executeCommand(db, find, target)).data.documents[0]?._id;
          searches++;
        }
        expect(vectors.pendingCount).toBe(0);
        expect(nearest).toBe(42);
        expect((await executeCommand(db, find, target)).data.documents[0]?._id).toBe(42);
      } finally {
        await db.close();
      }
    });
  }

  // After a reopen with a graph file (native), the values are read in the background: a loop of searches
  // must not starve that read either.
  it.skipIf(!nativeLoads)('lets the values load after a reopen (native)', async () => {
    const { executeCommand, Database } = dist;
    const dir = tempDir();
    let db = await Database.open(dir, { limits: { maxInsertManyDocuments: 100 }, vectorBackend: 'native' });
    const data = clustered(7, N, DIM, 8);
    const vectorOf = (i: number) => Array.from(data.subarray(i * DIM, (i + 1) * DIM));
    try {
      await executeCommand(db, { createCollection: { name: 'loop', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, { keyspace: 'default_keyspace' });
      for (let i = 0; i < N; i += 100) {
        const result = await executeCommand(db, { insertMany: { documents: Array.from({ length: 100 }, (_, j) => ({ _id: i + j, $vector: vectorOf(i + j) })) } }, target);
        expect(result.errors).toBeUndefined();
      }
      await (await db.collection('default_keyspace', 'loop').vectors()).waitForIndex();
    } finally {
      await db.close();
    }
    db = await Database.open(dir, { vectorBackend: 'native' });
    try {
      const find = { find: { sort: { $vector: vectorOf(42) }, projection: { _id: 1 }, options: { limit: 5 } } };
      expect((await executeCommand(db, find, target)).data.documents[0]?._id).toBe(42);
      const vectors = await db.collection('default_keyspace', 'loop').vectors();
      let searches = 0;
      while (!vectors.valuesLoaded && searches < MAX_SEARCHES) {
        expect((await executeCommand(db, find, target)).data.documents[0]?._id).toBe(42);
        searches++;
      }
      expect(vectors.valuesLoaded).toBe(true);
    } finally {
      await db.close();
    }
  });
});
