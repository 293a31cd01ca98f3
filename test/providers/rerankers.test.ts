/**
 * Reranking providers with findAndRerank in process: a JS function, and a real HTTP server of ours speaking
 * NVIDIA's reranking API (the Data API's default provider format), batched by the batch size; a provider that
 * is down, answers garbage or hangs past its timeoutMs is RERANKING_PROVIDER_FAILED; collection.findAndRerank
 * returns typed results.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { startRankServer, type RankServer } from '../support/rank-server.js';
import { tempDir } from '../support/temp.js';

/** Scores a passage by how many of the query's words it holds. */
const overlap = (query: string, passage: string) => query.split(' ').filter((w) => passage.split(' ').includes(w)).length;

describe('reranking providers', () => {
  let ranks: RankServer;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    ranks = await startRankServer(overlap);
    url = ranks.url;
    dir = tempDir('vectordb-rerank-');
  });

  afterAll(async () => {
    await ranks.close();
  });

  const DOCS = [
    { _id: 'a', text: 'red apple pie', $vector: [1, 0], $lexical: 'apple pie' },
    { _id: 'b', text: 'green apple tart and pie', $vector: [0.9, 0.1], $lexical: 'apple tart pie' },
    { _id: 'c', text: 'banana', $vector: [0.5, 0.5], $lexical: 'banana apple' },
  ];
  const sort = { $hybrid: { $vector: [1, 0], $lexical: 'apple' } };

  it('an HTTP endpoint in NVIDIA format, batched, and a JS function: the rerank score orders the results', async () => {
    await using db = new VectorDB('t', path.join(dir, 'http'), 'default_keyspace', {
      rerankers: { nvidia: { url, batchSize: 2 }, words: (query, passages) => passages.map((p) => p.length - query.length) },
    });
    const docs = await db.createCollection({ name: 'docs', options: { vector: { dimension: 2 } } });
    await docs.insertMany(DOCS);
    ranks.requests.length = 0;
    const results = await docs.findAndRerank(sort, { rerankOn: 'text', rerankQuery: 'green tart pie' });
    expect(results.map((r) => r.document._id)).toEqual(['b', 'a', 'c']);
    expect(results[0]!.scores).toMatchObject({ $rerank: 3, $vectorRank: 2, $bm25Rank: 3 });
    expect(ranks.requests.map((r) => r.passages.length)).toEqual([2, 1]); // three passages in batches of two
    expect(ranks.requests[0]).toMatchObject({ model: 'nvidia/llama-3.2-nv-rerankqa-1b-v2', query: { text: 'green tart pie' }, truncate: 'END' });
    // A per-command override names the JS function provider: the longest passage first.
    const byLength = await docs.findAndRerank(sort, { rerankOn: 'text', rerankQuery: 'q', rerank: { provider: 'words', modelName: 'len' }, limit: 2 });
    expect(byLength.map((r) => r.document._id)).toEqual(['b', 'a']);
    const listed = await db.command({ findRerankingProviders: {} }, { keyspace: null });
    expect(Object.keys(listed.status!.rerankingProviders as object)).toEqual(['rrf', 'nvidia', 'words']);
  });

  it('a provider that answers garbage or is down: RERANKING_PROVIDER_FAILED', async () => {
    await using db = new VectorDB('t', path.join(dir, 'down'), 'default_keyspace', { rerankers: { nvidia: url, down: 'http://127.0.0.1:1/v1/ranking' } });
    const docs = await db.createCollection({ name: 'docs', options: { vector: { dimension: 2 } } });
    await docs.insertMany(DOCS);
    ranks.garbage = true;
    try {
      await expect(docs.findAndRerank(sort, { rerankOn: 'text', rerankQuery: 'x' })).rejects.toMatchObject({ errorCode: 'RERANKING_PROVIDER_FAILED' });
    } finally {
      ranks.garbage = false;
    }
    await expect(docs.findAndRerank(sort, { rerankOn: 'text', rerankQuery: 'x', rerank: { provider: 'down', modelName: 'm' } })).rejects.toMatchObject({ errorCode: 'RERANKING_PROVIDER_FAILED' });
    expect(() => new VectorDB('t', path.join(dir, 'bad'), 'default_keyspace', { rerankers: { x: 5 as never } })).toThrow(TypeError);
  });

  it('an endpoint that never answers: RERANKING_PROVIDER_FAILED once its timeoutMs has passed', async () => {
    await using db = new VectorDB('t', path.join(dir, 'hang'), 'default_keyspace', { rerankers: { nvidia: { url, timeoutMs: 200 } } });
    const docs = await db.createCollection({ name: 'docs', options: { vector: { dimension: 2 } } });
    await docs.insertMany(DOCS);
    ranks.hang = true;
    try {
      const failed = await docs.findAndRerank(sort, { rerankOn: 'text', rerankQuery: 'x' }).catch((error: unknown) => error);
      expect(failed).toMatchObject({ errorCode: 'RERANKING_PROVIDER_FAILED' });
      expect((failed as Error).message).toContain(`no answer from ${url} within 200 ms`);
    } finally {
      ranks.hang = false;
    }
    // The same endpoint answering again: the provider works (the timeout was the only failure).
    expect((await docs.findAndRerank(sort, { rerankOn: 'text', rerankQuery: 'apple' })).length).toBe(3);
    for (const timeoutMs of [0, 1.5, -1, '100']) {
      expect(() => new VectorDB('t', path.join(dir, 'bad-timeout'), 'default_keyspace', { rerankers: { x: { url, timeoutMs: timeoutMs as number } } })).toThrow(/timeoutMs must be a positive integer/);
    }
  });
});
