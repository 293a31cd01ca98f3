/**
 * Shared suite: the clauses of find and findOne (data-api-protocol.md 5-7): the basics of filters (operators,
 * type-strict equality, string order, filter errors), projection and sort (with limit and skip) over the 45
 * documents of people.ts. Envelopes and paging are find.ts.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { createCollection, expectError, idTexts, insertAll, onCollection, useDatabase } from './helpers.js';
import { PEOPLE, byN, peopleCalls } from './people.js';

export function findClausesSuite(factory: DbFactory): void {
  describe(`find and findOne: filters, projection and sort [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const { find, page, seed, ids } = peopleCalls(ctx);

    describe('filters', () => {
      it('implicit $eq on a string, a number and a nested path', async () => {
        await seed();
        expect(await ids({ parity: 'even' })).toEqual(byN((d) => d.parity === 'even'));
        expect(await ids({ n: 12 })).toEqual(idTexts(['doc-012']));
        expect(await ids({ 'address.city': 'Paris' })).toEqual(byN((d) => (d.n as number) < 10));
      });

      it('equality is type-strict: "12" does not match 12', async () => {
        await seed();
        expect(await ids({ n: '12' })).toEqual([]);
      });

      it('$gt / $gte / $lt / $lte on numbers', async () => {
        await seed();
        expect(await ids({ n: { $gt: 40 } })).toEqual(byN((d) => (d.n as number) > 40));
        expect(await ids({ n: { $gte: 40 } })).toEqual(byN((d) => (d.n as number) >= 40));
        expect(await ids({ n: { $lt: 3 } })).toEqual(byN((d) => (d.n as number) < 3));
        expect(await ids({ n: { $gte: 10, $lte: 12 } })).toEqual(idTexts(['doc-010', 'doc-011', 'doc-012']));
      });

      it('$in, $nin and $ne', async () => {
        await seed();
        expect(await ids({ n: { $in: [1, 2, 99] } })).toEqual(idTexts(['doc-001', 'doc-002']));
        expect(await ids({ group: { $ne: 0 } })).toEqual(byN((d) => d.group !== 0));
        expect(await ids({ group: { $nin: [0, 1] } })).toEqual(byN((d) => d.group === 2));
      });

      it('$exists true and false', async () => {
        await seed();
        expect(await ids({ optional: { $exists: true } })).toEqual(byN((d) => 'optional' in d));
        expect(await ids({ optional: { $exists: false } })).toEqual(byN((d) => !('optional' in d)));
      });

      it('a scalar matches an array containing it; $all and $size', async () => {
        await seed();
        expect(await ids({ tags: 'five' })).toEqual(byN((d) => (d.n as number) % 5 === 0));
        expect(await ids({ tags: { $all: ['five', 'x'] } })).toEqual(byN((d) => (d.n as number) % 5 === 0));
        expect(await ids({ tags: { $size: 1 } })).toEqual(byN((d) => (d.n as number) % 5 !== 0));
      });

      it('$and, $or and implicit AND', async () => {
        await seed();
        expect(await ids({ parity: 'odd', group: 0 })).toEqual(byN((d) => d.parity === 'odd' && d.group === 0));
        expect(await ids({ $and: [{ n: { $gt: 5 } }, { n: { $lt: 9 } }] })).toEqual(idTexts(['doc-006', 'doc-007', 'doc-008']));
        expect(await ids({ $or: [{ n: 1 }, { 'address.zip': '1044' }] })).toEqual(idTexts(['doc-001', 'doc-044']));
      });

      it('_id equality and $in', async () => {
        await seed();
        expect(await ids({ _id: 'doc-003' })).toEqual(idTexts(['doc-003']));
        expect(await ids({ _id: { $in: ['doc-001', 'doc-044', 'missing'] } })).toEqual(idTexts(['doc-001', 'doc-044']));
      });

      it('string ranges use the same order as sort (UTF-16 code units), also beyond the BMP', async () => {
        await createCollection(ctx.db, 'people');
        // UTF-16 order: 'a' < '😀' (U+1F600, surrogates D83D..) < U+E000 < U+FFFD; UTF-8 byte order differs.
        const docs = [
          { _id: 1, s: '\uFFFD' },
          { _id: 2, s: '😀' },
          { _id: 3, s: '\uE000' },
          { _id: 4, s: 'a' },
        ];
        await insertAll(ctx.db, 'people', docs);
        const sorted = await page({ sort: { s: 1 } });
        expect(sorted.documents.map((d) => d._id)).toEqual([4, 2, 3, 1]);
        expect(await ids({ s: { $lt: '\uFFFD' } })).toEqual(idTexts([2, 3, 4]));
        expect(await ids({ s: { $gt: '😀' } })).toEqual(idTexts([1, 3]));
        expect(await ids({ s: { $gte: '\uE000' } })).toEqual(idTexts([1, 3]));
        expect(await ids({ s: { $lte: '😀' } })).toEqual(idTexts([2, 4]));
      });

      it('an unknown operator: FILTER_UNSUPPORTED_OPERATOR', async () => {
        await seed();
        expectError(await find({ filter: { n: { $regex: 'x' } } }), 'FILTER_UNSUPPORTED_OPERATOR');
      });

      it('a filter that is not an object: FILTER_UNSUPPORTED_DATA_TYPE', async () => {
        await seed();
        expectError(await find({ filter: [1, 2] }), 'FILTER_UNSUPPORTED_DATA_TYPE');
      });

      it('a filter on a denied path: FILTER_PATH_UNINDEXED', async () => {
        await createCollection(ctx.db, 'people', { indexing: { deny: ['address'] } });
        await insertAll(ctx.db, 'people', PEOPLE.slice(0, 5));
        expectError(await find({ filter: { 'address.city': 'Paris' } }), 'FILTER_PATH_UNINDEXED');
        expect(await ids({ n: 1 })).toEqual(idTexts(['doc-001']));
      });
    });

    describe('projection', () => {
      it('inclusion keeps _id and the named paths', async () => {
        await seed();
        const doc = (await page({ filter: { _id: 'doc-011' }, projection: { n: 1, 'address.city': 1 } })).documents[0];
        expect(doc).toEqual({ _id: 'doc-011', n: 11, address: { city: 'Oslo' } });
      });

      it('exclusion drops the named paths', async () => {
        await seed();
        const doc = (await page({ filter: { _id: 'doc-011' }, projection: { tags: 0, address: 0, parity: 0 } })).documents[0];
        expect(doc).toEqual({ _id: 'doc-011', n: 11, group: 2 });
      });

      it('_id can be excluded', async () => {
        await seed();
        const doc = (await page({ filter: { _id: 'doc-011' }, projection: { _id: 0, n: 1 } })).documents[0];
        expect(doc).toEqual({ n: 11 });
      });

      it('findOne applies the projection too', async () => {
        await seed();
        const response = await onCollection(ctx.db, 'people', { findOne: { filter: { _id: 'doc-002' }, projection: { parity: 1 } } });
        expect(response).toEqual({ data: { document: { _id: 'doc-002', parity: 'even' } } });
      });

      it('mixing inclusion and exclusion: UNSUPPORTED_PROJECTION_PARAM', async () => {
        await seed();
        expectError(await find({ projection: { n: 1, group: 0 } }), 'UNSUPPORTED_PROJECTION_PARAM');
      });
    });

    describe('sort', () => {
      it('ascending and descending on a number, within a single page', async () => {
        await seed();
        const asc = await page({ filter: { n: { $lt: 10 } }, sort: { n: 1 } });
        expect(asc.documents.map((d) => d.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(asc.nextPageState).toBeNull();
        const desc = await page({ filter: { n: { $lt: 10 } }, sort: { n: -1 } });
        expect(desc.documents.map((d) => d.n)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      });

      it('a sorted find returns at most one page and no page state', async () => {
        await seed();
        const sorted = await page({ sort: { n: -1 } });
        expect(sorted.documents.map((d) => d.n)).toEqual(Array.from({ length: 20 }, (_, i) => 44 - i));
        expect(sorted.nextPageState).toBeNull();
      });

      it('a sorted find with a limit over the page size still returns one page', async () => {
        await seed();
        const sorted = await page({ sort: { n: 1 }, options: { limit: 30 } });
        expect(sorted.documents.map((d) => d.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        expect(sorted.nextPageState).toBeNull();
      });

      it('skip past the end: no documents', async () => {
        await seed();
        expect(await page({ sort: { n: 1 }, options: { skip: 100 } })).toEqual({ documents: [], nextPageState: null });
      });

      it('sort with limit and skip', async () => {
        await seed();
        const sorted = await page({ sort: { n: 1 }, options: { skip: 5, limit: 3 } });
        expect(sorted.documents.map((d) => d.n)).toEqual([5, 6, 7]);
      });

      it('sort on two keys: the first decides, the second breaks ties', async () => {
        await seed();
        const sorted = await page({ filter: { n: { $lt: 6 } }, sort: { group: 1, n: -1 } });
        expect(sorted.documents.map((d) => d.n)).toEqual([3, 0, 4, 1, 5, 2]);
      });

      it('sort on a string field', async () => {
        await seed();
        const sorted = await page({ filter: { n: { $in: [3, 12, 25] } }, sort: { 'address.zip': -1 } });
        expect(sorted.documents.map((d) => d._id)).toEqual(['doc-025', 'doc-012', 'doc-003']);
      });

      it('findOne with a sort picks the first in that order', async () => {
        await seed();
        expect(await onCollection(ctx.db, 'people', { findOne: { sort: { n: -1 }, projection: { n: 1 } } })).toEqual({
          data: { document: { _id: 'doc-044', n: 44 } },
        });
      });

      it('a sort value other than 1 or -1: SORT_CLAUSE_VALUE_INVALID', async () => {
        await seed();
        expectError(await find({ sort: { n: 2 } }), 'SORT_CLAUSE_VALUE_INVALID');
      });
    });
  });
}
