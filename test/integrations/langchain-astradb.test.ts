/**
 * LangChain's own AstraDBVectorStore (@langchain/community, over astra-db-ts) against the real HTTP server,
 * unchanged: the code a user already has for Astra DB, pointed at `vectordb-local serve --limits data-api`
 * (astra-db-ts sends 50 documents per insertMany). Deterministic SyntheticEmbeddings from @langchain/core's
 * testing utilities; every expectation is checked against what the server holds, read with the Data API.
 * @langchain/community 1.1 asks for astra-db-ts ^1 and runs here on the project's 2.x (an npm override): two
 * paths of the store break on 2.x and on Astra DB alike, and the tests pin down how (see the README): its
 * replace-after-duplicate fallback waits for v1's error name, and its MMR reads `$vector` from a find that, on
 * the Data API, leaves `$vector` out.
 */
import { AstraDBVectorStore } from '@langchain/community/vectorstores/astradb';
import { Document } from '@langchain/core/documents';
import { SyntheticEmbeddings } from '@langchain/core/utils/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { post, serve, type Reply, type Served } from '../http/helpers.js';

const TEXTS = ['the cat sat on the mat', 'a dog barked at the mailman', 'stock markets fell on monday', 'bread needs flour water and yeast', 'kittens chase balls of yarn', 'bonds rallied as rates fell'];
const METADATA = [
  { topic: 'pets', year: 2021 },
  { topic: 'pets', year: 2023 },
  { topic: 'money', year: 2024 },
  { topic: 'food', year: 2019 },
  { topic: 'pets', year: 2024 },
  { topic: 'money', year: 2022 },
];
const IDS = ['cat', 'dog', 'stocks', 'bread', 'kittens', 'bonds'];
const embeddings = new SyntheticEmbeddings({ vectorSize: 16 });

const documentsIn = (reply: Reply) => (reply.body.data as { documents: Record<string, unknown>[] }).documents;
const documentIn = (reply: Reply) => (reply.body.data as { document: Record<string, unknown> }).document;

/** A `$vector` as astra-db-ts 2.x writes it (`{"$binary": big-endian float32s}`), as numbers. */
function numbersOf(vector: unknown): number[] {
  const bytes = Buffer.from((vector as { $binary: string }).$binary, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatBE(i * 4));
}

/** The ids of the nearest documents to a text, as the server ranks them (a plain Data API find). */
async function nearest(s: Served, text: string, limit: number, filter: object = {}): Promise<string[]> {
  const vector = await embeddings.embedQuery(text);
  const reply = await post(s, '/v1/default_keyspace/notes', { find: { filter, sort: { $vector: vector }, options: { limit } } });
  return documentsIn(reply).map((d) => String(d._id));
}

