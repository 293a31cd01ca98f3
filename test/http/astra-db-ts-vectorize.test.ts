/**
 * The real @datastax/astra-db-ts 2.x against a server started here, for vectorize: createCollection with a
 * `vector.service`, `$vectorize` documents and sorts, findAndRerank with `$hybrid` text, the admin's
 * findEmbeddingProviders, and the collection's `embeddingApiKey` reaching the provider as its bearer token.
 * The provider is an HTTP endpoint in the OpenAI embeddings format registered with the served database (a
 * server of ours: feature-hashing vectors), and the reranker one in NVIDIA's format.
 */
import { DataAPIClient, DataAPIResponseError, type Db } from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEmbedders } from '../../src/providers/embedders.js';
import { registerRerankers } from '../../src/providers/rerankers.js';
import { hashVector, startEmbedServer, type EmbedServer } from '../support/embed-server.js';
import { startRankServer, wordOverlap, type RankServer } from '../support/rank-server.js';
import { serve, type Served } from './helpers.js';

const DIM = 32;

describe('astra-db-ts vectorize against serve', () => {
  let s: Served;
  let client: DataAPIClient;
  let db: Db;
  let embedder: EmbedServer;
  let ranker: RankServer;

  beforeAll(async () => {
    [s, embedder, ranker] = await Promise.all([serve(), startEmbedServer(DIM), startRankServer(wordOverlap)]);
    registerEmbedders(s.db, { hashing: { url: embedder.url, model: 'hash-32' } });
    registerRerankers(s.db, { nvidia: ranker.url });
    client = new DataAPIClient(s.token, { environment: 'dse' });
    db = client.db(s.url, { keyspace: 'default_keyspace' });
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all([s?.close(), ranker?.close(), embedder?.close()]);
  });

  it('findEmbeddingProviders parses, and createCollection takes a service (dimension from the provider)', async () => {
    const { embeddingProviders } = await db.admin({ environment: 'dse' }).findEmbeddingProviders();
    expect(Object.keys(embeddingProviders)).toEqual(['hashing']);
    expect(embeddingProviders.hashing!.models[0]).toMatchObject({ name: 'hash-32', vectorDimension: null });
    expect(embeddingProviders.hashing!.supportedAuthentication.HEADER!.tokens).toEqual([{ accepted: 'x-embedding-api-key', forwarded: 'Authorization' }]);
    await db.createCollection('texts', { vector: { metric: 'cosine', service: { provider: 'hashing', modelName: 'hash-32' } } });
    const listed = (await db.listCollections()).find((c) => c.name === 'texts')!;
    expect(listed.definition.vector).toMatchObject({ dimension: DIM, metric: 'cosine', service: { provider: 'hashing', modelName: 'hash-32' } });
    await expect(db.createCollection('nope', { vector: { dimension: 3, service: { provider: 'unknown', modelName: 'm' } } })).rejects.toBeInstanceOf(DataAPIResponseError);
  });

  it('insertOne / insertMany with $vectorize, find sorted by $vectorize, the embeddingApiKey as bearer token', async () => {
    const coll = db.collection('texts', { embeddingApiKey: 'sk-test-key' });
    embedder.requests.length = 0;
    await coll.insertOne({ _id: 'a', $vectorize: 'red apple pie' });
    await coll.insertMany([
      { _id: 'b', $vectorize: 'green apple tart' },
      { _id: 'c', $vectorize: 'banana bread' },
    ]);
    expect(embedder.requests.map((r) => r.authorization)).toEqual(['Bearer sk-test-key', 'Bearer sk-test-key']);
    expect(embedder.requests[1]!.body).toEqual({ model: 'hash-32', input: ['green apple tart', 'banana bread'] });
    const cursor = coll.find({}, { sort: { $vectorize: 'banana bread' }, includeSimilarity: true, includeSortVector: true, projection: { $vectorize: 1 } });
    expect((await cursor.getSortVector())?.asArray().map((x) => Number(x.toFixed(5)))).toEqual(hashVector('banana bread', DIM).map((x) => Number(x.toFixed(5))));
    const found = await cursor.toArray();
    expect(found[0]).toMatchObject({ _id: 'c', $vectorize: 'banana bread', $similarity: expect.closeTo(1, 5) });
    const one = await coll.findOne({}, { sort: { $vectorize: 'apple tart' }, projection: { '*': 1 } });
    expect(one).toMatchObject({ _id: 'b', $vectorize: 'green apple tart' });
    await coll.updateOne({ _id: 'c' }, { $set: { $vectorize: 'apple crumble' } });
    expect((await coll.findOne({}, { sort: { $vectorize: 'apple crumble' } }))?._id).toBe('c');
    // Without the key, the collection's provider is called without one.
    await db.collection('texts').insertOne({ _id: 'd', $vectorize: 'plain toast' });
    expect(embedder.requests.at(-1)!.authorization).toBeUndefined();
  });

  it('findAndRerank with $hybrid text: both reads from one text, the $vectorize texts reranked', async () => {
    const coll = await db.createCollection('hybrid', { vector: { metric: 'cosine', service: { provider: 'hashing', modelName: 'hash-32' } } });
    await coll.insertMany([
      { _id: 'a', $hybrid: 'red apple pie' },
      { _id: 'b', $hybrid: 'green apple tart and pie' },
      { _id: 'c', $hybrid: 'banana bread' },
    ]);
    ranker.requests.length = 0;
    const results = await coll.findAndRerank({}, { sort: { $hybrid: 'green tart pie' }, includeScores: true, limit: 2 }).toArray();
    expect(results.map((r) => r.document._id)).toEqual(['b', 'a']);
    expect(results[0]!.scores).toMatchObject({ $rerank: 3, $vectorRank: 1, $bm25Rank: 1 });
    // The passages are the $vectorize texts, the query the sort's text.
    expect(ranker.requests[0]!.query.text).toBe('green tart pie');
    expect(ranker.requests[0]!.passages.map((p) => p.text).sort()).toEqual(['banana bread', 'green apple tart and pie', 'red apple pie']);
  });
});
