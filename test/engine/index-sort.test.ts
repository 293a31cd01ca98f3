/**
 * Sorted finds answered through a path's index return exactly what an in-memory sort of every match
 * returns: mixed types, arrays and sub-documents, ties (by `_id`), missing values, skip, both directions,
 * and index entries that are not the document's value at the path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { parseFilter } from '../../src/query/filter.js';
import type { JsonObject, JsonValue } from '../../src/query/json.js';
import { documentComparator, parseSort } from '../../src/query/sort.js';
import { tempDir } from '../support/temp.js';

const N = 1500;
const target = { keyspace: 'default_keyspace', collection: 'sorted' };
let db: Database;
let all: JsonObject[];

function value(i: number): JsonValue | undefined {
  switch (i % 11) {
    case 0:
      return undefined; // missing
    case 1:
      return null;
    case 2:
      return [i % 3, 'x'];
    case 3:
      return { k: i % 4 };
    case 4:
      return i % 2 === 0;
    case 5:
      return { $date: 1_700_000_000_000 + (i % 50) * 1000 };
    case 6:
    case 7:
      return `s${i % 40}${i % 3 === 0 ? '\uE000' : ''}`;
    default:
      return (i % 60) - 30 + (i % 7) / 10;
  }
}

/**
 * `w.b`, whose index also holds values the sort does not see: `w.b` files the values of `w.0.b` (arrays
 * of objects, numeric keys) too. Plus `$binary`, filed as a container though the comparator ranks it
 * among the strings.
 */
function nested(i: number): JsonValue | undefined {
  switch (i % 9) {
    case 0:
      return undefined;
    case 1:
      return { b: (i % 50) - 25 };
    case 2:
      return [{ b: i % 50 }]; // w.b is missing; the index has i % 50
    case 3:
      return { '0': { b: (i % 50) - 60 } }; // missing too
    case 4:
      return { b: i % 50, '1': { b: 100 + (i % 7) } }; // its own value and a foreign one
    case 5:
      return { b: { $binary: Buffer.from([i % 4]).toString('base64') } };
    case 6:
      return { b: `s${i % 30}` };
    case 7:
      return { b: [i % 5, 1] };
    default:
      return [[{ b: 2 }]];
  }
}

beforeAll(async () => {
  db = await Database.open(tempDir(), { limits: { maxInsertManyDocuments: 100 } });
  await executeCommand(db, { createCollection: { name: 'sorted' } }, { keyspace: 'default_keyspace' });
  all = [];
  for (let i = 0; i < N; i++) {
    const v = value(i);
    const w = nested(i);
    all.push({ _id: i % 5 === 0 ? `id${i}` : i, ...(v === undefined ? {} : { v }), ...(w === undefined ? {} : { w }), group: i % 4, n: i });
  }
  for (let i = 0; i < N; i += 100) {
    const r = await executeCommand(db, { insertMany: { documents: all.slice(i, i + 100) } }, target);
    expect(r.errors).toBeUndefined();
  }
});

afterAll(async () => {
  await db.close();
});

async function sortedIds(filter: JsonObject, sort: JsonObject, skip = 0, limit = 20): Promise<JsonValue[]> {
  const r = await executeCommand(db, { find: { filter, sort, options: { skip, limit } } }, target);
  expect(r.errors).toBeUndefined();
  return (r.data as { documents: JsonObject[] }).documents.map((d) => d._id!);
}

function expected(filter: JsonObject, sort: JsonObject, skip = 0, limit = 20): JsonValue[] {
  const f = parseFilter(filter, { isIndexed: () => true });
  const spec = parseSort(sort, { isIndexed: () => true });
  if (spec.kind !== 'fields') throw new Error('fields sort expected');
  return all.filter((d) => f.matches(d)).sort(documentComparator(spec.fields)).slice(skip, skip + limit).map((d) => d._id!);
}

