/**
 * Shared suite: the in-process client API, VectorDB (collections, keyspaces) and VectorDBCollection (insert,
 * find, update, delete, count), including chunked insertMany, paged find iteration and the typed exceptions
 * carrying the Data API errorCode.
 */
import { describe, expect, it } from 'vitest';
import {
  CollectionNotFoundException,
  DataApiException,
  DocumentAlreadyExistsException,
  KeyspaceNotFoundException,
  VectorDB,
  VectorDBCollection,
  type JsonDocument,
} from '../../src/index.js';
import type { DbFactory } from '../support/factory.js';
import { KS, type Doc, makeDocs, padId, run, useDatabase } from './helpers.js';
import { DEFAULT_HYBRID_OPTIONS } from './lexical.js';

const FORTY_FIVE = makeDocs(45, (i) => ({ _id: padId('p', i), n: i, color: i % 3 === 0 ? 'red' : 'blue' })) as JsonDocument[];

/** The rejection of a promise (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

export function clientApiSuite(factory: DbFactory): void {
  describe(`client API [${factory.name}]`, () => {
    const ctx = useDatabase(factory);

    describe('VectorDB: collections', () => {
      it('createCollection(name): a collection without vectors', async () => {
        const collection = await ctx.db.createCollection('notes');
        expect(collection).toBeInstanceOf(VectorDBCollection);
        expect(collection.name).toBe('notes');
        expect(collection.keyspace).toBe(KS);
        expect(await ctx.db.findCollectionByName('notes')).toEqual({ name: 'notes', options: DEFAULT_HYBRID_OPTIONS });
      });

      it('createCollection(name, dimension): cosine by default', async () => {
        await ctx.db.createCollection('vecs', 3);
        expect(await ctx.db.findCollectionByName('vecs')).toEqual({ name: 'vecs', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 3, metric: 'cosine', sourceModel: 'other' } } });
      });

      it('createCollection(name, dimension, metric)', async () => {
        await ctx.db.createCollection('vecs', 4, 'dot_product');
        expect(await ctx.db.findCollectionByName('vecs')).toEqual({ name: 'vecs', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 4, metric: 'dot_product', sourceModel: 'other' } } });
      });

      it('createCollection(definition)', async () => {
        const collection = await ctx.db.createCollection({ name: 'docs', options: { vector: { dimension: 2, metric: 'euclidean' }, indexing: { deny: ['body'] }, defaultId: { type: 'objectId' } } });
        expect(collection.name).toBe('docs');
        expect(await ctx.db.findCollectionByName('docs')).toEqual({
          name: 'docs',
          options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 2, metric: 'euclidean', sourceModel: 'other' }, indexing: { deny: ['body'] }, defaultId: { type: 'objectId' } },
        });
      });

      it('createCollection is idempotent for an identical definition and throws for a different one', async () => {
        await ctx.db.createCollection('vecs', 3, 'cosine');
        await ctx.db.createCollection('vecs', 3, 'cosine');
        const error = await rejection(ctx.db.createCollection('vecs', 5, 'cosine'));
        expect(error).toBeInstanceOf(DataApiException);
        expect((error as DataApiException).errorCode).toBe('EXISTING_COLLECTION_DIFFERENT_SETTINGS');
        expect(await ctx.db.findCollectionByName('vecs')).toEqual({ name: 'vecs', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 3, metric: 'cosine', sourceModel: 'other' } } });
      });

      it('createCollection with a bad name throws UNSUPPORTED_SCHEMA_NAME', async () => {
        const error = await rejection(ctx.db.createCollection('no-dashes'));
        expect(error).toBeInstanceOf(DataApiException);
        expect((error as DataApiException).errorCode).toBe('UNSUPPORTED_SCHEMA_NAME');
      });

      it('the 6th collection throws TOO_MANY_COLLECTIONS', async () => {
        for (const name of ['a', 'b', 'c', 'd', 'e']) await ctx.db.createCollection(name);
        const error = (await rejection(ctx.db.createCollection('f'))) as DataApiException;
        expect(error.errorCode).toBe('TOO_MANY_COLLECTIONS');
        expect(error.errors[0]!.errorCode).toBe('TOO_MANY_COLLECTIONS');
        expect(error.response.errors).toHaveLength(1);
      });

      it('findAllCollections, findAllCollectionsNames, isCollectionExists, findCollectionByName', async () => {
        expect(await ctx.db.findAllCollections()).toEqual([]);
        expect(await ctx.db.findAllCollectionsNames()).toEqual([]);
        await ctx.db.createCollection('b_plain');
        await ctx.db.createCollection('a_vec', 2);
        expect([...(await ctx.db.findAllCollectionsNames())].sort()).toEqual(['a_vec', 'b_plain']);
        const all = await ctx.db.findAllCollections();
        expect([...all].sort((x, y) => x.name.localeCompare(y.name))).toEqual([
          { name: 'a_vec', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 2, metric: 'cosine', sourceModel: 'other' } } },
          { name: 'b_plain', options: DEFAULT_HYBRID_OPTIONS },
        ]);
        expect(await ctx.db.isCollectionExists('a_vec')).toBe(true);
        expect(await ctx.db.isCollectionExists('A_VEC')).toBe(false);
        expect(await ctx.db.findCollectionByName('missing')).toBeUndefined();
      });

      it('deleteCollection removes it; deleting a missing one does not throw', async () => {
        await ctx.db.createCollection('gone');
        await ctx.db.deleteCollection('gone');
        expect(await ctx.db.isCollectionExists('gone')).toBe(false);
        await ctx.db.deleteCollection('gone');
        await ctx.db.deleteCollection('never_was');
      });

      it('collection(name) returns an existing collection and throws CollectionNotFoundException otherwise', async () => {
        await ctx.db.createCollection('here');
        const collection = await ctx.db.collection('here');
        expect(collection.name).toBe('here');
        const error = await rejection(ctx.db.collection('absent'));
        expect(error).toBeInstanceOf(CollectionNotFoundException);
        expect(error).toBeInstanceOf(DataApiException);
        expect((error as DataApiException).errorCode).toBe('UNKNOWN_COLLECTION_OR_TABLE');
        expect((error as Error).message).toContain('absent');
      });

      it('a collection object of a deleted collection throws CollectionNotFoundException on use', async () => {
        const collection = await ctx.db.createCollection('brief');
        await ctx.db.deleteCollection('brief');
        const error = await rejection(collection.insertOne({ a: 1 }));
        expect(error).toBeInstanceOf(CollectionNotFoundException);
        expect((error as DataApiException).errorCode).toBe('UNKNOWN_COLLECTION_OR_TABLE');
      });
    });

    describe('VectorDB: keyspaces', () => {
      it('getCurrentKeyspace is default_keyspace; findAllKeyspaceNames and isKeyspaceExists', async () => {
        expect(ctx.db.getCurrentKeyspace()).toBe(KS);
        expect(await ctx.db.findAllKeyspaceNames()).toEqual([KS]);
        expect(await ctx.db.isKeyspaceExists(KS)).toBe(true);
        expect(await ctx.db.isKeyspaceExists('other')).toBe(false);
        await run(ctx.db, { createKeyspace: { name: 'other' } });
        expect([...(await ctx.db.findAllKeyspaceNames())].sort()).toEqual([KS, 'other']);
        expect(await ctx.db.isKeyspaceExists('other')).toBe(true);
      });

      it('changeKeyspace switches where collections are created and found', async () => {
        await ctx.db.createCollection('in_default');
        await run(ctx.db, { createKeyspace: { name: 'other' } });
        await ctx.db.changeKeyspace('other');
        expect(ctx.db.getCurrentKeyspace()).toBe('other');
        expect(await ctx.db.findAllCollectionsNames()).toEqual([]);
        const collection = await ctx.db.createCollection('in_other');
        expect(collection.keyspace).toBe('other');
        await collection.insertOne({ _id: 'x' });
        expect(await run(ctx.db, { findCollections: {} }, { keyspace: 'other' })).toEqual({ status: { collections: ['in_other'] } });
        expect(await run(ctx.db, { find: {} }, { keyspace: 'other', collection: 'in_other' })).toEqual({ data: { documents: [{ _id: 'x' }], nextPageState: null } });
        await ctx.db.changeKeyspace(KS);
        expect(await ctx.db.findAllCollectionsNames()).toEqual(['in_default']);
      });

      it('changeKeyspace to a missing keyspace throws KeyspaceNotFoundException and keeps the current one', async () => {
        const error = await rejection(ctx.db.changeKeyspace('nowhere'));
        expect(error).toBeInstanceOf(KeyspaceNotFoundException);
        expect((error as DataApiException).errorCode).toBe('UNKNOWN_KEYSPACE');
        expect(ctx.db.getCurrentKeyspace()).toBe(KS);
      });

      it('changeKeyspace with an invalid name throws a TypeError', async () => {
        await expect(ctx.db.changeKeyspace('bad-name')).rejects.toBeInstanceOf(TypeError);
        expect(ctx.db.getCurrentKeyspace()).toBe(KS);
      });

      it('the constructor validates its arguments synchronously', () => {
        expect(() => new VectorDB('', ctx.db.endpoint)).toThrow(TypeError);
        expect(() => new VectorDB('token', '')).toThrow(TypeError);
        expect(() => new VectorDB('token', ctx.db.endpoint, 'bad keyspace')).toThrow(TypeError);
      });
    });

    describe('VectorDBCollection with a lower insertMany limit (5)', () => {
      const small = useDatabase(factory, { limits: { maxInsertManyDocuments: 5 } });

      it('insertMany with chunkSize under the limit inserts every document', async () => {
        const collection = await small.db.createCollection('c');
        const results = await collection.insertMany(FORTY_FIVE.slice(0, 12), { chunkSize: 5 });
        expect(results.map((r) => r.id)).toEqual(FORTY_FIVE.slice(0, 12).map((d) => d._id));
        expect(await collection.countDocuments()).toBe(12);
      });

      it('a chunk over the limit throws COMMAND_FIELD_VALUE_INVALID and writes nothing of that chunk', async () => {
        const collection = await small.db.createCollection('c');
        const error = await rejection(collection.insertMany(FORTY_FIVE.slice(0, 12), { chunkSize: 6 }));
        expect((error as DataApiException).errorCode).toBe('COMMAND_FIELD_VALUE_INVALID');
        expect(await collection.countDocuments()).toBe(0);
      });
    });

    describe('VectorDBCollection', () => {
      const people = async (): Promise<VectorDBCollection> => {
        const collection = await ctx.db.createCollection('people');
        const results = await collection.insertMany(FORTY_FIVE);
        expect(results.map((r) => r.id)).toEqual(FORTY_FIVE.map((d) => d._id));
        return collection;
      };

      it('insertOne returns the id; a generated id is a UUID string', async () => {
        const collection = await ctx.db.createCollection('c');
        expect(await collection.insertOne({ _id: 'given', a: 1 })).toEqual({ id: 'given' });
        const { id } = await collection.insertOne({ a: 2 });
        expect(typeof id).toBe('string');
        expect(await collection.findById(id)).toEqual({ _id: id, a: 2 });
      });

      it('insertOne of an existing _id throws DocumentAlreadyExistsException', async () => {
        const collection = await ctx.db.createCollection('c');
        await collection.insertOne({ _id: 1, v: 'first' });
        const error = await rejection(collection.insertOne({ _id: 1, v: 'second' }));
        expect(error).toBeInstanceOf(DocumentAlreadyExistsException);
        expect((error as DataApiException).errorCode).toBe('DOCUMENT_ALREADY_EXISTS');
        expect(await collection.findById(1)).toEqual({ _id: 1, v: 'first' });
      });

      it('insertOne of a bad document throws DataApiException with the code', async () => {
        const collection = await ctx.db.createCollection('c');
        const error = await rejection(collection.insertOne({ _id: 'x', $bad: 1 }));
        expect(error).toBeInstanceOf(DataApiException);
        expect((error as DataApiException).errorCode).toBe('SHRED_BAD_FIELD_NAME');
      });

      it('insertMany of 45 documents is chunked under the per-request limit', async () => {
        const collection = await people();
        expect(await collection.countDocuments()).toBe(45);
        expect(await collection.estimatedDocumentCount()).toBe(45);
      });

      it('insertMany with a duplicate in a later chunk throws; earlier chunks stay inserted', async () => {
        const collection = await ctx.db.createCollection('c');
        await collection.insertOne({ _id: padId('p', 25) });
        const error = await rejection(collection.insertMany(FORTY_FIVE));
        expect(error).toBeInstanceOf(DocumentAlreadyExistsException);
        expect((error as DataApiException).errorCode).toBe('DOCUMENT_ALREADY_EXISTS');
        for (let i = 0; i < 20; i++) expect(await collection.findById(padId('p', i))).toEqual(FORTY_FIVE[i]);
        expect(await collection.findById(padId('p', 44))).toBeUndefined();
      });

      it('find iterates every page asynchronously; toArray collects them', async () => {
        const collection = await people();
        const seen: unknown[] = [];
        for await (const doc of collection.find({})) seen.push(doc);
        expect(seen).toHaveLength(45);
        expect(new Set(seen.map((d) => (d as Doc)._id)).size).toBe(45);
        const reds = await collection.find({ filter: { color: 'red' } }).toArray();
        expect(reds.map((d) => d._id).sort()).toEqual(FORTY_FIVE.filter((d) => d.color === 'red').map((d) => d._id));
        expect(await collection.find({ filter: { color: 'green' } }).toArray()).toEqual([]);
      });

      it('find honours limit, projection and sort', async () => {
        const collection = await people();
        expect(await collection.find({ limit: 25 }).toArray()).toHaveLength(25);
        const top = await collection.find({ sort: { n: -1 }, limit: 3, projection: { n: 1 } }).toArray();
        expect(top).toEqual([
          { _id: 'p-044', n: 44 },
          { _id: 'p-043', n: 43 },
          { _id: 'p-042', n: 42 },
        ]);
      });

      it('findById and findOne; a miss is undefined', async () => {
        const collection = await people();
        expect(await collection.findById('p-010')).toEqual(FORTY_FIVE[10]);
        expect(await collection.findById('nope')).toBeUndefined();
        expect(await collection.findOne({ filter: { n: 7 } })).toEqual(FORTY_FIVE[7]);
        expect(await collection.findOne({ filter: { n: -1 } })).toBeUndefined();
        expect(await collection.findOne({ filter: { color: 'blue' }, sort: { n: -1 }, projection: { n: 1 } })).toEqual({ _id: 'p-044', n: 44 });
      });

      it('a bad filter throws DataApiException with the filter code', async () => {
        const collection = await people();
        const error = await rejection(collection.find({ filter: { n: { $regex: '1' } } }).toArray());
        expect(error).toBeInstanceOf(DataApiException);
        expect((error as DataApiException).errorCode).toBe('FILTER_UNSUPPORTED_OPERATOR');
      });

      it('updateOne: counts, no-op and upsert', async () => {
        const collection = await people();
        expect(await collection.updateOne({ _id: 'p-001' }, { $set: { color: 'green' } })).toEqual({ matchedCount: 1, modifiedCount: 1 });
        expect(await collection.updateOne({ _id: 'p-001' }, { $set: { color: 'green' } })).toEqual({ matchedCount: 1, modifiedCount: 0 });
        expect(await collection.updateOne({ _id: 'absent' }, { $set: { color: 'green' } })).toEqual({ matchedCount: 0, modifiedCount: 0 });
        expect(await collection.updateOne({ _id: 'new' }, { $set: { color: 'green' } }, { upsert: true })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: 'new' });
        expect(await collection.findById('new')).toEqual({ _id: 'new', color: 'green' });
      });

      it('updateMany updates every match across pages', async () => {
        const collection = await people();
        expect(await collection.updateMany({ color: 'blue' }, { $set: { seen: true } })).toEqual({ matchedCount: 30, modifiedCount: 30 });
        expect(await collection.updateMany({}, { $inc: { n: 1 } })).toEqual({ matchedCount: 45, modifiedCount: 45 });
        expect(await collection.countDocuments({ seen: true })).toBe(30);
        expect(await collection.findById('p-000')).toEqual({ _id: 'p-000', n: 1, color: 'red' });
      });

      it('an update error throws DataApiException', async () => {
        const collection = await people();
        const error = await rejection(collection.updateOne({ _id: 'p-000' }, { $inc: { color: 1 } }));
        expect(error).toBeInstanceOf(DataApiException);
        expect((error as DataApiException).errorCode).toBe('UNSUPPORTED_UPDATE_OPERATION_TARGET');
      });

      it('deleteOne and deleteMany (looping over the per-request limit)', async () => {
        const collection = await people();
        expect(await collection.deleteOne({ _id: 'p-000' })).toBe(1);
        expect(await collection.deleteOne({ _id: 'p-000' })).toBe(0);
        expect(await collection.deleteMany({ color: 'blue' })).toBe(30);
        expect(await collection.countDocuments()).toBe(14);
        expect(await collection.deleteMany({})).toBe(-1);
        expect(await collection.countDocuments()).toBe(0);
        expect(await collection.estimatedDocumentCount()).toBe(0);
      });

      it('countDocuments with a filter and with an upper bound', async () => {
        const collection = await people();
        expect(await collection.countDocuments({ color: 'red' })).toBe(15);
        expect(await collection.countDocuments({ color: 'red' }, 15)).toBe(15);
        const error = await rejection(collection.countDocuments({ color: 'red' }, 10));
        expect(error).toBeInstanceOf(DataApiException);
        expect((error as DataApiException).errorCode).toBe('TOO_MANY_DOCUMENTS_TO_COUNT');
      });

      it('vector documents round-trip through the collection API', async () => {
        const collection = await ctx.db.createCollection('vecs', 3);
        await collection.insertOne({ _id: 'v1', $vector: [0.1, 0.2, 0.3], label: 'a' });
        expect(await collection.findById('v1')).toEqual({ _id: 'v1', label: 'a' });
        expect(await collection.findById('v1', { '*': 1 })).toEqual({ _id: 'v1', $vector: [0.1, 0.2, 0.3], label: 'a' });
        const error = await rejection(collection.insertOne({ _id: 'v2', $vector: [1, 2] }));
        expect((error as DataApiException).errorCode).toBe('INVALID_VECTOR_LENGTH');
      });
    });
  });
}
