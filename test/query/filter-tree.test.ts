/**
 * Tests for src/query/filter*.ts, the parsed filter rather than its matches: the tree ($not pushed down,
 * $and flattened, frozen literals), isEmpty, idLookup, and the document an upsert starts from (upsertSeed).
 */
import { describe, expect, it } from 'vitest';
import { parseFilter, upsertSeed, type FilterNode, type FilterOptions } from '../../src/query/filter.js';

const U = '123e4567-e89b-12d3-a456-426614174000';
const D1 = 1_700_000_000_000;

const allIndexed: FilterOptions = { isIndexed: () => true };
const noIdIndex: FilterOptions = { isIndexed: (p) => p !== '_id' };

describe('parseFilter: tree, idLookup, isEmpty', () => {
  it('pushes $not down by inverting operators and swapping and/or', () => {
    const { root } = parseFilter({ $not: { a: { $gte: 1 }, $or: [{ b: { $exists: true } }, { c: { $size: 2 } }], d: { $all: [1] } } }, allIndexed);
    const expected: FilterNode = {
      kind: 'and',
      children: [
        {
          kind: 'or',
          children: [
            { kind: 'compare', path: 'a', segments: ['a'], op: '$lt', value: 1 },
            {
              kind: 'and',
              children: [
                { kind: 'compare', path: 'b', segments: ['b'], op: '$exists', value: false },
                { kind: 'compare', path: 'c', segments: ['c'], op: '$sizeNe', value: 2 },
              ],
            },
            { kind: 'compare', path: 'd', segments: ['d'], op: '$notAll', value: [1] },
          ],
        },
      ],
    };
    expect(root).toEqual(expected);
  });

  it('flattens nested $and into the root and keeps escaped paths with unescaped segments', () => {
    const { root } = parseFilter({ 'a&.b.c': 1, $and: [{ x: 1 }, { $and: [{ y: 2 }] }] }, allIndexed);
    expect(root.kind).toBe('and');
    if (root.kind === 'compare') throw new Error('unreachable');
    expect(root.children.map((c) => (c.kind === 'compare' ? c.path : c.kind))).toEqual(['a&.b.c', 'x', 'y']);
    expect(root.children[0]).toMatchObject({ segments: ['a.b', 'c'] });
  });

  it('freezes the tree and copies literal values', () => {
    const raw = { tags: { $in: [['a'], { b: 1 }] } };
    const filter = parseFilter(raw, allIndexed);
    expect(Object.isFrozen(filter.root)).toBe(true);
    const node = (filter.root as { children: readonly FilterNode[] }).children[0]!;
    expect(Object.isFrozen(node)).toBe(true);
    expect(Object.isFrozen((node as { value: unknown[] }).value[1])).toBe(true);
    expect(Object.isFrozen(raw.tags.$in)).toBe(false);
    raw.tags.$in.push(['zzz']);
    expect(filter.matches({ _id: 1, tags: ['zzz'] })).toBe(false);
  });

  it('isEmpty only when there is no comparison', () => {
    expect(parseFilter({}, allIndexed).isEmpty).toBe(true);
    expect(parseFilter(null, allIndexed).isEmpty).toBe(true);
    expect(parseFilter({ $and: [], $or: [{}] }, allIndexed).isEmpty).toBe(true);
    expect(parseFilter({ a: 1 }, allIndexed).isEmpty).toBe(false);
    expect(parseFilter({ a: { $in: [] } }, allIndexed).isEmpty).toBe(false);
  });

  it.each([
    { filter: { _id: 'x' }, ids: ['x'] },
    { filter: { _id: { $eq: 5 }, a: 1 }, ids: [5] },
    { filter: { _id: { $in: ['a', { $uuid: U }] } }, ids: ['a', { $uuid: U }] },
    { filter: { _id: { $in: [] } }, ids: [] },
    { filter: { a: 1, $and: [{ b: 2 }, { _id: 'y' }] }, ids: ['y'] },
    { filter: { $not: { _id: { $ne: 'z' } } }, ids: ['z'] },
    { filter: { _id: { $ne: 'x' } }, ids: undefined },
    { filter: { _id: { $gt: 'x' } }, ids: undefined },
    { filter: { $or: [{ $and: [{ _id: 'x' }] }, { a: 1 }] }, ids: undefined },
    { filter: { a: 1 }, ids: undefined },
  ])('idLookup of $filter', ({ filter, ids }) => {
    expect(parseFilter(filter, allIndexed).idLookup).toEqual(ids);
  });

  it('idLookup works even when _id is not indexed ($eq/$in only)', () => {
    expect(parseFilter({ _id: { $in: ['a', 'b'] } }, noIdIndex).idLookup).toEqual(['a', 'b']);
  });
});

describe('upsertSeed', () => {
  it('takes root-level equality clauses only, _id first, dotted paths nested', () => {
    const filter = parseFilter(
      {
        a: 1,
        'b.c': 'x',
        tags: ['t'],
        n: null,
        sub: { k: { $date: D1 } },
        e: { $eq: true },
        _id: { $uuid: U },
        r: { $gt: 1 },
        i: { $in: [1] },
        x: { $exists: true },
        s: { $size: 1 },
        al: { $all: ['q'] },
        ne: { $ne: 2 },
        $and: [{ inAnd: 1 }],
        $or: [{ inOr: 1 }, { inOr: 2 }],
      },
      allIndexed,
    );
    const seed = upsertSeed(filter);
    expect(seed).toEqual({ _id: { $uuid: U }, a: 1, b: { c: 'x' }, tags: ['t'], n: null, sub: { k: { $date: D1 } }, e: true });
    expect(Object.keys(seed)[0]).toBe('_id');
  });

  it('a single-clause $not at root seeds like the Data API (inverted into the root)', () => {
    expect(upsertSeed(parseFilter({ $not: { a: { $ne: 3 } } }, allIndexed))).toEqual({ a: 3 });
    expect(upsertSeed(parseFilter({ $not: { a: { $ne: 3 }, b: { $ne: 4 } } }, allIndexed))).toEqual({});
  });

  it('seeds a __proto__ field name as an own property', () => {
    const seed = upsertSeed(parseFilter(JSON.parse('{"__proto__": {"polluted": true}}') as unknown, allIndexed));
    expect(Object.getPrototypeOf(seed)).toBe(Object.prototype);
    expect(Object.keys(seed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('returns a fresh, mutable copy each time and skips conflicting paths', () => {
    const filter = parseFilter({ a: 1, 'a.b': 2, c: { d: 1 } }, allIndexed);
    const first = upsertSeed(filter);
    expect(first).toEqual({ a: 1, c: { d: 1 } });
    (first.c as { d: number }).d = 99;
    expect(upsertSeed(filter)).toEqual({ a: 1, c: { d: 1 } });
    expect(upsertSeed(parseFilter({}, allIndexed))).toEqual({});
  });
});
