/**
 * Shared suite: countDocuments (exact up to the cap of 1000, then count = cap with moreData; a small limits
 * override makes the cap reachable) and estimatedDocumentCount (data-api-protocol.md 3.3, 11).
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { createCollection, expectError, insertAll, makeDocs, onCollection, useDatabase } from './helpers.js';

const DOCS = makeDocs(45, (i) => ({ _id: i, group: i % 3, even: i % 2 === 0 }));

export function countSuite(factory: DbFactory): void {
  describe(`counts [${factory.name}]`, () => {
    describe('with the default limits', () => {
      const ctx = useDatabase(factory);
      const command = (body: unknown) => onCollection(ctx.db, 'c', body);
      const seed = async (): Promise<void> => {
        await createCollection(ctx.db, 'c');
        await insertAll(ctx.db, 'c', DOCS);
      };

      it('countDocuments of an empty collection: {status:{count:0}}', async () => {
        await createCollection(ctx.db, 'c');
        expect(await command({ countDocuments: { filter: {} } })).toEqual({ status: { count: 0 } });
      });

      it('countDocuments with an empty, missing and real filter', async () => {
        await seed();
        expect(await command({ countDocuments: { filter: {} } })).toEqual({ status: { count: 45 } });
        expect(await command({ countDocuments: {} })).toEqual({ status: { count: 45 } });
        expect(await command({ countDocuments: { filter: { group: 1 } } })).toEqual({ status: { count: 15 } });
        expect(await command({ countDocuments: { filter: { even: true, group: 0 } } })).toEqual({ status: { count: 8 } });
        expect(await command({ countDocuments: { filter: { _id: { $in: [1, 2, 99] } } } })).toEqual({ status: { count: 2 } });
        expect(await command({ countDocuments: { filter: { group: 7 } } })).toEqual({ status: { count: 0 } });
      });

      it('countDocuments follows deletes and inserts', async () => {
        await seed();
        await command({ deleteMany: { filter: { group: 0 } } });
        expect(await command({ countDocuments: { filter: {} } })).toEqual({ status: { count: 30 } });
        await command({ insertOne: { document: { _id: 'new', group: 0 } } });
        expect(await command({ countDocuments: { filter: { group: 0 } } })).toEqual({ status: { count: 1 } });
      });

      it('countDocuments refuses options: COMMAND_ACCEPTS_NO_OPTIONS; {} is fine', async () => {
        await seed();
        expectError(await command({ countDocuments: { filter: {}, options: { limit: 5 } } }), 'COMMAND_ACCEPTS_NO_OPTIONS');
        expect(await command({ countDocuments: { filter: {}, options: {} } })).toEqual({ status: { count: 45 } });
      });

      it('countDocuments with a bad filter: FILTER_UNSUPPORTED_OPERATOR', async () => {
        await seed();
        expectError(await command({ countDocuments: { filter: { group: { $regex: '1' } } } }), 'FILTER_UNSUPPORTED_OPERATOR');
      });

      it('estimatedDocumentCount: {status:{count}}', async () => {
        await seed();
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 45 } });
        await command({ deleteOne: { filter: { _id: 0 } } });
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 44 } });
      });

      it('estimatedDocumentCount follows every kind of write after the first count, and writes racing it', async () => {
        await seed();
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 45 } });
        await command({ insertMany: { documents: [{ _id: 'a' }, { _id: 'b' }, { _id: 0 }], options: { ordered: false } } }); // one duplicate
        await command({ updateOne: { filter: { _id: 'new' }, update: { $set: { x: 1 } }, options: { upsert: true } } });
        await command({ updateMany: { filter: { group: 1 }, update: { $set: { y: 1 } } } });
        await command({ findOneAndReplace: { filter: { _id: 'a' }, replacement: { z: 1 } } });
        await command({ deleteMany: { filter: { group: 2 } } }); // 15 of them, at most 20 per request
        await command({ findOneAndDelete: { filter: { _id: 'b' } } });
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 45 + 2 + 1 - 15 - 1 } });
        await command({ deleteMany: {} });
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 0 } });
        // Counts requested while inserts land: once all settle, the estimate is exact.
        const racing = Array.from({ length: 10 }, (_, i) =>
          Promise.all([command({ insertMany: { documents: [{ _id: `r${i}a` }, { _id: `r${i}b` }] } }), command({ estimatedDocumentCount: {} })]),
        );
        await Promise.all(racing);
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 20 } });
        await command({ deleteOne: { filter: { _id: 'r0a' } } });
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 19 } });
      });

      it('estimatedDocumentCount refuses options and fields', async () => {
        await seed();
        expectError(await command({ estimatedDocumentCount: { options: { x: 1 } } }), 'COMMAND_ACCEPTS_NO_OPTIONS');
        expectError(await command({ estimatedDocumentCount: { filter: {} } }), 'COMMAND_FIELD_UNKNOWN');
        expect(await command({ estimatedDocumentCount: { options: {} } })).toEqual({ status: { count: 45 } });
      });
    });

    describe('over the count cap (maxCountDocuments: 10)', () => {
      const ctx = useDatabase(factory, { limits: { maxCountDocuments: 10 } });
      const command = (body: unknown) => onCollection(ctx.db, 'c', body);

      it('more matches than the cap: count = cap and moreData true', async () => {
        await createCollection(ctx.db, 'c');
        await insertAll(ctx.db, 'c', DOCS);
        expect(await command({ countDocuments: { filter: {} } })).toEqual({ status: { count: 10, moreData: true } });
        expect(await command({ countDocuments: { filter: { group: 2 } } })).toEqual({ status: { count: 10, moreData: true } });
      });

      it('exactly the cap: an exact count without moreData', async () => {
        await createCollection(ctx.db, 'c');
        await insertAll(ctx.db, 'c', DOCS.slice(0, 10));
        expect(await command({ countDocuments: { filter: {} } })).toEqual({ status: { count: 10 } });
      });

      it('under the cap: exact', async () => {
        await createCollection(ctx.db, 'c');
        await insertAll(ctx.db, 'c', DOCS);
        expect(await command({ countDocuments: { filter: { _id: { $lt: 9 } } } })).toEqual({ status: { count: 9 } });
      });

      it('estimatedDocumentCount is not capped', async () => {
        await createCollection(ctx.db, 'c');
        await insertAll(ctx.db, 'c', DOCS);
        expect(await command({ estimatedDocumentCount: {} })).toEqual({ status: { count: 45 } });
      });
    });
  });
}
