/**
 * Shared suite: keyspace-level collection commands (data-api-protocol.md 3.2, 9): createCollection with and
 * without vectors, idempotence and EXISTING_COLLECTION_DIFFERENT_SETTINGS, findCollections (names, explain),
 * deleteCollection, TOO_MANY_COLLECTIONS, option and name errors, UNKNOWN_COLLECTION_OR_TABLE.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { KS, createCollection, expectError, onCollection, run, useDatabase } from './helpers.js';
import { DEFAULT_HYBRID_OPTIONS } from './lexical.js';

export function collectionsSuite(factory: DbFactory): void {
  describe(`collections [${factory.name}]`, () => {
    const ctx = useDatabase(factory);

    const names = async (keyspace = KS): Promise<string[]> => {
      const response = await run(ctx.db, { findCollections: {} }, { keyspace });
      expect(Object.keys(response)).toEqual(['status']);
      return [...(response.status!.collections as string[])].sort();
    };
    const explained = async (keyspace = KS): Promise<unknown[]> => {
      const response = await run(ctx.db, { findCollections: { options: { explain: true } } }, { keyspace });
      expect(Object.keys(response)).toEqual(['status']);
      return response.status!.collections as unknown[];
    };
    const create = (name: unknown, options?: unknown, keyspace = KS) =>
      run(ctx.db, { createCollection: options === undefined ? { name } : { name, options } }, { keyspace });

    describe('createCollection and findCollections', () => {
      it('findCollections of an empty keyspace is an empty list', async () => {
        expect(await run(ctx.db, { findCollections: {} }, { keyspace: KS })).toEqual({ status: { collections: [] } });
        expect(await run(ctx.db, { findCollections: { options: { explain: true } } }, { keyspace: KS })).toEqual({ status: { collections: [] } });
      });

      it('creates a collection without vectors: ok:1, listed by name, explained with the default lexical and rerank blocks', async () => {
        expect(await create('notes')).toEqual({ status: { ok: 1 } });
        expect(await run(ctx.db, { findCollections: {} }, { keyspace: KS })).toEqual({ status: { collections: ['notes'] } });
        expect(await explained()).toEqual([{ name: 'notes', options: DEFAULT_HYBRID_OPTIONS }]);
      });

      it('creates a vector collection; the metric defaults to cosine', async () => {
        expect(await create('vecs', { vector: { dimension: 5 } })).toEqual({ status: { ok: 1 } });
        expect(await explained()).toEqual([{ name: 'vecs', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 5, metric: 'cosine', sourceModel: 'other' } } }]);
      });

      it.each(['cosine', 'euclidean', 'dot_product'])('creates a vector collection with metric %s', async (metric) => {
        await createCollection(ctx.db, 'vecs', { vector: { dimension: 3, metric } });
        expect(await explained()).toEqual([{ name: 'vecs', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 3, metric, sourceModel: 'other' } } }]);
      });

      it('explain reports indexing and defaultId as given', async () => {
        await createCollection(ctx.db, 'denied', { indexing: { deny: ['body', 'meta.raw'] } });
        await createCollection(ctx.db, 'allowed', { indexing: { allow: ['title'] }, defaultId: { type: 'objectId' } });
        expect(await explained()).toEqual([
          { name: 'allowed', options: { ...DEFAULT_HYBRID_OPTIONS, indexing: { allow: ['title'] }, defaultId: { type: 'objectId' } } },
          { name: 'denied', options: { ...DEFAULT_HYBRID_OPTIONS, indexing: { deny: ['body', 'meta.raw'] } } },
        ]);
      });

      it('lists several collections and keeps names case-sensitive', async () => {
        await createCollection(ctx.db, 'testcollection');
        await createCollection(ctx.db, 'testCollection');
        await createCollection(ctx.db, 'other', { vector: { dimension: 2 } });
        expect(await names()).toEqual(['other', 'testCollection', 'testcollection']);
        const definitions = (await explained()) as { name: string }[];
        expect(definitions.map((d) => d.name).sort()).toEqual(['other', 'testCollection', 'testcollection']);
      });

      it('collections of one name in two keyspaces are distinct', async () => {
        await run(ctx.db, { createKeyspace: { name: 'ks2' } });
        await createCollection(ctx.db, 'items');
        await createCollection(ctx.db, 'items', { vector: { dimension: 2 } }, 'ks2');
        await run(ctx.db, { insertOne: { document: { _id: 'only-in-default' } } }, { keyspace: KS, collection: 'items' });
        expect(await run(ctx.db, { find: {} }, { keyspace: 'ks2', collection: 'items' })).toEqual({ data: { documents: [], nextPageState: null } });
        expect(await explained('ks2')).toEqual([{ name: 'items', options: { ...DEFAULT_HYBRID_OPTIONS, vector: { dimension: 2, metric: 'cosine', sourceModel: 'other' } } }]);
        expect(await explained()).toEqual([{ name: 'items', options: DEFAULT_HYBRID_OPTIONS }]);
      });

      it('accepts names of 1 and 48 characters, with underscores and digits', async () => {
        for (const name of ['a', '_x', `c${'9'.repeat(47)}`, 'A_b_1']) expect(await create(name)).toEqual({ status: { ok: 1 } });
        expect(await names()).toEqual(['A_b_1', '_x', 'a', `c${'9'.repeat(47)}`].sort());
      });
    });

    describe('idempotence and EXISTING_COLLECTION_DIFFERENT_SETTINGS', () => {
      it('re-creating with identical settings answers ok:1 and keeps the documents', async () => {
        await createCollection(ctx.db, 'vecs', { vector: { dimension: 3, metric: 'euclidean' }, indexing: { deny: ['x'] } });
        await onCollection(ctx.db, 'vecs', { insertOne: { document: { _id: 1, x: 'kept' } } });
        expect(await create('vecs', { vector: { dimension: 3, metric: 'euclidean' }, indexing: { deny: ['x'] } })).toEqual({ status: { ok: 1 } });
        expect(await onCollection(ctx.db, 'vecs', { findOne: { filter: { _id: 1 } } })).toEqual({ data: { document: { _id: 1, x: 'kept' } } });
        expect(await names()).toEqual(['vecs']);
      });

      it('an explicit default (metric cosine) is the same definition as an omitted one', async () => {
        await createCollection(ctx.db, 'vecs', { vector: { dimension: 3 } });
        expect(await create('vecs', { vector: { dimension: 3, metric: 'cosine' } })).toEqual({ status: { ok: 1 } });
      });

      it('re-creating a plain collection with no options is ok:1', async () => {
        await createCollection(ctx.db, 'plain');
        expect(await create('plain')).toEqual({ status: { ok: 1 } });
        expect(await create('plain', {})).toEqual({ status: { ok: 1 } });
      });

      it.each([
        ['another dimension', { vector: { dimension: 3 } }, { vector: { dimension: 4 } }],
        ['another metric', { vector: { dimension: 3, metric: 'cosine' } }, { vector: { dimension: 3, metric: 'dot_product' } }],
        ['a vector where there was none', {}, { vector: { dimension: 3 } }],
        ['no vector where there was one', { vector: { dimension: 3 } }, {}],
        ['another indexing list', { indexing: { deny: ['a'] } }, { indexing: { deny: ['b'] } }],
        ['allow instead of deny', { indexing: { deny: ['a'] } }, { indexing: { allow: ['a'] } }],
        ['indexing where there was none', {}, { indexing: { deny: ['a'] } }],
        ['another defaultId', { defaultId: { type: 'uuid' } }, { defaultId: { type: 'objectId' } }],
      ])('%s: EXISTING_COLLECTION_DIFFERENT_SETTINGS and the definition stays', async (_label, first, second) => {
        await createCollection(ctx.db, 'c', first);
        const before = await explained();
        const error = expectError(await create('c', second), 'EXISTING_COLLECTION_DIFFERENT_SETTINGS');
        expect(error.message).toContain("'c'");
        expect(await explained()).toEqual(before);
      });

      it('re-creating an identical collection succeeds even at the collection limit', async () => {
        for (const name of ['a', 'b', 'c', 'd', 'e']) await createCollection(ctx.db, name, { vector: { dimension: 2 } });
        expect(await create('c', { vector: { dimension: 2 } })).toEqual({ status: { ok: 1 } });
      });
    });

    describe('TOO_MANY_COLLECTIONS', () => {
      it('the 6th collection of a database is refused; nothing is created', async () => {
        for (const name of ['c1', 'c2', 'c3', 'c4', 'c5']) await createCollection(ctx.db, name);
        const error = expectError(await create('c6'), 'TOO_MANY_COLLECTIONS');
        expect(error.message).toContain('5');
        expect(await names()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
      });

      it('the limit counts collections across keyspaces', async () => {
        await run(ctx.db, { createKeyspace: { name: 'ks2' } });
        for (const name of ['a', 'b', 'c']) await createCollection(ctx.db, name);
        for (const name of ['d', 'e']) await createCollection(ctx.db, name, undefined, 'ks2');
        expectError(await create('f', undefined, 'ks2'), 'TOO_MANY_COLLECTIONS');
        expectError(await create('f'), 'TOO_MANY_COLLECTIONS');
        expect(await names('ks2')).toEqual(['d', 'e']);
      });

      it('deleting a collection makes room for another', async () => {
        for (const name of ['c1', 'c2', 'c3', 'c4', 'c5']) await createCollection(ctx.db, name);
        await run(ctx.db, { deleteCollection: { name: 'c3' } }, { keyspace: KS });
        expect(await create('c6')).toEqual({ status: { ok: 1 } });
        expect(await names()).toEqual(['c1', 'c2', 'c4', 'c5', 'c6']);
      });
    });

    describe('bad createCollection requests', () => {
      it.each([
        ['a dash', 'bad-name'],
        ['a space', 'with space'],
        ['the empty string', ''],
        ['49 characters', `c${'x'.repeat(48)}`],
        ['a leading digit', '1st'],
      ])('a name with %s: UNSUPPORTED_SCHEMA_NAME', async (_label, name) => {
        const error = expectError(await create(name), 'UNSUPPORTED_SCHEMA_NAME');
        expect(error.scope).toBe('SCHEMA');
        expect(await names()).toEqual([]);
      });

      it('a missing name: COMMAND_FIELD_VALUE_INVALID', async () => {
        expectError(await run(ctx.db, { createCollection: {} }, { keyspace: KS }), 'COMMAND_FIELD_VALUE_INVALID');
      });

      it.each([
        ['dimension 0', { vector: { dimension: 0 } }, 'COMMAND_FIELD_VALUE_INVALID'],
        ['a negative dimension', { vector: { dimension: -3 } }, 'COMMAND_FIELD_VALUE_INVALID'],
        ['a fractional dimension', { vector: { dimension: 2.5 } }, 'COMMAND_FIELD_VALUE_INVALID'],
        ['a string dimension', { vector: { dimension: 'five' } }, 'COMMAND_FIELD_VALUE_INVALID'],
        ['a dimension over 4096', { vector: { dimension: 4097 } }, 'VECTOR_SEARCH_TOO_BIG_VALUE'],
        ['no dimension', { vector: { metric: 'cosine' } }, 'INVALID_CREATE_COLLECTION_OPTIONS'],
        ['an unknown metric', { vector: { dimension: 3, metric: 'manhattan' } }, 'COMMAND_FIELD_VALUE_INVALID'],
        ['a vectorize service', { vector: { dimension: 3, service: { provider: 'openai', modelName: 'x' } } }, 'VECTORIZE_FEATURE_NOT_AVAILABLE'],
        ['allow and deny together', { indexing: { allow: ['a'], deny: ['b'] } }, 'INVALID_INDEXING_DEFINITION'],
        ['neither allow nor deny', { indexing: {} }, 'INVALID_INDEXING_DEFINITION'],
        ['duplicate deny entries', { indexing: { deny: ['a', 'a'] } }, 'INVALID_INDEXING_DEFINITION'],
        ['an unknown defaultId type', { defaultId: { type: 'autoincrement' } }, 'COMMAND_FIELD_VALUE_INVALID'],
        ['an unknown option', { colour: 'blue' }, 'INVALID_CREATE_COLLECTION_FIELD'],
      ])('%s: %s', async (_label, options, code) => {
        expectError(await create('c', options), code as string);
        expect(await names()).toEqual([]);
      });
    });

    describe('deleteCollection', () => {
      it('answers ok:1 and removes the collection; again ok:1', async () => {
        await createCollection(ctx.db, 'gone');
        await createCollection(ctx.db, 'stays');
        expect(await run(ctx.db, { deleteCollection: { name: 'gone' } }, { keyspace: KS })).toEqual({ status: { ok: 1 } });
        expect(await names()).toEqual(['stays']);
        expect(await run(ctx.db, { deleteCollection: { name: 'gone' } }, { keyspace: KS })).toEqual({ status: { ok: 1 } });
        expect(await run(ctx.db, { deleteCollection: { name: 'never_was' } }, { keyspace: KS })).toEqual({ status: { ok: 1 } });
      });

      it('removes the documents: a new collection of the same name starts empty', async () => {
        await createCollection(ctx.db, 'c');
        await onCollection(ctx.db, 'c', { insertMany: { documents: [{ _id: 1, a: 1 }, { _id: 2, a: 1 }] } });
        await run(ctx.db, { deleteCollection: { name: 'c' } }, { keyspace: KS });
        await createCollection(ctx.db, 'c');
        expect(await onCollection(ctx.db, 'c', { find: {} })).toEqual({ data: { documents: [], nextPageState: null } });
        expect(await onCollection(ctx.db, 'c', { find: { filter: { a: 1 } } })).toEqual({ data: { documents: [], nextPageState: null } });
        expect(await onCollection(ctx.db, 'c', { countDocuments: { filter: {} } })).toEqual({ status: { count: 0 } });
      });

      it('commands on a deleted collection answer UNKNOWN_COLLECTION_OR_TABLE', async () => {
        await createCollection(ctx.db, 'c');
        await run(ctx.db, { deleteCollection: { name: 'c' } }, { keyspace: KS });
        expectError(await onCollection(ctx.db, 'c', { insertOne: { document: {} } }), 'UNKNOWN_COLLECTION_OR_TABLE');
      });

      it('without a name: COMMAND_FIELD_VALUE_INVALID', async () => {
        expectError(await run(ctx.db, { deleteCollection: {} }, { keyspace: KS }), 'COMMAND_FIELD_VALUE_INVALID');
      });
    });

    describe('UNKNOWN_COLLECTION_OR_TABLE', () => {
      it.each([
        ['find', { find: {} }],
        ['findOne', { findOne: {} }],
        ['insertOne', { insertOne: { document: { a: 1 } } }],
        ['insertMany', { insertMany: { documents: [{ a: 1 }] } }],
        ['updateOne', { updateOne: { filter: {}, update: { $set: { a: 1 } } } }],
        ['updateMany', { updateMany: { filter: {}, update: { $set: { a: 1 } } } }],
        ['deleteOne', { deleteOne: { filter: {} } }],
        ['deleteMany', { deleteMany: { filter: {} } }],
        ['countDocuments', { countDocuments: { filter: {} } }],
        ['estimatedDocumentCount', { estimatedDocumentCount: {} }],
        ['findOneAndDelete', { findOneAndDelete: { filter: {} } }],
      ])('%s on a missing collection', async (_label, command) => {
        await createCollection(ctx.db, 'existing');
        const error = expectError(await onCollection(ctx.db, 'missing', command), 'UNKNOWN_COLLECTION_OR_TABLE');
        expect(error.scope).toBe('SCHEMA');
        expect(error.message).toContain('missing');
        expect(await names()).toEqual(['existing']);
      });
    });
  });
}
