/**
 * VectorDBLocalStore (vectordb-local/langchain) against LangChain's VectorStore contract, with @langchain/core's
 * deterministic SyntheticEmbeddings, over each factory (embedded, HTTP with a token, memory): add, search with
 * scores and Data API filters, replace by id, delete, MMR, retriever, fromTexts/fromDocuments; then the store
 * opening a data directory itself. (@langchain/standard-tests is not published on npm; these are its cases.)
 */
import { Document } from '@langchain/core/documents';
import { SyntheticEmbeddings } from '@langchain/core/utils/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { VectorDBLocalStore } from '../../src/integrations/langchain/index.js';
import { VectorDB } from '../../src/index.js';
import { embeddedFactory, memoryFactory, type DbFactory, type TestDatabase } from '../support/factory.js';
import { httpFactory } from '../support/http-factory.js';
import { tempDir } from '../support/temp.js';

const TEXTS = ['the cat sat on the mat', 'a dog barked at the mailman', 'stock markets fell on monday', 'bread needs flour water and yeast', 'kittens chase balls of yarn'];
const METADATA = [
  { topic: 'pets', year: 2021, source: 'a' },
  { topic: 'pets', year: 2023, source: 'b' },
  { topic: 'money', year: 2024, source: 'c' },
  { topic: 'food', year: 2019, source: 'd', tags: ['baking'] },
  { topic: 'pets', year: 2024, source: 'e' },
];

const embeddings = () => new SyntheticEmbeddings({ vectorSize: 8 });

