/**
 * Long case (`npm run test:long`): 20,000 clustered 64-d vectors through the full API, filtered recall@10
 * against exact search at 0.1 % to 100 % selectivity, before and after the graph is complete, and after a
 * reopen from the saved snapshot. The data are tight clusters of near-duplicates, hard for HNSW: at the default
 * efSearch (128) unfiltered recall@10 is only ~0.7 here, so the collection sets efSearch 512, the knob this case
 * documents (the benchmark's data reach 1.0 at the default). The same with `quantization: 'int8'` (exact scans on
 * int8 rows and a shortlist rescored from the stored vectors).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { similarityScore } from '../../src/vector-index/metric.js';
import { tempDir } from '../support/temp.js';
import { clustered } from '../vector-index/data.js';

const LONG = process.env.VECTORDB_LONG_TESTS === '1';
const N = 20_000;
const DIM = 64;
const target = { keyspace: 'default_keyspace', collection: 'large' };
const opened: Database[] = [];

afterAll(async () => {
  for (const db of opened) await db.close();
});

describe.skipIf(!LONG)('large vector collection', () => {
  it.each(['none', 'int8'])('quantization %s: keeps recall@10 >= 0.95 at every selectivity, and after a reopen', async (quantization) => {
    const dir = tempDir();
    const vectors = clustered(21, N, DIM, 40, 0.2, true);
    const queries = clustered(22, 20, DIM, 40, 0.2, true);
    let db = await Database.open(dir, { limits: { maxInsertManyDocuments: 100 } });
    opened.push(db);
    await executeCommand(db, { createCollection: { name: 'large', options: { vector: { dimension: DIM, index: { efSearch: 512, quantization } } } } }, { keyspace: 'default_keyspace' });
    for (let i = 0; i < N; i += 100) {
      const documents = Array.from({ length: 100 }, (_, j) => ({ _id: i + j, bucket: (i + j) % 1000, $vector: Array.from(vectors.subarray((i + j) * DIM, (i + j + 1) * DIM)) }));
      expect((await executeCommand(db, { insertMany: { documents } }, target)).errors).toBeUndefined();
    }
    const measure = async (database: Database) => {
      for (const keep of [1, 10, 100, 500, 1000]) {
        let sum = 0;
        for (let q = 0; q < 20; q++) {
          const query = queries.subarray(q * DIM, (q + 1) * DIM);
          const truth = [...Array(N).keys()]
            .filter((i) => i % 1000 < keep)
            .map((i) => ({ i, s: similarityScore('cosine', query, vectors.subarray(i * DIM, (i + 1) * DIM)) }))
            .sort((a, b) => b.s - a.s)
            .slice(0, 10)
            .map((x) => x.i);
          const response = await executeCommand(database, { find: { filter: { bucket: { $lt: keep } }, sort: { $vector: Array.from(query) }, options: { limit: 10 } } }, target);
          const found = (response.data as { documents: JsonObject[] }).documents.map((d) => d._id as number);
          sum += found.filter((id) => truth.includes(id)).length / 10;
        }
        expect(sum / 20, `recall at ${keep / 10} %`).toBeGreaterThanOrEqual(0.95);
      }
    };
    await measure(db); // while the graph is still being built
    await (await db.collection('default_keyspace', 'large').vectors())!.waitForIndex();
    await measure(db);
    await db.close();
    db = await Database.open(dir);
    opened.push(db);
    await measure(db);
  }, 900_000);
});
