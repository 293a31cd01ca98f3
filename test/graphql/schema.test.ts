/**
 * Schema generation rules in process: names that clash are skipped with a warning (a collection, a field
 * named like the schema's own), fields of several types are widened to JSON, empty keyspaces stay valid.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { tempDir } from '../support/temp.js';

let db: VectorDB;
beforeAll(async () => {
  db = new VectorDB('unused', tempDir('vectordb-gql-schema-'));
  await db.connect();
});
afterAll(() => db.close());

test('an empty keyspace has a valid schema with the placeholder mutation', async () => {
  const reply = await db.graphql('{ __schema { mutationType { fields { name } } } conversionWarnings }');
  expect(reply).toEqual({ data: { __schema: { mutationType: { fields: [{ name: 'keyspaceEmptyMutation' }] } }, conversionWarnings: [] } });
});

test('clashing names are skipped with a warning; the rest of the schema still works', async () => {
  await db.command({ createCollection: { name: 'foo' } }, { keyspace: 'default_keyspace' });
  await db.command({ createCollection: { name: 'fooMutation' } }, { keyspace: 'default_keyspace' });
  await db.command({ insertOne: { document: { _id: 1, _document: 'shadow', tags: ['a', 1] } } }, { collection: 'foo' });
  const reply = await db.graphql('{ conversionWarnings foo { values { _id tags _document } } }');
  expect(reply.errors).toBeUndefined();
  const warnings = (reply.data as any).conversionWarnings as string[];
  expect(warnings).toContain("Collection 'foo': field '_document' is skipped because its GraphQL name '_document' is one of the schema's own fields; read it through _document.");
  expect(warnings).toContain("Collection 'foo': field 'tags' is JSON: a list of objects, lists or mixed types.");
  expect(warnings.some((w) => w.startsWith("'fooMutation' is skipped: its GraphQL names clash") && w.includes('fooMutationResult'))).toBe(true);
  expect((reply.data as any).foo.values).toEqual([{ _id: '1', tags: ['a', 1], _document: { _id: 1, _document: 'shadow', tags: ['a', 1] } }]);
  const types = await db.graphql('{ a: __type(name: "fooMutation") { name } b: __type(name: "fooInput") { name } }');
  expect(types.data).toEqual({ a: null, b: { name: 'fooInput' } });
});
