/**
 * Shared suite: updateOne, updateMany (paged by moreData + nextPageState), upserts with upsertedId,
 * findOneAndUpdate / findOneAndReplace with returnDocument before and after, no-op updates (modifiedCount 0),
 * update errors, and concurrent updates of one document (data-api-protocol.md 3.3, 8).
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { type Doc, binaryVector, createCollection, expectError, expectNoErrors, findAll, findOne, insertAll, makeDocs, onCollection, padId, useDatabase } from './helpers.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function updateSuite(factory: DbFactory): void {
  describe(`updates [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const command = (body: unknown) => onCollection(ctx.db, 'c', body);
    const get = (id: unknown) => findOne(ctx.db, 'c', { filter: { _id: id } });
    const seed = async (docs: Doc[]): Promise<void> => {
      await createCollection(ctx.db, 'c');
      await insertAll(ctx.db, 'c', docs);
    };
    const THREE = [
      { _id: 'a', n: 1, tag: 'x' },
      { _id: 'b', n: 2, tag: 'x' },
      { _id: 'c', n: 3, tag: 'y' },
    ];

    describe('updateOne', () => {
      it('a match: {status:{matchedCount:1, modifiedCount:1}} and the document changes', async () => {
        await seed(THREE);
        expect(await command({ updateOne: { filter: { _id: 'b' }, update: { $set: { n: 20, extra: true }, $unset: { tag: '' } } } })).toEqual({
          status: { matchedCount: 1, modifiedCount: 1 },
        });
        expect(await get('b')).toEqual({ _id: 'b', n: 20, extra: true });
        expect(await get('a')).toEqual(THREE[0]);
      });

      it('changes only one of several matches', async () => {
        await seed(THREE);
        expect(await command({ updateOne: { filter: { tag: 'x' }, update: { $inc: { n: 100 } } } })).toEqual({ status: { matchedCount: 1, modifiedCount: 1 } });
        const ns = (await findAll(ctx.db, 'c', { filter: { tag: 'x' } })).map((d) => d.n as number).sort((p, q) => p - q);
        expect(ns.filter((n) => n > 100)).toHaveLength(1);
      });

      it('with a sort, changes the first in that order', async () => {
        await seed(THREE);
        await command({ updateOne: { filter: { tag: 'x' }, sort: { n: -1 }, update: { $set: { top: true } } } });
        expect(await get('b')).toEqual({ _id: 'b', n: 2, tag: 'x', top: true });
        expect(await get('a')).toEqual(THREE[0]);
      });

      it('no match: counts 0 and no upsertedId', async () => {
        await seed(THREE);
        expect(await command({ updateOne: { filter: { _id: 'zzz' }, update: { $set: { n: 1 } } } })).toEqual({ status: { matchedCount: 0, modifiedCount: 0 } });
        expect(await findAll(ctx.db, 'c')).toHaveLength(3);
      });

      it('a no-op update: matchedCount 1, modifiedCount 0', async () => {
        await seed(THREE);
        expect(await command({ updateOne: { filter: { _id: 'a' }, update: { $set: { n: 1 } } } })).toEqual({ status: { matchedCount: 1, modifiedCount: 0 } });
        expect(await command({ updateOne: { filter: { _id: 'a' }, update: { $unset: { missing: '' } } } })).toEqual({ status: { matchedCount: 1, modifiedCount: 0 } });
        expect(await get('a')).toEqual(THREE[0]);
      });

      it('upsert with an _id filter: upsertedId is that id; the new document has the filter and the update', async () => {
        await seed(THREE);
        const response = await command({ updateOne: { filter: { _id: 'new', kind: 'k' }, update: { $set: { n: 9 }, $setOnInsert: { created: true } }, options: { upsert: true } } });
        expect(response).toEqual({ status: { upsertedId: 'new', matchedCount: 0, modifiedCount: 0 } });
        expect(await get('new')).toEqual({ _id: 'new', kind: 'k', n: 9, created: true });
      });

      it('upsert without an _id in the filter generates one', async () => {
        await seed(THREE);
        const response = await command({ updateOne: { filter: { name: 'fresh' }, update: { $set: { n: 7 } }, options: { upsert: true } } });
        expectNoErrors(response);
        const id = response.status!.upsertedId;
        expect(id).toMatch(UUID_RE);
        expect(response.status).toEqual({ upsertedId: id, matchedCount: 0, modifiedCount: 0 });
        expect(await get(id)).toEqual({ _id: id, name: 'fresh', n: 7 });
      });

      it('upsert of an existing document updates it; $setOnInsert is ignored', async () => {
        await seed(THREE);
        const response = await command({ updateOne: { filter: { _id: 'a' }, update: { $set: { n: 5 }, $setOnInsert: { created: true } }, options: { upsert: true } } });
        expect(response).toEqual({ status: { matchedCount: 1, modifiedCount: 1 } });
        expect(await get('a')).toEqual({ _id: 'a', n: 5, tag: 'x' });
      });

      it('without update: COMMAND_FIELD_VALUE_INVALID', async () => {
        await seed(THREE);
        expectError(await command({ updateOne: { filter: { _id: 'a' } } }), 'COMMAND_FIELD_VALUE_INVALID');
      });

      it('$set on _id: UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID, nothing changes', async () => {
        await seed(THREE);
        expectError(await command({ updateOne: { filter: { _id: 'a' }, update: { $set: { _id: 'z' } } } }), 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID');
        expect(await get('a')).toEqual(THREE[0]);
        expect(await get('z')).toBeNull();
      });

      it('an unknown operator: UNSUPPORTED_UPDATE_OPERATION', async () => {
        await seed(THREE);
        expectError(await command({ updateOne: { filter: { _id: 'a' }, update: { $frobnicate: { n: 1 } } } }), 'UNSUPPORTED_UPDATE_OPERATION');
      });

      it('an update that breaks a document limit fails and leaves the document as it was', async () => {
        await seed(THREE);
        expectError(await command({ updateOne: { filter: { _id: 'a' }, update: { $set: { big: 'x'.repeat(6000) } } } }), 'SHRED_DOC_LIMIT_VIOLATION');
        expect(await get('a')).toEqual(THREE[0]);
      });

      it('an unknown option: COMMAND_FIELD_UNKNOWN', async () => {
        await seed(THREE);
        expectError(await command({ updateOne: { filter: {}, update: { $set: { a: 1 } }, options: { multi: true } } }), 'COMMAND_FIELD_UNKNOWN');
      });

      describe('$vector', () => {
        const seedVectors = async (): Promise<void> => {
          await createCollection(ctx.db, 'c', { vector: { dimension: 2 } });
          await insertAll(ctx.db, 'c', [{ _id: 'v', $vector: [1, 0] }]);
        };
        const withVector = (id: string) => findOne(ctx.db, 'c', { filter: { _id: id }, projection: { '*': 1 } });

        it('$set replaces it and keeps the form sent', async () => {
          await seedVectors();
          expect(await command({ updateOne: { filter: { _id: 'v' }, update: { $set: { $vector: binaryVector([0, 1]) } } } })).toEqual({ status: { matchedCount: 1, modifiedCount: 1 } });
          expect(await withVector('v')).toEqual({ _id: 'v', $vector: binaryVector([0, 1]) });
          await command({ updateOne: { filter: { _id: 'v' }, update: { $set: { $vector: [0.5, 0.5] } } } });
          expect(await withVector('v')).toEqual({ _id: 'v', $vector: [0.5, 0.5] });
        });

        it('$unset removes it', async () => {
          await seedVectors();
          await command({ updateOne: { filter: { _id: 'v' }, update: { $unset: { $vector: '' } } } });
          expect(await withVector('v')).toEqual({ _id: 'v' });
        });

        it.each([
          ['a wrong length', { $set: { $vector: [1, 2, 3] } }, 'INVALID_VECTOR_LENGTH'],
          ['a zero vector under cosine', { $set: { $vector: [0, 0] } }, 'INVALID_DATABASE_QUERY'],
          ['$inc', { $inc: { $vector: 1 } }, 'UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTOR'],
        ])('%s: %s, the document unchanged', async (_label, update, code) => {
          await seedVectors();
          expectError(await command({ updateOne: { filter: { _id: 'v' }, update } }), code);
          expect(await withVector('v')).toEqual({ _id: 'v', $vector: [1, 0] });
        });

        it('on a collection without vectors: VECTOR_SEARCH_NOT_SUPPORTED', async () => {
          await seed(THREE);
          expectError(await command({ updateOne: { filter: { _id: 'a' }, update: { $set: { $vector: [1, 2] } } } }), 'VECTOR_SEARCH_NOT_SUPPORTED');
          expect(await get('a')).toEqual(THREE[0]);
        });
      });

      it('concurrent $inc of one document loses nothing', async () => {
        await seed([{ _id: 'counter', n: 0 }]);
        const responses = await Promise.all(Array.from({ length: 40 }, () => command({ updateOne: { filter: { _id: 'counter' }, update: { $inc: { n: 1 } } } })));
        for (const response of responses) expect(response).toEqual({ status: { matchedCount: 1, modifiedCount: 1 } });
        expect(await get('counter')).toEqual({ _id: 'counter', n: 40 });
      });
    });

    describe('updateMany', () => {
      const FORTY_FIVE = makeDocs(45, (i) => ({ _id: padId('u', i), n: i, done: false }));

      it('few matches: counts in one response, without moreData or nextPageState', async () => {
        await seed(THREE);
        expect(await command({ updateMany: { filter: { tag: 'x' }, update: { $set: { seen: 1 } } } })).toEqual({ status: { matchedCount: 2, modifiedCount: 2 } });
        expect((await findAll(ctx.db, 'c', { filter: { seen: 1 } })).map((d) => d._id).sort()).toEqual(['a', 'b']);
      });

      it('45 matches are updated a page of 20 at a time: moreData + nextPageState, resent with pageState', async () => {
        await seed(FORTY_FIVE);
        const update = { $set: { done: true } };
        const first = await command({ updateMany: { filter: { done: false }, update } });
        expect(first.errors).toBeUndefined();
        expect(first.status).toEqual({ matchedCount: 20, modifiedCount: 20, moreData: true, nextPageState: expect.any(String) });
        const second = await command({ updateMany: { filter: { done: false }, update, options: { pageState: first.status!.nextPageState } } });
        expect(second.status).toEqual({ matchedCount: 20, modifiedCount: 20, moreData: true, nextPageState: expect.any(String) });
        const third = await command({ updateMany: { filter: { done: false }, update, options: { pageState: second.status!.nextPageState } } });
        expect(third).toEqual({ status: { matchedCount: 5, modifiedCount: 5 } });
        const all = await findAll(ctx.db, 'c');
        expect(all).toHaveLength(45);
        for (const doc of all) expect(doc.done).toBe(true);
      });

      it('an empty filter pages over every document', async () => {
        await seed(FORTY_FIVE);
        let pageState: unknown;
        let matched = 0;
        let requests = 0;
        do {
          const response = await command({ updateMany: { filter: {}, update: { $inc: { n: 1000 } }, ...(pageState ? { options: { pageState } } : {}) } });
          expectNoErrors(response);
          matched += response.status!.matchedCount as number;
          pageState = response.status!.nextPageState;
          requests++;
        } while (pageState);
        expect(matched).toBe(45);
        expect(requests).toBe(3);
        const ns = (await findAll(ctx.db, 'c')).map((d) => d.n as number).sort((p, q) => p - q);
        expect(ns).toEqual(FORTY_FIVE.map((d) => (d.n as number) + 1000));
      });

      it('no-op updates count as matched but not modified', async () => {
        await seed(THREE);
        expect(await command({ updateMany: { filter: {}, update: { $set: { tag: 'x' } } } })).toEqual({ status: { matchedCount: 3, modifiedCount: 1 } });
      });

      it('upsert with no match inserts one document: upsertedId', async () => {
        await seed(THREE);
        const response = await command({ updateMany: { filter: { _id: 'up' }, update: { $set: { n: 1 } }, options: { upsert: true } } });
        expect(response).toEqual({ status: { upsertedId: 'up', matchedCount: 0, modifiedCount: 0 } });
        expect(await get('up')).toEqual({ _id: 'up', n: 1 });
      });

      it('no match and no upsert: counts 0', async () => {
        await seed(THREE);
        expect(await command({ updateMany: { filter: { tag: 'none' }, update: { $set: { n: 1 } } } })).toEqual({ status: { matchedCount: 0, modifiedCount: 0 } });
      });

      it('an update that would push documents over a limit fails and leaves them as they were', async () => {
        await seed([
          { _id: 'small', text: 'x' },
          { _id: 'large', text: 'x'.repeat(4000) },
        ]);
        const response = await command({ updateMany: { filter: {}, update: { $set: { text: 'y'.repeat(6000) } } } });
        expect(response.errors?.map((e) => e.errorCode)).toContain('SHRED_DOC_LIMIT_VIOLATION');
        expect(await get('small')).toEqual({ _id: 'small', text: 'x' });
        expect(await get('large')).toEqual({ _id: 'large', text: 'x'.repeat(4000) });
      });

      it('refuses a sort: COMMAND_FIELD_UNKNOWN', async () => {
        await seed(THREE);
        expectError(await command({ updateMany: { filter: {}, sort: { n: 1 }, update: { $set: { a: 1 } } } }), 'COMMAND_FIELD_UNKNOWN');
      });
    });

    describe('findOneAndUpdate', () => {
      it('returnDocument defaults to before', async () => {
        await seed(THREE);
        expect(await command({ findOneAndUpdate: { filter: { _id: 'a' }, update: { $set: { n: 10 } } } })).toEqual({
          data: { document: { _id: 'a', n: 1, tag: 'x' } },
          status: { matchedCount: 1, modifiedCount: 1 },
        });
        expect(await get('a')).toEqual({ _id: 'a', n: 10, tag: 'x' });
      });

      it('returnDocument after returns the updated document, _id first', async () => {
        await seed(THREE);
        const response = await command({ findOneAndUpdate: { filter: { _id: 'a' }, update: { $set: { z: 1 }, $inc: { n: 1 } }, options: { returnDocument: 'after' } } });
        expect(response).toEqual({ data: { document: { _id: 'a', n: 2, tag: 'x', z: 1 } }, status: { matchedCount: 1, modifiedCount: 1 } });
        expect(Object.keys((response.data as { document: Doc }).document)[0]).toBe('_id');
      });

      it('no match: document null and counts 0', async () => {
        await seed(THREE);
        expect(await command({ findOneAndUpdate: { filter: { _id: 'zzz' }, update: { $set: { n: 1 } }, options: { returnDocument: 'after' } } })).toEqual({
          data: { document: null },
          status: { matchedCount: 0, modifiedCount: 0 },
        });
      });

      it('a no-op: modifiedCount 0 and the unchanged document', async () => {
        await seed(THREE);
        expect(await command({ findOneAndUpdate: { filter: { _id: 'c' }, update: { $set: { tag: 'y' } }, options: { returnDocument: 'after' } } })).toEqual({
          data: { document: THREE[2] },
          status: { matchedCount: 1, modifiedCount: 0 },
        });
      });

      it('upsert with returnDocument before: document null and upsertedId', async () => {
        await seed(THREE);
        expect(await command({ findOneAndUpdate: { filter: { _id: 'u1' }, update: { $set: { n: 1 } }, options: { upsert: true } } })).toEqual({
          data: { document: null },
          status: { upsertedId: 'u1', matchedCount: 0, modifiedCount: 0 },
        });
        expect(await get('u1')).toEqual({ _id: 'u1', n: 1 });
      });

      it('upsert with returnDocument after: the new document', async () => {
        await seed(THREE);
        expect(await command({ findOneAndUpdate: { filter: { _id: 'u2' }, update: { $set: { n: 2 } }, options: { upsert: true, returnDocument: 'after' } } })).toEqual({
          data: { document: { _id: 'u2', n: 2 } },
          status: { upsertedId: 'u2', matchedCount: 0, modifiedCount: 0 },
        });
      });

      it('the projection applies to the returned document', async () => {
        await seed(THREE);
        expect(await command({ findOneAndUpdate: { filter: { _id: 'b' }, update: { $set: { n: 0 } }, projection: { n: 1 }, options: { returnDocument: 'after' } } })).toEqual({
          data: { document: { _id: 'b', n: 0 } },
          status: { matchedCount: 1, modifiedCount: 1 },
        });
      });

      it('with a sort, picks the first in that order', async () => {
        await seed(THREE);
        const response = await command({ findOneAndUpdate: { filter: {}, sort: { n: -1 }, update: { $set: { last: true } } } });
        expect((response.data as { document: Doc }).document._id).toBe('c');
        expect(await get('c')).toEqual({ ...THREE[2], last: true });
      });

      it('a bad returnDocument: COMMAND_FIELD_VALUE_INVALID', async () => {
        await seed(THREE);
        expectError(await command({ findOneAndUpdate: { filter: { _id: 'a' }, update: { $set: { n: 1 } }, options: { returnDocument: 'later' } } }), 'COMMAND_FIELD_VALUE_INVALID');
        expect(await get('a')).toEqual(THREE[0]);
      });
    });

    describe('findOneAndReplace', () => {
      it('replaces the whole document, keeping _id; returnDocument before by default', async () => {
        await seed(THREE);
        expect(await command({ findOneAndReplace: { filter: { _id: 'a' }, replacement: { fresh: 1 } } })).toEqual({
          data: { document: THREE[0] },
          status: { matchedCount: 1, modifiedCount: 1 },
        });
        expect(await get('a')).toEqual({ _id: 'a', fresh: 1 });
      });

      it('returnDocument after: the replacement with _id first', async () => {
        await seed(THREE);
        const response = await command({ findOneAndReplace: { filter: { tag: 'y' }, replacement: { z: 26, a: 1 }, options: { returnDocument: 'after' } } });
        expect(response).toEqual({ data: { document: { _id: 'c', z: 26, a: 1 } }, status: { matchedCount: 1, modifiedCount: 1 } });
        expect(Object.keys((response.data as { document: Doc }).document)).toEqual(['_id', 'z', 'a']);
      });

      it('a replacement carrying the same _id is accepted', async () => {
        await seed(THREE);
        expect(await command({ findOneAndReplace: { filter: { _id: 'b' }, replacement: { _id: 'b', only: true }, options: { returnDocument: 'after' } } })).toEqual({
          data: { document: { _id: 'b', only: true } },
          status: { matchedCount: 1, modifiedCount: 1 },
        });
      });

      it('a different _id: DOCUMENT_REPLACE_DIFFERENT_DOCID, nothing changes', async () => {
        await seed(THREE);
        expectError(await command({ findOneAndReplace: { filter: { _id: 'a' }, replacement: { _id: 'other', v: 1 } } }), 'DOCUMENT_REPLACE_DIFFERENT_DOCID');
        expect(await get('a')).toEqual(THREE[0]);
        expect(await get('other')).toBeNull();
      });

      it('an identical replacement: modifiedCount 0', async () => {
        await seed(THREE);
        expect(await command({ findOneAndReplace: { filter: { _id: 'a' }, replacement: { n: 1, tag: 'x' } } })).toEqual({
          data: { document: THREE[0] },
          status: { matchedCount: 1, modifiedCount: 0 },
        });
      });

      it('no match: document null, counts 0, nothing inserted', async () => {
        await seed(THREE);
        expect(await command({ findOneAndReplace: { filter: { _id: 'zzz' }, replacement: { v: 1 } } })).toEqual({
          data: { document: null },
          status: { matchedCount: 0, modifiedCount: 0 },
        });
        expect(await findAll(ctx.db, 'c')).toHaveLength(3);
      });

      it('upsert takes the _id from the filter and only the replacement fields', async () => {
        await seed(THREE);
        expect(await command({ findOneAndReplace: { filter: { _id: 'r1', ignored: 'yes' }, replacement: { v: 1 }, options: { upsert: true, returnDocument: 'after' } } })).toEqual({
          data: { document: { _id: 'r1', v: 1 } },
          status: { upsertedId: 'r1', matchedCount: 0, modifiedCount: 0 },
        });
        expect(await get('r1')).toEqual({ _id: 'r1', v: 1 });
      });

      it('without replacement: COMMAND_FIELD_VALUE_INVALID', async () => {
        await seed(THREE);
        expectError(await command({ findOneAndReplace: { filter: { _id: 'a' } } }), 'COMMAND_FIELD_VALUE_INVALID');
      });
    });
  });
}
