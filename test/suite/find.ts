/**
 * Shared suite: find and findOne (data-api-protocol.md 2, 3.3, 5-7): envelope shapes (nextPageState always
 * present, document present even when null), paging 45 documents by pageState, limit as a total cap across
 * pages, option errors, and the basics of filters, projection and sort.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { type Doc, createCollection, expectError, expectNoErrors, findAll, idTexts, idsOf, insertAll, makeDocs, onCollection, padId, useDatabase } from './helpers.js';

interface FindData {
  documents: Doc[];
  nextPageState: string | null;
}

/** 45 documents doc-000..doc-044 with a few typed fields to filter and sort on. */
const PEOPLE = makeDocs(45, (i) => ({
  _id: padId('doc', i),
  n: i,
  parity: i % 2 === 0 ? 'even' : 'odd',
  group: i % 3,
  tags: i % 5 === 0 ? ['five', 'x'] : ['x'],
  address: { city: i < 10 ? 'Paris' : 'Oslo', zip: String(1000 + i) },
  ...(i % 4 === 0 ? { optional: i } : {}),
}));
const byN = (pred: (d: Doc) => boolean): string[] => idTexts(PEOPLE.filter(pred).map((d) => d._id));

export function findSuite(factory: DbFactory): void {
  describe(`find and findOne [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const find = (body: Doc = {}) => onCollection(ctx.db, 'people', { find: body });
    const page = async (body: Doc = {}): Promise<FindData> => {
      const response = expectNoErrors(await find(body));
      expect(Object.keys(response)).toEqual(['data']);
      const data = response.data as FindData;
      expect(Object.keys(data).sort()).toEqual(['documents', 'nextPageState']);
      return data;
    };
    const seed = async (): Promise<void> => {
      await createCollection(ctx.db, 'people');
      await insertAll(ctx.db, 'people', PEOPLE);
    };
    const ids = async (filter: Doc): Promise<string[]> => idsOf(await findAll(ctx.db, 'people', { filter }));

    describe('envelopes', () => {
      it('find on an empty collection: {data:{documents:[], nextPageState:null}}', async () => {
        await createCollection(ctx.db, 'people');
        expect(await find()).toEqual({ data: { documents: [], nextPageState: null } });
        expect(await find({ filter: { a: 1 } })).toEqual({ data: { documents: [], nextPageState: null } });
      });

      it('find returning fewer than a page: nextPageState is present and null', async () => {
        await createCollection(ctx.db, 'people');
        await insertAll(ctx.db, 'people', PEOPLE.slice(0, 3));
        const response = await find();
        expect(response).toEqual({ data: { documents: PEOPLE.slice(0, 3), nextPageState: null } });
        expect('nextPageState' in (response.data as object)).toBe(true);
      });

      it('findOne with no match: {data:{document:null}}', async () => {
        await createCollection(ctx.db, 'people');
        const response = await onCollection(ctx.db, 'people', { findOne: { filter: { _id: 'nope' } } });
        expect(response).toEqual({ data: { document: null } });
        expect('document' in (response.data as object)).toBe(true);
      });

      it('findOne with a match: {data:{document}}', async () => {
        await seed();
        expect(await onCollection(ctx.db, 'people', { findOne: { filter: { _id: 'doc-007' } } })).toEqual({ data: { document: PEOPLE[7] } });
      });

      it('findOne without a filter returns some document', async () => {
        await seed();
        const response = await onCollection(ctx.db, 'people', { findOne: {} });
        const document = (response.data as { document: Doc }).document;
        expect(PEOPLE).toContainEqual(document);
      });

      it('an error drops data: bad limit gives only errors', async () => {
        await seed();
        const response = await find({ options: { limit: 0 } });
        expect(Object.keys(response)).toEqual(['errors']);
      });
    });

    describe('paging', () => {
      it('45 documents come in pages of 20, 20 and 5 linked by pageState', async () => {
        await seed();
        const first = await page();
        expect(first.documents).toHaveLength(20);
        expect(typeof first.nextPageState).toBe('string');
        const second = await page({ options: { pageState: first.nextPageState } });
        expect(second.documents).toHaveLength(20);
        expect(typeof second.nextPageState).toBe('string');
        const third = await page({ options: { pageState: second.nextPageState } });
        expect(third.documents).toHaveLength(5);
        expect(third.nextPageState).toBeNull();
        const all = [...first.documents, ...second.documents, ...third.documents];
        expect(idsOf(all)).toEqual(idsOf(PEOPLE));
        expect(new Set(all.map((d) => d._id)).size).toBe(45);
        for (const doc of all) expect(doc).toEqual(PEOPLE.find((p) => p._id === doc._id));
      });

      it('pages follow a filter', async () => {
        await seed();
        const first = await page({ filter: { group: { $in: [0, 1] } } }); // 30 matches
        expect(first.documents).toHaveLength(20);
        const second = await page({ filter: { group: { $in: [0, 1] } }, options: { pageState: first.nextPageState } });
        expect(second.documents).toHaveLength(10);
        expect(second.nextPageState).toBeNull();
        expect(idsOf([...first.documents, ...second.documents])).toEqual(byN((d) => (d.group as number) < 2));
      });

      it('exactly one page of matches ends without a usable page state', async () => {
        await createCollection(ctx.db, 'people');
        await insertAll(ctx.db, 'people', PEOPLE.slice(0, 20));
        const first = await page();
        expect(first.documents).toHaveLength(20);
        if (first.nextPageState !== null) {
          const next = await page({ options: { pageState: first.nextPageState } });
          expect(next).toEqual({ documents: [], nextPageState: null });
        }
      });

      it('the pagingState alias is accepted', async () => {
        await seed();
        const first = await page();
        const second = await page({ options: { pagingState: first.nextPageState } });
        expect(second.documents).toHaveLength(20);
        expect(idTexts([...first.documents, ...second.documents].map((d) => d._id))).toHaveLength(40);
        expect(new Set([...first.documents, ...second.documents].map((d) => d._id)).size).toBe(40);
      });

      it('limit is a total cap across pages: limit 25 gives 20 then 5 and ends', async () => {
        await seed();
        const first = await page({ options: { limit: 25 } });
        expect(first.documents).toHaveLength(20);
        expect(typeof first.nextPageState).toBe('string');
        const second = await page({ options: { limit: 25, pageState: first.nextPageState } });
        expect(second.documents).toHaveLength(5);
        expect(second.nextPageState).toBeNull();
        expect(new Set([...first.documents, ...second.documents].map((d) => d._id)).size).toBe(25);
      });

      it('limit below a page: one page, nextPageState null', async () => {
        await seed();
        const only = await page({ options: { limit: 7 } });
        expect(only.documents).toHaveLength(7);
        expect(only.nextPageState).toBeNull();
      });

      it('limit equal to the page size: one full page, nextPageState null', async () => {
        await seed();
        const only = await page({ options: { limit: 20 } });
        expect(only.documents).toHaveLength(20);
        expect(only.nextPageState).toBeNull();
      });

      it('limit 40: two full pages then the end', async () => {
        await seed();
        const all = await findAll(ctx.db, 'people', { options: { limit: 40 } });
        expect(all).toHaveLength(40);
        expect(new Set(all.map((d) => d._id)).size).toBe(40);
      });

      it('limit larger than the matches returns them all', async () => {
        await seed();
        expect(await findAll(ctx.db, 'people', { options: { limit: 1000 } })).toHaveLength(45);
      });

      it('an empty or null pageState means the first page', async () => {
        await seed();
        const first = await page();
        expect(await page({ options: { pageState: '' } })).toEqual(first);
        expect(await page({ options: { pageState: null } })).toEqual(first);
      });

      it('an empty sort {} still pages by pageState', async () => {
        await seed();
        const first = await page({ sort: {} });
        expect(first.documents).toHaveLength(20);
        const second = await page({ sort: {}, options: { pageState: first.nextPageState } });
        expect(second.documents).toHaveLength(20);
        expect(new Set([...first.documents, ...second.documents].map((d) => d._id)).size).toBe(40);
      });

      it('documents inserted during paging never make a page repeat a document', async () => {
        await seed();
        const first = await page();
        await insertAll(ctx.db, 'people', [{ _id: 'aaa-first' }, { _id: 'zzz-last' }]);
        const rest = await findAll(ctx.db, 'people', { options: { pageState: first.nextPageState } });
        const seen = [...first.documents, ...rest].map((d) => d._id);
        expect(new Set(seen).size).toBe(seen.length);
        for (const doc of PEOPLE) expect(seen).toContain(doc._id);
      });
    });

    describe('option errors', () => {
      it.each([
        ['limit 0', { options: { limit: 0 } }],
        ['a negative limit', { options: { limit: -5 } }],
        ['a fractional limit', { options: { limit: 2.5 } }],
        ['a string limit', { options: { limit: '10' } }],
        ['a negative skip', { sort: { n: 1 }, options: { skip: -1 } }],
        ['skip without sort', { options: { skip: 5 } }],
      ])('%s: COMMAND_FIELD_VALUE_INVALID', async (_label, body) => {
        await seed();
        expectError(await find(body), 'COMMAND_FIELD_VALUE_INVALID');
      });

      it('pageState with a sort: SORT_CLAUSE_INVALID', async () => {
        await seed();
        const first = await page();
        expectError(await find({ sort: { n: 1 }, options: { pageState: first.nextPageState } }), 'SORT_CLAUSE_INVALID');
      });

      it('an unknown option: COMMAND_FIELD_UNKNOWN', async () => {
        await seed();
        expectError(await find({ options: { batchSize: 5 } }), 'COMMAND_FIELD_UNKNOWN');
      });

      it('findOne refuses limit: COMMAND_FIELD_UNKNOWN', async () => {
        await seed();
        expectError(await onCollection(ctx.db, 'people', { findOne: { options: { limit: 1 } } }), 'COMMAND_FIELD_UNKNOWN');
      });
    });

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
