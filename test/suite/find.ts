/**
 * Shared suite: find and findOne (data-api-protocol.md 2, 3.3, 6-7): envelope shapes (nextPageState always
 * present, document present even when null), paging 45 documents by pageState, limit as a total cap across
 * pages, option errors. Their filters, projection and sort are find-clauses.ts; the documents, people.ts.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { type Doc, createCollection, expectError, findAll, idTexts, idsOf, insertAll, onCollection, useDatabase } from './helpers.js';
import { PEOPLE, byN, peopleCalls } from './people.js';

export function findSuite(factory: DbFactory): void {
  describe(`find and findOne [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const { find, page, seed } = peopleCalls(ctx);

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
  });
}
