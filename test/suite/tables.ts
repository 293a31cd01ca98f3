/**
 * Shared suite: tables, the Data API's second data model (createTable and the table commands). Types
 * (what each column type accepts, refuses and returns), keys (composite partitions, clustering order,
 * upserts), filters (every operator, collections, warnings), sorts and the error codes of bad requests.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { KS, expectError, expectNoErrors, run, tableCommands, useDatabase, type Doc } from './helpers.js';

/** A column type, values it accepts with what it returns, and values it refuses (INVALID_COLUMN_VALUES). */
interface TypeCase {
  readonly type: unknown;
  readonly good: readonly (readonly [unknown, unknown])[];
  readonly bad: readonly unknown[];
}

const V1 = 'd2b0e3b0-0000-11ee-8000-000000000001';
const TYPE_CASES: Record<string, TypeCase> = {
  c_int: { type: 'int', good: [[5, 5], [-2147483648, -2147483648]], bad: [1.5, '5', 2147483648, true] },
  c_tinyint: { type: 'tinyint', good: [[-128, -128]], bad: [128] },
  c_smallint: { type: 'smallint', good: [[32767, 32767]], bad: [32768] },
  c_bigint: { type: 'bigint', good: [[9007199254740991, 9007199254740991], [-42, -42], [9000000000000000123n, 9000000000000000123n]], bad: [1.5, '42', 2 ** 64] },
  // Past a double's safe integers a varint comes back exact (a bigint in process, digits on the wire), as the Data API's.
  c_varint: { type: 'varint', good: [[2 ** 70, 1180591620717411303424n], [12321321321312312321312312321n, 12321321321312312321312312321n], [7, 7]], bad: ['7', 1.5] },
  c_decimal: { type: 'decimal', good: [[1.5, 1.5], [0.000123, 0.000123], [1e21, 1e21], [-0.5, -0.5], [1e-7, 1e-7]], bad: ['1.5', 'NaN'] },
  c_float: { type: 'float', good: [[1.1, 1.1], [1.34234, 1.34234], [0.1 + 0.2, 0.3], ['NaN', 'NaN']], bad: ['x'] },
  c_double: { type: 'double', good: [[Math.PI, Math.PI], ['-Infinity', '-Infinity']], bad: [{}] },
  c_boolean: { type: 'boolean', good: [[false, false]], bad: ['true', 0] },
  c_text: { type: 'text', good: [['héllo \u{1F600}', 'héllo \u{1F600}']], bad: [5] },
  c_ascii: { type: 'ascii', good: [['plain', 'plain']], bad: ['é'] },
  c_date: { type: 'date', good: [['2024-02-29', '2024-02-29'], ['-0001-01-01', '-0001-01-01'], ['+500000-12-31', '+500000-12-31']], bad: ['2023-02-29', '2024/01/01', 20240101, '+2000-01-01'] },
  c_time: { type: 'time', good: [['12:34', '12:34:00'], ['23:59:59.123456789', '23:59:59.123456789'], ['23:59:00.', '23:59:00']], bad: ['24:00:00', 'noon', '1:00:00', '00:00:00.0000000000'] },
  c_timestamp: { type: 'timestamp', good: [['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z'], ['2024-01-01T01:00:00+01:00', '2024-01-01T00:00:00.000Z']], bad: ['yesterday', 3123123] },
  c_duration: { type: 'duration', good: [['1h30m', 'PT1H30M'], ['P1Y2M3D', 'P1Y2M3D'], ['-2w', '-P14D'], ['PT0.5S', 'PT0.5S']], bad: ['1x', ''] },
  c_uuid: { type: 'uuid', good: [['123E4567-E89B-12D3-A456-426614174000', '123e4567-e89b-12d3-a456-426614174000']], bad: ['nope'] },
  c_timeuuid: { type: 'timeuuid', good: [[V1, V1]], bad: ['123e4567-e89b-42d3-a456-426614174000'] },
  c_inet: { type: 'inet', good: [['10.0.0.1', '10.0.0.1'], ['::1', '0:0:0:0:0:0:0:1'], ['::ffff:192.168.0.1', '192.168.0.1'], ['127.1', '127.0.0.1'], ['192.168.36095', '192.168.140.255'], ['2001:0DB8:85a3::8a2e:370:7334', '2001:db8:85a3:0:0:8a2e:370:7334']], bad: ['300.1.1.1', 'host', '127.0.0.1/16', '10.10.10.1000'] },
  c_blob: { type: 'blob', good: [[{ $binary: 'AQID' }, { $binary: 'AQID' }]], bad: ['AQID', { $binary: '***' }] },
  c_vector: { type: { type: 'vector', dimension: 2 }, good: [[[1, 0.5], [1, 0.5]], [{ $binary: 'P4AAAD8AAAA=' }, [1, 0.5]]], bad: [[1], ['a', 1], [1, 2, 3]] },
  c_list: { type: { type: 'list', valueType: 'int' }, good: [[[3, 1, 3], [3, 1, 3]]], bad: [[1, 'x'], 5, [null]] },
  c_set: { type: { type: 'set', valueType: 'text' }, good: [[['b', 'a', 'b'], ['a', 'b']]], bad: [[1]] },
  c_map: { type: { type: 'map', keyType: 'text', valueType: 'int' }, good: [[{ b: 2, a: 1 }, { a: 1, b: 2 }], [[['x', 9]], { x: 9 }]], bad: [{ a: 'x' }, [['a']], []] },
  c_imap: { type: { type: 'map', keyType: 'int', valueType: 'text' }, good: [[[[2, 'x'], [1, 'y']], [[1, 'y'], [2, 'x']]]], bad: [{ a: 'x' }] },
};

