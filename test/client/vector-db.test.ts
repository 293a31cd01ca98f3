/**
 * What the client adds to VectorDB: createCollection from a definition builder, typed collections and
 * repositories, and the typed exceptions each Data API code maps to. (The rest of VectorDB is covered by
 * the shared suite test/suite/client-api.ts.)
 */
import { describe, expect, it } from 'vitest';
import {
  CollectionDefinition,
  CollectionNotFoundException,
  DataApiException,
  DatabaseNotFoundException,
  InvalidArgumentException,
  KeyspaceAlreadyExistException,
  KeyspaceNotFoundException,
  VectorDB,
  VectorDBAdmin,
  VectorDBCollection,
  VectorDBRepository,
} from '../../src/index.js';
import { exceptionFor } from '../../src/client/errors.js';
import { rejection, useDb } from './helpers.js';
import { DEFAULT_HYBRID_OPTIONS } from '../suite/lexical.js';

interface Note {
  text: string;
}

describe('VectorDB (client additions)', () => {
  const ctx = useDb();

  it('createCollection takes a CollectionDefinition or its builder', async () => {
    const builder = CollectionDefinition.builder().name('docs').vector(2, 'euclidean').indexingDeny('body');
    const fromBuilder = await ctx.db.createCollection(builder);
    expect(fromBuilder).toBeInstanceOf(VectorDBCollection);
    await ctx.db.createCollection(builder.build());
    expect(await ctx.db.findCollectionByName('docs')).toEqual({ name: 'docs', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 2, metric: 'euclidean', sourceModel: 'other' }, indexing: { deny: ['body'] } } });
  });

  it('typed collections from createCollection<T> and collection<T>; the collection knows its db', async () => {
    const notes = await ctx.db.createCollection<Note>('notes');
    await notes.insertOne({ text: 'hello' });
    const again = await ctx.db.collection<Note>('notes');
    expect((await again.findOne())!.text).toBe('hello');
    expect(again.db).toBe(ctx.db);
  });

  it('createCollection with a class returns a repository; repository() wraps an existing collection', async () => {
    class Note2 {
      text = '';
    }
    expect(await ctx.db.createCollection('n2', Note2)).toBeInstanceOf(VectorDBRepository);
    expect(await ctx.db.repository<Note>('n2')).toBeInstanceOf(VectorDBRepository);
  });

  it('each Data API code throws its exception class', async () => {
    await ctx.db.createCollection('c', 2);
    const different = await rejection(ctx.db.createCollection('c', 3));
    expect(different).toBeInstanceOf(InvalidArgumentException);
    expect((different as DataApiException).errorCode).toBe('EXISTING_COLLECTION_DIFFERENT_SETTINGS');
    expect(await rejection(ctx.db.createCollection('bad-name'))).toBeInstanceOf(InvalidArgumentException);
    expect(await rejection(ctx.db.run({ findCollections: {} }, { keyspace: 'nowhere' }))).toBeInstanceOf(KeyspaceNotFoundException);
    expect(await rejection(ctx.db.collection('absent'))).toBeInstanceOf(CollectionNotFoundException);
    const badOption = await rejection((await ctx.db.collection('c')).find({ limit: 1, skip: 1 }).toArray());
    expect(badOption).toBeInstanceOf(InvalidArgumentException);
  });

  it('codes only the administration raises map to their classes too (createKeyspace here is idempotent)', () => {
    const of = (errorCode: string): DataApiException => exceptionFor({ errors: [{ id: '', family: 'REQUEST', scope: 'SCHEMA', errorCode, title: '', message: errorCode }] });
    expect(of('KEYSPACE_ALREADY_EXISTS')).toBeInstanceOf(KeyspaceAlreadyExistException);
    expect(of('DATABASE_NOT_FOUND')).toBeInstanceOf(DatabaseNotFoundException);
    expect(of('SOMETHING_NEW')).toBeInstanceOf(DataApiException);
    expect(of('SOMETHING_NEW').name).toBe('DataApiException');
    expect(of('KEYSPACE_ALREADY_EXISTS').name).toBe('KeyspaceAlreadyExistException');
  });
});

