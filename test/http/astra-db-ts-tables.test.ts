/**
 * The real @datastax/astra-db-ts 2.x `Table` class against a server started here: table and type DDL,
 * every column type round trip (its deserialisation reads our projectionSchema / primaryKeySchema), keys
 * and clustering order, filters, sorts, vector search, updates, deletes, and tables kept out of collections.
 */
import { BigNumber, DataAPIClient, DataAPIDate, DataAPIDuration, DataAPIInet, DataAPIResponseError, DataAPITime, DataAPIVector, UUID, blob, type Db, type SomeRow } from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from './helpers.js';

describe('astra-db-ts Table against serve', () => {
  let s: Served;
  let client: DataAPIClient;
  let db: Db;

  beforeAll(async () => {
    s = await serve({ limits: { maxCollections: 20, maxInsertManyDocuments: 50 } });
    client = new DataAPIClient(s.token, { environment: 'dse' });
    db = client.db(s.url, { keyspace: 'default_keyspace' });
  });

  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('creates, lists and drops tables and types; tables are not collections', async () => {
    await db.createType('address', { definition: { fields: { city: 'text', zip: 'int' } } });
    expect(await db.listTypes({ nameOnly: true })).toEqual(['address']);
    const described = await db.listTypes();
    expect(described[0]).toMatchObject({ name: 'address', definition: { fields: { city: { type: 'text' }, zip: { type: 'int' } } } });
    await db.createTable('people', {
      definition: {
        columns: { id: 'text', name: 'text', home: { type: 'userDefined', udtName: 'address' } },
        primaryKey: 'id',
      },
    });
    await db.createTable('people', { definition: { columns: { id: 'text' }, primaryKey: 'id' }, ifNotExists: true });
    await expect(db.createTable('people', { definition: { columns: { id: 'text' }, primaryKey: 'id' } })).rejects.toBeInstanceOf(DataAPIResponseError);
    await db.createCollection('docs');
    expect(await db.listTables({ nameOnly: true })).toEqual(['people']);
    expect(await db.listCollections({ nameOnly: true })).toEqual(['docs']);
    const [people] = await db.listTables();
    expect(people?.definition.primaryKey).toEqual({ partitionBy: ['id'], partitionSort: {} });
    const table = db.table('people');
    await table.insertOne({ id: 'ada', name: 'Ada', home: { city: 'London', zip: 1 } });
    expect(await table.findOne({ id: 'ada' })).toEqual({ id: 'ada', name: 'Ada', home: { city: 'London', zip: 1 } });
    await expect(db.dropType('address')).rejects.toBeInstanceOf(DataAPIResponseError);
    await db.dropTable('people');
    await db.dropTable('people', { ifExists: true });
    await db.dropType('address');
    await db.dropCollection('docs');
    expect(await db.listTables({ nameOnly: true })).toEqual([]);
  });

  it('round-trips every scalar and collection column type', async () => {
    const table = await db.createTable<SomeRow>('alltypes', {
      definition: {
        columns: {
          id: 'uuid', t: 'text', a: 'ascii', i: 'int', bi: 'bigint', si: 'smallint', ti: 'tinyint', vi: 'varint', dec: 'decimal',
          f: 'float', d: 'double', b: 'boolean', dt: 'date', tm: 'time', ts: 'timestamp', du: 'duration', tu: 'timeuuid',
          ip: 'inet', bl: 'blob', v: { type: 'vector', dimension: 3 },
          l: { type: 'list', valueType: 'int' }, st: { type: 'set', valueType: 'text' }, m: { type: 'map', keyType: 'text', valueType: 'int' },
        },
        primaryKey: 'id',
      },
    });
    const id = UUID.v4();
    const row = {
      id, t: 'héllo', a: 'plain', i: -7, bi: 9007199254740991n, si: 300, ti: -5, vi: 123456789n, dec: BigNumber('12.5'), f: 1.5, d: Math.PI,
      b: true, dt: new DataAPIDate('2024-02-29'), tm: new DataAPITime('12:34:56.789'), ts: new Date('2024-01-02T03:04:05.678Z'),
      du: new DataAPIDuration('1h30m'), tu: UUID.v1(), ip: new DataAPIInet('192.168.0.1'), bl: blob(Buffer.from([1, 2, 3])),
      v: new DataAPIVector([0.5, 0.25, 1]), l: [3, 1, 3], st: new Set(['b', 'a']), m: new Map([['x', 1]]),
    };
    const { insertedId } = await table.insertOne(row);
    expect(insertedId.id.toString()).toBe(id.toString());
    const found = (await table.findOne({ id }))!;
    expect(found.t).toBe('héllo');
    expect(found.i).toBe(-7);
    expect(found.bi).toBe(9007199254740991n);
    expect(found.vi).toBe(123456789n);
    expect(found.dec.toString()).toBe('12.5');
    expect(found.d).toBe(Math.PI);
    expect(found.dt.toString()).toBe('2024-02-29');
    expect(found.tm.toString()).toMatch(/^12:34:56\.789/);
    expect(found.ts.toISOString()).toBe('2024-01-02T03:04:05.678Z');
    expect(found.du.toMinutes()).toBe(90);
    expect(found.ip.toString()).toBe('192.168.0.1');
    expect([...found.bl.asBuffer()]).toEqual([1, 2, 3]);
    expect([...found.v.asArray()]).toEqual([0.5, 0.25, 1]);
    expect(found.l).toEqual([3, 1, 3]);
    expect(found.st).toEqual(new Set(['a', 'b']));
    expect(found.m).toEqual(new Map([['x', 1]]));
    await expect(table.insertOne({ id: UUID.v4(), i: 1.5 })).rejects.toMatchObject({ errorDescriptors: [{ errorCode: 'INVALID_COLUMN_VALUES' }] });
    await expect(table.insertOne({ id: UUID.v4(), nope: 1 })).rejects.toMatchObject({ errorDescriptors: [{ errorCode: 'UNKNOWN_TABLE_COLUMNS' }] });
    await expect(table.insertOne({ t: 'no key' })).rejects.toMatchObject({ errorDescriptors: [{ errorCode: 'MISSING_PRIMARY_KEY_COLUMNS' }] });
  });

  it('keys, clustering order, filters, sorts, paging, updates and deletes', async () => {
    const table = await db.createTable<SomeRow>('events', {
      definition: {
        columns: { day: 'text', at: 'int', what: 'text', score: 'double', tags: { type: 'set', valueType: 'text' } },
        primaryKey: { partitionBy: ['day'], partitionSort: { at: -1 } },
      },
    });
    await table.createIndex('events_what', 'what');
    const rows = Array.from({ length: 45 }, (_, n) => ({ day: n % 2 ? 'mon' : 'tue', at: n, what: `w${n % 5}`, score: n / 2, tags: new Set([`t${n % 3}`]) }));
    const { insertedCount, insertedIds } = await table.insertMany(rows);
    expect(insertedCount).toBe(45);
    expect(insertedIds[0]).toEqual({ day: 'tue', at: 0 });
    const mon = await table.find({ day: 'mon' }).toArray();
    expect(mon.map((r) => r.at)).toEqual(rows.filter((r) => r.day === 'mon').map((r) => r.at).reverse());
    expect((await table.find({ what: 'w1' }).toArray()).map((r) => r.at).sort((a, b) => a - b)).toEqual([1, 6, 11, 16, 21, 26, 31, 36, 41]);
    expect(await table.find({}).toArray()).toHaveLength(45); // 3 pages of 20
    expect((await table.find({ day: 'tue', at: { $gte: 40 } }).toArray()).map((r) => r.at)).toEqual([44, 42, 40]);
    const sorted = await table.find({ day: 'mon' }, { sort: { score: 1 }, limit: 3 }).toArray();
    expect(sorted.map((r) => r.at)).toEqual([1, 3, 5]);
    expect((await table.find({ tags: { $in: ['t2'] } }, { projection: { at: 1 } }).toArray()).length).toBe(15);
    await table.updateOne({ day: 'mon', at: 1 }, { $set: { what: 'changed' }, $unset: { score: '' } });
    expect(await table.findOne({ day: 'mon', at: 1 }, { projection: { what: 1, score: 1 } })).toEqual({ what: 'changed', score: null });
    await table.updateOne({ day: 'wed', at: 1 }, { $set: { what: 'upserted' } });
    expect((await table.findOne({ day: 'wed', at: 1 }))?.what).toBe('upserted');
    await expect(table.updateOne({ day: 'mon' }, { $set: { what: 'x' } })).rejects.toMatchObject({ errorDescriptors: [{ errorCode: 'MISSING_FULL_PRIMARY_KEY_FOR_UPDATE_DELETE' }] });
    await expect(table.updateOne({ day: 'mon', at: 1 }, { $set: { at: 2 } })).rejects.toMatchObject({ errorDescriptors: [{ errorCode: 'UNSUPPORTED_UPDATE_FOR_PRIMARY_KEY_COLUMNS' }] });
    await table.deleteOne({ day: 'wed', at: 1 });
    expect(await table.findOne({ day: 'wed', at: 1 })).toBeNull();
    await table.deleteMany({ day: 'mon' });
    expect(await table.find({}).toArray()).toHaveLength(23);
    await table.alter({ operation: { add: { columns: { extra: 'text' } } } });
    expect((await table.definition()).columns.extra).toEqual({ type: 'text' });
    await table.alter({ operation: { drop: { columns: ['extra'] } } });
    expect(await table.listIndexes({ nameOnly: true })).toEqual(['events_what']);
    await db.dropTableIndex('events_what');
    expect(await table.listIndexes({ nameOnly: true })).toEqual([]);
    await table.deleteMany({});
    expect(await table.find({}).toArray()).toHaveLength(0);
  });

  it('vector search on an indexed vector column, with similarity and the sort vector', async () => {
    const table = await db.createTable('vecs', { definition: { columns: { id: 'int', kind: 'text', v: { type: 'vector', dimension: 2 } }, primaryKey: 'id' } });
    await table.createVectorIndex('vecs_v', 'v', { options: { metric: 'dot_product' } });
    await table.insertMany(Array.from({ length: 30 }, (_, i) => ({ id: i, kind: i % 2 ? 'odd' : 'even', v: new DataAPIVector([Math.cos(i / 10), Math.sin(i / 10)]) })));
    const cursor = table.find({}, { sort: { v: new DataAPIVector([1, 0]) }, limit: 3, includeSimilarity: true, includeSortVector: true });
    expect([...(await cursor.getSortVector())!.asArray()]).toEqual([1, 0]);
    const found = await cursor.toArray();
    expect(found.map((r) => r.id)).toEqual([0, 1, 2]);
    expect(found[0]!.$similarity).toBeCloseTo(1, 5);
    const odd = await table.find({ kind: 'odd' }, { sort: { v: [1, 0] }, limit: 2 }).toArray();
    expect(odd.map((r) => r.id)).toEqual([1, 3]);
    expect((await table.listIndexes())[0]).toMatchObject({ name: 'vecs_v', definition: { column: 'v', options: { metric: 'dot_product' } }, indexType: 'vector' });
  });
});
