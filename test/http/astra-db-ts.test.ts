/**
 * The real @datastax/astra-db-ts 2.x client against a server started here, once with the `/v1` path
 * (environment 'dse') and once with the Astra-style `/api/json/v1` (dataApiPath): admin, DDL, every
 * collection method of astra-db-ts-client.md section 2, and Date/UUID/ObjectId/$vector round trips.
 */
import {
  CollectionInsertManyError,
  DataAPIClient,
  DataAPIHttpError,
  DataAPIResponseError,
  DataAPIVector,
  ObjectId,
  TooManyDocumentsToCountError,
  UUID,
  type Collection,
  type Db,
} from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from './helpers.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

for (const variant of [
  { name: '/v1', dataApiPath: undefined as string | undefined },
  { name: '/api/json/v1', dataApiPath: 'api/json/v1' },
]) {
  describe(`astra-db-ts over ${variant.name}`, () => {
    let s: Served;
    let client: DataAPIClient;
    let db: Db;
    /** Requests per path, counted by the server (to see how many pages a cursor fetched). */
    const requests = new Map<string, number>();
    const countOf = (path: string): number => requests.get(path) ?? 0;
    const collPath = (name: string): string => `/${variant.dataApiPath ?? 'v1'}/default_keyspace/${name}`;

    beforeAll(async () => {
      s = await serve({ onRequest: (entry) => requests.set(entry.path, (requests.get(entry.path) ?? 0) + 1) });
      client = new DataAPIClient(s.token, { environment: 'dse' });
      db = client.db(s.url, { keyspace: 'default_keyspace', ...(variant.dataApiPath ? { dataApiPath: variant.dataApiPath } : {}) });
    });

    afterAll(async () => {
      await client?.close();
      await s?.close();
    });

    it('db admin: createKeyspace, listKeyspaces, dropKeyspace', async () => {
      const admin = db.admin({ environment: 'dse' });
      expect(await admin.listKeyspaces()).toEqual(['default_keyspace']);
      await admin.createKeyspace('ks2');
      await admin.createKeyspace('ks2'); // idempotent
      expect(await admin.listKeyspaces()).toEqual(['default_keyspace', 'ks2']);
      await admin.dropKeyspace('ks2');
      expect(await admin.listKeyspaces()).toEqual(['default_keyspace']);
    });

    it('createCollection, listCollections (names and definitions), dropCollection', async () => {
      const vec = await db.createCollection('vec', { vector: { dimension: 3, metric: 'cosine' } });
      await db.createCollection('vec', { vector: { dimension: 3, metric: 'cosine' } }); // identical: no error
      await expect(db.createCollection('vec', { vector: { dimension: 4, metric: 'cosine' } })).rejects.toBeInstanceOf(DataAPIResponseError);
      await db.createCollection('plain');
      expect((await db.listCollections({ nameOnly: true })).sort()).toEqual(['plain', 'vec']);
      const described = await db.listCollections();
      const byName = Object.fromEntries(described.map((c) => [c.name, c.definition]));
      expect(byName.vec?.vector).toMatchObject({ dimension: 3, metric: 'cosine' });
      expect(byName.plain).toBeDefined();
      expect(byName.plain?.vector).toBeUndefined();
      expect((await vec.options()).vector?.dimension).toBe(3);
      await db.dropCollection('plain');
      await db.dropCollection('plain'); // missing: no error
      expect(await db.listCollections({ nameOnly: true })).toEqual(['vec']);
    });

    describe('documents', () => {
      let coll: Collection;
      let vec: Collection;

      beforeAll(async () => {
        coll = await db.createCollection('docs');
        vec = db.collection('vec');
      });

      it('insertOne returns the id; generated ids are UUID v4 strings; duplicates are DOCUMENT_ALREADY_EXISTS', async () => {
        expect((await coll.insertOne({ _id: 'one', n: 1 })).insertedId).toBe('one');
        const generated = (await coll.insertOne({ n: 2 })).insertedId;
        expect(String(generated)).toMatch(UUID_V4);
        const error = await coll.insertOne({ _id: 'one' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DataAPIResponseError);
        expect((error as DataAPIResponseError).errorDescriptors[0]?.errorCode).toBe('DOCUMENT_ALREADY_EXISTS');
        await coll.deleteMany({});
      });

      it('insertMany returns the ids from documentResponses', async () => {
        const result = await coll.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `m${i}`, i })));
        expect(result.insertedCount).toBe(10);
        expect([...result.insertedIds].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`).sort());
        await coll.deleteMany({});
      });

      it('insertMany over the per-request limit fails clearly (names 20 and chunkSize); chunkSize: 20 works', async () => {
        const docs = Array.from({ length: 45 }, (_, i) => ({ _id: `p${String(i).padStart(2, '0')}`, i, group: i % 3, tags: [`t${i % 4}`, 'all'] }));
        const error = await coll.insertMany(docs).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(CollectionInsertManyError);
        expect((error as Error).message).toContain('20');
        expect((error as Error).message).toContain('chunkSize');
        expect(await coll.countDocuments({}, 1000)).toBe(0);

        const result = await coll.insertMany(docs, { chunkSize: 20 });
        expect(result.insertedCount).toBe(45);
        expect(await coll.countDocuments({}, 1000)).toBe(45);
      });

      it('find cursors across pages (45 docs -> 20 + 20 + 5)', async () => {
        const before = countOf(collPath('docs'));
        const all = await coll.find({}).toArray();
        expect(all).toHaveLength(45);
        expect(new Set(all.map((d) => d._id)).size).toBe(45);
        expect(countOf(collPath('docs')) - before).toBe(3);

        const cursor = coll.find({});
        const sizes: number[] = [];
        let page = await cursor.fetchNextPage();
        sizes.push(page.result.length);
        while (page.nextPageState !== null) {
          page = await cursor.fetchNextPage();
          sizes.push(page.result.length);
        }
        expect(sizes).toEqual([20, 20, 5]);

        const filtered = await coll.find({ group: 1 }, { projection: { i: 1 } }).toArray();
        expect(filtered).toHaveLength(15);
        expect(Object.keys(filtered[0]!).sort()).toEqual(['_id', 'i']);
        expect(await coll.find({}, { limit: 25 }).toArray()).toHaveLength(25);
        const sorted = await coll.find({}, { sort: { i: -1 }, limit: 3 }).toArray();
        expect(sorted.map((d) => d.i)).toEqual([44, 43, 42]);
      });

      it('findOne with filter and projection; a miss is null', async () => {
        expect(await coll.findOne({ _id: 'p07' })).toEqual({ _id: 'p07', i: 7, group: 1, tags: ['t3', 'all'] });
        expect(await coll.findOne({ i: { $gte: 44 } }, { projection: { _id: 0, i: 1 } })).toEqual({ i: 44 });
        expect(await coll.findOne({ _id: 'nope' })).toBeNull();
        expect(await coll.findOne({ tags: 't2', group: 0 }, { sort: { i: 1 } })).toMatchObject({ _id: 'p06' });
      });

      it('countDocuments with an upper bound, estimatedDocumentCount', async () => {
        expect(await coll.countDocuments({ group: 2 }, 100)).toBe(15);
        const error = await coll.countDocuments({}, 5).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TooManyDocumentsToCountError);
        expect((error as TooManyDocumentsToCountError).limit).toBe(5);
        expect((error as TooManyDocumentsToCountError).hitServerLimit).toBe(false);
        expect(await coll.estimatedDocumentCount()).toBe(45);
      });

      it('distinct', async () => {
        expect((await coll.distinct('tags', {})).sort()).toEqual(['all', 't0', 't1', 't2', 't3']);
        expect((await coll.distinct('group', { i: { $lt: 10 } })).sort()).toEqual([0, 1, 2]);
      });

      it('updateOne (with upsert) and updateMany across pages', async () => {
        const one = await coll.updateOne({ _id: 'p01' }, { $set: { touched: true } });
        expect(one).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        const upserted = await coll.updateOne({ _id: 'new' }, { $set: { i: 100 } }, { upsert: true });
        expect(upserted).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: 'new' });
        await coll.deleteOne({ _id: 'new' });

        const before = countOf(collPath('docs'));
        const many = await coll.updateMany({}, { $inc: { i: 1000 } });
        expect(many).toMatchObject({ matchedCount: 45, modifiedCount: 45 });
        expect(countOf(collPath('docs')) - before).toBeGreaterThanOrEqual(3); // paged with nextPageState
        expect(await coll.countDocuments({ i: { $gte: 1000 } }, 1000)).toBe(45);
        await coll.updateMany({}, { $inc: { i: -1000 } });
        expect(await coll.findOne({ _id: 'p01' })).toMatchObject({ i: 1, touched: true });
      });

      it('replaceOne', async () => {
        const result = await coll.replaceOne({ _id: 'p02' }, { i: 2, replaced: true });
        expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
        expect(await coll.findOne({ _id: 'p02' })).toEqual({ _id: 'p02', i: 2, replaced: true });
        const upsert = await coll.replaceOne({ _id: 'r-new' }, { i: -1 }, { upsert: true });
        expect(upsert.upsertedCount).toBe(1);
        await coll.deleteOne({ _id: 'r-new' });
      });

      it('findOneAndUpdate, findOneAndReplace, findOneAndDelete', async () => {
        const after = await coll.findOneAndUpdate({ _id: 'p03' }, { $set: { flag: 'x' } }, { returnDocument: 'after' });
        expect(after).toMatchObject({ _id: 'p03', flag: 'x' });
        const before = await coll.findOneAndUpdate({ _id: 'p03' }, { $set: { flag: 'y' } });
        expect(before).toMatchObject({ flag: 'x' });
        expect(await coll.findOneAndUpdate({ _id: 'none' }, { $set: { a: 1 } })).toBeNull();
        const replacedBefore = await coll.findOneAndReplace({ _id: 'p04' }, { only: 1 }, { projection: { i: 1 } });
        expect(replacedBefore).toEqual({ _id: 'p04', i: 4 });
        expect(await coll.findOne({ _id: 'p04' })).toEqual({ _id: 'p04', only: 1 });
        const deleted = await coll.findOneAndDelete({ _id: 'p05' });
        expect(deleted).toMatchObject({ _id: 'p05', i: 5 });
        expect(await coll.findOneAndDelete({ _id: 'p05' })).toBeNull();
      });

      it('deleteOne and deleteMany (moreData loop)', async () => {
        expect((await coll.deleteOne({ _id: 'p06' })).deletedCount).toBe(1);
        expect((await coll.deleteOne({ _id: 'p06' })).deletedCount).toBe(0);
        const inGroup = await coll.countDocuments({ group: 0 }, 1000);
        expect(inGroup).toBe(14); // 15 in group 0, minus p06
        const remaining = await coll.countDocuments({}, 1000);
        const some = await coll.deleteMany({ group: 0 });
        expect(some.deletedCount).toBe(inGroup);
        const rest = await coll.deleteMany({});
        expect(rest.deletedCount === -1 || rest.deletedCount === remaining - inGroup).toBe(true);
        expect(await coll.countDocuments({}, 1000)).toBe(0);

        // 45 matches: the server deletes 20 per request with moreData, the client resends.
        await coll.insertMany(Array.from({ length: 45 }, (_, i) => ({ batch: 1, i })), { chunkSize: 20 });
        await coll.insertOne({ _id: 'keep', batch: 2 });
        const before = countOf(collPath('docs'));
        expect((await coll.deleteMany({ batch: 1 })).deletedCount).toBe(45);
        expect(countOf(collPath('docs')) - before).toBe(3);
        expect(await coll.find({}).toArray()).toEqual([{ _id: 'keep', batch: 2 }]);
        await coll.deleteMany({});
      });

      it('vector sort with $binary vectors, includeSimilarity, includeSortVector', async () => {
        await vec.insertMany([
          { _id: 'x', $vector: [1, 0, 0], name: 'x' },
          { _id: 'y', $vector: [0, 1, 0], name: 'y' },
          { _id: 'xy', $vector: [0.7, 0.7, 0], name: 'xy' },
        ]);
        const cursor = vec.find({}, { sort: { $vector: [1, 0.1, 0] }, limit: 2, includeSimilarity: true, includeSortVector: true });
        // The client drops the page (and its sort vector) once the cursor is exhausted: ask first.
        const sortVector = await cursor.getSortVector();
        const found = await cursor.toArray();
        expect(found.map((d) => d._id)).toEqual(['x', 'xy']);
        expect(found[0]!.$similarity).toBeGreaterThan(0.99);
        expect(found[0]!.$vector).toBeUndefined();
        expect(sortVector).toBeInstanceOf(DataAPIVector);
        expect(Array.from(sortVector!.asArray()).map((v) => Math.round(v * 10) / 10)).toEqual([1, 0.1, 0]);

        const nearest = await vec.findOne({}, { sort: { $vector: [0, 1, 0] }, includeSimilarity: true, projection: { '*': 1 } });
        expect(nearest?._id).toBe('y');
        expect(nearest?.$similarity).toBe(1);
        expect(nearest?.$vector).toBeInstanceOf(DataAPIVector);
        expect(Array.from((nearest!.$vector as DataAPIVector).asArray())).toEqual([0, 1, 0]);

        expect(await vec.find({}, { sort: { $vector: [1, 0, 0] } }).includeSortVector(false).getSortVector()).toBeNull();
        await vec.updateOne({ _id: 'y' }, { $set: { $vector: [1, 0, 0] } });
        expect((await vec.findOne({}, { sort: { $vector: [1, 0, 0] }, includeSimilarity: true, projection: { name: 1 } }))?.$similarity).toBe(1);
        expect((await vec.deleteOne({}, { sort: { $vector: [0.7, 0.7, 0] } })).deletedCount).toBe(1);
        expect(await vec.findOne({ _id: 'xy' })).toBeNull();
      });

      it('a vector search with projection {_id: 1} returns the whole documents minus $vector, as the Data API does', async () => {
        const shelf = await db.createCollection('projection_shelf', { vector: { dimension: 2, metric: 'euclidean' } });
        await shelf.insertMany([
          { _id: 'a', $vector: [1, 0], name: 'a', tags: ['x'], meta: { n: 1 } },
          { _id: 'b', $vector: [0, 1], name: 'b' },
        ]);
        // Twice: the first search reads the bodies, the second finds them in the hit cache.
        for (let round = 0; round < 2; round++) {
          const found = await shelf.find({}, { sort: { $vector: [1, 0.1] }, projection: { _id: 1 }, limit: 2 }).toArray();
          expect(found).toEqual([
            { _id: 'a', name: 'a', tags: ['x'], meta: { n: 1 } },
            { _id: 'b', name: 'b' },
          ]);
          found[0]!.tags.push('changed'); // the caller's own copy
        }
        await db.dropCollection('projection_shelf');
      });

      it("astra-db-ts's quickstart: $similarity is the Data API's float32 score (1 and 0.85490346)", async () => {
        const ideas = await db.createCollection('vector_5_collection', { vector: { dimension: 5, metric: 'cosine' } });
        await ideas.insertMany([
          { idea: 'An AI quilt to help you sleep forever', $vector: [0.1, 0.15, 0.3, 0.12, 0.05] },
          { idea: 'Vision Vector Frame', $vector: [0.1, 0.05, 0.08, 0.3, 0.6] },
          { idea: 'A smartwatch that tells you what to eat based on your mood', $vector: [0.2, 0.3, 0.1, 0.4, 0.15] },
          { idea: 'ChatGPT-integrated sneakers that talk to you', $vector: [0.45, 0.09, 0.01, 0.2, 0.11] },
          { idea: 'ones', $vector: [1, 1, 1, 1, 1] },
        ]);
        const found = await ideas.find({ idea: { $ne: 'ones' } }, { sort: { $vector: [0.1, 0.15, 0.3, 0.12, 0.05] }, includeSimilarity: true, limit: 2 }).toArray();
        expect(found.map((d) => d.$similarity)).toEqual([1, 0.85490346]);
        expect((await ideas.findOne({}, { sort: { $vector: [1, 1, 1, 1, 1] }, includeSimilarity: true }))?.$similarity).toBe(1);
        await db.dropCollection('vector_5_collection');
      });

      it('Date, UUID and ObjectId values round-trip (also as _id and in filters)', async () => {
        const when = new Date('2024-05-06T07:08:09.123Z');
        const u = UUID.v4();
        const u7 = UUID.v7();
        const oid = new ObjectId();
        await coll.insertOne({ _id: oid, when, u, nested: { at: [when] } });
        await coll.insertOne({ _id: u7, kind: 'uuid-id' });
        const doc = await coll.findOne({ _id: oid });
        expect(doc?._id).toBeInstanceOf(ObjectId);
        expect((doc!._id as ObjectId).equals(oid)).toBe(true);
        expect(doc?.when).toBeInstanceOf(Date);
        expect((doc!.when as Date).getTime()).toBe(when.getTime());
        expect(doc?.u).toBeInstanceOf(UUID);
        expect((doc!.u as UUID).equals(u)).toBe(true);
        expect(((doc!.nested as { at: Date[] }).at[0] as Date).getTime()).toBe(when.getTime());

        expect((await coll.findOne({ when }))?._id).toBeInstanceOf(ObjectId);
        expect(await coll.findOne({ when: { $gt: new Date(when.getTime() + 1) } })).toBeNull();
        expect((await coll.findOne({ u }))?._id).toBeInstanceOf(ObjectId);
        const byUuid = await coll.findOne({ _id: u7 });
        expect(byUuid?._id).toBeInstanceOf(UUID);
        expect((byUuid!._id as UUID).equals(u7)).toBe(true);
        const inserted = await coll.insertOne({ at: new Date(0) });
        expect(String(inserted.insertedId)).toMatch(UUID_V4);
        await coll.deleteMany({});
      });
    });

    it('errors: unknown collection is a DataAPIResponseError, unknown path a DataAPIHttpError 404, a wrong token a DataAPIResponseError', async () => {
      const missing = await db.collection('missing').findOne({}).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(DataAPIResponseError);
      expect((missing as DataAPIResponseError).errorDescriptors[0]?.errorCode).toBe('UNKNOWN_COLLECTION_OR_TABLE');

      const wrongPath = client.db(s.url, { keyspace: 'default_keyspace', dataApiPath: 'invalid_path' });
      const notFound = await wrongPath.listCollections().catch((e: unknown) => e);
      expect(notFound).toBeInstanceOf(DataAPIHttpError);
      expect((notFound as DataAPIHttpError).status).toBe(404);

      const intruder = new DataAPIClient('wrong-token', { environment: 'dse' });
      const denied = await intruder
        .db(s.url, { keyspace: 'default_keyspace', ...(variant.dataApiPath ? { dataApiPath: variant.dataApiPath } : {}) })
        .listCollections()
        .catch((e: unknown) => e);
      expect(denied).toBeInstanceOf(DataAPIResponseError);
      expect((denied as DataAPIResponseError).errorDescriptors[0]?.errorCode).toBe('UNAUTHENTICATED_REQUEST');
      await intruder.close();
    });
  });
}