describe("LangChain's AstraDBVectorStore against the server", () => {
  let s: Served;
  let store: AstraDBVectorStore;

  beforeAll(async () => {
    s = await serve({ limits: 'data-api' });
    vi.spyOn(console, 'debug').mockImplementation(() => undefined); // the store logs its connection and deletes
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    store = new AstraDBVectorStore(embeddings, {
      token: s.token,
      endpoint: s.url,
      collection: 'notes',
      // The store's default indexing, {allow: ['metadata']}, leaves its top-level metadata fields unindexed
      // (unfilterable, on Astra DB too): index everything but the text, as a user with filters does.
      collectionOptions: { vector: { dimension: 16, metric: 'cosine' }, indexing: { deny: ['text'] } },
    });
    await store.initialize();
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await s?.close();
  });

  it('initialize creates the vector collection it asks for', async () => {
    const reply = await post(s, '/v1/default_keyspace', { findCollections: { options: { explain: true } } });
    const notes = (reply.body.status!.collections as { name: string; options: Record<string, unknown> }[]).find((c) => c.name === 'notes');
    expect(notes?.options).toMatchObject({ vector: { dimension: 16, metric: 'cosine' }, indexing: { deny: ['text'] } });
  });

  it("with the store's default indexing, a metadata filter is refused as the Data API refuses it", async () => {
    const plain = new AstraDBVectorStore(embeddings, { token: s.token, endpoint: s.url, collection: 'plain', collectionOptions: { vector: { dimension: 16, metric: 'cosine' } } });
    await plain.initialize();
    await plain.addDocuments([new Document({ pageContent: TEXTS[0]!, metadata: METADATA[0]! })], ['one']);
    await expect(plain.similaritySearch(TEXTS[0]!, 1, { topic: 'pets' })).rejects.toMatchObject({ rawResponse: { errors: [expect.objectContaining({ errorCode: 'FILTER_PATH_UNINDEXED' })] } });
    expect((await plain.similaritySearch(TEXTS[0]!, 1))[0]!.pageContent).toBe(TEXTS[0]);
  });

  it('addDocuments stores text, metadata as top-level fields and $vector under the ids given', async () => {
    await store.addDocuments(
      TEXTS.map((pageContent, i) => new Document({ pageContent, metadata: METADATA[i]! })),
      IDS,
    );
    const reply = await post(s, '/v1/default_keyspace/notes', { findOne: { filter: { _id: 'bread' }, projection: { '*': 1 } } });
    const { $vector, ...fields } = documentIn(reply);
    expect(fields).toEqual({ _id: 'bread', text: TEXTS[3], topic: 'food', year: 2019 });
    expect(numbersOf($vector)).toEqual((await embeddings.embedQuery(TEXTS[3]!)).map(Math.fround));
    const count = await post(s, '/v1/default_keyspace/notes', { countDocuments: {} });
    expect(count.body.status!.count).toBe(6);
  });

  it('addDocuments with an id already there: DOCUMENT_ALREADY_EXISTS (its replace fallback expects v1\'s InsertManyError)', async () => {
    const adding = store.addDocuments([new Document({ pageContent: TEXTS[0]!, metadata: { topic: 'pets', year: 2025 } })], ['cat']);
    const error = await adding.then(
      () => undefined,
      (e: unknown) => e as { name: string; errors(): unknown[] },
    );
    expect(error?.name).toBe('CollectionInsertManyError');
    expect(error!.errors()).toEqual([expect.objectContaining({ rawResponse: expect.objectContaining({ errors: [expect.objectContaining({ errorCode: 'DOCUMENT_ALREADY_EXISTS' })] }) })]);
    const reply = await post(s, '/v1/default_keyspace/notes', { findOne: { filter: { _id: 'cat' } } });
    expect(documentIn(reply)).toMatchObject({ _id: 'cat', year: 2021 });
  });

  it('similaritySearch finds the text itself first, in the order the server ranks', async () => {
    const found = await store.similaritySearch(TEXTS[2]!, 3);
    expect(found[0]!.pageContent).toBe(TEXTS[2]);
    expect(found.map((d) => d.metadata._id)).toEqual(await nearest(s, TEXTS[2]!, 3));
  });

  it('similaritySearchWithScore with a Data API filter: only matching documents, scores $similarity', async () => {
    const scored = await store.similaritySearchWithScore(TEXTS[4]!, 10, { topic: 'pets' });
    expect(scored.map(([d]) => d.metadata._id)).toEqual(await nearest(s, TEXTS[4]!, 10, { topic: 'pets' }));
    expect(scored.map(([d]) => d.metadata.topic)).toEqual(['pets', 'pets', 'pets']);
    expect(scored[0]![0].pageContent).toBe(TEXTS[4]);
    expect(scored[0]![1]).toBeCloseTo(1, 5);
    for (let i = 1; i < scored.length; i++) expect(scored[i]![1]).toBeLessThanOrEqual(scored[i - 1]![1]);
    const recent = await store.similaritySearchWithScore(TEXTS[2]!, 10, { year: { $gte: 2024 } });
    expect(recent.map(([d]) => d.metadata._id).sort()).toEqual(['kittens', 'stocks']);
  });

  it("maxMarginalRelevanceSearch fails as on the Data API: its find returns no $vector to diversify on", async () => {
    const reply = await post(s, '/v1/default_keyspace/notes', { find: { sort: { $vector: await embeddings.embedQuery(TEXTS[5]!) }, options: { limit: 3, includeSimilarity: true } } });
    expect(documentsIn(reply).every((d) => !('$vector' in d) && typeof d.$similarity === 'number')).toBe(true);
    await expect(store.maxMarginalRelevanceSearch(TEXTS[5]!, { k: 3, fetchK: 6, lambda: 0.5 })).rejects.toThrow(TypeError);
  });

  it('delete removes the ids given, and only them', async () => {
    await store.delete({ ids: ['dog', 'bonds'] });
    const reply = await post(s, '/v1/default_keyspace/notes', { find: { projection: { _id: 1 } } });
    expect(documentsIn(reply).map((d) => d._id).sort()).toEqual(['bread', 'cat', 'kittens', 'stocks']);
    expect((await store.similaritySearch(TEXTS[1]!, 10)).map((d) => d.metadata._id)).not.toContain('dog');
  });

  it('fromTexts and fromExistingIndex: a second store on the same collection finds what the first wrote', async () => {
    const config = { token: s.token, endpoint: s.url, collection: 'notes', collectionOptions: { vector: { dimension: 16, metric: 'cosine' as const }, indexing: { deny: ['text'] } } };
    await AstraDBVectorStore.fromTexts(['sourdough starter needs feeding'], [{ topic: 'food', year: 2020 }], embeddings, config);
    const again = await AstraDBVectorStore.fromExistingIndex(embeddings, config);
    const [first] = await again.similaritySearch('sourdough starter needs feeding', 1, { topic: 'food' });
    expect(first!.pageContent).toBe('sourdough starter needs feeding');
    expect(first!.metadata).toMatchObject({ topic: 'food', year: 2020 });
  });
});
