/**
 * `$similarity` is the Data API's float32 score on every search path: an exact scan (a small filtered candidate
 * set, or before the graph is built), the graph unfiltered, and the graph with a filter. A vector against
 * itself scores exactly 1; astra-db-ts's quickstart vectors score 0.85490346, as the Data API returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { dataApiSimilarity } from '../../src/vector-index/metric.js';
import { tempDir } from '../support/temp.js';
import { rng } from '../vector-index/data.js';

const KS = { keyspace: 'default_keyspace' };
const ONES = [1, 1, 1, 1, 1];
const QUICKSTART_QUERY = [0.1, 0.15, 0.3, 0.12, 0.05];
const QUICKSTART_SECOND = [0.2, 0.3, 0.1, 0.4, 0.15];
/** The quickstart query's nearest: itself, [1,1,1,1,1], and the quickstart's second document. */
const QUICKSTART_TOP3 = [
  ['quilt', 1],
  ['ones', 0.9312073],
  ['watch', 0.85490346],
];
/** Fillers point away from every query (all components negative): more than the exact-scan threshold of 2,000. */
const FILLERS = 2100;

let db: Database;

async function run(collection: string, command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, { ...KS, collection })) as unknown as JsonObject;
  expect(response.errors).toBeUndefined();
  return response;
}

async function scores(collection: string, vector: number[], filter: JsonObject, limit: number): Promise<[unknown, unknown][]> {
  const response = await run(collection, { find: { filter, sort: { $vector: vector }, options: { limit, includeSimilarity: true } } });
  return ((response.data as JsonObject).documents as JsonObject[]).map((d) => [d._id, d.$similarity]);
}

beforeAll(async () => {
  db = await Database.open(tempDir(), { limits: 'data-api', vectorBackend: 'wasm' });
  await executeCommand(db, { createCollection: { name: 'c', options: { vector: { dimension: 5, metric: 'cosine' } } } }, KS);
  await run('c', {
    insertMany: {
      documents: [
        { _id: 'ones', group: 'few', $vector: ONES },
        { _id: 'quilt', group: 'few', $vector: QUICKSTART_QUERY },
        { _id: 'watch', group: 'few', $vector: QUICKSTART_SECOND },
      ],
    },
  });
  const random = rng(5);
  for (let i = 0; i < FILLERS; i += 100) {
    const documents = Array.from({ length: 100 }, (_, j) => ({ _id: i + j, group: 'many', $vector: Array.from({ length: 5 }, () => -0.1 - random()) }));
    await run('c', { insertMany: { documents } });
  }
}, 120_000);

afterAll(async () => {
  await db.close();
});

describe('$similarity in float32, as the Data API', () => {
  it('the one formula: exactly 1 for a vector against itself, 0.85490346 for the quickstart pair', () => {
    expect(dataApiSimilarity('cosine', ONES, ONES)).toBe(1);
    expect(dataApiSimilarity('cosine', QUICKSTART_QUERY, QUICKSTART_QUERY)).toBe(1);
    expect(dataApiSimilarity('cosine', QUICKSTART_QUERY, QUICKSTART_SECOND)).toBe(0.85490346);
    expect(dataApiSimilarity('dot_product', [0.6, 0.8], [0.6, 0.8])).toBe(1);
    expect(dataApiSimilarity('euclidean', [1, 2], [1, 2])).toBe(1);
    expect(dataApiSimilarity('euclidean', [0, 0], [0.1, 0.2])).toBe(0.952381);
  });

  it('an exact scan of a small filtered candidate set', async () => {
    expect(await scores('c', ONES, { group: 'few' }, 1)).toEqual([['ones', 1]]);
    expect(await scores('c', QUICKSTART_QUERY, { group: 'few' }, 3)).toEqual(QUICKSTART_TOP3);
  });

  it('the graph, unfiltered and with a filter too broad to scan', async () => {
    const vectors = (await db.collection('default_keyspace', 'c').vectors())!;
    await vectors.waitForIndex();
    expect(vectors.pendingCount).toBe(0);
    const broad = { group: { $in: ['few', 'many'] } };
    for (const filter of [{}, broad]) {
      expect(await scores('c', ONES, filter, 1)).toEqual([['ones', 1]]);
      expect(await scores('c', QUICKSTART_QUERY, filter, 3)).toEqual(QUICKSTART_TOP3);
    }
  });
});
