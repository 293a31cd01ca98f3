/**
 * Shared suite: deleteOne, deleteMany (at most 20 per request with moreData; an empty filter empties the
 * collection with deletedCount -1) and findOneAndDelete (data-api-protocol.md 3.3).
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { type Doc, count, createCollection, expectError, findAll, findOne, idTexts, idsOf, insertAll, makeDocs, onCollection, padId, useDatabase } from './helpers.js';

/** 45 documents to delete (kind 'old') and 5 to keep (kind 'keep'). */
const DOCS = [
  ...makeDocs(45, (i) => ({ _id: padId('old', i), kind: 'old', n: i })),
  ...makeDocs(5, (i) => ({ _id: padId('keep', i), kind: 'keep', n: 100 + i })),
];
const KEPT = DOCS.filter((d) => d.kind === 'keep');

export function deleteSuite(factory: DbFactory): void {
  describe(`deletes [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const command = (body: unknown) => onCollection(ctx.db, 'c', body);
    const seed = async (docs: Doc[] = DOCS): Promise<void> => {
      await createCollection(ctx.db, 'c');
      await insertAll(ctx.db, 'c', docs);
    };

    describe('deleteOne', () => {
      it('a match: {status:{deletedCount:1}} and the document is gone', async () => {
        await seed();
        expect(await command({ deleteOne: { filter: { _id: 'old-007' } } })).toEqual({ status: { deletedCount: 1 } });
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'old-007' } })).toBeNull();
        expect(await count(ctx.db, 'c')).toBe(49);
      });

      it('no match: deletedCount 0', async () => {
        await seed();
        expect(await command({ deleteOne: { filter: { _id: 'missing' } } })).toEqual({ status: { deletedCount: 0 } });
        expect(await count(ctx.db, 'c')).toBe(50);
      });

      it('deletes only one of several matches', async () => {
        await seed();
        expect(await command({ deleteOne: { filter: { kind: 'keep' } } })).toEqual({ status: { deletedCount: 1 } });
        expect(await count(ctx.db, 'c', { kind: 'keep' })).toBe(4);
      });

      it('with a sort, deletes the first in that order', async () => {
        await seed();
        await command({ deleteOne: { filter: { kind: 'keep' }, sort: { n: -1 } } });
        expect(idsOf(await findAll(ctx.db, 'c', { filter: { kind: 'keep' } }))).toEqual(idTexts(['keep-000', 'keep-001', 'keep-002', 'keep-003']));
      });

      it('without a filter: COMMAND_FIELD_VALUE_INVALID, nothing deleted', async () => {
        await seed();
        expectError(await command({ deleteOne: {} }), 'COMMAND_FIELD_VALUE_INVALID');
        expect(await count(ctx.db, 'c')).toBe(50);
      });

      it('options: COMMAND_ACCEPTS_NO_OPTIONS', async () => {
        await seed();
        expectError(await command({ deleteOne: { filter: { _id: 'old-000' }, options: { justOne: true } } }), 'COMMAND_ACCEPTS_NO_OPTIONS');
        expect(await count(ctx.db, 'c')).toBe(50);
      });
    });

    describe('deleteMany', () => {
      it('few matches: the count, without moreData', async () => {
        await seed();
        expect(await command({ deleteMany: { filter: { n: { $lt: 3 } } } })).toEqual({ status: { deletedCount: 3 } });
        expect(await count(ctx.db, 'c')).toBe(47);
      });

      it('no match: deletedCount 0', async () => {
        await seed();
        expect(await command({ deleteMany: { filter: { kind: 'none' } } })).toEqual({ status: { deletedCount: 0 } });
      });

      it('45 matches: 20 per request with moreData, then the rest without it', async () => {
        await seed();
        const filter = { kind: 'old' };
        expect(await command({ deleteMany: { filter } })).toEqual({ status: { deletedCount: 20, moreData: true } });
        expect(await count(ctx.db, 'c', filter)).toBe(25);
        expect(await command({ deleteMany: { filter } })).toEqual({ status: { deletedCount: 20, moreData: true } });
        expect(await command({ deleteMany: { filter } })).toEqual({ status: { deletedCount: 5 } });
        expect(await command({ deleteMany: { filter } })).toEqual({ status: { deletedCount: 0 } });
        expect(await findAll(ctx.db, 'c')).toEqual(KEPT);
      });

      it('exactly 20 matches: one request, no moreData', async () => {
        await seed();
        expect(await command({ deleteMany: { filter: { n: { $lt: 20 } } } })).toEqual({ status: { deletedCount: 20 } });
        expect(await count(ctx.db, 'c')).toBe(30);
      });

      it('an empty filter empties the collection: deletedCount -1', async () => {
        await seed();
        expect(await command({ deleteMany: { filter: {} } })).toEqual({ status: { deletedCount: -1 } });
        expect(await findAll(ctx.db, 'c')).toEqual([]);
        expect(await count(ctx.db, 'c')).toBe(0);
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 0 } });
      });

      it('a missing filter also empties the collection: deletedCount -1', async () => {
        await seed();
        expect(await command({ deleteMany: {} })).toEqual({ status: { deletedCount: -1 } });
        expect(await count(ctx.db, 'c')).toBe(0);
      });

      it('after emptying, filters answer nothing and new inserts work', async () => {
        await seed();
        await command({ deleteMany: {} });
        expect(await findAll(ctx.db, 'c', { filter: { kind: 'keep' } })).toEqual([]);
        await insertAll(ctx.db, 'c', [{ _id: 'keep-000', kind: 'keep' }]);
        expect(await findAll(ctx.db, 'c', { filter: { kind: 'keep' } })).toEqual([{ _id: 'keep-000', kind: 'keep' }]);
      });

      it('index-based filters no longer see deleted documents', async () => {
        await seed();
        await command({ deleteMany: { filter: { n: { $gte: 40, $lt: 45 } } } });
        expect(await findAll(ctx.db, 'c', { filter: { n: { $gte: 40, $lt: 45 } } })).toEqual([]);
        expect(await findAll(ctx.db, 'c', { filter: { n: 41 } })).toEqual([]);
      });

      it('options: COMMAND_ACCEPTS_NO_OPTIONS, nothing deleted', async () => {
        await seed();
        expectError(await command({ deleteMany: { filter: { kind: 'old' }, options: { limit: 5 } } }), 'COMMAND_ACCEPTS_NO_OPTIONS');
        expect(await count(ctx.db, 'c')).toBe(50);
      });

      it('a bad filter: FILTER_UNSUPPORTED_OPERATOR, nothing deleted', async () => {
        await seed();
        expectError(await command({ deleteMany: { filter: { n: { $where: 'x' } } } }), 'FILTER_UNSUPPORTED_OPERATOR');
        expect(await count(ctx.db, 'c')).toBe(50);
      });
    });

    describe('findOneAndDelete', () => {
      it('returns the deleted document: {data:{document}, status:{deletedCount:1}}', async () => {
        await seed();
        expect(await command({ findOneAndDelete: { filter: { _id: 'keep-002' } } })).toEqual({
          data: { document: { _id: 'keep-002', kind: 'keep', n: 102 } },
          status: { deletedCount: 1 },
        });
        expect(await findOne(ctx.db, 'c', { filter: { _id: 'keep-002' } })).toBeNull();
      });

      it('no match: {data:{document:null}, status:{deletedCount:0}}', async () => {
        await seed();
        expect(await command({ findOneAndDelete: { filter: { _id: 'missing' } } })).toEqual({ data: { document: null }, status: { deletedCount: 0 } });
        expect(await count(ctx.db, 'c')).toBe(50);
      });

      it('applies the projection and the sort', async () => {
        await seed();
        expect(await command({ findOneAndDelete: { filter: { kind: 'keep' }, sort: { n: -1 }, projection: { n: 1 } } })).toEqual({
          data: { document: { _id: 'keep-004', n: 104 } },
          status: { deletedCount: 1 },
        });
        expect(await count(ctx.db, 'c', { kind: 'keep' })).toBe(4);
      });

      it('has no options: COMMAND_FIELD_UNKNOWN', async () => {
        await seed();
        expectError(await command({ findOneAndDelete: { filter: {}, options: {} } }), 'COMMAND_FIELD_UNKNOWN');
        expect(await count(ctx.db, 'c')).toBe(50);
      });
    });
  });
}
