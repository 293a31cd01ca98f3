/**
 * Shared suite: insertOne and insertMany (data-api-protocol.md 3.3, 4.1): success and failure envelopes,
 * ordered / unordered, returnDocumentResponses, the per-request limit, every `_id` form and generated ids,
 * `_id` first and EJSON kept, and nothing written on failure. `$vector` and limits: insert-validation.ts.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import {
  type Doc,
  count,
  createCollection,
  expectError,
  expectNoErrors,
  findAll,
  findOne,
  idTexts,
  idsOf,
  makeDocs,
  onCollection,
  useDatabase,
} from './helpers.js';

const UUID = '123e4567-e89b-12d3-a456-426614174000';
const OBJECT_ID = '507f1f77bcf86cd799439011';
const DATE = 1_672_539_900_000;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function insertSuite(factory: DbFactory): void {
  describe(`insert [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const insertOne = (document: unknown, collection = 'c') => onCollection(ctx.db, collection, { insertOne: { document } });
    const insertMany = (documents: unknown[], options?: Doc, collection = 'c') =>
      onCollection(ctx.db, collection, { insertMany: options === undefined ? { documents } : { documents, options } });
    const all = (collection = 'c') => findAll(ctx.db, collection, { projection: { '*': 1 } });

    describe('insertOne', () => {
      it('answers {status:{insertedIds:[id]}} and stores the document', async () => {
        await createCollection(ctx.db, 'c');
        expect(await insertOne({ _id: 'doc1', name: 'lamp', price: 12.5, tags: ['a', 'b'], dims: { w: 1, h: 2 } })).toEqual({
          status: { insertedIds: ['doc1'] },
        });
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'doc1' } })).toEqual({ _id: 'doc1', name: 'lamp', price: 12.5, tags: ['a', 'b'], dims: { w: 1, h: 2 } });
      });

      it('a duplicate _id: insertedIds [], DOCUMENT_ALREADY_EXISTS with documentIds, the original untouched', async () => {
        await createCollection(ctx.db, 'c');
        await insertOne({ _id: 'dup', v: 1 });
        const response = await insertOne({ _id: 'dup', v: 2 });
        expect(response.status).toEqual({ insertedIds: [] });
        const error = expectError(response, 'DOCUMENT_ALREADY_EXISTS');
        expect(error.scope).toBe('DOCUMENT');
        expect(error.documentIds).toEqual(['dup']);
        expect(error.message).toContain('dup');
        expect(response.errors).toHaveLength(1);
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'dup' } })).toEqual({ _id: 'dup', v: 1 });
      });

      it('a missing or null document: SHRED_BAD_DOCUMENT_TYPE', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await onCollection(ctx.db, 'c', { insertOne: {} }), 'SHRED_BAD_DOCUMENT_TYPE');
        expectError(await insertOne(null), 'SHRED_BAD_DOCUMENT_TYPE');
      });

      it.each([
        ['an array', [1, 2]],
        ['a string', 'text'],
        ['a number', 3],
      ])('a document that is %s: SHRED_BAD_DOCUMENT_TYPE, nothing written', async (_label, document) => {
        await createCollection(ctx.db, 'c');
        expectError(await insertOne(document), 'SHRED_BAD_DOCUMENT_TYPE');
        expect(await count(ctx.db, 'c')).toBe(0);
      });

      it('concurrent inserts of one _id: exactly one succeeds', async () => {
        await createCollection(ctx.db, 'c');
        const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => insertOne({ _id: 'race', attempt: i })));
        const winners = responses.filter((r) => r.errors === undefined);
        expect(winners).toHaveLength(1);
        for (const r of responses.filter((x) => x.errors !== undefined)) expectError(r, 'DOCUMENT_ALREADY_EXISTS');
        expect(await count(ctx.db, 'c')).toBe(1);
      });

      it('returned documents have _id first whatever the order sent', async () => {
        await createCollection(ctx.db, 'c');
        await insertOne({ z: 1, a: 2, _id: 'late', m: 3 });
        const doc = await findOne(ctx.db, 'c', { filter: { _id: 'late' } });
        expect(Object.keys(doc!)).toEqual(['_id', 'z', 'a', 'm']);
        const found = await all();
        expect(Object.keys(found[0]!)).toEqual(['_id', 'z', 'a', 'm']);
      });

      it('EJSON values inside documents are returned as sent', async () => {
        await createCollection(ctx.db, 'c');
        const doc = { _id: 'ejson', when: { $date: DATE }, ref: { $uuid: UUID }, oid: { $objectId: OBJECT_ID }, nested: { at: [{ $date: 0 }] } };
        await insertOne(doc);
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'ejson' } })).toEqual(doc);
      });

      it('accepts field names with dots, dashes, ampersands and unicode', async () => {
        await createCollection(ctx.db, 'c');
        const doc = { _id: 'names', 'a.b': 1, 'x-y': 2, 'p&q': 3, café: 4, nested: { 'in.ner': 5 } };
        expect(await insertOne(doc)).toEqual({ status: { insertedIds: ['names'] } });
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'names' } })).toEqual(doc);
      });
    });

    describe('_id forms', () => {
      it.each([
        ['a string', 'abc'],
        ['an integer', 42],
        ['a negative decimal', -3.25],
        ['true', true],
        ['false', false],
        ['null', null],
        ['a $uuid', { $uuid: UUID }],
        ['an $objectId', { $objectId: OBJECT_ID }],
        ['a $date', { $date: DATE }],
      ])('%s: insertedIds keeps its JSON form and findOne by it returns the document', async (_label, id) => {
        await createCollection(ctx.db, 'c');
        expect(await insertOne({ _id: id, v: 'x' })).toEqual({ status: { insertedIds: [id] } });
        expect(await findOne(ctx.db, 'c', { filter: { _id: id } })).toEqual({ _id: id, v: 'x' });
        const duplicate = await insertOne({ _id: id, v: 'y' });
        expect(expectError(duplicate, 'DOCUMENT_ALREADY_EXISTS').documentIds).toEqual([id]);
      });

      it('5 and "5" are different documents', async () => {
        await createCollection(ctx.db, 'c');
        expectNoErrors(await insertOne({ _id: 5, kind: 'number' }));
        expectNoErrors(await insertOne({ _id: '5', kind: 'string' }));
        expect(await findOne(ctx.db, 'c', { filter: { _id: 5 } })).toEqual({ _id: 5, kind: 'number' });
        expect(await findOne(ctx.db, 'c', { filter: { _id: '5' } })).toEqual({ _id: '5', kind: 'string' });
        expect(await count(ctx.db, 'c')).toBe(2);
      });

      it('a $uuid id and its bare string collide, as in the Data API', async () => {
        await createCollection(ctx.db, 'c');
        await insertOne({ _id: { $uuid: UUID }, v: 1 });
        expectError(await insertOne({ _id: UUID, v: 2 }), 'DOCUMENT_ALREADY_EXISTS');
        expect(await findOne(ctx.db, 'c', { filter: { _id: UUID } })).toEqual({ _id: { $uuid: UUID }, v: 1 });
      });

      it.each([
        ['the empty string', '', 'SHRED_BAD_DOCID_VALUE'],
        ['a string with an unpaired surrogate (its UTF-8 key would be another id\'s)', 'a\uD800b', 'SHRED_BAD_DOCID_VALUE'],
        ['an array', ['a'], 'SHRED_BAD_DOCID_TYPE'],
        ['a plain object', { a: 1 }, 'SHRED_BAD_DOCID_TYPE'],
        ['an unknown extension', { $foo: 1 }, 'SHRED_BAD_DOCID_TYPE'],
        ['a malformed $uuid', { $uuid: 'not-a-uuid' }, 'SHRED_BAD_EJSON_VALUE'],
        ['a malformed $objectId', { $objectId: 'xyz' }, 'SHRED_BAD_EJSON_VALUE'],
        ['an ISO-string $date', { $date: '2023-01-01T00:00:00Z' }, 'SHRED_BAD_EJSON_VALUE'],
      ])('an _id that is %s: %s, nothing written', async (_label, id, code) => {
        await createCollection(ctx.db, 'c');
        const response = await insertOne({ _id: id, v: 1 });
        expect(response.status === undefined || JSON.stringify(response.status) === '{"insertedIds":[]}').toBe(true);
        expectError(response, code);
        expect(await count(ctx.db, 'c')).toBe(0);
      });
    });

    describe('generated ids', () => {
      const generated = async (options: unknown): Promise<unknown> => {
        await createCollection(ctx.db, 'c', options);
        const response = await insertOne({ v: 1 });
        expectNoErrors(response);
        const ids = response.status!.insertedIds as unknown[];
        expect(ids).toHaveLength(1);
        const stored = await findOne(ctx.db, 'c', { filter: { _id: ids[0] } });
        expect(stored).toEqual({ _id: ids[0], v: 1 });
        expect(Object.keys(stored!)[0]).toBe('_id');
        return ids[0];
      };

      it('without defaultId: a plain UUID string', async () => {
        const id = await generated(undefined);
        expect(typeof id).toBe('string');
        expect(id).toMatch(UUID_RE);
      });

      it('defaultId uuid: {$uuid: v4}', async () => {
        const id = (await generated({ defaultId: { type: 'uuid' } })) as { $uuid: string };
        expect(Object.keys(id)).toEqual(['$uuid']);
        expect(id.$uuid).toMatch(UUID_RE);
        expect(id.$uuid[14]).toBe('4');
      });

      it('defaultId uuidv6: {$uuid: v6}', async () => {
        const id = (await generated({ defaultId: { type: 'uuidv6' } })) as { $uuid: string };
        expect(id.$uuid).toMatch(UUID_RE);
        expect(id.$uuid[14]).toBe('6');
      });

      it('defaultId uuidv7: {$uuid: v7}', async () => {
        const id = (await generated({ defaultId: { type: 'uuidv7' } })) as { $uuid: string };
        expect(id.$uuid).toMatch(UUID_RE);
        expect(id.$uuid[14]).toBe('7');
      });

      it('defaultId objectId: {$objectId: 24 hex digits}', async () => {
        const id = (await generated({ defaultId: { type: 'objectId' } })) as { $objectId: string };
        expect(Object.keys(id)).toEqual(['$objectId']);
        expect(id.$objectId).toMatch(/^[0-9a-f]{24}$/i);
      });

      it('generated ids are distinct across an insertMany', async () => {
        await createCollection(ctx.db, 'c', { defaultId: { type: 'objectId' } });
        const response = await insertMany(makeDocs(20, (i) => ({ i })));
        const ids = response.status!.insertedIds as unknown[];
        expect(new Set(ids.map((id) => JSON.stringify(id))).size).toBe(20);
        expect(await count(ctx.db, 'c')).toBe(20);
      });

      it('an explicit _id wins over defaultId', async () => {
        await createCollection(ctx.db, 'c', { defaultId: { type: 'uuid' } });
        expect(await insertOne({ _id: 'mine' })).toEqual({ status: { insertedIds: ['mine'] } });
      });
    });

    describe('insertMany', () => {
      it('inserts all documents: insertedIds in input order', async () => {
        await createCollection(ctx.db, 'c');
        const docs = makeDocs(20, (i) => ({ _id: `d${19 - i}`, i }));
        expect(await insertMany(docs)).toEqual({ status: { insertedIds: docs.map((d) => d._id) } });
        expect(idsOf(await all())).toEqual(idTexts(docs.map((d) => d._id)));
      });

      it('unordered (the default) tries every document: per-document errors with documentIds', async () => {
        await createCollection(ctx.db, 'c');
        await insertOne({ _id: 'b', old: true });
        const response = await insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }, { _id: '' }, { _id: 'e' }]);
        expect(response.status).toEqual({ insertedIds: ['a', 'c', 'e'] });
        expect(response.data).toBeUndefined();
        expect(response.errors!.map((e) => e.errorCode)).toEqual(['DOCUMENT_ALREADY_EXISTS', 'SHRED_BAD_DOCID_VALUE']);
        expect(response.errors![0]!.documentIds).toEqual(['b']);
        expect(idsOf(await all())).toEqual(idTexts(['a', 'b', 'c', 'e']));
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'b' } })).toEqual({ _id: 'b', old: true });
      });

      it('ordered stops at the first failure; later documents are not written', async () => {
        await createCollection(ctx.db, 'c');
        await insertOne({ _id: 'b' });
        const response = await insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }, { _id: 'd' }], { ordered: true });
        expect(response.status).toEqual({ insertedIds: ['a'] });
        expect(response.errors).toHaveLength(1);
        expect(expectError(response, 'DOCUMENT_ALREADY_EXISTS').documentIds).toEqual(['b']);
        expect(idsOf(await all())).toEqual(idTexts(['a', 'b']));
      });

      it('a duplicate _id within one request: the first wins, the later one fails', async () => {
        await createCollection(ctx.db, 'c');
        const response = await insertMany([{ _id: 'x', n: 1 }, { _id: 'y' }, { _id: 'x', n: 2 }]);
        expect(response.status).toEqual({ insertedIds: ['x', 'y'] });
        expect(expectError(response, 'DOCUMENT_ALREADY_EXISTS').documentIds).toEqual(['x']);
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'x' } })).toEqual({ _id: 'x', n: 1 });
      });

      it('a duplicate _id within one ordered request: the later one fails and the rest are skipped', async () => {
        await createCollection(ctx.db, 'c');
        const response = await insertMany([{ _id: 'x', n: 1 }, { _id: 'y' }, { _id: 'x', n: 2 }, { _id: 'z' }], { ordered: true, returnDocumentResponses: true });
        expect(response.status).toEqual({
          documentResponses: [
            { _id: 'x', status: 'OK' },
            { _id: 'y', status: 'OK' },
            { _id: 'x', status: 'ERROR', errorsIdx: 0 },
            { _id: 'z', status: 'SKIPPED' },
          ],
        });
        expect(expectError(response, 'DOCUMENT_ALREADY_EXISTS').documentIds).toEqual(['x']);
        expect(idsOf(await all())).toEqual(idTexts(['x', 'y']));
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'x' } })).toEqual({ _id: 'x', n: 1 });
      });

      it('returnDocumentResponses, ordered: OK, ERROR with errorsIdx, then SKIPPED; no insertedIds', async () => {
        await createCollection(ctx.db, 'c');
        await insertOne({ _id: 'taken' });
        const response = await insertMany([{ _id: 'first' }, { _id: 'taken' }, { _id: 'later' }, { _id: 'last' }], { ordered: true, returnDocumentResponses: true });
        expect(response.status).toEqual({
          documentResponses: [
            { _id: 'first', status: 'OK' },
            { _id: 'taken', status: 'ERROR', errorsIdx: 0 },
            { _id: 'later', status: 'SKIPPED' },
            { _id: 'last', status: 'SKIPPED' },
          ],
        });
        const entries = response.status!.documentResponses as Doc[];
        expect(Object.keys(entries[1]!)).toEqual(['_id', 'status', 'errorsIdx']);
        expect(response.errors).toHaveLength(1);
        expect(response.errors![0]!.errorCode).toBe('DOCUMENT_ALREADY_EXISTS');
        expect(idsOf(await all())).toEqual(idTexts(['first', 'taken']));
      });

      it('returnDocumentResponses, unordered: every document attempted, errorsIdx index the errors', async () => {
        await createCollection(ctx.db, 'c');
        await insertOne({ _id: 'taken' });
        const response = await insertMany([{ _id: 'taken' }, { _id: 'ok1' }, { _id: 'bad', $bad: 1 }, { _id: 'ok2' }], { ordered: false, returnDocumentResponses: true });
        expect(response.status).toEqual({
          documentResponses: [
            { _id: 'taken', status: 'ERROR', errorsIdx: 0 },
            { _id: 'ok1', status: 'OK' },
            { _id: 'bad', status: 'ERROR', errorsIdx: 1 },
            { _id: 'ok2', status: 'OK' },
          ],
        });
        expect(response.errors!.map((e) => e.errorCode)).toEqual(['DOCUMENT_ALREADY_EXISTS', 'SHRED_BAD_FIELD_NAME']);
        expect(idsOf(await all())).toEqual(idTexts(['ok1', 'ok2', 'taken']));
      });

      it('returnDocumentResponses with no failure: every entry OK, no errors', async () => {
        await createCollection(ctx.db, 'c');
        const response = await insertMany([{ _id: 1 }, { _id: 2 }], { returnDocumentResponses: true });
        expect(response).toEqual({ status: { documentResponses: [{ _id: 1, status: 'OK' }, { _id: 2, status: 'OK' }] } });
      });

      it('returnDocumentResponses reports generated ids', async () => {
        await createCollection(ctx.db, 'c');
        const response = await insertMany([{ a: 1 }, { a: 2 }], { returnDocumentResponses: true });
        const entries = response.status!.documentResponses as { _id: string; status: string }[];
        expect(entries.map((e) => e.status)).toEqual(['OK', 'OK']);
        for (const entry of entries) expect(entry._id).toMatch(UUID_RE);
        expect(idsOf(await all())).toEqual(idTexts(entries.map((e) => e._id)));
      });

      it('more than 20 documents: COMMAND_FIELD_VALUE_INVALID naming the limit, nothing written', async () => {
        await createCollection(ctx.db, 'c');
        const error = expectError(await insertMany(makeDocs(21, (i) => ({ _id: i }))), 'COMMAND_FIELD_VALUE_INVALID');
        expect(error.message).toContain('21');
        expect(error.message).toContain('20');
        expect(await count(ctx.db, 'c')).toBe(0);
      });

      it('exactly 20 documents are accepted', async () => {
        await createCollection(ctx.db, 'c');
        expectNoErrors(await insertMany(makeDocs(20, (i) => ({ _id: i }))));
        expect(await count(ctx.db, 'c')).toBe(20);
      });

      it('an empty or missing documents list: COMMAND_FIELD_VALUE_INVALID', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await insertMany([]), 'COMMAND_FIELD_VALUE_INVALID');
        expectError(await onCollection(ctx.db, 'c', { insertMany: {} }), 'COMMAND_FIELD_VALUE_INVALID');
      });

      it('bad option values: COMMAND_FIELD_VALUE_INVALID; unknown options: COMMAND_FIELD_UNKNOWN', async () => {
        await createCollection(ctx.db, 'c');
        expectError(await insertMany([{ _id: 1 }], { ordered: 'yes' }), 'COMMAND_FIELD_VALUE_INVALID');
        expectError(await insertMany([{ _id: 1 }], { chunkSize: 5 }), 'COMMAND_FIELD_UNKNOWN');
        expect(await count(ctx.db, 'c')).toBe(0);
      });
    });
  });
}
