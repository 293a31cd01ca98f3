/**
 * The command nesting guard (commands/process.ts) at its boundary: 128 levels pass it, 129 do not,
 * whether the depth is in arrays (short or long) or objects; and a find with a long query vector passes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/index.js';
import { embeddedFactory, type TestDatabase } from '../support/factory.js';

let t: TestDatabase;

beforeAll(async () => {
  t = await embeddedFactory.create();
  await t.db.command({ createCollection: { name: 'depth', options: { vector: { dimension: 1024, metric: 'dot_product' } } } }, { keyspace: 'default_keyspace' });
  await t.db.command({ insertOne: { document: { _id: 'v', $vector: Array.from({ length: 1024 }, (_, i) => i / 1024) } } }, { collection: 'depth' });
});

afterAll(async () => {
  await t.close();
});

function nest(levels: number, wrap: (inner: JsonValue) => JsonValue): JsonValue {
  let value: JsonValue = 1;
  for (let i = 0; i < levels; i++) value = wrap(value);
  return value;
}

/** A find whose filter value nests `levels` containers: the command then nests 3 + `levels` deep. */
const findNested = (levels: number, wrap: (inner: JsonValue) => JsonValue): JsonObject => ({ find: { filter: { a: nest(levels, wrap) } } });

describe('command nesting guard', () => {
  for (const [kind, wrap] of [
    ['arrays', (v: JsonValue) => [v]],
    ['objects', (v: JsonValue) => ({ $eq: v })],
    // Long arrays (vectors, mostly) are scanned by a loop of their own: the depth inside them still counts.
    ['long arrays with the nesting in the middle', (v: JsonValue) => [...Array.from({ length: 150 }, (_, i) => i + 0.5), v, 1.5]],
  ] as const) {
    it(`passes 128 levels of ${kind} and refuses 129`, async () => {
      const passing = await t.db.command(findNested(125, wrap), { collection: 'depth' });
      expect(passing.errors?.[0]?.message ?? '').not.toContain('128 levels');
      const refused = await t.db.command(findNested(126, wrap), { collection: 'depth' });
      expect(refused.errors?.[0]?.errorCode).toBe('REQUEST_STRUCTURE_MISMATCH');
      expect(refused.errors?.[0]?.message).toContain('128 levels');
    });
  }

  it('passes a vector find with a 1024-number query vector', async () => {
    const response = await t.db.command({ find: { sort: { $vector: Array.from({ length: 1024 }, (_, i) => i / 1024) }, options: { limit: 1 } } }, { collection: 'depth' });
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ documents: [{ _id: 'v' }], nextPageState: null });
  });
});
