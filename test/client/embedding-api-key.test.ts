/**
 * VectorDB's `embeddingApiKey` (astra-db-ts's option of that name): on the VectorDB, per collection
 * (`db.collection(name, { embeddingApiKey })`) and per command (`db.command(..., { embeddingApiKey })`), the
 * nearest one winning. Over HTTP it is sent as the `x-embedding-api-key` header, which the server passes on to an
 * OpenAI-format embedding endpoint (a server of ours) as its bearer token; in process it reaches a function
 * provider as `context.apiKey`. Providers given to a VectorDB on an http(s) endpoint are refused.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { registerEmbedders } from '../../src/providers/embedders.js';
import { startEmbedServer, type EmbedServer } from '../support/embed-server.js';
import { serve, type Served } from '../http/helpers.js';
import { tempDir } from '../support/temp.js';

const service = { provider: 'keyed', modelName: 'm' };
const createTexts = { createCollection: { name: 'texts', options: { vector: { dimension: 4, metric: 'euclidean', service } } } };

/** Inserts one `$vectorize` document each way a key can be given; `keys()` reads what the provider saw of each. */
async function insertEachWay(db: VectorDB): Promise<void> {
  expect((await db.command(createTexts)).errors).toBeUndefined();
  const plain = await db.collection('texts');
  const keyed = await db.collection('texts', { embeddingApiKey: 'collection-key' });
  await plain.insertOne({ _id: 'db', $vectorize: 'from the database key' });
  await keyed.insertOne({ _id: 'coll', $vectorize: 'from the collection key' });
  const response = await db.command({ insertOne: { document: { _id: 'cmd', $vectorize: 'from the command key' } } }, { collection: 'texts', embeddingApiKey: 'command-key' });
  expect(response.errors).toBeUndefined();
}

describe('embeddingApiKey over HTTP: the x-embedding-api-key header', () => {
  let s: Served;
  let embedder: EmbedServer;

  beforeAll(async () => {
    [s, embedder] = await Promise.all([serve(), startEmbedServer(4)]);
    registerEmbedders(s.db, { keyed: { url: embedder.url, dimension: 4 } });
  });

  afterAll(async () => {
    await Promise.all([s?.close(), embedder?.close()]);
  });

  it('the VectorDB key, the collection key and the command key each reach the provider', async () => {
    await using db = new VectorDB(s.token, s.url, 'default_keyspace', { embeddingApiKey: 'database-key' });
    await insertEachWay(db);
    expect(embedder.requests.map((r) => [r.body.input[0], r.authorization])).toEqual([
      ['from the database key', 'Bearer database-key'],
      ['from the collection key', 'Bearer collection-key'],
      ['from the command key', 'Bearer command-key'],
    ]);
    // Without a key no header goes, and the provider is called without one.
    await using bare = new VectorDB(s.token, s.url);
    await (await bare.collection('texts')).insertOne({ _id: 'none', $vectorize: 'no key' });
    expect(embedder.requests.at(-1)!.authorization).toBeUndefined();
  });

  it('providers of a VectorDB on an http(s) endpoint are refused: the server calls its own', () => {
    expect(() => new VectorDB(s.token, s.url, 'default_keyspace', { embedders: { keyed: embedder.url } })).toThrow(/embedded databases only/);
    expect(() => new VectorDB(s.token, s.url, 'default_keyspace', { embeddingApiKey: 42 as unknown as string })).toThrow(/must be a string/);
  });
});

describe('embeddingApiKey in process: the function provider context.apiKey', () => {
  it('the VectorDB key, the collection key and the command key each reach the provider', async () => {
    const seen: [string, string | undefined][] = [];
    const keyed = { dimension: 4, embed: (texts: readonly string[], context: { apiKey: string | undefined }) => texts.map((t) => (seen.push([t, context.apiKey]), [t.length, 1, 2, 3])) };
    const dir = path.join(tempDir('vectordb-embedding-key-'), 'db');
    {
      await using db = new VectorDB('t', dir, 'default_keyspace', { embedders: { keyed }, embeddingApiKey: 'database-key' });
      await insertEachWay(db);
    }
    expect(seen).toEqual([
      ['from the database key', 'database-key'],
      ['from the collection key', 'collection-key'],
      ['from the command key', 'command-key'],
    ]);
    await using bare = new VectorDB('t', dir, 'default_keyspace', { embedders: { keyed } });
    await (await bare.collection('texts')).insertOne({ _id: 'none', $vectorize: 'no key' });
    expect(seen.at(-1)).toEqual(['no key', undefined]);
  });
});