export function tablesSuite(factory: DbFactory): void {
  describe(`tables [${factory.name}]`, () => {
    const ctx = useDatabase(factory, { limits: { maxCollections: 6 } });
    const { onTable, createTable, rows } = tableCommands(ctx);

    it('types: every column type accepts, coerces and returns its values, and refuses others', async () => {
      const columns: Doc = { id: 'int' };
      for (const [column, { type }] of Object.entries(TYPE_CASES)) columns[column] = type;
      await createTable('types', { columns, primaryKey: 'id' });
      let id = 0;
      for (const [column, { good, bad }] of Object.entries(TYPE_CASES)) {
        for (const [input, output] of good) {
          const key = ++id;
          expectNoErrors(await onTable('types', { insertOne: { document: { id: key, [column]: input } } }));
          const found = await onTable('types', { findOne: { filter: { id: key }, projection: { [column]: 1 } } });
          expect((found.data as { document: Doc }).document, `${column} <- ${String(input)}`).toEqual({ [column]: output });
          expect((found.status?.projectionSchema as Doc)[column]).toEqual(typeof columns[column] === 'string' ? { type: columns[column] } : columns[column]);
        }
        for (const input of bad) {
          const response = await onTable('types', { insertOne: { document: { id: ++id, [column]: input } } });
          expect(response.errors?.[0]?.errorCode, `${column} <- ${String(input)}`).toBe('INVALID_COLUMN_VALUES');
        }
      }
      // A missing column reads back as absent; null or an empty collection deletes a value.
      expectNoErrors(await onTable('types', { insertOne: { document: { id: 1, c_int: null } } }));
      expect(await rows('types', { filter: { id: 1 } })).toEqual([{ id: 1 }]);
    });

    it('user-defined types: created, used by a column, listed, altered and dropped', async () => {
      expectNoErrors(await run(ctx.db, { createType: { name: 'point', definition: { fields: { x: 'int', y: 'int' } } } }, { keyspace: KS }));
      await createTable('shapes', { columns: { id: 'text', at: { type: 'userDefined', udtName: 'point' }, path: { type: 'list', valueType: { type: 'userDefined', udtName: 'point' } } }, primaryKey: 'id' });
      expectNoErrors(await onTable('shapes', { insertOne: { document: { id: 's', at: { x: 1, y: 2 }, path: [{ x: 0 }, { y: 1 }] } } }));
      expect(await rows('shapes')).toEqual([{ id: 's', at: { x: 1, y: 2 }, path: [{ x: 0 }, { y: 1 }] }]);
      expectError(await onTable('shapes', { insertOne: { document: { id: 't', at: { z: 1 } } } }), 'INVALID_COLUMN_VALUES');
      const types = await run(ctx.db, { listTypes: { options: { explain: true } } }, { keyspace: KS });
      expect(types.status?.types).toMatchObject([{ type: 'userDefined', udtName: 'point', definition: { fields: { x: { type: 'int' }, y: { type: 'int' } } } }]);
      expectNoErrors(await run(ctx.db, { alterType: { name: 'point', add: { fields: { z: 'int' } } } }, { keyspace: KS }));
      expectNoErrors(await onTable('shapes', { insertOne: { document: { id: 't', at: { z: 3 } } } }));
      expectError(await run(ctx.db, { alterType: { name: 'point', add: { fields: { z: 'int' } } } }, { keyspace: KS }), 'CANNOT_ADD_EXISTING_FIELD');
      expectError(await run(ctx.db, { dropType: { name: 'point' } }, { keyspace: KS }), 'CANNOT_DROP_TYPE_USED_BY_TABLE');
      expectError(await run(ctx.db, { createType: { name: 'point', definition: { fields: { x: 'int' } } } }, { keyspace: KS }), 'CANNOT_ADD_EXISTING_TYPE');
      expectNoErrors(await run(ctx.db, { dropTable: { name: 'shapes' } }, { keyspace: KS }));
      expectNoErrors(await run(ctx.db, { dropType: { name: 'point' } }, { keyspace: KS }));
      expect((await run(ctx.db, { listTypes: {} }, { keyspace: KS })).status?.types).toEqual([]);
      expectError(await run(ctx.db, { createTable: { name: 'bad', definition: { columns: { id: 'int', p: { type: 'userDefined', udtName: 'point' } }, primaryKey: 'id' } } }, { keyspace: KS }), 'UNKNOWN_USER_DEFINED_TYPE');
    });

    it('keys: composite partitions, clustering order (ascending and descending), upserts that keep other columns', async () => {
      await createTable('keyed', {
        columns: { a: 'text', b: 'int', c: 'int', d: 'text', v: 'text', w: 'text' },
        primaryKey: { partitionBy: ['a', 'b'], partitionSort: { c: 1, d: -1 } },
      });
      const all: Doc[] = [];
      for (const a of ['x', 'y']) for (const b of [2, -1]) for (const c of [10, -5, 0]) for (const d of ['', 'b', 'a', 'é']) all.push({ a, b, c, d, v: `${a}${b}${c}${d}` });
      for (let i = 0; i < all.length; i += 20) {
        const response = expectNoErrors(await onTable('keyed', { insertMany: { documents: all.slice(i, i + 20) } }));
        expect(response.status?.primaryKeySchema).toEqual({ a: { type: 'text' }, b: { type: 'int' }, c: { type: 'int' }, d: { type: 'text' } });
        expect((response.status?.insertedIds as unknown[])[0]).toEqual([all[i]!.a, all[i]!.b, all[i]!.c, all[i]!.d]);
      }
      const partition = await rows('keyed', { filter: { a: 'x', b: -1 } });
      expect(partition.map((r) => [r.c, r.d])).toEqual([-5, 0, 10].flatMap((c) => ['é', 'b', 'a', ''].map((d) => [c, d])));
      expect((await rows('keyed', { filter: { a: 'y', b: 2, c: 0 } })).map((r) => r.d)).toEqual(['é', 'b', 'a', '']);
      expect((await rows('keyed', { filter: { a: 'y', b: 2, c: { $gt: -5 }, d: { $lte: 'b' } } })).map((r) => `${r.c}${r.d}`)).toEqual(['0b', '0a', '0', '10b', '10a', '10']);
      // CQL INSERT is an upsert: the given columns replace, the others stay; null deletes one.
      expectNoErrors(await onTable('keyed', { insertOne: { document: { a: 'x', b: 2, c: 0, d: 'a', w: 'added' } } }));
      expect(await rows('keyed', { filter: { a: 'x', b: 2, c: 0, d: 'a' } })).toEqual([{ a: 'x', b: 2, c: 0, d: 'a', v: 'x20a', w: 'added' }]);
      expectNoErrors(await onTable('keyed', { insertOne: { document: { a: 'x', b: 2, c: 0, d: 'a', v: null } } }));
      expect(await rows('keyed', { filter: { a: 'x', b: 2, c: 0, d: 'a' } })).toEqual([{ a: 'x', b: 2, c: 0, d: 'a', w: 'added' }]);
      const insertMany = await onTable('keyed', { insertMany: { documents: [{ a: 'z', b: 1, c: 1, d: 'q' }, { a: 'z', b: 1 }, { a: 'z', b: 1, c: 2, d: 'q' }], options: { ordered: true, returnDocumentResponses: true } } });
      expect(insertMany.status?.documentResponses).toEqual([
        { _id: ['z', 1, 1, 'q'], status: 'OK' },
        { _id: null, status: 'ERROR', errorsIdx: 0 },
        { _id: null, status: 'SKIPPED' },
      ]);
      expect(insertMany.errors?.[0]?.errorCode).toBe('MISSING_PRIMARY_KEY_COLUMNS');
      // Paging over every row returns each once.
      const seen: Doc[] = [];
      let pageState: string | null = null;
      do {
        const response = expectNoErrors(await onTable('keyed', { find: { options: pageState ? { pageState } : {} } }));
        const data = response.data as { documents: Doc[]; nextPageState: string | null };
        seen.push(...data.documents);
        pageState = data.nextPageState;
      } while (pageState);
      expect(seen).toHaveLength(all.length + 1);
      expect(new Set(seen.map((r) => JSON.stringify([r.a, r.b, r.c, r.d]))).size).toBe(all.length + 1);
    });

    it('filters: scalar operators, $or, lists, sets and maps, indexes and the Data API warnings', async () => {
      await createTable('f', {
        columns: { id: 'int', n: 'int', s: 'text', t: 'timestamp', dec: 'decimal', tags: { type: 'set', valueType: 'text' }, l: { type: 'list', valueType: 'int' }, m: { type: 'map', keyType: 'text', valueType: 'text' } },
        primaryKey: 'id',
      });
      const docs = Array.from({ length: 20 }, (_, i) => ({ id: i, n: i % 5, s: `s${i % 4}`, t: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(), dec: i + 0.25, tags: [`t${i % 3}`, 'all'], l: [i, i + 1], m: { k: `v${i % 2}`, [`only${i}`]: 'x' } }));
      expectNoErrors(await onTable('f', { insertMany: { documents: docs } }));
      const ids = async (filter: Doc): Promise<number[]> => (await rows('f', { filter, projection: { id: 1 } })).map((r) => r.id as number).sort((a, b) => a - b);
      const expected = (pred: (d: (typeof docs)[number]) => boolean): number[] => docs.filter(pred).map((d) => d.id);
      expect(await ids({ n: 2 })).toEqual(expected((d) => d.n === 2));
      expect(await ids({ n: { $ne: 2 } })).toEqual(expected((d) => d.n !== 2));
      expect(await ids({ n: { $in: [1, 3] } })).toEqual(expected((d) => d.n === 1 || d.n === 3));
      expect(await ids({ n: { $nin: [1, 3] } })).toEqual(expected((d) => d.n !== 1 && d.n !== 3));
      expect(await ids({ n: { $gt: 1, $lte: 3 } })).toEqual(expected((d) => d.n > 1 && d.n <= 3));
      expect(await ids({ s: { $lt: 's2' } })).toEqual(expected((d) => d.s < 's2'));
      expect(await ids({ t: { $gte: '2024-01-15T00:00:00Z' } })).toEqual(expected((d) => d.id >= 14));
      expect(await ids({ dec: { $gt: 9.25 } })).toEqual(expected((d) => d.id > 9));
      expect(await ids({ $or: [{ n: 0 }, { s: 's1' }] })).toEqual(expected((d) => d.n === 0 || d.s === 's1'));
      expect(await ids({ tags: { $in: ['t1'] } })).toEqual(expected((d) => d.tags.includes('t1')));
      expect(await ids({ tags: { $all: ['t1', 'all'] } })).toEqual(expected((d) => d.tags.includes('t1')));
      expect(await ids({ tags: { $nin: ['t1', 't2'] } })).toEqual(expected((d) => d.id % 3 === 0));
      expect(await ids({ l: { $in: [5] } })).toEqual([4, 5]);
      expect(await ids({ m: { $all: [['k', 'v1']] } })).toEqual(expected((d) => d.id % 2 === 1));
      expect(await ids({ m: { $keys: { $in: ['only7'] } } })).toEqual([7]);
      expect(await ids({ m: { $values: { $nin: ['v0'] } } })).toEqual(expected((d) => d.id % 2 === 1));
      // A filter on a column without an index reads the whole table and says so; an index removes the warning.
      const scan = await onTable('f', { find: { filter: { s: 's1' } } });
      expect((scan.status?.warnings as { errorCode: string }[]).map((w) => w.errorCode)).toEqual(['MISSING_INDEX']);
      expect(((await onTable('f', { find: {} })).status?.warnings as { errorCode: string }[]).map((w) => w.errorCode)).toEqual(['ZERO_FILTER_OPERATIONS']);
      expectNoErrors(await onTable('f', { createIndex: { name: 'f_s', definition: { column: 's' } } }));
      expectNoErrors(await onTable('f', { createIndex: { name: 'f_m', definition: { column: { m: '$entries' } } } }));
      const indexed = expectNoErrors(await onTable('f', { find: { filter: { s: 's1' } } }));
      expect(indexed.status?.warnings).toBeUndefined();
      expect(await ids({ s: 's1' })).toEqual(expected((d) => d.s === 's1'));
      expect(await ids({ m: { $all: [['k', 'v0'], ['only4', 'x']] } })).toEqual([4]);
      // Writes keep the indexes in step.
      expectNoErrors(await onTable('f', { updateOne: { filter: { id: 1 }, update: { $set: { s: 's3', m: { k: 'v0' } } } } }));
      expect(await ids({ s: 's1' })).toEqual(expected((d) => d.s === 's1' && d.id !== 1));
      expect(await ids({ m: { $all: [['k', 'v0']] } })).toEqual([...expected((d) => d.id % 2 === 0), 1].sort((a, b) => a - b));
      expectNoErrors(await onTable('f', { deleteOne: { filter: { id: 5 } } }));
      expect(await ids({ s: 's1' })).toEqual(expected((d) => d.s === 's1' && d.id !== 1 && d.id !== 5));
      expectError(await onTable('f', { find: { filter: { nope: 1 } } }), 'UNKNOWN_TABLE_COLUMNS');
      expectError(await onTable('f', { find: { filter: { n: 'x' } } }), 'INVALID_FILTER_COLUMN_VALUES');
      expectError(await onTable('f', { find: { filter: { n: { $regex: 'x' } } } }), 'FILTER_UNSUPPORTED_OPERATOR');
      expectError(await onTable('f', { find: { filter: { tags: 't1' } } }), 'INVALID_MAP_SET_LIST_FILTER');
    });

    it('sorts: columns ascending and descending, several columns, skip and limit, and vector sorts', async () => {
      await createTable('s', { columns: { id: 'int', g: 'text', n: 'double', v: { type: 'vector', dimension: 2 } }, primaryKey: 'id' });
      const docs = Array.from({ length: 12 }, (_, i) => ({ id: i, g: i % 2 ? 'odd' : 'even', n: (i * 7) % 12, v: [Math.cos(i / 4), Math.sin(i / 4)] }));
      expectNoErrors(await onTable('s', { insertMany: { documents: docs } }));
      const sorted = async (sort: Doc, options: Doc = {}): Promise<number[]> => (await rows('s', { sort, options, projection: { id: 1 } })).map((r) => r.id as number);
      expect(await sorted({ n: 1 })).toEqual([...docs].sort((a, b) => a.n - b.n).map((d) => d.id));
      expect(await sorted({ n: -1 }, { limit: 3 })).toEqual([...docs].sort((a, b) => b.n - a.n).slice(0, 3).map((d) => d.id));
      expect(await sorted({ g: 1, n: -1 }, { skip: 2, limit: 4 })).toEqual([...docs].sort((a, b) => a.g.localeCompare(b.g) || b.n - a.n).slice(2, 6).map((d) => d.id));
      expectError(await onTable('s', { find: { sort: { v: [1, 0] } } }), 'VECTOR_SORT_NOT_INDEXED');
      expectNoErrors(await onTable('s', { createVectorIndex: { name: 's_v', definition: { column: 'v', options: { metric: 'cosine' } } } }));
      const nearest = await onTable('s', { find: { sort: { v: [1, 0] }, options: { limit: 3, includeSimilarity: true, includeSortVector: true }, projection: { id: 1 } } });
      expect((nearest.data as { documents: Doc[] }).documents.map((r) => r.id)).toEqual([0, 1, 2]);
      expect(nearest.status?.sortVector).toEqual([1, 0]);
      expect(nearest.status?.projectionSchema).toEqual({ id: { type: 'int' }, $similarity: { type: 'float' } });
      const filtered = await onTable('s', { find: { filter: { g: 'odd' }, sort: { v: [1, 0] }, options: { limit: 2 } } });
      expect((filtered.data as { documents: Doc[] }).documents.map((r) => r.id)).toEqual([1, 3]);
      expectError(await onTable('s', { find: { sort: { v: [1, 0, 0] } } }), 'INVALID_VECTOR_LENGTH');
      expectError(await onTable('s', { find: { sort: { v: [1, 0], n: 1 } } }), 'SORT_CLAUSE_INVALID');
      expectError(await onTable('s', { find: { sort: { n: 2 } } }), 'SORT_CLAUSE_VALUE_INVALID');
    });

    it('updates: $push (one element, $each, map entries as pairs or objects) and $pullAll on lists, sets and maps', async () => {
      await createTable('bag', {
        columns: { id: 'int', l: { type: 'list', valueType: 'int' }, s: { type: 'set', valueType: 'text' }, m: { type: 'map', keyType: 'int', valueType: 'text' }, x: 'text' },
        primaryKey: 'id',
      });
      const update = (change: Doc, id = 1) => onTable('bag', { updateOne: { filter: { id }, update: change } });
      const row = async (id = 1) => (await rows('bag', { filter: { id } }))[0];
      // A $push on a missing row creates it (CQL's UPDATE ... SET l = l + [...] upserts).
      expect((await update({ $push: { l: 3, s: 'b', m: [2, 'two'] } })).status).toEqual({ matchedCount: 0, modifiedCount: 0 });
      expect(await row()).toEqual({ id: 1, l: [3], s: ['b'], m: [[2, 'two']] });
      expectNoErrors(await update({ $push: { l: { $each: [1, 3] }, s: { $each: ['a', 'b', 'c'] }, m: { $each: [[1, 'one'], [2, 'TWO']] } } }));
      expect(await row()).toEqual({ id: 1, l: [3, 1, 3], s: ['a', 'b', 'c'], m: [[1, 'one'], [2, 'TWO']] });
      expect((await update({ $pullAll: { l: [3], s: ['a', 'zz'], m: [2] }, $set: { x: 'kept' } })).status).toEqual({ matchedCount: 1, modifiedCount: 1 });
      expect(await row()).toEqual({ id: 1, l: [1], s: ['b', 'c'], m: [[1, 'one']], x: 'kept' });
      expectNoErrors(await update({ $pullAll: { l: [1], m: [1] } }));
      expect(await row()).toEqual({ id: 1, s: ['b', 'c'], x: 'kept' }); // emptied collections are no value
      // Text-keyed maps take {key: value} entries too; a pull on a missing row creates nothing.
      await createTable('tags', { columns: { id: 'int', m: { type: 'map', keyType: 'text', valueType: 'int' } }, primaryKey: 'id' });
      expectNoErrors(await onTable('tags', { updateOne: { filter: { id: 1 }, update: { $push: { m: { $each: [{ a: 1 }, ['b', 2]] } } } } }));
      expectNoErrors(await onTable('tags', { updateOne: { filter: { id: 1 }, update: { $push: { m: { a: 5 } } } } }));
      expect(await rows('tags')).toEqual([{ id: 1, m: { a: 5, b: 2 } }]);
      expectNoErrors(await onTable('tags', { updateOne: { filter: { id: 2 }, update: { $pullAll: { m: ['a'] } } } }));
      expect(await rows('tags', { filter: { id: 2 } })).toEqual([]);
      // The Data API's errors.
      expectError(await update({ $push: { x: 'a' } }), 'UNSUPPORTED_UPDATE_OPERATOR');
      expectError(await update({ $pullAll: { x: ['a'] } }), 'UNSUPPORTED_UPDATE_OPERATOR');
      expectError(await update({ $push: { l: [1, 2] } }), 'INVALID_PUSH_OPERATOR_USAGE');
      expectError(await update({ $push: { l: { $each: 1 } } }), 'INVALID_PUSH_OPERATOR_USAGE');
      expectError(await update({ $push: { l: { $each: [1], $position: 0 } } }), 'INVALID_PUSH_OPERATOR_USAGE');
      expectError(await update({ $push: { m: [1, 'a', 'b'] } }), 'INVALID_PUSH_OPERATOR_USAGE');
      expectError(await update({ $push: { m: 'a' } }), 'INVALID_PUSH_OPERATOR_USAGE');
      expectError(await update({ $push: { l: 'x' } }), 'INVALID_UPDATE_COLUMN_VALUES');
      expectError(await update({ $pullAll: { m: ['not-an-int'] } }), 'INVALID_UPDATE_COLUMN_VALUES');
      expectError(await update({ $push: { l: 1 }, $pullAll: { l: [1] } }), 'UNSUPPORTED_OVERLAPPING_UPDATE_OPERATIONS');
      expectError(await update({ $push: { id: 1 } }), 'UNSUPPORTED_UPDATE_FOR_PRIMARY_KEY_COLUMNS');
      expectError(await update({ $push: { nope: 1 } }), 'UNKNOWN_TABLE_COLUMNS');
      expect(await row()).toEqual({ id: 1, s: ['b', 'c'], x: 'kept' });
      expectNoErrors(await run(ctx.db, { dropTable: { name: 'bag' } }, { keyspace: KS }));
      expectNoErrors(await run(ctx.db, { dropTable: { name: 'tags' } }, { keyspace: KS }));
    });

    it('text indexes: caseSensitive, normalize and ascii apply to index entries and to $eq / $ne / $in / $nin', async () => {
      await createTable('words', {
        columns: { id: 'int', w: 'text', exact: 'text', tags: { type: 'set', valueType: 'text' }, m: { type: 'map', keyType: 'text', valueType: 'text' } },
        primaryKey: 'id',
      });
      const words = ['Café', 'CAFE', 'cafe\u0301', 'Tea'];
      for (const [id, w] of words.entries()) {
        expectNoErrors(await onTable('words', { insertOne: { document: { id, w, exact: w, tags: [w], m: { [w]: w } } } }));
      }
      const index = (name: string, column: unknown, options?: Doc) => onTable('words', { createIndex: { name, definition: { column, ...(options ? { options } : {}) } } });
      expectNoErrors(await index('w_idx', 'w', { caseSensitive: false, normalize: true, ascii: true }));
      expectNoErrors(await index('exact_idx', 'exact'));
      expectNoErrors(await index('tags_idx', { tags: '$values' }, { caseSensitive: false }));
      expectNoErrors(await index('m_idx', { m: '$keys' }, { ascii: true }));
      const listed = expectNoErrors(await onTable('words', { listIndexes: { options: { explain: true } } })).status?.indexes as Doc[];
      expect(listed.map((i) => (i.definition as Doc).options)).toEqual([
        { ascii: true, caseSensitive: false, normalize: true },
        { ascii: false, caseSensitive: true, normalize: false },
        { ascii: false, caseSensitive: false, normalize: false },
        { ascii: true, caseSensitive: true, normalize: false },
      ]);
      const ids = async (filter: Doc) => (await rows('words', { filter, projection: { id: 1 }, sort: { id: 1 } })).map((r) => r.id);
      expect(await ids({ w: 'cafe' })).toEqual([0, 1, 2]); // case, accents and the decomposed é all fold to "cafe"
      expect(await ids({ w: { $eq: 'CAFÉ' } })).toEqual([0, 1, 2]);
      expect(await ids({ w: { $ne: 'café' } })).toEqual([3]);
      expect(await ids({ w: { $in: ['TEA', 'x'] } })).toEqual([3]);
      expect(await ids({ w: { $nin: ['tea'] } })).toEqual([0, 1, 2]);
      expect(await ids({ exact: 'Café' })).toEqual([0]); // the default index matches exactly
      expect(await ids({ exact: 'cafe' })).toEqual([]);
      expect(await ids({ tags: { $all: ['cafe'] } })).toEqual([1]); // case folded, accents kept
      expect(await ids({ tags: { $in: ['café', 'TEA'] } })).toEqual([0, 3]);
      expect(await ids({ m: { $keys: { $in: ['Cafe'] } } })).toEqual([0]); // accents folded, case kept
      expect(await ids({ $or: [{ w: 'TEA' }, { exact: 'CAFE' }] })).toEqual([1, 3]);
      // An update re-files the analyzed entries; a dropped index leaves exact matching.
      expectNoErrors(await onTable('words', { updateOne: { filter: { id: 3 }, update: { $set: { w: 'Crème' } } } }));
      expect(await ids({ w: 'CREME' })).toEqual([3]);
      expectNoErrors(await run(ctx.db, { dropIndex: { name: 'w_idx' } }, { keyspace: KS }));
      expect(await ids({ w: 'cafe' })).toEqual([]);
      expectError(await index('bad', 'id', { caseSensitive: false }), 'UNSUPPORTED_TEXT_ANALYSIS_FOR_DATA_TYPES');
      expectError(await index('bad', 'exact', { caseSensitive: 'no' }), 'COMMAND_FIELD_VALUE_INVALID');
      expectError(await index('bad', 'exact', { stemming: true }), 'COMMAND_FIELD_VALUE_INVALID');
      expectNoErrors(await run(ctx.db, { dropTable: { name: 'words' } }, { keyspace: KS }));
    });

    it('text indexes: createTextIndex, $match (every token) and the lexical sort (BM25), with their errors', async () => {
      await createTable('docs', { columns: { id: 'text', value: 'text', tags: 'text', n: 'int' }, primaryKey: 'id' });
      const texts = ['tag1', 'tag2', 'tag3 tag1', 'Tag2, TAG1 and tag3'];
      for (const [i, tags] of texts.entries()) expectNoErrors(await onTable('docs', { insertOne: { document: { id: String(i + 1), value: 'v', tags, n: i } } }));
      expectNoErrors(await onTable('docs', { createTextIndex: { name: 'tags_text', definition: { column: 'tags', options: { analyzer: 'standard' } } } }));
      expectNoErrors(await onTable('docs', { createIndex: { name: 'value_idx', definition: { column: 'value' } } }));
      const listed = expectNoErrors(await onTable('docs', { listIndexes: { options: { explain: true } } })).status?.indexes as Doc[];
      expect(listed[0]).toEqual({ name: 'tags_text', definition: { column: 'tags', options: { analyzer: 'standard' } }, indexType: 'text' });
      const ids = async (find: Doc) => (await rows('docs', { projection: { id: 1 }, ...find })).map((r) => r.id);
      // Unsorted finds return partitions in token order (issue #30), not key order: their ids compared sorted.
      const matching = async (filter: Doc) => (await ids({ filter })).sort();
      expect(await matching({ tags: { $match: 'tag3' } })).toEqual(['3', '4']);
      expect(await matching({ tags: { $match: 'TAG1 tag3' } })).toEqual(['3', '4']); // every token, lower-cased
      expect(await matching({ tags: { $match: 'tag1' }, n: { $lt: 3 } })).toEqual(['1', '3']);
      expectNoErrors(await onTable('docs', { updateOne: { filter: { id: '1' }, update: { $set: { tags: 'tag9' } } } }));
      expect(await matching({ tags: { $match: 'tag1' } })).toEqual(['3', '4']); // index entries follow the row
      expect(await ids({ sort: { tags: 'tag2' } })).toEqual(['2', '4']); // the shorter text ranks first
      expect(await ids({ sort: { tags: "tag1 'tag3'" } })).toEqual(['3', '4']);
      expect(await ids({ filter: { id: '4' }, sort: { tags: 'tag2' } })).toEqual(['4']);
      expectError(await onTable('docs', { find: { filter: { value: { $match: 'v' } } } }), 'CANNOT_LEXICAL_FILTER_NON_INDEXED_COLUMNS');
      expectError(await onTable('docs', { find: { filter: { tags: { $match: 5 } } } }), 'FILTER_INVALID_EXPRESSION');
      expectError(await onTable('docs', { find: { sort: { value: 'v' } } }), 'CANNOT_LEXICAL_SORT_NON_INDEXED_COLUMNS');
      expectError(await onTable('docs', { find: { sort: { tags: 'tag1', n: 1 } } }), 'CANNOT_SORT_ON_SPECIAL_WITH_OTHERS');
      expectError(await onTable('docs', { find: { sort: { tags: 'tag1' }, options: { skip: 1 } } }), 'CANNOT_LEXICAL_SORT_WITH_SKIP_OPTION');
      expectError(await onTable('docs', { createTextIndex: { name: 'n_text', definition: { column: 'n' } } }), 'UNSUPPORTED_TEXT_INDEX_FOR_DATA_TYPES');
      expectError(await onTable('docs', { createTextIndex: { name: 'v_text', definition: { column: 'value', options: { analyzer: 'english' } } } }), 'INVALID_INDEX_DEFINITION');
      expectNoErrors(await onTable('docs', { createTextIndex: { name: 'v_text', definition: { column: 'value', options: { analyzer: { tokenizer: { name: 'whitespace' }, filters: [{ name: 'lowercase' }] } } } } }));
      // Lucene's English stop set and the Porter stemmer (query/analyzers.ts), in the order given.
      expectNoErrors(await run(ctx.db, { dropIndex: { name: 'v_text' } }, { keyspace: KS }));
      const stemming = { tokenizer: { name: 'standard' }, filters: [{ name: 'lowercase' }, { name: 'stop' }, { name: 'porterstem' }] };
      expectNoErrors(await onTable('docs', { createTextIndex: { name: 'v_text', definition: { column: 'value', options: { analyzer: stemming } } } }));
      expectNoErrors(await onTable('docs', { updateOne: { filter: { id: '2' }, update: { $set: { value: 'The runners were running' } } } }));
      expect(await ids({ filter: { value: { $match: 'the RUN' } } })).toEqual(['2']);
      expect(await ids({ sort: { value: 'runner' } })).toEqual(['2']);
      expectNoErrors(await run(ctx.db, { dropIndex: { name: 'tags_text' } }, { keyspace: KS }));
      expectError(await onTable('docs', { find: { filter: { tags: { $match: 'tag1' } } } }), 'CANNOT_LEXICAL_FILTER_NON_INDEXED_COLUMNS');
      // Vectorize needs an embedding provider: a clear error, not a silently plain vector column.
      const vectorize = await run(ctx.db, { createTable: { name: 'vz', definition: { columns: { id: 'text', v: { type: 'vector', dimension: 3, service: { provider: 'openai', modelName: 'text-embedding-3-small' } } }, primaryKey: 'id' } } }, { keyspace: KS });
      expect(vectorize.errors?.[0]?.errorCode).toMatch(/VECTORIZE/);
      expectNoErrors(await run(ctx.db, { dropTable: { name: 'docs' } }, { keyspace: KS }));
    });

    it('errors: DDL, commands on the wrong kind of target, updates and deletes by key, limits', async () => {
      const ddl = (command: unknown) => run(ctx.db, command, { keyspace: KS });
      expectError(await ddl({ createTable: { name: 't', definition: { columns: { id: 'bogus' }, primaryKey: 'id' } } }), 'UNKNOWN_DATA_TYPE');
      expectError(await ddl({ createTable: { name: 't', definition: { columns: { id: 'int', v: { type: 'vector' } }, primaryKey: 'id' } } }), 'MISSING_DIMENSION_IN_VECTOR_COLUMN');
      expectError(await ddl({ createTable: { name: 't', definition: { columns: { id: 'int' }, primaryKey: 'nope' } } }), 'UNKNOWN_PARTITION_COLUMNS');
      expectError(await ddl({ createTable: { name: 't', definition: { columns: { id: 'int' }, primaryKey: { partitionBy: ['id'], partitionSort: { x: 1 } } } } }), 'UNKNOWN_PARTITION_SORT_COLUMNS');
      expectError(await ddl({ createTable: { name: 't', definition: { columns: { id: { type: 'list', valueType: 'int' } }, primaryKey: 'id' } } }), 'UNSUPPORTED_PRIMARY_KEY_TYPE');
      expectError(await ddl({ createTable: { name: 't', definition: { columns: { id: { type: 'map', keyType: 'text' } }, primaryKey: 'id' } } }), 'UNSUPPORTED_MAP_DEFINITION');
      expectError(await ddl({ createTable: { name: 'bad-name', definition: { columns: { id: 'int' }, primaryKey: 'id' } } }), 'UNSUPPORTED_SCHEMA_NAME');
      await createTable('t', { columns: { id: 'int', k: 'int', x: 'text', v: { type: 'vector', dimension: 2 } }, primaryKey: { partitionBy: ['id'], partitionSort: { k: 1 } } });
      expectError(await ddl({ createTable: { name: 't', definition: { columns: { id: 'int' }, primaryKey: 'id' } } }), 'CANNOT_ADD_EXISTING_TABLE');
      expectNoErrors(await ddl({ createTable: { name: 't', definition: { columns: { id: 'int' }, primaryKey: 'id' }, options: { ifNotExists: true } } }));
      expectError(await ddl({ createCollection: { name: 't' } }), 'EXISTING_TABLE_NOT_DATA_API_COLLECTION');
      expectError(await ddl({ dropTable: { name: 'missing' } }), 'CANNOT_DROP_UNKNOWN_TABLE');
      expectError(await ddl({ dropIndex: { name: 'missing' } }), 'CANNOT_DROP_UNKNOWN_INDEX');
      expectError(await onTable('t', { countDocuments: {} }), 'UNSUPPORTED_TABLE_COMMAND');
      expectError(await onTable('t', { estimatedDocumentCount: {} }), 'UNSUPPORTED_TABLE_COMMAND');
      expect((await ddl({ createCollection: { name: 'coll' } })).errors).toBeUndefined();
      expectError(await onTable('coll', { listIndexes: {} }), 'UNSUPPORTED_COLLECTION_COMMAND');
      expectError(await onTable('missing', { listIndexes: {} }), 'UNKNOWN_COLLECTION_OR_TABLE');
      expect((await ddl({ findCollections: {} })).status?.collections).toEqual(['coll']);
      expect((await ddl({ listTables: {} })).status?.tables).toEqual(['t']);
      expectError(await onTable('t', { createIndex: { name: 'i', definition: { column: 'nope' } } }), 'UNKNOWN_INDEX_COLUMN');
      expectError(await onTable('t', { createIndex: { name: 'i', definition: { column: 'v' } } }), 'UNSUPPORTED_INDEXING_FOR_DATA_TYPES');
      expectError(await onTable('t', { createVectorIndex: { name: 'i', definition: { column: 'x' } } }), 'UNSUPPORTED_VECTOR_INDEX_FOR_DATA_TYPES');
      expectError(await onTable('t', { createVectorIndex: { name: 'i', definition: { column: 'v', options: { metric: 'manhattan' } } } }), 'UNKNOWN_VECTOR_METRIC');
      expectNoErrors(await onTable('t', { createIndex: { name: 't_x', definition: { column: 'x' } } }));
      expectError(await onTable('t', { createIndex: { name: 't_x', definition: { column: 'x' } } }), 'CANNOT_ADD_EXISTING_INDEX');
      expectNoErrors(await onTable('t', { createIndex: { name: 't_x', definition: { column: 'x' }, options: { ifNotExists: true } } }));
      expectError(await onTable('t', { alterTable: { operation: { drop: { columns: ['x'] } } } }), 'CANNOT_DROP_INDEXED_COLUMNS');
      expectError(await onTable('t', { alterTable: { operation: { drop: { columns: ['id'] } } } }), 'CANNOT_DROP_PRIMARY_KEY_COLUMNS');
      expectError(await onTable('t', { alterTable: { operation: { add: { columns: { x: 'int' } } } } }), 'CANNOT_ADD_EXISTING_COLUMNS');
      expectError(await onTable('t', { alterTable: { operation: {} } }), 'MISSING_ALTER_TABLE_OPERATIONS');
      expectNoErrors(await onTable('t', { alterTable: { operation: { add: { columns: { gone: 'int' } } } } }));
      expectNoErrors(await onTable('t', { insertOne: { document: { id: 9, k: 9, gone: 5 } } }));
      expectNoErrors(await onTable('t', { alterTable: { operation: { drop: { columns: ['gone'] } } } }));
      expect(await rows('t', { filter: { id: 9 } })).toEqual([{ id: 9, k: 9 }]);
      expectError(await onTable('t', { alterTable: { operation: { add: { columns: { gone: 'text' } } } } }), 'CANNOT_ADD_PREVIOUSLY_DROPPED_COLUMN');
      expectNoErrors(await onTable('t', { deleteOne: { filter: { id: 9, k: 9 } } }));
      const update = (filter: Doc, change: Doc) => onTable('t', { updateOne: { filter, update: change } });
      expectError(await update({}, { $set: { x: 'a' } }), 'MISSING_FILTER_FOR_UPDATE_DELETE');
      expectError(await update({ id: 1 }, { $set: { x: 'a' } }), 'MISSING_FULL_PRIMARY_KEY_FOR_UPDATE_DELETE');
      expectError(await update({ id: 1, k: 1, x: 'a' }, { $set: { x: 'a' } }), 'UNSUPPORTED_NON_PRIMARY_KEY_FILTER_FOR_UPDATE_DELETE');
      expectError(await update({ id: 1, k: { $gt: 1 } }, { $set: { x: 'a' } }), 'INVALID_PRIMARY_KEY_FILTER');
      expectError(await update({ id: 1, k: 1 }, { $inc: { x: 1 } }), 'UNSUPPORTED_UPDATE_OPERATIONS_FOR_TABLE');
      expectError(await update({ id: 1, k: 1 }, {}), 'MISSING_UPDATE_OPERATIONS');
      expectError(await update({ id: 1, k: 1 }, { $set: { k: 2 } }), 'UNSUPPORTED_UPDATE_FOR_PRIMARY_KEY_COLUMNS');
      expectError(await update({ id: 1, k: 1 }, { $set: { nope: 2 } }), 'UNKNOWN_TABLE_COLUMNS');
      expectError(await update({ id: 1, k: 1 }, { $set: { x: 2 } }), 'INVALID_UPDATE_COLUMN_VALUES');
      expect((await update({ id: 1, k: 1 }, { $unset: { x: '' } })).status).toEqual({ matchedCount: 0, modifiedCount: 0 });
      expect(await rows('t', { filter: { id: 1 } })).toEqual([]); // an $unset alone creates no row (CQL)
      expect((await update({ id: 1, k: 1 }, { $set: { x: 'a' } })).status).toEqual({ matchedCount: 0, modifiedCount: 0 });
      expect(await rows('t', { filter: { id: 1 } })).toEqual([{ id: 1, k: 1, x: 'a' }]); // a $set creates it
      expect((await update({ id: 1, k: 1 }, { $set: { x: 'b' } })).status).toEqual({ matchedCount: 1, modifiedCount: 1 });
      expectError(await onTable('t', { deleteMany: { filter: { x: 'b' } } }), 'UNSUPPORTED_NON_PRIMARY_KEY_FILTER_FOR_UPDATE_DELETE');
      // -1, not the 1 row deleted: the Data API never counts a table's deleted rows (issue #30).
      expect((await onTable('t', { deleteMany: { filter: { id: 1 } } })).status).toEqual({ deletedCount: -1 });
      expectError(await onTable('t', { find: { projection: { nope: 1 } } }), 'UNKNOWN_TABLE_COLUMNS');
      // Tables count toward the collection limit (6 here: 't', 'coll' and four more).
      for (const name of ['t2', 't3', 't4', 't5']) await createTable(name, { columns: { id: 'int' }, primaryKey: 'id' });
      expectError(await ddl({ createTable: { name: 't6', definition: { columns: { id: 'int' }, primaryKey: 'id' } } }), 'TOO_MANY_COLLECTIONS');
      expectError(await ddl({ createCollection: { name: 'c6' } }), 'TOO_MANY_COLLECTIONS');
    });
  });
}