describe('VectorDB (the rest of its surface, through the embedded transport)', () => {
  const ctx = useDb();

  it('endpoint, connect, command, close and Symbol.asyncDispose', async () => {
    const second = new VectorDB('token', ctx.dir);
    expect(second.endpoint).toBe(ctx.db.endpoint);
    expect(await second.connect()).toBe(second);
    expect(await second.command({ findKeyspaces: {} }, { keyspace: null })).toEqual({ status: { keyspaces: ['default_keyspace'] } });
    await second.close();
    const third = await new VectorDB('token', ctx.dir).connect();
    await third[Symbol.asyncDispose]();
    await expect(third.findAllKeyspaceNames()).rejects.toThrow(/is closed/);
    expect(await ctx.db.findAllKeyspaceNames()).toEqual(['default_keyspace']);
  });

  it('options with a member VectorDBOptions lacks are a TypeError (a misspelt backend is not ignored)', () => {
    expect(() => new VectorDB('token', ctx.dir, 'default_keyspace', { vectorbackend: 'wasm' } as never)).toThrow(/VectorDBOptions has no member 'vectorbackend'/);
    expect(() => new VectorDB('token', ctx.dir, 'default_keyspace', { limits: { pageSize: 50 }, vectorBackend: 'wasm' })).not.toThrow();
  });

  it('every other options object of the public API refuses a member it lacks (#30): a typo never changes the result', async () => {
    // Each would otherwise run somewhere else, or do something else, than asked.
    expect(() => ctx.db.command({ findCollections: {} }, { keyspace: 'default_keyspace', colection: 'x' } as never)).toThrow(/VectorDB.command target has no member 'colection'/);
    await expect(ctx.db.graphql('{ __typename }', { keySpace: 'other' } as never)).rejects.toThrow(/GraphqlOptions has no member 'keySpace'/);
    await expect(VectorDB.fromDatabaseId('token', '3f0c2b1e-0000-4000-8000-000000000000', { keySpace: 'x' } as never)).rejects.toThrow(/DatabaseByIdOptions has no member 'keySpace'/);
    await expect(VectorDB.repair(ctx.dir, { backUp: false } as never)).rejects.toThrow(/RepairOptions has no member 'backUp'/);
    expect(() => new VectorDBAdmin('token', { homes: '/tmp/x' } as never)).toThrow(/VectorDBAdminOptions has no member 'homes'/);
    const notes = await ctx.db.createCollection('typo_notes');
    await notes.insertMany([{ _id: 'a', n: 1 }, { _id: 'b', n: 2 }]);
    await expect(notes.deleteOne({}, { Sort: { n: -1 } } as never)).rejects.toThrow(/deleteOne options has no member 'Sort'/);
    await expect(notes.findOneAndDelete({}, { sorted: { n: -1 } } as never)).rejects.toThrow(/findOneAndDelete options has no member 'sorted'/);
    expect(await notes.countDocuments({}, 10)).toBe(2); // nothing was deleted
    expect(await notes.deleteOne({}, { sort: { n: -1 } })).toBe(1);
    expect([await notes.isDocumentExists('a'), await notes.isDocumentExists('b')]).toEqual([true, false]);
  });

  it('keyspaces: getCurrentKeyspace, findAllKeyspaceNames, isKeyspaceExists, changeKeyspace', async () => {
    expect(ctx.db.getCurrentKeyspace()).toBe('default_keyspace');
    await ctx.db.command({ createKeyspace: { name: 'archive' } }, { keyspace: null });
    expect([...(await ctx.db.findAllKeyspaceNames())].sort()).toEqual(['archive', 'default_keyspace']);
    expect(await ctx.db.isKeyspaceExists('archive')).toBe(true);
    await ctx.db.changeKeyspace('archive');
    expect((await ctx.db.createCollection('old')).keyspace).toBe('archive');
    await expect(ctx.db.changeKeyspace('nowhere')).rejects.toBeInstanceOf(KeyspaceNotFoundException);
  });

  it('collections: findAllCollections, findAllCollectionsNames, findCollectionByName, isCollectionExists, deleteCollection', async () => {
    await ctx.db.createCollection('a', 2, 'dot_product');
    await ctx.db.createCollection('b');
    expect([...(await ctx.db.findAllCollectionsNames())].sort()).toEqual(['a', 'b']);
    expect((await ctx.db.findAllCollections()).map((c) => c.name).sort()).toEqual(['a', 'b']);
    expect(await ctx.db.findCollectionByName('a')).toEqual({ name: 'a', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 2, metric: 'dot_product', sourceModel: 'other' } } });
    expect(await ctx.db.findCollectionByName('zz')).toBeUndefined();
    await ctx.db.deleteCollection('a');
    await ctx.db.deleteCollection('never');
    expect(await ctx.db.isCollectionExists('a')).toBe(false);
    expect(await ctx.db.isCollectionExists('b')).toBe(true);
  });
});
