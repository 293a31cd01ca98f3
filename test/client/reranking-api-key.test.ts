/**
 * `rerankingApiKey` (astra-db-ts's option of that name): on our VectorDB, per collection and per command, the
 * nearest winning, and on astra-db-ts's collection. Over HTTP it is the `x-rerank-api-key` header, which the
 * server passes on to an NVIDIA-format reranking endpoint (a server of ours) as its bearer token, in place of
 * the provider's own `apiKey`; in process it reaches a function provider as `context.apiKey`.
 */
import path from 'node:path';
import { DataAPIClient } from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { registerRerankers } from '../../src/providers/rerankers.js';
import { startRankServer, wordOverlap, type RankServer } from '../support/rank-server.js';
import { serve, type Served } from '../http/helpers.js';
import { tempDir } from '../support/temp.js';

const DOCS = [
  { _id: 'a', text: 'red apple pie', $vector: [1, 0], $lexical: 'apple pie' },
  { _id: 'b', text: 'green apple tart', $vector: [0.9, 0.1], $lexical: 'apple tart' },
];
const sort = { $hybrid: { $vector: [1, 0], $lexical: 'apple' } };
const rerankOptions = { rerankOn: 'text', rerankQuery: 'apple' };

/** Reranks once each way a key can be given: the VectorDB's, the collection's, the command's. */
async function rerankEachWay(db: VectorDB): Promise<void> {
  await (await db.createCollection({ name: 'docs', options: { vector: { dimension: 2 } } })).insertMany(DOCS);
  await (await db.collection('docs')).findAndRerank(sort, rerankOptions);
  await (await db.collection('docs', { rerankingApiKey: 'collection-key' })).findAndRerank(sort, rerankOptions);
  const response = await db.command({ findAndRerank: { sort, options: rerankOptions } }, { collection: 'docs', rerankingApiKey: 'command-key' });
  expect(response.errors).toBeUndefined();
}

describe('rerankingApiKey over HTTP: the x-rerank-api-key header', () => {
  let s: Served;
  let ranker: RankServer;

  beforeAll(async () => {
    [s, ranker] = await Promise.all([serve(), startRankServer(wordOverlap)]);
    registerRerankers(s.db, { nvidia: { url: ranker.url, apiKey: 'provider-key' } });
  });

  afterAll(async () => {
    await Promise.all([s?.close(), ranker?.close()]);
  });

  it('our VectorDB: the database key, the collection key and the command key each reach the provider', async () => {
    await using db = new VectorDB(s.token, s.url, 'default_keyspace', { rerankingApiKey: 'database-key' });
    ranker.authorizations.length = 0;
    await rerankEachWay(db);
    expect(ranker.authorizations).toEqual(['Bearer database-key', 'Bearer collection-key', 'Bearer command-key']);
    // Without a key of the request's, the provider's own goes.
    await using bare = new VectorDB(s.token, s.url);
    await (await bare.collection('docs')).findAndRerank(sort, rerankOptions);
    expect(ranker.authorizations.at(-1)).toBe('Bearer provider-key');
    expect(() => new VectorDB(s.token, s.url, 'default_keyspace', { rerankingApiKey: 42 as unknown as string })).toThrow(/rerankingApiKey must be a string/);
  });

  it("astra-db-ts: the collection's rerankingApiKey reaches the provider, and findRerankingProviders names the header", async () => {
    const client = new DataAPIClient(s.token, { environment: 'dse' });
    try {
      const db = client.db(s.url, { keyspace: 'default_keyspace' });
      ranker.authorizations.length = 0;
      await db.collection('docs', { rerankingApiKey: 'astra-key' }).findAndRerank({}, { sort, rerankOn: 'text', rerankQuery: 'apple' }).toArray();
      await db.collection('docs').findAndRerank({}, { sort, rerankOn: 'text', rerankQuery: 'apple' }).toArray();
      expect(ranker.authorizations).toEqual(['Bearer astra-key', 'Bearer provider-key']);
      const { rerankingProviders } = await db.admin({ environment: 'dse' }).findRerankingProviders();
      expect(rerankingProviders.nvidia!.supportedAuthentication.HEADER!.tokens).toEqual([{ accepted: 'x-rerank-api-key', forwarded: 'Authorization' }]);
    } finally {
      await client.close();
    }
  });
});

describe('rerankingApiKey in process: the function provider context.apiKey', () => {
  it('the VectorDB key, the collection key and the command key each reach the provider', async () => {
    const seen: (string | undefined)[] = [];
    const nvidia = (_query: string, passages: readonly string[], context: { apiKey: string | undefined }) => (seen.push(context.apiKey), passages.map((p) => p.length));
    const dir = path.join(tempDir('vectordb-reranking-key-'), 'db');
    {
      await using db = new VectorDB('t', dir, 'default_keyspace', { rerankers: { nvidia }, rerankingApiKey: 'database-key' });
      await rerankEachWay(db);
    }
    expect(seen).toEqual(['database-key', 'collection-key', 'command-key']);
    await using bare = new VectorDB('t', dir, 'default_keyspace', { rerankers: { nvidia } });
    await (await bare.collection('docs')).findAndRerank(sort, rerankOptions);
    expect(seen.at(-1)).toBeUndefined();
  });
});
