/**
 * Deeply nested commands are refused with a request error before any recursive code sees them, and the
 * database keeps serving: documents, filters, projections and updates thousands of levels deep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/index.js';
import { embeddedFactory, type TestDatabase } from '../support/factory.js';

let t: TestDatabase;

beforeAll(async () => {
  t = await embeddedFactory.create();
  await t.db.command({ createCollection: { name: 'deep' } }, { keyspace: 'default_keyspace' });
  await t.db.command({ insertOne: { document: { _id: 'ok', a: 1 } } }, { collection: 'deep' });
});

afterAll(async () => {
  await t.close();
});

function nest(levels: number, leaf: JsonValue, wrap: (inner: JsonValue) => JsonValue): JsonValue {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = wrap(value);
  return value;
}

describe('deeply nested commands', () => {
  const cases: [string, JsonObject][] = [
    ['a document 5,000 objects deep', { insertOne: { document: { _id: 'x', a: nest(5000, 1, (v) => ({ a: v })) } } }],
    ['a document 5,000 arrays deep', { insertOne: { document: { _id: 'y', a: nest(5000, 1, (v) => [v]) } } }],
    ['a filter 500 $and/$or deep', { find: { filter: nest(500, { a: 1 }, (v) => ({ $and: [{ $or: [v] }] })) as JsonObject } }],
    ['an array literal 5,000 deep in a filter', { find: { filter: { a: nest(5000, 1, (v) => [v]) } } }],
    ['a projection 5,000 deep', { find: { projection: nest(5000, 1, (v) => ({ p: v })) as JsonObject } }],
    ['a $set value 2,000 deep', { updateOne: { filter: { _id: 'ok' }, update: { $set: { b: nest(2000, 1, (v) => ({ b: v })) } } } }],
  ];
  for (const [name, command] of cases) {
    it(`refuses ${name} with REQUEST_STRUCTURE_MISMATCH`, async () => {
      const response = await t.db.command(command, { collection: 'deep' });
      expect(response.errors?.[0]?.errorCode).toBe('REQUEST_STRUCTURE_MISMATCH');
      expect(response.errors?.[0]?.message).toContain('128 levels');
    });
  }

  it('still refuses a document 17 levels deep with the document depth limit', async () => {
    const response = await t.db.command({ insertOne: { document: { _id: 'z', a: nest(17, 1, (v) => ({ a: v })) } } }, { collection: 'deep' });
    expect(response.errors?.[0]?.errorCode).toBe('SHRED_DOC_LIMIT_VIOLATION');
  });

  it('keeps serving, with the data untouched', async () => {
    const response = await t.db.command({ find: {} }, { collection: 'deep' });
    expect(response.data).toEqual({ documents: [{ _id: 'ok', a: 1 }], nextPageState: null });
  });
});
