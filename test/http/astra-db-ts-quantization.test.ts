/**
 * The real @datastax/astra-db-ts 2.x sends `vector.index.quantization` as it is (its createCollection passes
 * `vector` through; its types know no `index`, so a TypeScript caller widens the object): the collection is
 * int8, listCollections shows the option, and a vector search answers the documents and `$similarity` of a
 * float32 collection holding the same vectors. A bad value comes back as a DataAPIResponseError.
 */
import { DataAPIClient, DataAPIResponseError, type CollectionVectorOptions, type Db } from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clustered, row } from '../vector-index/data.js';
import { serve, type Served } from './helpers.js';

const DIM = 16;
const N = 1100; // past the training size: the rows are int8 codes
const ALL = clustered(5, N + 5, DIM, 6, 0.5, true);

describe('astra-db-ts: vector.index.quantization', () => {
  let s: Served;
  let client: DataAPIClient;
  let db: Db;

  beforeAll(async () => {
    s = await serve({ limits: { maxInsertManyDocuments: 100 } });
    client = new DataAPIClient(s.token, { environment: 'dse' });
    db = client.db(s.url, { keyspace: 'default_keyspace' });
  });

  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('creates an int8 collection that answers as a float32 one', async () => {
    const int8 = { dimension: DIM, metric: 'cosine', index: { quantization: 'int8' } } as CollectionVectorOptions;
    const q = await db.createCollection('q', { vector: int8 });
    const f = await db.createCollection('f', { vector: { dimension: DIM, metric: 'cosine' } });
    const listed = (await db.listCollections()).find((c) => c.name === 'q')!;
    expect((listed.definition.vector as { index?: unknown }).index).toEqual({ quantization: 'int8' });
    const docs = Array.from({ length: N }, (_, i) => ({ _id: i, $vector: Array.from(row(ALL, i, DIM)) }));
    await q.insertMany(docs, { chunkSize: 100 });
    await f.insertMany(docs, { chunkSize: 100 });
    expect((await s.db.collectionStats('default_keyspace', 'q')).vector?.flatRowsAs).toBe('int8');
    for (let i = 0; i < 5; i++) {
      const sort = { $vector: Array.from(row(ALL, N + i, DIM)) };
      const options = { sort, limit: 10, includeSimilarity: true, projection: { _id: 1 } } as const;
      expect(await q.find({}, options).toArray()).toEqual(await f.find({}, options).toArray());
    }
    await expect(db.createCollection('bad', { vector: { dimension: DIM, index: { quantization: 'int4' } } as CollectionVectorOptions })).rejects.toBeInstanceOf(DataAPIResponseError);
  });
});