describe('sorting through the index', () => {
  const cases: [string, JsonObject, JsonObject, number?][] = [
    ['descending over every type (missing last)', {}, { v: -1 }],
    ['descending, deep page', {}, { v: -1 }, 300],
    ['descending with a filter on another path', { group: { $in: [1, 2] } }, { v: -1 }, 40],
    ['ascending when the filter implies presence', { v: { $exists: true } }, { v: 1 }],
    ['ascending from the middle of the containers and strings', { v: { $exists: true } }, { v: 1 }, 130],
    ['ascending over a range of numbers', { v: { $gte: -5 } }, { v: 1 }, 10],
    ['descending over strings', { v: { $gt: 's' } }, { v: -1 }],
    ['ties broken by _id', { v: { $exists: true } }, { n: -1 }, 0],
    ['a nested path whose index holds array elements and numeric keys too, descending', {}, { 'w.b': -1 }],
    ['the same, a deeper page', {}, { 'w.b': -1 }, 150],
    ['the same, ascending with a presence filter', { 'w.b': { $exists: true } }, { 'w.b': 1 }],
    ['the same, ascending over a range', { 'w.b': { $gte: -5 } }, { 'w.b': 1 }, 30],
  ];
  for (const [name, filter, sort, skip] of cases) {
    it(name, async () => {
      expect(await sortedIds(filter, sort, skip ?? 0)).toEqual(expected(filter, sort, skip ?? 0));
    });
  }

  it('at, under and over the in-memory limit in candidates, a sort the index serves answers', async () => {
    for (const count of [9, 10, 11]) {
      const small = await Database.open(tempDir(), { limits: { maxSortCandidates: 10 } });
      try {
        await executeCommand(small, { createCollection: { name: 'sorted' } }, { keyspace: 'default_keyspace' });
        const documents = Array.from({ length: count }, (_, i) => ({ _id: i, g: 'a', n: i }));
        expect((await executeCommand(small, { insertMany: { documents } }, target)).errors).toBeUndefined();
        const r = await executeCommand(small, { find: { filter: { g: 'a' }, sort: { n: -1 }, options: { limit: 3 } } }, target);
        expect(r.errors, `${count} matches`).toBeUndefined();
        expect((r.data as { documents: JsonObject[] }).documents.map((d) => d.n)).toEqual([count - 1, count - 2, count - 3]);
      } finally {
        await small.close();
      }
    }
  });

  it('answers past the in-memory sort limit when the index can serve the order', async () => {
    const small = await Database.open(tempDir(), { limits: { maxSortCandidates: 100, maxInsertManyDocuments: 100 } });
    try {
      await executeCommand(small, { createCollection: { name: 'sorted' } }, { keyspace: 'default_keyspace' });
      for (let i = 0; i < N; i += 100) await executeCommand(small, { insertMany: { documents: all.slice(i, i + 100) } }, target);
      const r = await executeCommand(small, { find: { sort: { n: -1 }, options: { limit: 3 } } }, target);
      expect((r.data as { documents: JsonObject[] }).documents.map((d) => d.n)).toEqual([N - 1, N - 2, N - 3]);
      for (const [filter, sort, skip] of cases.map(([, f, so, sk]) => [f, so, sk ?? 0] as const)) {
        const page = await executeCommand(small, { find: { filter, sort, options: { skip, limit: 20 } } }, target);
        expect(page.errors, JSON.stringify({ filter, sort })).toBeUndefined();
        expect((page.data as { documents: JsonObject[] }).documents.map((d) => d._id)).toEqual(expected(filter, sort, skip));
      }
      // An ascending sort without a presence filter cannot use the index: the in-memory limit applies.
      const overloaded = await executeCommand(small, { find: { sort: { n: 1 } } }, target);
      expect(overloaded.errors?.[0]?.errorCode).toBe('OVERLOADED_SORT_ROW_LIMIT');
    } finally {
      await small.close();
    }
  });
});
