/**
 * Providers of a home's databases: `createServer({ home, providers })` (what `serve --home --embedder/--reranker`
 * builds) registers the embedding and reranking providers with every database of the home as it opens, so the
 * real astra-db-ts inserts `$vectorize` documents (the embeddingApiKey reaching the provider as its bearer token)
 * and runs findAndRerank against the real HTTP providers (servers of ours in the OpenAI and NVIDIA formats) on
 * any database of the home; and in process, a home database opened by its id takes `embedders` too.
 */
import path from 'node:path';
import { DataAPIClient } from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type DataApiServer } from '../../src/http/index.js';
import { VectorDB, VectorDBAdmin } from '../../src/index.js';
import { hashVector, startEmbedServer, type EmbedServer } from '../support/embed-server.js';
import { startRankServer, wordOverlap, type RankServer } from '../support/rank-server.js';
import { tempDir } from '../support/temp.js';

const DIM = 16;

describe('providers of a served home', () => {
  let home: string;
  let orgToken: string;
  let server: DataApiServer;
  let embedder: EmbedServer;
  let ranker: RankServer;
  let client: DataAPIClient;
  const endpoints: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    home = path.join(tempDir('vectordb-home-providers-'), 'home');
    orgToken = await VectorDBAdmin.initHome(home);
    const admin = new VectorDBAdmin(orgToken, { home });
    [embedder, ranker] = await Promise.all([startEmbedServer(DIM), startRankServer(wordOverlap)]);
    for (const name of ['first', 'second', 'third']) ids[name] = await admin.createDatabase(name);
    server = createServer({ home, port: 0, providers: { embedders: { hashing: embedder.url }, rerankers: { nvidia: ranker.url } } });
    await server.listen();
    for (const d of await admin.listDatabases()) endpoints[d.name] = `${server.url}/${d.id}-${d.region}`;
    client = new DataAPIClient(orgToken, { environment: 'dse' });
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await Promise.all([embedder?.close(), ranker?.close()]);
  });

  it('every database of the home: $vectorize inserts and sorts through the embedding endpoint, with the embeddingApiKey', async () => {
    for (const name of ['first', 'second']) {
      const db = client.db(endpoints[name]!, { keyspace: 'default_keyspace' });
      await db.createCollection('texts', { vector: { metric: 'cosine', service: { provider: 'hashing', modelName: 'hash' } } });
      const texts = db.collection('texts', { embeddingApiKey: `key-of-${name}` });
      embedder.requests.length = 0;
      await texts.insertMany([
        { _id: 'a', $vectorize: 'red apple pie' },
        { _id: 'b', $vectorize: 'banana bread' },
      ]);
      expect(embedder.requests.map((r) => [r.authorization, r.body.input])).toEqual([[`Bearer key-of-${name}`, ['red apple pie', 'banana bread']]]);
      const found = await texts.findOne({}, { sort: { $vectorize: 'banana bread' }, includeSimilarity: true, projection: { $vector: 1 } });
      expect(found).toMatchObject({ _id: 'b', $similarity: expect.closeTo(1, 5) });
      expect((found!.$vector as { asArray(): number[] }).asArray()).toEqual(hashVector('banana bread', DIM).map((x) => expect.closeTo(x, 6)));
    }
  });

  it('findAndRerank calls the registered reranking endpoint', async () => {
    const db = client.db(endpoints.second!, { keyspace: 'default_keyspace' });
    const coll = await db.createCollection('hybrid', { vector: { metric: 'cosine', service: { provider: 'hashing', modelName: 'hash' } }, rerank: { enabled: true, service: { provider: 'nvidia', modelName: 'ranker' } } });
    await coll.insertMany([
      { _id: 'a', $hybrid: 'red apple pie' },
      { _id: 'b', $hybrid: 'green apple tart and pie' },
      { _id: 'c', $hybrid: 'banana bread' },
    ]);
    ranker.requests.length = 0;
    const results = await coll.findAndRerank({}, { sort: { $hybrid: 'green tart pie' }, includeScores: true, limit: 2 }).toArray();
    expect(ranker.requests.map((r) => r.query.text)).toEqual(['green tart pie']);
    expect(results.map((r) => r.document._id)).toEqual(['b', 'a']);
    expect(results[0]!.scores).toMatchObject({ $rerank: wordOverlap('green tart pie', 'green apple tart and pie') });
  });

  it('in process: a home database opened by its id (one the server has not opened) takes embedders, and the VectorDB embeddingApiKey reaches them', async () => {
    const seen: (string | undefined)[] = [];
    const db = new VectorDB(orgToken, ids.third!, 'local', 'default_keyspace', {
      embedders: { local: { dimension: 4, embed: (texts, context) => (seen.push(context.apiKey), texts.map((t) => [t.length, 1, 0, 0])) } },
      embeddingApiKey: 'in-process-key',
    });
    const prior = process.env.VECTORDB_HOME;
    process.env.VECTORDB_HOME = home;
    try {
      await db.command({ createCollection: { name: 'local_texts', options: { vector: { metric: 'euclidean', service: { provider: 'local', modelName: 'm' } } } } });
      const inserted = await db.command({ insertOne: { document: { _id: 'x', $vectorize: 'abc' } } }, { collection: 'local_texts' });
      expect(inserted.errors).toBeUndefined();
      expect(seen).toEqual(['in-process-key']);
    } finally {
      await db.close();
      if (prior === undefined) delete process.env.VECTORDB_HOME;
      else process.env.VECTORDB_HOME = prior;
    }
  });
});
