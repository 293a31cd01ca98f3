/**
 * Shared suite: where tables answer as the Data API over Cassandra does (issue #30, second pass): delete
 * counts, filters refused on partition keys, vector metrics, columns added back, index listings, row
 * liveness and the partitions' token order.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { expectError, expectNoErrors, tableCommands, useDatabase } from './helpers.js';

export function tableFidelitySuite(factory: DbFactory): void {
  describe(`tables as Cassandra [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const { onTable, createTable, rows } = tableCommands(ctx);

    it('deleteOne and deleteMany answer deletedCount -1, whatever they deleted (Cassandra does not count)', async () => {
      await createTable('t', { columns: { p: 'int', c: 'int', v: 'text' }, primaryKey: { partitionBy: ['p'], partitionSort: { c: 1 } } });
      expectNoErrors(await onTable('t', { insertMany: { documents: [{ p: 1, c: 1 }, { p: 1, c: 2 }, { p: 2, c: 1 }] } }));
      expect((await onTable('t', { deleteOne: { filter: { p: 1, c: 1 } } })).status).toEqual({ deletedCount: -1 });
      expect((await onTable('t', { deleteOne: { filter: { p: 9, c: 9 } } })).status).toEqual({ deletedCount: -1 });
      expect((await onTable('t', { deleteMany: { filter: { p: 1 } } })).status).toEqual({ deletedCount: -1 });
      expect((await onTable('t', { deleteMany: { filter: { p: 7 } } })).status).toEqual({ deletedCount: -1 });
      expect(await rows('t')).toEqual([{ p: 2, c: 1 }]);
      expect((await onTable('t', { deleteMany: { filter: {} } })).status).toEqual({ deletedCount: -1 });
      expect(await rows('t')).toEqual([]);
    });

    it('$or, $nor and $not over a partition key column are refused as Cassandra refuses them (INVALID_DATABASE_QUERY)', async () => {
      await createTable('t', { columns: { p: 'int', c: 'int', v: 'text' }, primaryKey: { partitionBy: ['p'], partitionSort: { c: 1 } } });
      expectNoErrors(await onTable('t', { insertMany: { documents: [{ p: 1, c: 1, v: 'a' }, { p: 2, c: 1, v: 'b' }] } }));
      for (const filter of [{ $or: [{ p: 1 }, { p: 2 }] }, { $or: [{ p: 1 }] }, { $or: [{ v: 'a' }, { $and: [{ p: 2 }, { c: 1 }] }] }, { $nor: [{ p: 1 }] }, { $not: { p: 1 } }]) {
        for (const command of [{ find: { filter } }, { findOne: { filter } }, { deleteMany: { filter } }]) {
          const error = expectError(await onTable('t', command), 'INVALID_DATABASE_QUERY');
          expect(error.message).toContain('Restriction on partition key column p must not be nested under OR operator');
        }
      }
      // Clustering and regular columns may be under $or; the partition key at the top level is fine with it.
      expect(await rows('t', { filter: { p: 1, $or: [{ c: 1 }, { v: 'z' }] } })).toEqual([{ p: 1, c: 1, v: 'a' }]);
      expect((await rows('t', { filter: { $or: [{ c: 1 }, { v: 'b' }] } })).length).toBe(2);
      expect(await rows('t')).toHaveLength(2);
    });
  });
}
