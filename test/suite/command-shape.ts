/**
 * Shared suite: errors about the shape of a command rather than its data (data-api-protocol.md 2.1, 3, 10):
 * COMMAND_UNKNOWN at each level, COMMAND_FIELD_UNKNOWN, COMMAND_ACCEPTS_NO_OPTIONS, bodies that are not an
 * object, and the wire shape of error objects.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { KS, createCollection, expectError, onCollection, run, useDatabase } from './helpers.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function commandShapeSuite(factory: DbFactory): void {
  describe(`command shape errors [${factory.name}]`, () => {
    const ctx = useDatabase(factory);

    describe('COMMAND_UNKNOWN', () => {
      it('an unknown database command', async () => {
        const error = expectError(await run(ctx.db, { dropDatabase: {} }), 'COMMAND_UNKNOWN');
        expect(error.message).toContain('dropDatabase');
      });

      it('an unknown keyspace command', async () => {
        expectError(await run(ctx.db, { listCollections: {} }, { keyspace: KS }), 'COMMAND_UNKNOWN');
      });

      it('an unknown collection command', async () => {
        await createCollection(ctx.db, 'c');
        const error = expectError(await onCollection(ctx.db, 'c', { aggregate: { pipeline: [] } }), 'COMMAND_UNKNOWN');
        expect(error.message).toContain('aggregate');
      });

      it('a command of another level is unknown at this level', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await run(ctx.db, { find: {} }), 'COMMAND_UNKNOWN');
        expectError(await run(ctx.db, { insertOne: { document: {} } }, { keyspace: KS }), 'COMMAND_UNKNOWN');
        expectError(await onCollection(ctx.db, 'c', { createCollection: { name: 'x' } }), 'COMMAND_UNKNOWN');
        expectError(await run(ctx.db, { createKeyspace: { name: 'x' } }, { keyspace: KS }), 'COMMAND_UNKNOWN');
        expect(await run(ctx.db, { findKeyspaces: {} })).toEqual({ status: { keyspaces: [KS] } });
        expect(await run(ctx.db, { findCollections: {} }, { keyspace: KS })).toEqual({ status: { collections: ['c'] } });
      });

      it('command names are case-sensitive', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await onCollection(ctx.db, 'c', { FIND: {} }), 'COMMAND_UNKNOWN');
        expectError(await onCollection(ctx.db, 'c', { insertone: { document: {} } }), 'COMMAND_UNKNOWN');
      });
    });

    describe('COMMAND_FIELD_UNKNOWN', () => {
      it.each([
        ['find', { find: { filtr: {} } }],
        ['findOne', { findOne: { filter: {}, limit: 1 } }],
        ['insertOne', { insertOne: { document: { a: 1 }, documents: [] } }],
        ['insertMany', { insertMany: { documents: [{ a: 1 }], ordered: true } }],
        ['updateOne', { updateOne: { filter: {}, update: { $set: { a: 1 } }, upsert: true } }],
        ['deleteMany', { deleteMany: { filter: {}, justOne: false } }],
        ['countDocuments', { countDocuments: { filter: {}, limit: 5 } }],
        ['find options', { find: { options: { sortBy: 'a' } } }],
      ])('an unknown field of %s', async (_label, command) => {
        await createCollection(ctx.db, 'c');
        await onCollection(ctx.db, 'c', { insertOne: { document: { _id: 'keep' } } });
        expectError(await onCollection(ctx.db, 'c', command), 'COMMAND_FIELD_UNKNOWN');
        expect(await onCollection(ctx.db, 'c', { countDocuments: { filter: {} } })).toEqual({ status: { count: 1 } });
      });

      it('an unknown field of a keyspace or database command', async () => {
        expectError(await run(ctx.db, { createCollection: { name: 'c', vector: { dimension: 3 } } }, { keyspace: KS }), 'COMMAND_FIELD_UNKNOWN');
        expectError(await run(ctx.db, { findKeyspaces: { verbose: true } }), 'COMMAND_FIELD_UNKNOWN');
        expectError(await run(ctx.db, { findCollections: { options: { verbose: true } } }, { keyspace: KS }), 'COMMAND_FIELD_UNKNOWN');
        expect(await run(ctx.db, { findCollections: {} }, { keyspace: KS })).toEqual({ status: { collections: [] } });
      });
    });

    describe('COMMAND_ACCEPTS_NO_OPTIONS', () => {
      it.each([
        ['insertOne', { insertOne: { document: { _id: 'x' }, options: { ordered: true } } }],
        ['deleteOne', { deleteOne: { filter: { _id: 'keep' }, options: { x: 1 } } }],
        ['deleteMany', { deleteMany: { filter: { _id: 'keep' }, options: { x: 1 } } }],
        ['countDocuments', { countDocuments: { filter: {}, options: { x: 1 } } }],
        ['estimatedDocumentCount', { estimatedDocumentCount: { options: { x: 1 } } }],
      ])('%s with options', async (name, command) => {
        await createCollection(ctx.db, 'c');
        await onCollection(ctx.db, 'c', { insertOne: { document: { _id: 'keep' } } });
        const error = expectError(await onCollection(ctx.db, 'c', command), 'COMMAND_ACCEPTS_NO_OPTIONS');
        expect(error.message).toContain(name);
        expect(await onCollection(ctx.db, 'c', { find: {} })).toEqual({ data: { documents: [{ _id: 'keep' }], nextPageState: null } });
      });

      it('keyspace and database commands with options', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await run(ctx.db, { deleteCollection: { name: 'c', options: { x: 1 } } }, { keyspace: KS }), 'COMMAND_ACCEPTS_NO_OPTIONS');
        expectError(await run(ctx.db, { findKeyspaces: { options: { x: 1 } } }), 'COMMAND_ACCEPTS_NO_OPTIONS');
        expect(await run(ctx.db, { findCollections: {} }, { keyspace: KS })).toEqual({ status: { collections: ['c'] } });
      });

      it('empty or null options are accepted', async () => {
        await createCollection(ctx.db, 'c');
        expect(await onCollection(ctx.db, 'c', { insertOne: { document: { _id: 1 }, options: {} } })).toEqual({ status: { insertedIds: [1] } });
        expect(await onCollection(ctx.db, 'c', { insertOne: { document: { _id: 2 }, options: null } })).toEqual({ status: { insertedIds: [2] } });
        expect(await run(ctx.db, { findKeyspaces: { options: {} } })).toEqual({ status: { keyspaces: [KS] } });
      });
    });

    describe('bodies that are not a command object', () => {
      it.each([
        ['a string', 'find'],
        ['a number', 42],
        ['an array', [{ find: {} }]],
      ])('the request is %s: REQUEST_STRUCTURE_MISMATCH', async (_label, body) => {
        await createCollection(ctx.db, 'c');
        expectError(await onCollection(ctx.db, 'c', body), 'REQUEST_STRUCTURE_MISMATCH');
      });

      it('an empty object: REQUEST_STRUCTURE_MISMATCH', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await onCollection(ctx.db, 'c', {}), 'REQUEST_STRUCTURE_MISMATCH');
      });

      it('two commands in one request: REQUEST_STRUCTURE_MISMATCH, neither runs', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await onCollection(ctx.db, 'c', { insertOne: { document: { _id: 1 } }, deleteMany: {} }), 'REQUEST_STRUCTURE_MISMATCH');
        expect(await onCollection(ctx.db, 'c', { countDocuments: {} })).toEqual({ status: { count: 0 } });
      });

      it.each([
        ['a string', 'all'],
        ['an array', [1]],
        ['a number', 1],
      ])('the command body is %s: REQUEST_STRUCTURE_MISMATCH', async (_label, body) => {
        await createCollection(ctx.db, 'c');
        expectError(await onCollection(ctx.db, 'c', { find: body }), 'REQUEST_STRUCTURE_MISMATCH');
        expectError(await onCollection(ctx.db, 'c', { insertOne: body }), 'REQUEST_STRUCTURE_MISMATCH');
      });

      it('options that are not an object: REQUEST_STRUCTURE_MISMATCH', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await onCollection(ctx.db, 'c', { find: { options: 'fast' } }), 'REQUEST_STRUCTURE_MISMATCH');
      });
    });

    describe('commands are read, never modified', () => {
      const deepFreeze = <T>(value: T): T => {
        if (value !== null && typeof value === 'object') {
          for (const child of Object.values(value)) deepFreeze(child);
          Object.freeze(value);
        }
        return value;
      };

      it('deep-frozen commands run normally and stay as sent', async () => {
        const create = deepFreeze({ createCollection: { name: 'c', options: { vector: { dimension: 2 }, indexing: { deny: ['z'] } } } });
        expect(await run(ctx.db, create, { keyspace: KS })).toEqual({ status: { ok: 1 } });
        const insert = deepFreeze({ insertMany: { documents: [{ a: 1, $vector: [1, 2] }, { _id: 'x', b: { c: [1, { d: 2 }] } }], options: { ordered: true } } });
        const copy = JSON.parse(JSON.stringify(insert)) as unknown;
        const inserted = await onCollection(ctx.db, 'c', insert);
        expect(inserted.errors).toBeUndefined();
        expect(insert).toEqual(copy);
        const update = deepFreeze({ updateOne: { filter: { _id: 'x' }, update: { $set: { 'b.c.1.d': 3 }, $push: { arr: { $each: [1, 2] } } } } });
        expect(await onCollection(ctx.db, 'c', update)).toEqual({ status: { matchedCount: 1, modifiedCount: 1 } });
        const upsert = deepFreeze({ updateMany: { filter: { k: 1 }, update: { $setOnInsert: { w: { x: 1 } } }, options: { upsert: true } } });
        expect((await onCollection(ctx.db, 'c', upsert)).errors).toBeUndefined();
        const replace = deepFreeze({ findOneAndReplace: { filter: { _id: 'x' }, replacement: { q: { r: [1] } }, options: { returnDocument: 'after' } } });
        expect(await onCollection(ctx.db, 'c', replace)).toEqual({ data: { document: { _id: 'x', q: { r: [1] } } }, status: { matchedCount: 1, modifiedCount: 1 } });
      });
    });

    describe('error objects', () => {
      it('carry id, family, scope, errorCode, title and message', async () => {
        const response = await run(ctx.db, { nonsense: {} });
        expect(Object.keys(response)).toEqual(['errors']);
        expect(response.errors).toHaveLength(1);
        const error = response.errors![0]!;
        expect(Object.keys(error).sort()).toEqual(['errorCode', 'family', 'id', 'message', 'scope', 'title']);
        expect(error.id).toMatch(UUID_RE);
        expect(error.family).toBe('REQUEST');
        expect(error.errorCode).toBe('COMMAND_UNKNOWN');
      });

      it('each error gets its own id', async () => {
        const a = await run(ctx.db, { nonsense: {} });
        const b = await run(ctx.db, { nonsense: {} });
        expect(a.errors![0]!.id).not.toBe(b.errors![0]!.id);
      });
    });
  });
}
