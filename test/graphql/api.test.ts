/**
 * The GraphQL API against the Data API it stands for, run twice: in process (db.graphql) and over HTTP
 * (/api/graphql/{keyspace} on the real server). Every answer is compared with the equivalent Data API command.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from '../support/temp.js';
import { httpClient, inProcessClient, type GqlClient } from './helpers.js';

const COUNT = 45;
const products = Array.from({ length: COUNT }, (_, i) => ({
  _id: `p${String(i).padStart(2, '0')}`,
  name: `name ${i}`,
  price: i,
  color: i % 3 === 0 ? 'red' : 'blue',
  tags: i % 2 === 0 ? ['even'] : ['odd'],
  $vector: [Math.cos(i / 10), Math.sin(i / 10), 0.5],
  ...(i === 0 ? { meta: { nested: [1, 2] } } : {}),
}));

const factories: [string, () => Promise<GqlClient>][] = [
  ['in-process', () => inProcessClient(tempDir('vectordb-gql-'))],
  ['http', httpClient],
];

describe.each(factories)('GraphQL %s', (_name, factory) => {
  let c: GqlClient;
  const ok = async (query: string, variables?: Record<string, unknown>, keyspace?: string): Promise<Record<string, any>> => {
    const reply = await c.gql(query, variables, keyspace);
    expect(reply.errors, JSON.stringify(reply.errors)).toBeUndefined();
    return reply.data!;
  };
  const ids = (docs: Record<string, any>[]): unknown[] => docs.map((d) => d._id);
  const findAll = async (find: Record<string, unknown>): Promise<Record<string, any>[]> => {
    const out: Record<string, any>[] = [];
    let pageState: string | null = null;
    do {
      const response = await c.command({ find: { ...find, ...(pageState ? { options: { pageState } } : {}) } }, { collection: 'products' });
      expect(response.errors).toBeUndefined();
      const data = response.data as { documents: Record<string, any>[]; nextPageState: string | null };
      out.push(...data.documents);
      pageState = data.nextPageState;
    } while (pageState);
    return out;
  };

  beforeAll(async () => {
    c = await factory();
    expect((await c.command({ createCollection: { name: 'products', options: { vector: { dimension: 3, metric: 'cosine' } } } })).errors).toBeUndefined();
    for (let i = 0; i < COUNT; i += 20) {
      expect((await c.command({ insertMany: { documents: products.slice(i, i + 20) } }, { collection: 'products' })).errors).toBeUndefined();
    }
  });
  afterAll(() => c.close());

  test('introspection: Stargate-style types, escaped $vector, inferred fields, conversion warnings', async () => {
    const data = await ok(`{
      product: __type(name: "products") { fields { name type { kind name ofType { name } } } }
      input: __type(name: "productsInput") { inputFields { name } }
      filter: __type(name: "productsFilterInput") { inputFields { name type { name } } }
      order: __type(name: "productsOrder") { enumValues { name } }
      result: __type(name: "productsResult") { fields { name } }
      mutationResult: __type(name: "productsMutationResult") { fields { name } }
      mutations: __type(name: "Mutation") { fields { name } }
      conversionWarnings
    }`);
    const fields = Object.fromEntries(data.product.fields.map((f: any) => [f.name, f.type.name ?? `${f.type.kind}:${f.type.ofType?.name}`]));
    expect(fields).toEqual({
      _id: 'NON_NULL:ID',
      color: 'String',
      meta: 'JSON',
      name: 'String',
      price: 'Float',
      tags: 'LIST:String',
      x24_vector: 'LIST:null',
      _document: 'JSON',
      _similarity: 'Float',
    });
    expect(data.input.inputFields.map((f: any) => f.name)).toContain('x24_vector');
    expect(data.filter.inputFields.find((f: any) => f.name === 'price').type.name).toBe('FloatFilterInput');
    expect(data.order.enumValues.map((v: any) => v.name)).toEqual(expect.arrayContaining(['price_ASC', 'price_DESC', 'name_ASC', '_id_DESC']));
    expect(data.result.fields.map((f: any) => f.name)).toEqual(['values', 'pageState']);
    expect(data.mutationResult.fields.map((f: any) => f.name)).toEqual(['applied', 'value', 'document']);
    expect(data.mutations.fields.map((f: any) => f.name)).toEqual(['insertproducts', 'bulkInsertproducts', 'updateproducts', 'deleteproducts']);
    expect(data.conversionWarnings).toEqual(["Collection 'products': field 'meta' is JSON: a nested object."]);
  });

  test('value, filter (each operator), where and orderBy give the Data API find answers', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['value: {color: "red"}', { color: 'red' }],
      ['filter: {price: {eq: 3}}', { price: { $eq: 3 } }],
      ['filter: {color: {notEq: "red"}}', { color: { $ne: 'red' } }],
      ['filter: {price: {gt: 40}}', { price: { $gt: 40 } }],
      ['filter: {price: {gte: 40}}', { price: { $gte: 40 } }],
      ['filter: {price: {lt: 3}}', { price: { $lt: 3 } }],
      ['filter: {price: {lte: 3}}', { price: { $lte: 3 } }],
      ['filter: {_id: {in: ["p01", "p07", "zz"]}}', { _id: { $in: ['p01', 'p07', 'zz'] } }],
      ['filter: {meta: {exists: true}}', { meta: { $exists: true } }],
      ['filter: {tags: {eq: "odd"}, price: {gt: 10, lt: 20}}', { tags: 'odd', price: { $gt: 10, $lt: 20 } }],
      ['value: {color: "red"}, where: $where', { color: 'red', price: { $gte: 30 } }],
    ];
    for (const [args, filter] of cases) {
      const uses = args.includes('$where');
      const data = await ok(`query${uses ? '($where: JSON)' : ''} { products(${args}, options: {pageSize: 100}) { values { _id } pageState } }`, uses ? { where: { price: { $gte: 30 } } } : undefined);
      const expected = await findAll({ filter });
      expect(ids(data.products.values), args).toEqual(ids(expected));
      expect(data.products.pageState).toBeNull();
    }
    const sorted = await ok('{ products(orderBy: [price_DESC], options: {limit: 5}) { values { _id price } } }');
    const response = await c.command({ find: { sort: { price: -1 }, options: { limit: 5 } } }, { collection: 'products' });
    expect(ids(sorted.products.values)).toEqual(ids((response.data as any).documents));
    expect(sorted.products.values.map((d: any) => d.price)).toEqual([44, 43, 42, 41, 40]);
  });

  test('paging to the end: unsorted, sorted and with a limit', async () => {
    const all = ids(await findAll({}));
    for (const args of ['options: {pageSize: 7', 'orderBy: [price_ASC], options: {pageSize: 7', 'options: {pageSize: 25']) {
      const seen: unknown[] = [];
      let pageState: string | null = null;
      let pages = 0;
      do {
        const data = await ok(`query($ps: String) { products(${args}, pageState: $ps}) { values { _id } pageState } }`, { ps: pageState });
        seen.push(...ids(data.products.values));
        pageState = data.products.pageState;
        pages++;
      } while (pageState);
      expect(new Set(seen).size, args).toBe(COUNT);
      expect([...seen].sort(), args).toEqual([...all].sort());
      if (args.startsWith('orderBy')) expect(seen).toEqual(products.map((p) => p._id));
      expect(pages).toBe(Math.ceil(COUNT / (args.includes('25') ? 25 : 7)));
    }
    const limited: unknown[] = [];
    let pageState: string | null = null;
    do {
      const data = await ok('query($ps: String) { products(options: {pageSize: 4, limit: 10, pageState: $ps}) { values { _id } pageState } }', { ps: pageState });
      limited.push(...ids(data.products.values));
      pageState = data.products.pageState;
    } while (pageState);
    expect(limited).toEqual(all.slice(0, 10));
  });

  test('vector sort fills _similarity with the Data API $similarity, in its order, and pages', async () => {
    const vector = [1, 0.2, 0.5];
    const data = await ok('query($v: [Float!]) { products(vector: $v, options: {pageSize: 5}) { values { _id _similarity } pageState } }', { v: vector });
    const response = await c.command({ find: { sort: { $vector: vector }, options: { limit: 5, includeSimilarity: true } } }, { collection: 'products' });
    const expected = (response.data as any).documents as { _id: string; $similarity: number }[];
    expect(data.products.values).toEqual(expected.map((d) => ({ _id: d._id, _similarity: d.$similarity })));
    expect(data.products.values[0]._similarity).toBeGreaterThan(data.products.values[4]._similarity);
    const next = await ok('query($v: [Float!], $ps: String) { products(vector: $v, options: {pageSize: 5, pageState: $ps}) { values { _id } } }', { v: vector, ps: data.products.pageState });
    const ten = await c.command({ find: { sort: { $vector: vector }, options: { limit: 10 } } }, { collection: 'products' });
    expect(ids(next.products.values)).toEqual(ids((ten.data as any).documents.slice(5)));
    const whole = await ok('{ products(value: {_id: "p00"}) { values { x24_vector _document } } }');
    expect(whole.products.values[0].x24_vector).toEqual(products[0]!.$vector.map((x) => Math.fround(x)));
    expect(whole.products.values[0]._document).toMatchObject({ _id: 'p00', meta: { nested: [1, 2] } });
  });

  test('mutations: insert, bulkInsert, update, delete with ifNotExists / ifExists / ifCondition', async () => {
    const m = await ok(`mutation {
      a: insertproducts(value: {_id: "m1", name: "new", price: 1.5}) { applied value { _id name price } }
      b: insertproducts(value: {_id: "m1", name: "again"}, ifNotExists: true) { applied value { name } }
      c: insertproducts(value: {_id: "m1", name: "replaced"}) { applied value { name price } }
      d: bulkInsertproducts(values: [{_id: "m2", name: "two"}, {_id: "m3", name: "three"}], ifNotExists: true) { applied value { _id } }
      e: updateproducts(value: {_id: "m2", price: 9}, ifExists: true) { applied value { name price } }
      f: updateproducts(value: {_id: "nope", price: 9}, ifExists: true) { applied value { _id } }
      g: updateproducts(value: {_id: "m3", price: 1}, ifCondition: {name: {eq: "other"}}) { applied }
      h: deleteproducts(value: {_id: "m3"}, ifExists: true) { applied value { name } }
      i: deleteproducts(value: {_id: "m3"}, ifExists: true) { applied }
      j: insertproducts(document: {name: "generated id", extra: {deep: true}}) { applied value { _id } document }
    }`);
    expect(m.a).toEqual({ applied: true, value: { _id: 'm1', name: 'new', price: 1.5 } });
    expect(m.b).toEqual({ applied: false, value: { name: 'new' } });
    expect(m.c).toEqual({ applied: true, value: { name: 'replaced', price: null } });
    expect(m.d).toEqual([{ applied: true, value: { _id: 'm2' } }, { applied: true, value: { _id: 'm3' } }]);
    expect(m.e).toEqual({ applied: true, value: { name: 'two', price: 9 } });
    expect(m.f).toEqual({ applied: false, value: null });
    expect(m.g).toEqual({ applied: false });
    expect(m.h).toEqual({ applied: true, value: { name: 'three' } });
    expect(m.i).toEqual({ applied: false });
    expect(typeof m.j.value._id).toBe('string');
    // Each write is what the Data API now holds.
    const stored = await c.command({ find: { filter: { _id: { $in: ['m1', 'm2', 'm3', m.j.value._id] } } } }, { collection: 'products' });
    const byId = Object.fromEntries((stored.data as any).documents.map((d: any) => [d._id, d]));
    expect(byId.m1).toEqual({ _id: 'm1', name: 'replaced' });
    expect(byId.m2).toEqual({ _id: 'm2', name: 'two', price: 9 });
    expect(byId.m3).toBeUndefined();
    expect(byId[m.j.value._id]).toEqual({ _id: m.j.value._id, name: 'generated id', extra: { deep: true } });
    // The new field `extra` is now in the schema.
    const type = await ok('{ __type(name: "products") { fields { name } } }');
    expect(type.__type.fields.map((f: any) => f.name)).toContain('extra');
    await ok('mutation { deleteproducts(value: {_id: "m1"}) { applied } b: deleteproducts(value: {_id: "m2"}) { applied } }');
    await c.command({ deleteOne: { filter: { _id: m.j.value._id } } }, { collection: 'products' });
  });

  test('the schema follows DDL and widens a field instead of dropping it', async () => {
    expect((await c.command({ createCollection: { name: 'notes' } })).errors).toBeUndefined();
    await c.command({ insertOne: { document: { _id: 'n1', title: 'text' } } }, { collection: 'notes' });
    const before = await ok('{ notes { values { _id title } } }');
    expect(before.notes.values).toEqual([{ _id: 'n1', title: 'text' }]);
    await ok('mutation { insertnotes(document: {_id: "n2", title: 42}) { applied } }');
    const after = await ok('{ t: __type(name: "notes") { fields { name type { name } } } conversionWarnings }');
    expect(after.t.fields.find((f: any) => f.name === 'title').type.name).toBe('JSON');
    expect(after.conversionWarnings).toContain("Collection 'notes': field 'title' is JSON: seen both as String and as Float.");
    const values = await ok('{ notes(orderBy: [_id_ASC]) { values { title } } }');
    expect(values.notes.values).toEqual([{ title: 'text' }, { title: 42 }]);
    await c.command({ deleteCollection: { name: 'notes' } });
    const gone = await ok('{ __type(name: "notes") { name } }');
    expect(gone.__type).toBeNull();
  });

  test('errors carry the Data API error code in extensions', async () => {
    const bad = await c.gql('query($w: JSON) { products(where: $w) { values { _id } } }', { w: { price: { $regex: 'x' } } });
    const dataApi = await c.command({ find: { filter: { price: { $regex: 'x' } } } }, { collection: 'products' });
    expect(bad.errors?.[0]?.extensions?.code).toBe(dataApi.errors?.[0]?.errorCode);
    expect(bad.errors?.[0]?.message).toBe(dataApi.errors?.[0]?.message);
    const vectorAndOrder = await c.gql('{ products(vector: [1,0,0], orderBy: [price_ASC]) { values { _id } } }');
    expect(vectorAndOrder.errors?.[0]?.extensions?.code).toBe('SORT_CLAUSE_INVALID');
    const keyspace = await c.gql('{ __typename }', undefined, 'no_such_keyspace');
    expect(keyspace.errors?.[0]?.extensions?.code).toBe('UNKNOWN_KEYSPACE');
    const paging = await c.gql('{ products(options: {pageState: "garbage"}) { values { _id } } }');
    expect(paging.errors?.[0]?.extensions?.code).toBe('INVALID_GRAPHQL_ARGUMENT');
  });
});