for (const factory of [embeddedFactory, httpFactory, memoryFactory] as DbFactory[]) {
  describe(`VectorDBLocalStore over ${factory.name}`, () => {
    let t: TestDatabase | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    async function filledStore(): Promise<VectorDBLocalStore> {
      t = await factory.create();
      return VectorDBLocalStore.fromTexts(TEXTS, METADATA, embeddings(), { db: t.db, collectionName: 'notes' });
    }

    it('fromTexts creates the collection with the embeddings dimension; similaritySearch finds the text itself first', async () => {
      const store = await filledStore();
      expect((await t!.db.findCollectionByName('notes'))?.options?.vector).toMatchObject({ dimension: 8, metric: 'cosine' });
      const [first] = await store.similaritySearch(TEXTS[3]!, 1);
      expect(first!.pageContent).toBe(TEXTS[3]);
      expect(first!.metadata).toEqual(METADATA[3]);
      expect(typeof first!.id).toBe('string');
      const scored = await store.similaritySearchWithScore(TEXTS[2]!, 5);
      expect(scored).toHaveLength(5);
      expect(scored[0]![0].pageContent).toBe(TEXTS[2]);
      expect(scored[0]![1]).toBeCloseTo(1, 5);
      const scores = scored.map(([, score]) => score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      // The stored layout is AstraDBVectorStore's: the text in `text`, metadata at the top level.
      const stored = await (await store.collection()).findOne({ filter: { source: 'd' } });
      expect(stored).toMatchObject({ text: TEXTS[3], topic: 'food', year: 2019 });
    });

    it('metadata filters are Data API filters', async () => {
      const store = await filledStore();
      const pets = await store.similaritySearch(TEXTS[2]!, 10, { topic: 'pets' });
      expect(pets.map((d) => d.metadata.source).sort()).toEqual(['a', 'b', 'e']);
      const recentPets = await store.similaritySearch(TEXTS[0]!, 10, { topic: 'pets', year: { $gte: 2023 } });
      expect(recentPets.map((d) => d.metadata.source).sort()).toEqual(['b', 'e']);
      const either = await store.similaritySearchWithScore(TEXTS[0]!, 10, { $or: [{ topic: 'money' }, { tags: 'baking' }] });
      expect(either.map(([d]) => d.metadata.source).sort()).toEqual(['c', 'd']);
      const vectorHits = await store.similaritySearchVectorWithScore(await embeddings().embedQuery(TEXTS[4]!), 2, { source: { $in: ['e', 'a'] } });
      expect(vectorHits.map(([d]) => d.metadata.source)).toEqual(['e', 'a']);
      await expect(store.similaritySearch(TEXTS[0]!, 2, { year: { $bogus: 1 } })).rejects.toMatchObject({ errorCode: expect.stringMatching(/FILTER/) });
    });

    it('addDocuments returns ids; the same ids replace; delete by ids and by filter', async () => {
      t = await factory.create();
      const store = new VectorDBLocalStore(embeddings(), { db: t.db, collectionName: 'docs' });
      const docs = TEXTS.map((pageContent, i) => new Document({ pageContent, metadata: METADATA[i]! }));
      const generated = await store.addDocuments(docs);
      expect(new Set(generated).size).toBe(5);
      const ids = await store.addDocuments(docs.slice(0, 2), { ids: ['one', 'two'] });
      expect(ids).toEqual(['one', 'two']);
      await store.addDocuments([new Document({ pageContent: 'the cat sat on the mat again', metadata: { topic: 'pets', year: 2025 }, id: 'one' })]);
      const collection = await store.collection();
      expect(await collection.countDocuments({})).toBe(7);
      expect(await collection.findById('one')).toMatchObject({ text: 'the cat sat on the mat again', year: 2025 });
      await store.delete({ ids: ['one', 'two', 'missing'] });
      expect(await collection.countDocuments({})).toBe(5);
      await store.delete({ filter: { topic: 'pets' } });
      expect(await collection.countDocuments({})).toBe(2);
      await expect(store.delete()).rejects.toThrow(TypeError);
      await store.delete({ filter: {} });
      expect(await collection.countDocuments({})).toBe(0);
      await expect(store.addDocuments([new Document({ pageContent: 'x', metadata: { text: 'clash' } })])).rejects.toThrow(/metadata cannot have a 'text' key/);
    });

    it('maxMarginalRelevanceSearch trades a near duplicate for a different document', async () => {
      t = await factory.create();
      const store = new VectorDBLocalStore(embeddings(), { db: t.db, collectionName: 'mmr' });
      const q = await embeddings().embedQuery('kittens chase balls of yarn');
      const nearDuplicate = q.map((v, i) => v + (i === 0 ? 0.01 : 0));
      const different = q.map((v, i) => (i < 4 ? v : 0));
      const far = q.map((v, i) => (i < 4 ? 0 : v) + 0.05);
      await store.addVectors([q, nearDuplicate, different, far], ['same', 'duplicate', 'different', 'far'].map((name) => new Document({ pageContent: name, metadata: { name } })));
      expect((await store.similaritySearch('kittens chase balls of yarn', 2)).map((d) => d.pageContent)).toEqual(['same', 'duplicate']);
      const diverse = await store.maxMarginalRelevanceSearch('kittens chase balls of yarn', { k: 2, fetchK: 4, lambda: 0.25 });
      expect(diverse.map((d) => d.pageContent)).toEqual(['same', 'different']);
      const filtered = await store.maxMarginalRelevanceSearch('kittens chase balls of yarn', { k: 2, fetchK: 4, filter: { name: { $ne: 'same' } } });
      expect(filtered.map((d) => d.pageContent)[0]).toBe('duplicate');
    });

    it('asRetriever (similarity and mmr) and fromDocuments', async () => {
      t = await factory.create();
      const docs = TEXTS.map((pageContent, i) => new Document({ pageContent, metadata: METADATA[i]! }));
      const store = await VectorDBLocalStore.fromDocuments(docs, embeddings(), { db: t.db, collectionName: 'retrieval' });
      const retriever = store.asRetriever({ k: 2, filter: { topic: 'pets' } });
      const found = await retriever.invoke(TEXTS[1]!);
      expect(found).toHaveLength(2);
      expect(found[0]!.pageContent).toBe(TEXTS[1]);
      expect(found.every((d) => d.metadata.topic === 'pets')).toBe(true);
      const mmr = store.asRetriever({ k: 3, searchType: 'mmr', searchKwargs: { fetchK: 5, lambda: 0.5 } });
      expect(await mmr.invoke(TEXTS[0]!)).toHaveLength(3);
    });

    it('argument objects refuse a member they lack (#30): a misspelt contentKey or ids is a TypeError, never ignored', async () => {
      const test = (t = await factory.create());
      expect(() => new VectorDBLocalStore(embeddings(), { db: test.db, collectionName: 'typos', contentkey: 'body' } as never)).toThrow(/VectorDBLocalStoreArgs has no member 'contentkey'/);
      expect(() => new VectorDBLocalStore(embeddings(), { db: { token: 't', endpoint: tempDir(), keySpace: 'x' }, collectionName: 'typos' } as never)).toThrow(/VectorDBLocalStoreArgs.db has no member 'keySpace'/);
      const store = new VectorDBLocalStore(embeddings(), { db: test.db, collectionName: 'typos', dimension: 8 });
      await store.addDocuments([new Document({ pageContent: 'kept', metadata: {} })], { ids: ['k1'] });
      await expect(store.delete({ id: ['k1'] } as never)).rejects.toThrow(/delete params has no member 'id'/);
      expect(await store.similaritySearch('kept', 1)).toHaveLength(1);
    });

    it('a read of a collection that does not exist throws; with dimension it is created at first use', async () => {
      t = await factory.create();
      const missing = new VectorDBLocalStore(embeddings(), { db: t.db, collectionName: 'nothing_yet' });
      await expect(missing.similaritySearch('anything', 1)).rejects.toMatchObject({ errorCode: 'UNKNOWN_COLLECTION_OR_TABLE' });
      const made = new VectorDBLocalStore(embeddings(), { db: t.db, collectionName: 'made_now', dimension: 8, metric: 'dot_product' });
      expect(await made.similaritySearch('anything', 1)).toEqual([]);
      expect((await t.db.findCollectionByName('made_now'))?.options?.vector).toMatchObject({ dimension: 8, metric: 'dot_product' });
    });
  });
}

describe('VectorDBLocalStore opening a data directory itself', () => {
  it('writes, closes the database on close(), and a new store on the same directory reads it back', async () => {
    const dir = tempDir();
    const store = await VectorDBLocalStore.fromTexts(TEXTS, { source: 'shared' }, embeddings(), { db: { token: 'token', endpoint: dir }, collectionName: 'notes' });
    expect((await store.similaritySearch(TEXTS[0]!, 1))[0]).toMatchObject({ pageContent: TEXTS[0], metadata: { source: 'shared' } });
    await store.close();
    await using db = new VectorDB('token', dir);
    const again = new VectorDBLocalStore(embeddings(), { db, collectionName: 'notes' });
    expect((await again.similaritySearch(TEXTS[4]!, 1))[0]!.pageContent).toBe(TEXTS[4]);
    await again.close(); // a VectorDB passed in stays open
    expect(await db.isCollectionExists('notes')).toBe(true);
  });
});
