/**
 * Embedding providers with `$vectorize` in process: a real HTTP server of ours speaking the OpenAI embeddings
 * API (feature-hashing vectors) and JS-function providers; createCollection's `vector.service` (dimension from
 * the provider, from a probe, or refused), inserts batched by the provider's batch size, `$vectorize` sorts,
 * updates and replacements, `$hybrid` documents and findAndRerank's `$hybrid` text, findEmbeddingProviders; and
 * every failure a provider can have, coded, with nothing half-written.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDB, type CommandResponse, type JsonObject, type VectorDBOptions } from '../../src/index.js';
import { hashVector, startEmbedServer, type EmbedMode, type EmbedServer } from '../support/embed-server.js';
import { tempDir } from '../support/temp.js';

const DIM = 16;
type Doc = Record<string, unknown>;

const codeOf = (response: CommandResponse) => response.errors?.[0]?.errorCode;
const documentsOf = (response: CommandResponse) => (response.data as { documents: Doc[] }).documents;
const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
/** A vector as stored: float32 components. */
const near = (vector: number[]) => vector.map((x) => expect.closeTo(x, 6));

describe('embedding providers ($vectorize)', () => {
  let server: EmbedServer;
  let dir: string;

  beforeAll(async () => {
    server = await startEmbedServer(DIM);
    dir = tempDir('vectordb-embed-');
  });

  afterAll(async () => {
    await server.close();
  });

  const open = (name: string, embedders: VectorDBOptions['embedders']) => new VectorDB('t', path.join(dir, name), 'default_keyspace', { embedders });
  const on = (db: VectorDB, collection: string, command: Doc) => db.command(command as JsonObject, { collection });
  const create = (db: VectorDB, name: string, vector: Doc) => db.command({ createCollection: { name, options: { vector } } } as JsonObject);

  it('an OpenAI-format endpoint: inserts batched, $vectorize stored and hidden, the vector computed, sorts by text', async () => {
    await using db = open('http', { hashing: { url: server.url, batchSize: 2, model: 'hash-16' } });
    // No dimension: the provider's answer to one probe text gives it.
    expect(codeOf(await create(db, 'docs', { metric: 'cosine', service: { provider: 'hashing', modelName: 'hash-model' } }))).toBeUndefined();
    const described = await db.command({ findCollections: { options: { explain: true } } });
    expect((described.status!.collections as Doc[])[0]).toMatchObject({ name: 'docs', options: { vector: { dimension: DIM, metric: 'cosine', service: { provider: 'hashing', modelName: 'hash-model' } } } });
    server.requests.length = 0;
    const texts = ['red apple pie', 'green apple tart', 'banana bread', 'cherry tart', 'plain toast'];
    const inserted = await on(db, 'docs', { insertMany: { documents: texts.map((t, i) => ({ _id: i, $vectorize: t })), options: { ordered: true } } });
    expect(inserted.status!.insertedIds).toEqual([0, 1, 2, 3, 4]);
    expect(server.requests.map((r) => r.body.input)).toEqual([texts.slice(0, 2), texts.slice(2, 4), texts.slice(4)]);
    expect(server.requests[0]!.body.model).toBe('hash-model'); // the collection's modelName over the provider's model

    const one = await on(db, 'docs', { findOne: { filter: { _id: 2 } } });
    expect((one.data as { document: Doc }).document).toEqual({ _id: 2 }); // $vector and $vectorize hidden by default
    const all = await on(db, 'docs', { findOne: { filter: { _id: 2 }, projection: { '*': 1 } } });
    const stored = (all.data as { document: Doc }).document;
    expect(stored.$vectorize).toBe('banana bread');
    expect(stored.$vector).toEqual(hashVector('banana bread', DIM).map((x) => expect.closeTo(x, 6)));
    const onlyText = await on(db, 'docs', { findOne: { filter: { _id: 2 }, projection: { $vectorize: 1 } } });
    expect((onlyText.data as { document: Doc }).document).toEqual({ _id: 2, $vectorize: 'banana bread' });

    const found = await on(db, 'docs', { find: { sort: { $vectorize: 'apple tart' }, options: { limit: 5, includeSimilarity: true, includeSortVector: true } } });
    const query = hashVector('apple tart', DIM);
    const expected = texts.map((t, i) => ({ i, s: cosine(query, hashVector(t, DIM)) })).sort((a, b) => b.s - a.s).map((x) => x.i);
    expect(documentsOf(found).map((d) => d._id)).toEqual(expected);
    expect(found.status!.sortVector).toEqual(query.map((x) => expect.closeTo(x, 6)));
    expect(server.requests.at(-1)!.body.input).toEqual(['apple tart']);
    const best = await on(db, 'docs', { findOne: { sort: { $vectorize: 'banana bread' } } });
    expect((best.data as { document: Doc }).document._id).toBe(2);
    const count = await on(db, 'docs', { countDocuments: { filter: { $vectorize: { $exists: true } } } });
    expect(count.status!.count).toBe(5);
  });

  it('updates and replacements: new $vectorize text brings its vector; null or blank text a null $vector', async () => {
    await using db = open('updates', { fn: { embed: (texts) => texts.map((t) => hashVector(t, 8)), dimension: 8 } });
    await create(db, 'docs', { service: { provider: 'fn' } });
    await on(db, 'docs', { insertMany: { documents: [{ _id: 'a', $vectorize: 'old text' }, { _id: 'b', $vectorize: '  ' }, { _id: 'c', $vectorize: null }] } });
    const full = async (id: string) => ((await on(db, 'docs', { findOne: { filter: { _id: id }, projection: { '*': 1 } } })).data as { document: Doc }).document;
    expect(await full('b')).toEqual({ _id: 'b', $vectorize: '  ', $vector: null });
    expect(await full('c')).toEqual({ _id: 'c', $vectorize: null, $vector: null });
    expect((await on(db, 'docs', { updateOne: { filter: { _id: 'a' }, update: { $set: { $vectorize: 'new words' } } } })).status).toMatchObject({ modifiedCount: 1 });
    expect(await full('a')).toEqual({ _id: 'a', $vectorize: 'new words', $vector: near(hashVector('new words', 8)) });
    await on(db, 'docs', { findOneAndUpdate: { filter: { _id: 'z' }, update: { $setOnInsert: { $vectorize: 'upserted text' } }, options: { upsert: true } } });
    expect(await full('z')).toEqual({ _id: 'z', $vectorize: 'upserted text', $vector: near(hashVector('upserted text', 8)) });
    await on(db, 'docs', { findOneAndReplace: { filter: { _id: 'b' }, replacement: { tag: 1, $vectorize: 'replaced text' } } });
    expect(await full('b')).toEqual({ _id: 'b', tag: 1, $vectorize: 'replaced text', $vector: near(hashVector('replaced text', 8)) });
    await on(db, 'docs', { updateOne: { filter: { _id: 'a' }, update: { $set: { $vectorize: null } } } });
    expect(await full('a')).toEqual({ _id: 'a', $vectorize: null, $vector: null });
    await on(db, 'docs', { updateOne: { filter: { _id: 'z' }, update: { $unset: { $vectorize: 1 } } } });
    expect(await full('z')).toEqual({ _id: 'z' });
    expect(codeOf(await on(db, 'docs', { updateOne: { filter: { _id: 'a' }, update: { $set: { $vectorize: 5 } } } }))).toBe('INVALID_VECTORIZE_VALUE_TYPE');
  });

  it('$hybrid text on insert feeds both reads of findAndRerank: the passages are the $vectorize texts, the query the sort text', async () => {
    const calls: { texts: readonly string[]; purpose: string; apiKey: string | undefined }[] = [];
    await using db = open('hybrid', {
      fn: {
        dimension: DIM,
        embed: (texts, context) => {
          calls.push({ texts, purpose: context.purpose, apiKey: context.apiKey });
          return texts.map((t) => Float32Array.from(hashVector(t, DIM)));
        },
      },
    });
    await create(db, 'docs', { metric: 'cosine', service: { provider: 'fn', modelName: 'm' } });
    const docs = await db.collection('docs');
    await docs.insertMany([
      { _id: 'a', $hybrid: 'apple pie with cream' },
      { _id: 'b', $hybrid: { $vectorize: 'banana bread', $lexical: 'banana apple' } },
      { _id: 'c', $hybrid: 'cherry tart' },
    ]);
    expect(calls[0]).toEqual({ texts: ['apple pie with cream', 'banana bread', 'cherry tart'], purpose: 'index', apiKey: undefined });
    const lexical = await on(db, 'docs', { find: { sort: { $lexical: 'apple' }, projection: { $lexical: 1 } } });
    expect(documentsOf(lexical).map((d) => d._id).sort()).toEqual(['a', 'b']);
    const results = await docs.findAndRerank({ $hybrid: 'apple pie' }, { rerank: { provider: 'rrf', modelName: 'rrf' } });
    expect(results[0]!.document._id).toBe('a'); // first in both reads
    expect(results.map((r) => r.document._id).sort()).toEqual(['a', 'b', 'c']);
    expect(calls.at(-1)).toEqual({ texts: ['apple pie'], purpose: 'search', apiKey: undefined });
    const split = await on(db, 'docs', { findAndRerank: { sort: { $hybrid: { $vectorize: 'cherry', $lexical: 'banana' } }, options: { rerank: { provider: 'rrf', modelName: 'rrf' }, includeSortVector: true, limit: 1 } } });
    // c is first of the vector read only; b, first of the BM25 read, is in the vector read too: more fused score.
    expect(documentsOf(split).map((d) => d._id)).toEqual(['b']);
    expect(split.status!.sortVector).toEqual(hashVector('cherry', DIM).map((x) => expect.closeTo(x, 6)));
  });

  it('createCollection: an unknown provider, a dimension the provider does not answer, findEmbeddingProviders', async () => {
    await using db = open('create', { hashing: { url: server.url, dimension: DIM, model: 'hash-16' }, fn: (texts) => texts.map(() => [1, 0]) });
    expect(codeOf(await create(db, 'x', { dimension: 4, service: { provider: 'nope' } }))).toBe('INVALID_CREATE_COLLECTION_OPTIONS');
    const mismatch = await create(db, 'x', { dimension: 4, service: { provider: 'hashing' } });
    expect(mismatch.errors![0]!.message).toContain("doesn't match the model's supported dimension value '16'");
    expect(codeOf(await create(db, 'ok', { service: { provider: 'hashing', authentication: { providerKey: 'shared' } } }))).toBeUndefined();
    const described = await db.command({ findCollections: { options: { explain: true } } });
    expect((described.status!.collections as Doc[])[0]).toMatchObject({ options: { vector: { dimension: DIM, service: { provider: 'hashing', authentication: { providerKey: 'shared' } } } } });
    const listed = await db.command({ findEmbeddingProviders: {} }, { keyspace: null });
    const providers = listed.status!.embeddingProviders as Record<string, Doc>;
    expect(Object.keys(providers)).toEqual(['hashing', 'fn']);
    expect(providers.hashing).toEqual({
      displayName: 'hashing',
      url: server.url,
      supportedAuthentication: {
        NONE: { enabled: true, tokens: [] },
        HEADER: { enabled: true, tokens: [{ accepted: 'x-embedding-api-key', forwarded: 'Authorization' }] },
        SHARED_SECRET: { enabled: false, tokens: [{ accepted: 'providerKey', forwarded: 'Authorization' }] },
      },
      parameters: [],
      models: [{ name: 'hash-16', vectorDimension: DIM, parameters: [], apiModelSupport: { status: 'SUPPORTED' } }],
    });
    expect(providers.fn).toMatchObject({ url: null, models: [{ name: 'default', vectorDimension: null }] });
  });

  it('without providers, or without a service: VECTORIZE_FEATURE_NOT_AVAILABLE, EMBEDDING_SERVICE_NOT_CONFIGURED, and misuse', async () => {
    await using bare = new VectorDB('t', path.join(dir, 'bare'), 'default_keyspace');
    expect(codeOf(await create(bare, 'x', { dimension: 2, service: { provider: 'openai', modelName: 'x' } }))).toBe('VECTORIZE_FEATURE_NOT_AVAILABLE');
    await create(bare, 'plain', { dimension: 2 });
    expect(codeOf(await on(bare, 'plain', { insertOne: { document: { $vectorize: 'text' } } }))).toBe('VECTORIZE_FEATURE_NOT_AVAILABLE');
    expect(codeOf(await on(bare, 'plain', { find: { sort: { $vectorize: 'text' } } }))).toBe('VECTORIZE_FEATURE_NOT_AVAILABLE');

    await using db = open('misuse', { fn: { embed: (texts) => texts.map(() => [1, 0]), dimension: 2 } });
    await create(db, 'plain', { dimension: 2 });
    await create(db, 'vz', { service: { provider: 'fn' } });
    expect(codeOf(await on(db, 'plain', { insertOne: { document: { $vectorize: 'text' } } }))).toBe('EMBEDDING_SERVICE_NOT_CONFIGURED');
    expect(codeOf(await on(db, 'plain', { find: { sort: { $vectorize: 'text' } } }))).toBe('EMBEDDING_SERVICE_NOT_CONFIGURED');
    expect(codeOf(await on(db, 'plain', { findAndRerank: { sort: { $hybrid: 'text' }, options: { rerank: { provider: 'rrf', modelName: 'rrf' } } } }))).toBe('UNSUPPORTED_VECTORIZE_SORT_FOR_COLLECTION');
    const both = await on(db, 'vz', { insertMany: { documents: [{ $vectorize: 'a' }, { $vectorize: 'b', $vector: [1, 0] }] } });
    expect(codeOf(both)).toBe('INVALID_USAGE_OF_VECTORIZE');
    expect(both.errors![0]!.message).toContain('position 2');
    expect(codeOf(await on(db, 'vz', { insertOne: { document: { $vectorize: ['a'] } } }))).toBe('INVALID_VECTORIZE_VALUE_TYPE');
    expect(codeOf(await on(db, 'vz', { find: { sort: { $vectorize: ' ' } } }))).toBe('SORT_CLAUSE_INVALID');
    expect(codeOf(await on(db, 'vz', { insertOne: { document: { $hybrid: 'x', $vectorize: 'y' } } }))).toBe('HYBRID_FIELD_CONFLICT');
    expect((await on(db, 'vz', { estimatedDocumentCount: {} })).status!.count).toBe(0);
    expect(() => open('bad', { x: 5 as never })).toThrow(TypeError);
  });

  const failures: [EmbedMode, string][] = [
    ['wrong-count', 'EMBEDDING_PROVIDER_UNEXPECTED_RESPONSE'],
    ['wrong-dimension', 'EMBEDDING_PROVIDER_UNEXPECTED_RESPONSE'],
    ['not-numbers', 'EMBEDDING_PROVIDER_UNEXPECTED_RESPONSE'],
    ['not-json', 'EMBEDDING_PROVIDER_UNEXPECTED_RESPONSE'],
    ['http-500', 'EMBEDDING_PROVIDER_SERVER_ERROR'],
    ['http-429', 'EMBEDDING_PROVIDER_RATE_LIMITED'],
    ['http-401', 'EMBEDDING_PROVIDER_CLIENT_ERROR'],
    ['hang', 'EMBEDDING_PROVIDER_TIMEOUT'],
  ];

  it('a provider failing in the second batch of an insertMany, ordered or not: a coded error and nothing written', async () => {
    await using db = open('failures', { hashing: { url: server.url, batchSize: 2, timeoutMs: 300 }, down: { url: 'http://127.0.0.1:1/v1', dimension: 4 } });
    await create(db, 'docs', { dimension: DIM, service: { provider: 'hashing' } });
    await create(db, 'gone', { service: { provider: 'down' } });
    const documents = ['one', 'two', 'three', 'four', 'five'].map((t) => ({ _id: t, $vectorize: t }));
    try {
      for (const [mode, code] of failures) {
        for (const ordered of [true, false]) {
          server.mode = mode;
          server.okBeforeMode = server.requests.length + 1; // the first batch is answered properly
          const response = await on(db, 'docs', { insertMany: { documents, options: { ordered } } });
          expect([mode, codeOf(response)]).toEqual([mode, code]);
          expect(response.status?.insertedIds).toBeUndefined();
          expect((await on(db, 'docs', { countDocuments: { filter: {} } })).status!.count).toBe(0);
        }
      }
    } finally {
      server.mode = 'ok';
    }
    expect(codeOf(await on(db, 'gone', { insertOne: { document: { $vectorize: 'x' } } }))).toBe('EMBEDDING_PROVIDER_UNAVAILABLE');
    expect(codeOf(await on(db, 'gone', { find: { sort: { $vectorize: 'x' } } }))).toBe('EMBEDDING_PROVIDER_UNAVAILABLE');
    expect((await on(db, 'docs', { insertMany: { documents } })).status!.insertedIds).toHaveLength(5);
  });

  it('a throwing JS function, or one answering garbage, is coded too', async () => {
    await using db = open('functions', {
      throws: () => {
        throw new Error('model not loaded');
      },
      short: { embed: (texts) => texts.slice(1).map(() => [1, 0]), dimension: 2 },
      nan: { embed: (texts) => texts.map(() => [Number.NaN, 1]), dimension: 2 },
    });
    for (const provider of ['throws', 'short', 'nan']) await create(db, provider, { dimension: 2, service: { provider } });
    const throwing = await on(db, 'throws', { insertOne: { document: { $vectorize: 'x' } } });
    expect(codeOf(throwing)).toBe('EMBEDDING_PROVIDER_UNAVAILABLE');
    expect(throwing.errors![0]!.message).toContain('model not loaded');
    expect(codeOf(await on(db, 'short', { insertMany: { documents: [{ $vectorize: 'a' }, { $vectorize: 'b' }] } }))).toBe('EMBEDDING_PROVIDER_UNEXPECTED_RESPONSE');
    expect(codeOf(await on(db, 'nan', { insertOne: { document: { $vectorize: 'a' } } }))).toBe('EMBEDDING_PROVIDER_UNEXPECTED_RESPONSE');
  });
});
