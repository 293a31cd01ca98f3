import { expect, test } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { tempDir } from '../support/temp.js';

test('smoke', async () => {
  const db = new VectorDB('t', tempDir());
  const col = await db.createCollection('products', 3);
  await db.command({ insertMany: { documents: [
    { _id: 'p1', name: 'a', price: 10, tags: ['x'], $vector: [1, 0, 0], meta: { a: 1 } },
    { _id: 'p2', name: 'b', price: 20, tags: ['y'], $vector: [0, 1, 0] },
    { _id: 'p3', name: 'c', price: 30, $vector: [0.9, 0.1, 0] },
  ] } }, { collection: 'products' });
  const r = await db.graphql('{ products(filter: {price: {gt: 15}}, options: {pageSize: 1}) { values { _id name price tags x24_vector _document } pageState } conversionWarnings }');
  console.log(JSON.stringify(r, null, 1));
  const v = await db.graphql('{ products(vector: [1,0,0]) { values { _id _similarity } } }');
  console.log(JSON.stringify(v));
  const m = await db.graphql('mutation { insertproducts(value: {_id: "p4", name: "d", price: 5}) { applied value { _id name } } updateproducts(value: {_id: "p4", price: 6}, ifExists: true) { applied value { price } } deleteproducts(value: {_id: "p9"}, ifExists: true) { applied } }');
  console.log(JSON.stringify(m));
  const e = await db.graphql('{ products(where: {price: {$regex: 1}}) { values { _id } } }');
  console.log(JSON.stringify(e));
  const d = await db.graphql('{ keyspaces { name collections { name vector { dimension metric } } } }', { schema: true });
  console.log(JSON.stringify(d));
  await db.close();
  expect(r.errors).toBeUndefined();
});
