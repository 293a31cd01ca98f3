/**
 * Shared suite: what an inserted document may contain (data-api-protocol.md 4.2-4.5): `$vector` as an array or
 * `$binary` (kept in the form sent), its length, zero vectors under cosine, vectors on collections without them,
 * field names, the 5 KiB attribute limit and nesting depth, each with its error code and nothing written.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import {
  type Doc,
  binaryVector,
  count,
  createCollection,
  expectError,
  expectNoErrors,
  findAll,
  findOne,
  idTexts,
  idsOf,
  onCollection,
  useDatabase,
} from './helpers.js';

export function insertValidationSuite(factory: DbFactory): void {
  describe(`insert validation [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const insertOne = (document: unknown, collection = 'c') => onCollection(ctx.db, collection, { insertOne: { document } });
    const insertMany = (documents: unknown[], options?: Doc, collection = 'c') =>
      onCollection(ctx.db, collection, { insertMany: options === undefined ? { documents } : { documents, options } });
    const all = (collection = 'c') => findAll(ctx.db, collection, { projection: { '*': 1 } });

    describe('$vector', () => {
      it('as an array: stored and returned as sent (only when asked for)', async () => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 3 } });
        const doc = { _id: 'arr', $vector: [0.1, -0.25, 3], name: 'a' };
        expect(await insertOne(doc, 'v')).toEqual({ status: { insertedIds: ['arr'] } });
        expect(await findOne(ctx.db, 'v', { filter: { _id: 'arr' } })).toEqual({ _id: 'arr', name: 'a' });
        expect(await findOne(ctx.db, 'v', { filter: { _id: 'arr' }, projection: { $vector: 1 } })).toEqual(doc);
        expect(await findOne(ctx.db, 'v', { filter: { _id: 'arr' }, projection: { name: 1, $vector: 1 } })).toEqual(doc);
        expect(await findOne(ctx.db, 'v', { filter: { _id: 'arr' }, projection: { _id: 0, $vector: 1, name: 0 } })).toEqual({ $vector: [0.1, -0.25, 3] });
        expect(await findOne(ctx.db, 'v', { filter: { _id: 'arr' }, projection: { '*': 1 } })).toEqual(doc);
      });

      it('as $binary: stored and returned as the same $binary', async () => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 3 } });
        const doc = { _id: 'bin', $vector: binaryVector([0.5, -1, 2]), name: 'b' };
        expect(await insertOne(doc, 'v')).toEqual({ status: { insertedIds: ['bin'] } });
        expect(await findOne(ctx.db, 'v', { filter: { _id: 'bin' }, projection: { '*': 1 } })).toEqual(doc);
      });

      it('documents of a vector collection may omit $vector or set it null', async () => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 3 } });
        expectNoErrors(await insertMany([{ _id: 'none' }, { _id: 'nul', $vector: null }], undefined, 'v'));
        expect(await count(ctx.db, 'v')).toBe(2);
      });

      it.each([
        ['a shorter array', [1, 2]],
        ['a longer array', [1, 2, 3, 4]],
        ['a shorter $binary', binaryVector([1, 2])],
        ['a longer $binary', binaryVector([1, 2, 3, 4])],
      ])('%s: INVALID_VECTOR_LENGTH, nothing written', async (_label, vector) => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 3 } });
        const error = expectError(await insertOne({ _id: 'x', $vector: vector }, 'v'), 'INVALID_VECTOR_LENGTH');
        expect(error.message).toContain('3');
        expect(await count(ctx.db, 'v')).toBe(0);
      });

      it('a zero vector under cosine is refused (array and $binary), nothing written', async () => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 3, metric: 'cosine' } });
        const zero = expectError(await insertOne({ _id: 'z', $vector: [0, 0, 0] }, 'v'), 'INVALID_DATABASE_QUERY');
        expect(zero.family, 'the caller sent it: a REQUEST error, not a SERVER one').toBe('REQUEST');
        expectError(await insertOne({ _id: 'zb', $vector: binaryVector([0, 0, 0]) }, 'v'), 'INVALID_DATABASE_QUERY');
        expect(await count(ctx.db, 'v')).toBe(0);
      });

      it('a zero vector under euclidean is accepted', async () => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 3, metric: 'euclidean' } });
        expect(await insertOne({ _id: 'z', $vector: [0, 0, 0] }, 'v')).toEqual({ status: { insertedIds: ['z'] } });
      });

      it.each([
        ['an empty array', [], 'SHRED_BAD_VECTOR_SIZE'],
        ['a non-number element', [1, 'two', 3], 'SHRED_BAD_VECTOR_VALUE'],
        ['a string', 'abc', 'SHRED_BAD_VECTOR_VALUE'],
        ['an object with another key', { $values: 'AAAA' }, 'SHRED_BAD_DOCUMENT_VECTOR_TYPE'],
        ['bad base64', { $binary: 'not base64!' }, 'SHRED_BAD_BINARY_VECTOR_VALUE'],
      ])('a $vector that is %s: %s', async (_label, vector, code) => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 3 } });
        expectError(await insertOne({ _id: 'x', $vector: vector }, 'v'), code);
        expect(await count(ctx.db, 'v')).toBe(0);
      });

      it('a $vector on a collection without vectors: VECTOR_SEARCH_NOT_SUPPORTED', async () => {
        await createCollection(ctx.db, 'c');
        const error = expectError(await insertOne({ _id: 'x', $vector: [1, 2, 3] }), 'VECTOR_SEARCH_NOT_SUPPORTED');
        expect(error.scope).toBe('SCHEMA');
        expect(await count(ctx.db, 'c')).toBe(0);
      });

      it('insertMany with one $vector on a collection without vectors fails as a whole', async () => {
        await createCollection(ctx.db, 'c');
        const response = await insertMany([{ _id: 'a' }, { _id: 'b', $vector: [1, 2] }, { _id: 'c' }]);
        expect(response.errors).toHaveLength(1);
        expectError(response, 'VECTOR_SEARCH_NOT_SUPPORTED');
        expect(await count(ctx.db, 'c')).toBe(0);
      });

      it('an insertMany mixing both forms returns each in its own form', async () => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 2, metric: 'dot_product' } });
        const docs = [
          { _id: 1, $vector: [0.6, 0.8] },
          { _id: 2, $vector: binaryVector([0.8, 0.6]) },
        ];
        expectNoErrors(await insertMany(docs, undefined, 'v'));
        expect(await findAll(ctx.db, 'v', { projection: { $vector: 1 } })).toEqual(docs);
      });
    });

    describe('field names and limits', () => {
      it.each([
        ['starts with $ at the top', { _id: 'x', $price: 1 }],
        ['starts with $ when nested', { _id: 'x', a: { $b: 1 } }],
        ['starts with $ inside an array element', { _id: 'x', a: [{ $c: 1 }] }],
        ['is empty', { _id: 'x', '': 1 }],
        ['is empty when nested', { _id: 'x', a: { '': 1 } }],
      ])('a field name that %s: SHRED_BAD_FIELD_NAME, nothing written', async (_label, document) => {
        await createCollection(ctx.db, 'c');
        expectError(await insertOne(document), 'SHRED_BAD_FIELD_NAME');
        expect(await count(ctx.db, 'c')).toBe(0);
      });

      it('$vectorize on a local database: VECTORIZE_FEATURE_NOT_AVAILABLE', async () => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 3 } });
        expectError(await insertOne({ _id: 'x', $vectorize: 'some text' }, 'v'), 'VECTORIZE_FEATURE_NOT_AVAILABLE');
      });

      it('an attribute value just under 5 KiB is accepted', async () => {
        await createCollection(ctx.db, 'c');
        const text = 'x'.repeat(5000);
        expect(await insertOne({ _id: 'big', text })).toEqual({ status: { insertedIds: ['big'] } });
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'big' } })).toEqual({ _id: 'big', text });
      });

      it.each([
        ['a string', { text: 'x'.repeat(5200) }],
        ['a string of multi-byte characters', { text: 'é'.repeat(2600) }],
        ['a nested object', { meta: { a: 'x'.repeat(3000), b: 'y'.repeat(3000) } }],
        ['an array', { list: Array.from({ length: 500 }, () => 'abcdefghij') }],
      ])('an attribute value over 5 KiB (%s): SHRED_DOC_LIMIT_VIOLATION, nothing written', async (_label, fields) => {
        await createCollection(ctx.db, 'c');
        expectError(await insertOne({ _id: 'big', ...fields }), 'SHRED_DOC_LIMIT_VIOLATION');
        expect(await count(ctx.db, 'c')).toBe(0);
      });

      it('several attributes of 4 KiB each are fine (the limit is per attribute)', async () => {
        await createCollection(ctx.db, 'c');
        const doc = { _id: 'wide', a: 'a'.repeat(4096), b: 'b'.repeat(4096), c: 'c'.repeat(4096) };
        expect(await insertOne(doc)).toEqual({ status: { insertedIds: ['wide'] } });
      });

      it('$vector does not count towards the attribute limit', async () => {
        await createCollection(ctx.db, 'v', { vector: { dimension: 1024, metric: 'euclidean' } });
        const vector = Array.from({ length: 1024 }, (_, i) => 0.123456789 + i);
        expect(await insertOne({ _id: 'long', $vector: vector }, 'v')).toEqual({ status: { insertedIds: ['long'] } });
      });

      const nested = (depth: number): Doc => {
        let value: Doc = { leaf: 1 };
        for (let i = 1; i < depth; i++) value = { n: value };
        return value;
      };

      it('moderate nesting (8 levels) is accepted', async () => {
        await createCollection(ctx.db, 'c');
        const doc = { _id: 'deep', a: nested(8) };
        expect(await insertOne(doc)).toEqual({ status: { insertedIds: ['deep'] } });
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'deep' } })).toEqual(doc);
      });

      it('nesting deeper than 16 levels: SHRED_DOC_LIMIT_VIOLATION', async () => {
        await createCollection(ctx.db, 'c');
        const error = expectError(await insertOne({ _id: 'deep', a: nested(20) }), 'SHRED_DOC_LIMIT_VIOLATION');
        expect(error.message).toContain('16');
        expect(await count(ctx.db, 'c')).toBe(0);
      });

      it('arrays count towards depth too', async () => {
        await createCollection(ctx.db, 'c');
        let value: unknown = 1;
        for (let i = 0; i < 20; i++) value = [value];
        expectError(await insertOne({ _id: 'deep', a: value }), 'SHRED_DOC_LIMIT_VIOLATION');
      });

      // The Data API counts the document itself as level 1, and every object and array below it as one more.
      const levels = (total: number, leaf: unknown = 1): Doc => {
        let value: unknown = leaf;
        for (let level = total; level > 1; level--) value = level % 2 === 0 ? { n: value } : [value];
        return value as Doc;
      };

      it('16 levels, the document included, are accepted; 17 are refused (objects and arrays alike)', async () => {
        await createCollection(ctx.db, 'c');
        const ok = { _id: 'ok', a: levels(16) };
        expect(await insertOne(ok)).toEqual({ status: { insertedIds: ['ok'] } });
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'ok' } })).toEqual(ok);
        const error = expectError(await insertOne({ _id: 'deep', a: levels(17) }), 'SHRED_DOC_LIMIT_VIOLATION');
        expect(error.message).toContain('document depth exceeds maximum allowed (16)');
        expectError(await insertOne({ _id: 'deep', a: nested(16) }), 'SHRED_DOC_LIMIT_VIOLATION');
        expect(await count(ctx.db, 'c')).toBe(1);
      });

      it('an EJSON value is a level of its own, and fields that are not indexed count too', async () => {
        await createCollection(ctx.db, 'c', { indexing: { deny: ['a'] } });
        expectError(await insertOne({ _id: 'date', a: levels(16, { $date: 0 }) }), 'SHRED_DOC_LIMIT_VIOLATION');
        expectError(await insertOne({ _id: 'denied', a: levels(17) }), 'SHRED_DOC_LIMIT_VIOLATION');
        expect(await insertOne({ _id: 'date', a: levels(15, { $date: 0 }) })).toEqual({ status: { insertedIds: ['date'] } });
      });

      const withProperties = (n: number): Doc => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, i]));

      it('a document with more than 1,000 indexed properties is refused, as is a sub-document', async () => {
        await createCollection(ctx.db, 'c');
        expect(await insertOne({ _id: 'ok', ...withProperties(999) })).toEqual({ status: { insertedIds: ['ok'] } });
        const error = expectError(await insertOne({ _id: 'wide', ...withProperties(1000) }), 'SHRED_DOC_LIMIT_VIOLATION');
        expect(error.message).toContain('(1001) exceeds maximum allowed (1000)');
        expectError(await insertOne({ _id: 'sub', sub: withProperties(1001) }), 'SHRED_DOC_LIMIT_VIOLATION');
        expect(await count(ctx.db, 'c')).toBe(1);
      });

      it('properties that are not indexed do not count towards the 1,000', async () => {
        await createCollection(ctx.db, 'c', { indexing: { allow: ['p1'] } });
        expect(await insertOne({ _id: 'wide', ...withProperties(1500) })).toEqual({ status: { insertedIds: ['wide'] } });
      });

      it('a limit violation in an insertMany fails only that document (unordered)', async () => {
        await createCollection(ctx.db, 'c');
        const response = await insertMany([{ _id: 1 }, { _id: 2, text: 'x'.repeat(6000) }, { _id: 3 }]);
        expect(response.status).toEqual({ insertedIds: [1, 3] });
        expect(expectError(response, 'SHRED_DOC_LIMIT_VIOLATION').documentIds).toEqual([2]);
        expect(idsOf(await all())).toEqual(idTexts([1, 3]));
      });
    });
  });
}
