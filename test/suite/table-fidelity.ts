/**
 * Shared suite: where tables answer as the Data API over Cassandra does (issue #30, second pass): delete
 * counts, filters refused on partition keys, vector metrics, columns added back, index listings, row
 * liveness and the partitions' token order.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { KS, expectError, expectNoErrors, run, tableCommands, useDatabase, type Doc } from './helpers.js';

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
    it('createVectorIndex takes the metric in any case, lists it in the Data API spelling, and a source model implies its metric', async () => {
      await createTable('v', { columns: { id: 'int', e: { type: 'vector', dimension: 2 }, d: { type: 'vector', dimension: 2 }, o: { type: 'vector', dimension: 2 }, c: { type: 'vector', dimension: 2 } }, primaryKey: 'id' });
      const vectorIndex = (name: string, column: string, options?: Doc) => onTable('v', { createVectorIndex: { name, definition: { column, ...(options ? { options } : {}) } } });
      expectNoErrors(await vectorIndex('v_e', 'e', { metric: 'EUCLIDEAN' }));
      expectNoErrors(await vectorIndex('v_d', 'd', { metric: 'Dot_Product' }));
      expectNoErrors(await vectorIndex('v_o', 'o', { sourceModel: 'openai-v3-large' }));
      expectError(await vectorIndex('v_x', 'c', { metric: 'manhattan' }), 'UNKNOWN_VECTOR_METRIC');
      expectError(await vectorIndex('v_y', 'c', { sourceModel: 'word2vec' }), 'UNKNOWN_VECTOR_SOURCE_MODEL');
      expectNoErrors(await vectorIndex('v_c', 'c'));
      const listed = expectNoErrors(await onTable('v', { listIndexes: { options: { explain: true } } })).status?.indexes as Doc[];
      const options = Object.fromEntries(listed.map((index) => [index.name, (index.definition as Doc).options]));
      expect(options).toEqual({
        v_e: { metric: 'euclidean', sourceModel: 'other' },
        v_d: { metric: 'dot_product', sourceModel: 'other' },
        v_o: { metric: 'dot_product', sourceModel: 'openai-v3-large' },
        v_c: { metric: 'cosine', sourceModel: 'other' },
      });
      // The metric is the one searched with: euclidean's 1 / (1 + d^2), not cosine's (1 + cos) / 2.
      expectNoErrors(await onTable('v', { insertMany: { documents: [{ id: 1, e: [1, 0] }, { id: 2, e: [0, 1] }] } }));
      const nearest = expectNoErrors(await onTable('v', { find: { sort: { e: [1, 0] }, options: { includeSimilarity: true }, projection: { id: 1 } } }));
      expect((nearest.data as { documents: Doc[] }).documents).toEqual([{ id: 1, $similarity: 1 }, { id: 2, $similarity: 0.33333334 }]);
    });
    it('alterTable adds back a dropped column with its type (without its old values), and refuses another type', async () => {
      await createTable('a', { columns: { id: 'int', gone: 'int', tags: { type: 'set', valueType: 'text' } }, primaryKey: 'id' });
      expectNoErrors(await onTable('a', { insertMany: { documents: [{ id: 1, gone: 5, tags: ['x'] }, { id: 2 }] } }));
      const alter = (operation: Doc) => onTable('a', { alterTable: { operation } });
      expectNoErrors(await alter({ drop: { columns: ['gone', 'tags'] } }));
      expectNoErrors(await alter({ add: { columns: { gone: 'int', tags: { type: 'set', valueType: 'text' } } } }));
      expect(await rows('a')).toEqual(expect.arrayContaining([{ id: 1 }, { id: 2 }])); // the values written before the drop stay gone
      expectNoErrors(await onTable('a', { insertOne: { document: { id: 3, gone: 7 } } }));
      expect(await rows('a', { filter: { id: 3 } })).toEqual([{ id: 3, gone: 7 }]);
      expectNoErrors(await alter({ drop: { columns: ['gone'] } }));
      const error = expectError(await alter({ add: { columns: { gone: 'text' } } }), 'CANNOT_ADD_PREVIOUSLY_DROPPED_COLUMN');
      expect(error.message).toContain('"int"');
      expectNoErrors(await alter({ add: { columns: { gone: { type: 'int' } } } }));
      expect(await rows('a', { filter: { id: 3 } })).toEqual([{ id: 3 }]);
    });
    it('listIndexes: a whole map index by its plain column name, collection indexes with only the options the Data API shows', async () => {
      const map = (keyType: string, valueType: string) => ({ type: 'map', keyType, valueType });
      await createTable('ix', { columns: { id: 'int', s: 'text', n: 'int', m1: map('text', 'int'), m2: map('text', 'int'), m3: map('int', 'text'), m4: map('text', 'text'), l: { type: 'list', valueType: 'text' } }, primaryKey: 'id' });
      const index = async (name: string, column: unknown, options?: Doc) => expectNoErrors(await onTable('ix', { createIndex: { name, definition: { column, ...(options ? { options } : {}) } } }));
      await index('i_s', 's');
      await index('i_n', 'n');
      await index('i_m1', 'm1');
      await index('i_m2', { m2: '$keys' });
      await index('i_m3', { m3: '$values' }, { caseSensitive: false });
      await index('i_m4', { m4: '$keys' });
      await index('i_l', 'l');
      const listed = expectNoErrors(await onTable('ix', { listIndexes: { options: { explain: true } } })).status?.indexes as Doc[];
      const defaults = { ascii: false, caseSensitive: true, normalize: false };
      expect(Object.fromEntries(listed.map((i) => [i.name, i.definition]))).toEqual({
        i_s: { column: 's', options: defaults },
        i_n: { column: 'n', options: {} },
        i_m1: { column: 'm1', options: {} },
        i_m2: { column: { m2: '$keys' }, options: {} },
        i_m3: { column: { m3: '$values' }, options: { ...defaults, caseSensitive: false } },
        i_m4: { column: { m4: '$keys' }, options: {} },
        i_l: { column: { l: '$values' }, options: {} },
      });
      // The listed definition creates the same index again.
      expectNoErrors(await run(ctx.db, { dropIndex: { name: 'i_m1' } }, { keyspace: KS }));
      await index('i_m1', 'm1');
      expectNoErrors(await onTable('ix', { insertOne: { document: { id: 1, m1: { a: 1 } } } }));
      expect(await rows('ix', { filter: { m1: { $in: [['a', 1]] } }, projection: { id: 1 } })).toEqual([{ id: 1 }]);
    });

    it('an entries index on a map takes no analyze options (CANNOT_ANALYZE_ENTRIES_ON_MAP_COLUMNS); {} is no options', async () => {
      await createTable('me', { columns: { id: 'int', m: { type: 'map', keyType: 'text', valueType: 'text' } }, primaryKey: 'id' });
      const create = async (name: string, column: unknown, options?: Doc) => onTable('me', { createIndex: { name, definition: { column, ...(options ? { options } : {}) } } });
      const refused = await create('i_e', { m: '$entries' }, { caseSensitive: false });
      expectError(refused, 'CANNOT_ANALYZE_ENTRIES_ON_MAP_COLUMNS');
      expect(refused.errors?.[0]?.message).toContain('Index function `entries` can not apply to map column when analyze options are specified.');
      expectError(await create('i_w', 'm', { ascii: true }), 'CANNOT_ANALYZE_ENTRIES_ON_MAP_COLUMNS');
      expectNoErrors(await create('i_ok', { m: '$entries' }, {}));
      expectNoErrors(await create('i_v', { m: '$values' }, { caseSensitive: false }));
    });
    it('row liveness: a row only an update created goes once its non-key columns are unset; an inserted row stays', async () => {
      await createTable('live', { columns: { id: 'int', k: 'int', x: 'text', y: 'int' }, primaryKey: { partitionBy: ['id'], partitionSort: { k: 1 } } });
      const update = (id: number, change: Doc) => onTable('live', { updateOne: { filter: { id, k: 1 }, update: change } });
      const row = async (id: number) => rows('live', { filter: { id, k: 1 } });
      expectNoErrors(await update(1, { $set: { x: 'a', y: 2 } })); // created by an update: no row marker
      expect(await row(1)).toEqual([{ id: 1, k: 1, x: 'a', y: 2 }]);
      expectNoErrors(await update(1, { $unset: { x: '' } }));
      expect(await row(1)).toEqual([{ id: 1, k: 1, y: 2 }]);
      expect((await update(1, { $set: { y: null } })).status).toEqual({ matchedCount: 1, modifiedCount: 1 });
      expect(await row(1)).toEqual([]); // every non-key column null or unset: the row is gone
      expect((await update(1, { $unset: { x: '' } })).status).toEqual({ matchedCount: 0, modifiedCount: 0 });
      expect(await row(1)).toEqual([]);

      expectNoErrors(await onTable('live', { insertOne: { document: { id: 2, k: 1, x: 'b' } } }));
      expectNoErrors(await update(2, { $unset: { x: '' } }));
      expect(await row(2)).toEqual([{ id: 2, k: 1 }]); // inserted: its primary key keeps it alive

      expectNoErrors(await update(3, { $set: { x: 'c' } }));
      expectNoErrors(await onTable('live', { insertOne: { document: { id: 3, k: 1 } } })); // an insert writes the marker
      expectNoErrors(await update(3, { $unset: { x: '' } }));
      expect(await row(3)).toEqual([{ id: 3, k: 1 }]);
      expect(await rows('live', { projection: { id: 1 } })).toHaveLength(2);
    });
    it('partitions come back in Murmur3 token order (clustering order within each) in finds, pages and findOne', async () => {
      await createTable('tok', { columns: { pk: 'int', c: 'int' }, primaryKey: { partitionBy: ['pk'], partitionSort: { c: -1 } } });
      const documents = [3, 1, 6, 2, 5, 4].flatMap((pk) => [1, 2, 3, 4, 5].map((c) => ({ pk, c })));
      for (let i = 0; i < documents.length; i += 15) expectNoErrors(await onTable('tok', { insertMany: { documents: documents.slice(i, i + 15) } }));
      // Cassandra's tokens: 5 -7509452495886106294, 1 -4069959284402364209, 2 -3248873570005575792,
      // 4 -2729420104000364805, 6 2705480034054113608, 3 9010454139840013625.
      const expected = [5, 1, 2, 4, 6, 3].flatMap((pk) => [5, 4, 3, 2, 1].map((c) => ({ pk, c })));
      const first = expectNoErrors(await onTable('tok', { find: {} })).data as { documents: Doc[]; nextPageState: string | null };
      expect(first.documents).toEqual(expected.slice(0, 20));
      const second = expectNoErrors(await onTable('tok', { find: { options: { pageState: first.nextPageState } } })).data as { documents: Doc[]; nextPageState: string | null };
      expect(second.documents).toEqual(expected.slice(20));
      expect(second.nextPageState).toBeNull();
      expect((expectNoErrors(await onTable('tok', { findOne: {} })).data as { document: Doc }).document).toEqual({ pk: 5, c: 5 });
      expect(await rows('tok', { filter: { pk: 2 }, options: { limit: 2 } })).toEqual([{ pk: 2, c: 5 }, { pk: 2, c: 4 }]);
      expect(await rows('tok', { filter: { pk: 2, c: 3 } })).toEqual([{ pk: 2, c: 3 }]);
      expect(await rows('tok', { filter: { c: 3 } })).toEqual([5, 1, 2, 4, 6, 3].map((pk) => ({ pk, c: 3 })));
    });
  });
}
