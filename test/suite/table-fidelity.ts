/**
 * Shared suite: where tables answer as the Data API over Cassandra does (issue #30, second pass): delete
 * counts, filters refused on partition keys, vector metrics, columns added back, index listings, row
 * liveness and the partitions' token order.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { expectNoErrors, tableCommands, useDatabase } from './helpers.js';

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
  });
}
