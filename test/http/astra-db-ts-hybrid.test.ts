/**
 * The real @datastax/astra-db-ts 2.x against a server started here, for hybrid search: createCollection with
 * `lexical` and `rerank` and listCollections' definitions, `$lexical` documents, the `$match` filter and the
 * `$lexical` sort, and `findAndRerank` (its cursor, scores and sort vector), with a reranking provider
 * registered with the served database (an HTTP endpoint in NVIDIA's format, a server of ours).
 */
import { DataAPIClient, DataAPIResponseError, type Db } from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRerankers } from '../../src/providers/rerankers.js';
import { startRankServer, wordOverlap, type RankServer } from '../support/rank-server.js';
import { serve, type Served } from './helpers.js';

describe('astra-db-ts hybrid search against serve', () => {
  let s: Served;
  let client: DataAPIClient;
  let db: Db;
  let ranker: RankServer;

  beforeAll(async () => {
    ranker = await startRankServer(wordOverlap);
    s = await serve();
    registerRerankers(s.db, { nvidia: ranker.url });
    client = new DataAPIClient(s.token, { environment: 'dse' });
    db = client.db(s.url, { keyspace: 'default_keyspace' });
  });

  afterAll(async () => {
    await client?.close();
    await s?.close();
    await ranker?.close();
  });

  it('creates collections with lexical and rerank, and lists their definitions', async () => {
    await db.createCollection('plain');
    await db.createCollection('custom', { lexical: { enabled: true, analyzer: { tokenizer: { name: 'standard' }, filters: [{ name: 'lowercase' }, { name: 'porterstem' }] } }, rerank: { enabled: false } as never }); // astra-db-ts's type wants a service even when disabled
    const listed = Object.fromEntries((await db.listCollections()).map((c) => [c.name, c.definition]));
    expect(listed.plain).toMatchObject({ lexical: { enabled: true, analyzer: 'standard' }, rerank: { enabled: true, service: { provider: 'nvidia', modelName: 'nvidia/llama-3.2-nv-rerankqa-1b-v2' } } });
    expect(listed.custom).toMatchObject({ lexical: { enabled: true }, rerank: { enabled: false } as never }); // astra-db-ts's type wants a service even when disabled
    await expect(db.createCollection('bad', { lexical: { enabled: false, analyzer: 'standard' } })).rejects.toBeInstanceOf(DataAPIResponseError);
  });

  it('$lexical: documents, the $match filter and the BM25 sort', async () => {
    const coll = await db.createCollection('texts');
    await coll.insertMany([
      { _id: '1', $lexical: 'monkeys eat bananas' },
      { _id: '2', $lexical: 'bananas are yellow' },
      { _id: '3', $lexical: 'trees are green', tag: 'x' },
    ]);
    expect(await coll.findOne({ _id: '1' })).toEqual({ _id: '1' });
    const matched = await coll.find({ $lexical: { $match: 'bananas' } }).toArray();
    expect(matched.map((d) => d._id).sort()).toEqual(['1', '2']);
    const sorted = await coll.find({}, { sort: { $lexical: 'yellow bananas' } }).toArray();
    expect(sorted.map((d) => d._id)).toEqual(['2']);
    const counted = await coll.countDocuments({ $lexical: { $match: 'are' } }, 10);
    expect(counted).toBe(2);
  });

  it('findAndRerank: the reranked documents, their scores and the sort vector', async () => {
    const coll = await db.createCollection('hybrid', { vector: { dimension: 2, metric: 'cosine' } });
    await coll.insertMany([
      { _id: 'a', text: 'red apple pie', $vector: [1, 0], $lexical: 'apple pie' },
      { _id: 'b', text: 'green apple tart and pie', $vector: [0.9, 0.1], $lexical: 'apple tart pie' },
      { _id: 'c', text: 'banana', $vector: [0.5, 0.5], $lexical: 'banana apple' },
    ]);
    const cursor = coll.findAndRerank({}, { sort: { $hybrid: { $vector: [1, 0], $lexical: 'apple' } }, rerankOn: 'text', rerankQuery: 'green tart pie', includeScores: true, limit: 2 });
    const results = await cursor.toArray();
    expect(results.map((r) => r.document._id)).toEqual(['b', 'a']);
    expect(results[0]!.scores).toMatchObject({ $rerank: 3, $vectorRank: 2, $bm25Rank: 3 });
    const withVector = coll.findAndRerank({ _id: 'c' }, { sort: { $hybrid: { $vector: [1, 0], $lexical: 'apple' } }, rerankOn: 'text', rerankQuery: 'x', includeSortVector: true });
    expect((await withVector.getSortVector())?.asArray()).toEqual([1, 0]);
    expect((await withVector.toArray()).map((r) => r.document._id)).toEqual(['c']);
  });
});
