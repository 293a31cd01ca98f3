/**
 * Emptying a vector collection (deleteMany with an empty filter) empties its vectors too: the exact-scan
 * store as well as the graph, so the vectors inserted afterwards are all a vector sort finds.
 */
import { describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const target = { ...KS, collection: 'v' };

describe('emptying a vector collection', () => {
  it('leaves no vector behind: a vector sort then finds only what was inserted since', async () => {
    const db = await Database.open(tempDir(), { vectorBackend: 'wasm' });
    try {
      await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: 2, metric: 'euclidean' } } } }, KS);
      const documents = Array.from({ length: 20 }, (_, i) => ({ _id: `old${i}`, $vector: [i, 1] }));
      expect((await executeCommand(db, { insertMany: { documents } }, target)).errors).toBeUndefined();
      expect((await executeCommand(db, { deleteMany: { filter: {} } }, target)).errors).toBeUndefined();
      const fresh = [0, 1, 2].map((i) => ({ _id: `new${i}`, $vector: [i, 1] }));
      expect((await executeCommand(db, { insertMany: { documents: fresh } }, target)).errors).toBeUndefined();
      const vectors = (await db.collection(KS.keyspace, 'v').vectors())!;
      expect(vectors.size).toBe(3);
      const found = (await executeCommand(db, { find: { sort: { $vector: [0, 1] }, projection: { _id: 1 }, options: { limit: 10 } } }, target)) as unknown as JsonObject;
      const ids = ((found.data as JsonObject).documents as JsonObject[]).map((d) => d._id);
      expect(ids).toEqual(['new0', 'new1', 'new2']);
    } finally {
      await db.close();
    }
  });
});
