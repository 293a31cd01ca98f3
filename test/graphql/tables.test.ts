/**
 * Tables in the keyspace GraphQL API (Stargate's CQL-first shape) on the real server: CassIO tables written in
 * process read over GraphQL, rows written over GraphQL read by the CassIO class and by astra-db-ts's db.table(),
 * every column type's GraphQL scalar, filters, orderBy, paging, conditional mutations, the schema following
 * table DDL, and errors for bad values.
 */
import { randomBytes } from 'node:crypto';
import { DataAPIClient } from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand, type CommandResponse } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { createServer, type DataApiServer } from '../../src/http/index.js';
import { ClusteredMetadataVectorRecord, MetadataVectorRecord, VectorDB } from '../../src/index.js';
import { tempDir } from '../support/temp.js';
import type { GqlReply } from './helpers.js';

describe('GraphQL tables on serve', () => {
  const dir = tempDir('vectordb-gql-tables-');
  const token = `VDBL:${randomBytes(12).toString('hex')}`;
  let database: Database;
  let server: DataApiServer;

  const gql = async (query: string, variables?: Record<string, unknown>): Promise<GqlReply> => {
    const response = await fetch(`${server.url}/api/graphql/default_keyspace`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vendor-token': token },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GqlReply;
  };
  const command = (body: Record<string, unknown>, collection?: string): Promise<CommandResponse> =>
    executeCommand(database, body as never, { keyspace: 'default_keyspace', ...(collection ? { collection } : {}) });
  const errorCode = (reply: GqlReply): unknown => reply.errors?.[0]?.extensions?.code;

  beforeAll(async () => {
    // CassIO tables written in process, then the same data directory served.
    const local = new VectorDB('in-process', dir);
    await local.connect();
    const store = await local.metadataVectorTable('vector_store', 3);
    await store.put(new MetadataVectorRecord({ rowId: 'lamp', vector: [1, 0, 0], body: 'Desk lamp', metadata: { room: 'office', watts: 40 } }));
    await store.put(new MetadataVectorRecord({ rowId: 'sofa', vector: [0, 1, 0], body: 'Sofa', metadata: { room: 'living' } }));
    const chat = await local.clusteredMetadataVectorTable('chat', 2);
    for (let i = 0; i < 3; i++) await chat.put(new ClusteredMetadataVectorRecord({ partitionId: 'session', vector: [1, i], body: `message ${i}` }));
    await local.close();
    database = await Database.open(dir, { limits: { maxCollections: 20 } });
    server = createServer({ db: database, token, host: '127.0.0.1', port: 0 });
    await server.listen();
  });

  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('reads a CassIO table written in process: map entries, vectors as floats, vector search with _similarity', async () => {
    const all = await gql('{ vector_store(orderBy: [row_id_ASC]) { values { row_id body_blob metadata_s { key value } vector } pageState } }');
    expect(all).toEqual({
      data: {
        vector_store: {
          values: [
            { row_id: 'lamp', body_blob: 'Desk lamp', metadata_s: [{ key: 'room', value: 'office' }, { key: 'watts', value: '40.0' }], vector: [1, 0, 0] },
            { row_id: 'sofa', body_blob: 'Sofa', metadata_s: [{ key: 'room', value: 'living' }], vector: [0, 1, 0] },
          ],
          pageState: null,
        },
      },
    });
    const near = await gql('{ vector_store(vector: [0.9, 0.1, 0], options: {limit: 1}) { values { row_id _similarity } } }');
    expect(near.data?.vector_store.values).toHaveLength(1);
    expect(near.data?.vector_store.values[0].row_id).toBe('lamp');
    expect(near.data?.vector_store.values[0]._similarity).toBeGreaterThan(0.99);
    const filtered = await gql('{ vector_store(filter: {metadata_s: {containsEntry: {key: "room", value: "living"}}}) { values { row_id } } }');
    expect(filtered.data?.vector_store.values).toEqual([{ row_id: 'sofa' }]);
    const byKey = await gql('{ vector_store(filter: {metadata_s: {containsKey: "watts"}}) { values { row_id } } }');
    expect(byKey.data?.vector_store.values).toEqual([{ row_id: 'lamp' }]);
    const partition = await gql('{ chat(value: {partition_id: "session"}) { values { body_blob row_id } } }');
    expect(partition.data?.chat.values.map((r: { body_blob: string }) => r.body_blob)).toEqual(['message 2', 'message 1', 'message 0']);
    expect(partition.data?.chat.values[0].row_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-1/);
  });

  it('a row inserted over GraphQL is read by the CassIO class and by astra-db-ts db.table()', async () => {
    const inserted = await gql(
      `mutation { insertvector_store(value: {row_id: "desk", body_blob: "Desk", attributes_blob: "{}", metadata_s: [{key: "room", value: "office"}], vector: [0, 0, 1]}) {
        applied value { row_id metadata_s { key value } } } }`,
    );
    expect(inserted).toEqual({ data: { insertvector_store: { applied: true, value: { row_id: 'desk', metadata_s: [{ key: 'room', value: 'office' }] } } } });
    const remote = new VectorDB(token, server.url);
    try {
      const store = await remote.metadataVectorTable('vector_store', 3);
      const record = await store.get('desk');
      expect(record).toMatchObject({ rowId: 'desk', body: 'Desk', attributes: '{}', metadata: { room: 'office' }, vector: [0, 0, 1] });
      const [best] = await store.similaritySearch({ embeddings: [0, 0, 1], recordCount: 1, metaData: { room: 'office' } });
      expect(best?.embedded.rowId).toBe('desk');
    } finally {
      await remote.close();
    }
    const client = new DataAPIClient(token, { environment: 'dse' });
    try {
      const row = await client.db(server.url, { keyspace: 'default_keyspace' }).table('vector_store').findOne({ row_id: 'desk' });
      expect(row).toMatchObject({ row_id: 'desk', body_blob: 'Desk', metadata_s: new Map([['room', 'office']]) });
    } finally {
      await client.close();
    }
  });

  it('maps every column type to its Stargate scalar, both ways', async () => {
    await command({ createType: { name: 'address', definition: { fields: { city: 'text', zip: 'int' } } } });
    await command({
      createTable: {
        name: 'typed',
        definition: {
          columns: {
            id: 'uuid', a: 'ascii', i: 'int', bi: 'bigint', si: 'smallint', ti: 'tinyint', vi: 'varint', dec: 'decimal', f: 'float', d: 'double',
            b: 'boolean', dt: 'date', tm: 'time', ts: 'timestamp', du: 'duration', tu: 'timeuuid', ip: 'inet', bl: 'blob',
            tags: { type: 'set', valueType: 'text' }, nums: { type: 'list', valueType: 'int' }, scores: { type: 'map', keyType: 'int', valueType: 'text' },
            home: { type: 'userDefined', udtName: 'address' },
          },
          primaryKey: 'id',
        },
      },
    });
    const value = {
      id: '123e4567-e89b-12d3-a456-426614174000', a: 'plain', i: 7, bi: '9223372036854775807', si: -300, ti: 12, vi: '123456789012345678901234567890',
      dec: '3.14159265358979323846264338327950288', f: 1.5, d: 2.25, b: true, dt: '2024-02-29', tm: '12:30:45.5', ts: '2024-01-31T12:00:00.000Z',
      du: '1h30m', tu: 'fe86cad0-1965-11eb-84e6-ab660d2e8c9e', ip: '127.0.0.1', bl: 'yv4=', tags: ['b', 'a'], nums: [3, 1], scores: [{ key: 2, value: 'two' }],
      home: { city: 'Paris', zip: 75001 },
    };
    const fields = 'id a i bi si ti vi dec f d b dt tm ts du tu ip bl tags nums scores { key value } home { city zip }';
    const inserted = await gql(`mutation($v: typedInput!) { inserttyped(value: $v) { applied value { ${fields} } } }`, { v: value });
    expect(inserted.errors).toBeUndefined();
    expect(inserted.data?.inserttyped.value).toEqual({ ...value, tags: ['a', 'b'], du: 'PT1H30M' });
    // The same row through the Data API: bigint, varint and decimal exact; the blob as $binary.
    const row = ((await command({ findOne: { filter: { id: value.id } } }, 'typed')).data as { document: Record<string, unknown> }).document;
    expect(String(row.bi)).toBe('9223372036854775807');
    expect(String(row.dec)).toBe('3.14159265358979323846264338327950288');
    expect(row.bl).toEqual({ $binary: 'yv4=' });
    expect(row.scores).toEqual([[2, 'two']]);
    // A literal in the query, epoch milliseconds for a timestamp, a filter on bigint and on a set element.
    const literal = await gql(`mutation { inserttyped(value: {id: "00000000-0000-0000-0000-000000000001", bi: 5, ts: 0, tags: ["x"]}) { value { bi ts tags } } }`);
    expect(literal.data?.inserttyped.value).toEqual({ bi: '5', ts: '1970-01-01T00:00:00.000Z', tags: ['x'] });
    const gt = await gql('{ typed(filter: {bi: {gt: "6"}}) { values { id } } }');
    expect(gt.data?.typed.values).toEqual([{ id: value.id }]);
    const contains = await gql('{ typed(filter: {tags: {contains: "x"}}) { values { id } } }');
    expect(contains.data?.typed.values).toEqual([{ id: '00000000-0000-0000-0000-000000000001' }]);
  });

  it('pages with pageSize / pageState, orders by a column, and takes a native where filter', async () => {
    await command({ createTable: { name: 'scores', definition: { columns: { k: 'text', n: 'int', label: 'text' }, primaryKey: 'k' } } });
    await command({ insertMany: { documents: Array.from({ length: 5 }, (_, n) => ({ k: `k${n}`, n, label: n % 2 ? 'odd' : 'even' })) } }, 'scores');
    const seen: number[] = [];
    let pageState: string | null = null;
    do {
      const reply: GqlReply = await gql('query($s: String) { scores(orderBy: [n_DESC], options: {pageSize: 2, pageState: $s}) { values { n } pageState } }', { s: pageState });
      seen.push(...reply.data!.scores.values.map((r: { n: number }) => r.n));
      pageState = reply.data!.scores.pageState;
    } while (pageState);
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    const where = await gql('query($w: JSON) { scores(where: $w, filter: {label: {eq: "even"}}, orderBy: [n_ASC]) { values { k } } }', { w: { n: { $lt: 3 } } });
    expect(where.data?.scores.values).toEqual([{ k: 'k0' }, { k: 'k2' }]);
  });

  it('update and delete by primary key, with ifExists / ifCondition / ifNotExists; null unsets', async () => {
    await command({ createTable: { name: 'items', definition: { columns: { id: 'text', qty: 'int', note: 'text' }, primaryKey: 'id' } } });
    expect((await gql('mutation { insertitems(value: {id: "a", qty: 1, note: "n"}) { applied } }')).data?.insertitems.applied).toBe(true);
    const again = await gql('mutation { insertitems(value: {id: "a", qty: 9}, ifNotExists: true, options: {consistency: LOCAL_QUORUM}) { applied value { qty } } }');
    expect(again.data?.insertitems).toEqual({ applied: false, value: { qty: 1 } });
    const missing = await gql('mutation { updateitems(value: {id: "zz", qty: 2}, ifExists: true) { applied value { id } } }');
    expect(missing.data?.updateitems).toEqual({ applied: false, value: null });
    const refused = await gql('mutation { updateitems(value: {id: "a", qty: 2}, ifCondition: {qty: {eq: 5}}) { applied value { qty } } }');
    expect(refused.data?.updateitems).toEqual({ applied: false, value: { qty: 1 } });
    const updated = await gql('mutation { updateitems(value: {id: "a", qty: 2, note: null}, ifCondition: {qty: {eq: 1}}) { applied value { id qty note } } }');
    expect(updated.data?.updateitems).toEqual({ applied: true, value: { id: 'a', qty: 2, note: null } });
    const upserted = await gql('mutation { updateitems(value: {id: "b", qty: 3}) { applied value { id qty } } }');
    expect(upserted.data?.updateitems).toEqual({ applied: true, value: { id: 'b', qty: 3 } });
    const bulk = await gql('mutation { bulkInsertitems(values: [{id: "c"}, {id: "b", qty: 8}], ifNotExists: true) { applied } }');
    expect(bulk.data?.bulkInsertitems).toEqual([{ applied: true }, { applied: false }]);
    const deleted = await gql('mutation { deleteitems(value: {id: "a"}) { applied value { qty } } }');
    expect(deleted.data?.deleteitems).toEqual({ applied: true, value: { qty: 2 } });
    const gone = await gql('mutation { deleteitems(value: {id: "a"}, ifExists: true) { applied } }');
    expect(gone.data?.deleteitems.applied).toBe(false);
    expect(((await command({ find: { filter: {} } }, 'items')).data as { documents: unknown[] }).documents).toHaveLength(2);
  });

  it('errors: bad values carry the Data API code, GraphQL-level mistakes INVALID_GRAPHQL_ARGUMENT or a validation error', async () => {
    await command({ createTable: { name: 'strict', definition: { columns: { id: 'uuid', n: 'smallint', v: { type: 'vector', dimension: 2 } }, primaryKey: 'id' } } });
    const badUuid = await gql('mutation { insertstrict(value: {id: "not-a-uuid"}) { applied } }');
    expect(errorCode(badUuid)).toBe('INVALID_COLUMN_VALUES');
    const outOfRange = await gql('mutation { insertstrict(value: {id: "123e4567-e89b-12d3-a456-426614174000", n: 40000}) { applied } }');
    expect(errorCode(outOfRange)).toBe('INVALID_COLUMN_VALUES');
    const wrongDimension = await gql('mutation { insertstrict(value: {id: "123e4567-e89b-12d3-a456-426614174000", v: [1, 2, 3]}) { applied } }');
    expect(wrongDimension.errors?.[0]?.message).toMatch(/dimension/);
    const noKey = await gql('mutation { updatestrict(value: {n: 1}) { applied } }');
    expect(errorCode(noKey)).toBe('INVALID_GRAPHQL_ARGUMENT');
    const notAnInteger = await gql('mutation { insertstrict(value: {id: "123e4567-e89b-12d3-a456-426614174000", n: "x"}) { applied } }');
    expect(notAnInteger.errors?.[0]?.message).toMatch(/SmallInt needs an integer/);
    const badBigInt = await gql('{ typed(filter: {bi: {eq: "1.5"}}) { values { id } } }');
    expect(badBigInt.errors?.[0]?.message).toMatch(/BigInt needs an integer/);
    const ttl = await gql('mutation { insertstrict(value: {id: "123e4567-e89b-12d3-a456-426614174000"}, options: {ttl: 60}) { applied } }');
    expect(errorCode(ttl)).toBe('INVALID_GRAPHQL_ARGUMENT');
  });

  it('the DDL endpoint lists tables with their columns and creates and drops them', async () => {
    const ddl = async (query: string): Promise<GqlReply> => {
      const response = await fetch(`${server.url}/api/graphql-schema`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-vendor-token': token }, body: JSON.stringify({ query }) });
      return (await response.json()) as GqlReply;
    };
    const chat = await ddl('{ keyspace(name: "default_keyspace") { table(name: "chat") { name columns { kind name type } } } }');
    expect(chat.data?.keyspace.table.columns.slice(0, 3)).toEqual([
      { kind: 'PARTITION', name: 'partition_id', type: { type: 'text' } },
      { kind: 'CLUSTERING', name: 'row_id', type: { type: 'timeuuid' } },
      { kind: 'REGULAR', name: 'body_blob', type: { type: 'text' } },
    ]);
    const created = await ddl('mutation { createTable(keyspaceName: "default_keyspace", tableName: "made", definition: {columns: {id: "text"}, primaryKey: "id"}) }');
    expect(created).toEqual({ data: { createTable: true } });
    expect((await gql('mutation { insertmade(value: {id: "m"}) { applied } }')).data?.insertmade.applied).toBe(true);
    expect((await ddl('mutation { dropTable(keyspaceName: "default_keyspace", tableName: "made") }')).data?.dropTable).toBe(true);
    expect((await ddl('mutation { dropTable(keyspaceName: "default_keyspace", tableName: "made") }')).errors?.[0]?.extensions?.code).toBe('CANNOT_DROP_UNKNOWN_TABLE');
    expect((await ddl('mutation { dropTable(keyspaceName: "default_keyspace", tableName: "made", ifExists: true) }')).data?.dropTable).toBe(true);
  });

  it('the schema follows createTable, alterTable and dropTable', async () => {
    await command({ createTable: { name: 'later', definition: { columns: { id: 'text' }, primaryKey: 'id' } } });
    expect((await gql('mutation { insertlater(value: {id: "x"}) { applied } }')).data?.insertlater.applied).toBe(true);
    expect((await gql('{ later { values { extra } } }')).errors?.[0]?.message).toMatch(/Cannot query field "extra"/);
    await command({ alterTable: { operation: { add: { columns: { extra: 'bigint' } } } } }, 'later');
    expect(await gql('{ later { values { id extra } } }')).toEqual({ data: { later: { values: [{ id: 'x', extra: null }] } } });
    await command({ dropTable: { name: 'later' } });
    expect((await gql('{ later { values { id } } }')).errors?.[0]?.message).toMatch(/Cannot query field "later"/);
  });
});
