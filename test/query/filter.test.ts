/**
 * Tests for src/query/filter*.ts, what a filter matches: Data API filter semantics (data-api-protocol.md 5),
 * table-driven over a shared fixture set. What a filter refuses is in filter-errors.test.ts, the parsed tree
 * ($not push-down, idLookup, isEmpty) and upsertSeed in filter-tree.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseFilter, type FilterOptions } from '../../src/query/filter.js';
import type { Document } from '../../src/query/json.js';

const U = '123e4567-e89b-12d3-a456-426614174000';
const O = '507f1f77bcf86cd799439011';
const D1 = 1_700_000_000_000;
const D2 = 1_600_000_000_000;

/** label -> document; expectations list labels. */
const FIXTURES: Readonly<Record<string, Document>> = {
  d1: { _id: 'd1', name: 'alice', age: 30, active: true, tags: ['a', 'b', 'c'], score: 1.5, nil: null, address: { city: 'Paris', zip: '75001' }, created: { $date: D1 } },
  d2: { _id: 'd2', name: 'bob', age: 20, active: false, tags: ['b'], address: { zip: '75001', city: 'Paris' }, items: [{ a: 1 }, { a: 2 }], created: { $date: D2 } },
  d3: { _id: 'd3', name: 'carol', age: '30', tags: [], nums: [1, 2, 3], nested: [['x'], 'y'], nil: [null], items: [{ a: 1, b: 2 }] },
  d4: { _id: 'd4', name: 'dave', age: null, tags: 'a', sub: { a: 5, b: { c: 'v1', d: false } }, $vector: [0.1, 0.2], $vectorize: 'text' },
  d5: { _id: 'd5', name: 'Émile', age: 21, ref: { $uuid: U }, oid: { $objectId: O }, 'a.b': 1, 'x&y': 2, when: [{ $date: D1 }], $vector: null },
  n5: { _id: 5, kind: 'number id' },
  s5: { _id: '5', kind: 'string id' },
  u1: { _id: { $uuid: U }, kind: 'uuid id' },
  o1: { _id: { $objectId: O }, kind: 'objectId id' },
  t1: { _id: true },
  dt: { _id: { $date: 1000 } },
};
const ALL = Object.keys(FIXTURES);
const except = (...labels: string[]): string[] => ALL.filter((l) => !labels.includes(l));

const allIndexed: FilterOptions = { isIndexed: () => true };

interface MatchCase {
  readonly name: string;
  readonly filter: unknown;
  readonly expected: readonly string[];
  readonly docs?: Readonly<Record<string, Document>>;
  readonly options?: FilterOptions;
}

const matchCases: readonly MatchCase[] = [
  // --- empty filters ---
  { name: 'empty object matches everything', filter: {}, expected: ALL },
  { name: 'null filter matches everything', filter: null, expected: ALL },
  { name: 'undefined filter matches everything', filter: undefined, expected: ALL },
  { name: 'empty $or imposes no condition (Data API skips empty groups)', filter: { $or: [] }, expected: ALL },
  { name: 'keys with undefined values are dropped like JSON.stringify does', filter: { name: undefined }, expected: ALL },
  // --- scalar $eq ---
  { name: 'implicit $eq on a string', filter: { name: 'alice' }, expected: ['d1'] },
  { name: 'explicit $eq', filter: { name: { $eq: 'bob' } }, expected: ['d2'] },
  { name: 'number 30 does not equal string "30"', filter: { age: 30 }, expected: ['d1'] },
  { name: 'string "30" does not equal number 30', filter: { age: '30' }, expected: ['d3'] },
  { name: 'boolean equality', filter: { active: false }, expected: ['d2'] },
  { name: 'decimal equality', filter: { score: 1.5 }, expected: ['d1'] },
  { name: 'null needs a present null (not missing)', filter: { age: null }, expected: ['d4'] },
  { name: 'null does not match an array containing null', filter: { nil: null }, expected: ['d1'] },
  { name: 'scalar matches an array element', filter: { tags: 'b' }, expected: ['d1', 'd2'] },
  { name: 'scalar matches a scalar field and array elements', filter: { tags: 'a' }, expected: ['d1', 'd4'] },
  { name: 'unicode string equality', filter: { name: 'Émile' }, expected: ['d5'] },
  // --- array and sub-document literals ---
  { name: 'array literal: exact equality', filter: { tags: ['b'] }, expected: ['d2'] },
  { name: 'array literal: order matters', filter: { tags: ['c', 'b', 'a'] }, expected: [] },
  { name: 'array literal: exact whole array', filter: { tags: ['a', 'b', 'c'] }, expected: ['d1'] },
  { name: 'empty array literal', filter: { tags: [] }, expected: ['d3'] },
  { name: 'array literal does not match nested array elements', filter: { nested: ['x'] }, expected: [] },
  { name: 'array literal with a nested array', filter: { nested: [['x'], 'y'] }, expected: ['d3'] },
  { name: 'sub-document literal: key order sensitive', filter: { address: { city: 'Paris', zip: '75001' } }, expected: ['d1'] },
  { name: 'sub-document literal: other key order', filter: { address: { zip: '75001', city: 'Paris' } }, expected: ['d2'] },
  { name: 'nested sub-document literal', filter: { sub: { a: 5, b: { c: 'v1', d: false } } }, expected: ['d4'] },
  { name: 'nested sub-document literal: inner key order', filter: { sub: { a: 5, b: { d: false, c: 'v1' } } }, expected: [] },
  { name: 'sub-document literal missing a key does not match', filter: { sub: { a: 5 } }, expected: [] },
  { name: 'object literal does not match an array containing it', filter: { items: { a: 1 } }, expected: [] },
  { name: 'explicit $eq with an object literal', filter: { items: { $eq: { a: 1 } } }, expected: [] },
  { name: 'object literal at an index path', filter: { 'items.0': { a: 1 } }, expected: ['d2'] },
  { name: 'empty object literal matches only an empty object', filter: { sub: {} }, expected: [] },
  // --- paths ---
  { name: 'dotted path into a sub-document', filter: { 'address.city': 'Paris' }, expected: ['d1', 'd2'] },
  { name: 'paths do not run through arrays of objects', filter: { 'items.a': 1 }, expected: [] },
  { name: 'index segment reaches an array element object', filter: { 'items.0.a': 1 }, expected: ['d2', 'd3'] },
  { name: 'index segment on an array of scalars', filter: { 'tags.0': 'a' }, expected: ['d1'] },
  { name: 'index segment out of range', filter: { 'tags.5': 'a' }, expected: [] },
  { name: 'escaped dot in a field name', filter: { 'a&.b': 1 }, expected: ['d5'] },
  { name: 'escaped ampersand in a field name', filter: { 'x&&y': 2 }, expected: ['d5'] },
  { name: 'unescaped dotted path does not reach a dotted field name', filter: { 'a.b': 1 }, expected: [] },
  { name: 'deep path', filter: { 'sub.b.c': 'v1' }, expected: ['d4'] },
  // --- $ne / $in / $nin ---
  { name: '$ne matches missing fields', filter: { name: { $ne: 'alice' } }, expected: except('d1') },
  { name: '$ne on arrays: not containing the value', filter: { tags: { $ne: 'b' } }, expected: except('d1', 'd2') },
  { name: '$ne with an array literal', filter: { tags: { $ne: ['b'] } }, expected: except('d2') },
  { name: '$ne null matches missing and non-null', filter: { age: { $ne: null } }, expected: except('d4') },
  { name: '$ne is type strict', filter: { age: { $ne: 30 } }, expected: except('d1') },
  { name: '$in on scalars', filter: { name: { $in: ['alice', 'bob'] } }, expected: ['d1', 'd2'] },
  { name: '$in matches array elements', filter: { tags: { $in: ['c', 'zzz'] } }, expected: ['d1'] },
  { name: '$in with null needs a present null', filter: { age: { $in: [null, 20] } }, expected: ['d2', 'd4'] },
  { name: '$in with an array literal is exact', filter: { tags: { $in: [['b'], 'zzz'] } }, expected: ['d2'] },
  { name: '$in with a sub-document literal', filter: { address: { $in: [{ city: 'Paris', zip: '75001' }] } }, expected: ['d1'] },
  { name: '$in: [] matches nothing', filter: { name: { $in: [] } }, expected: [] },
  { name: '$nin excludes listed values', filter: { name: { $nin: ['alice', 'dave'] } }, expected: except('d1', 'd4') },
  { name: '$nin matches missing and other types', filter: { age: { $nin: [30, 20] } }, expected: except('d1', 'd2') },
  { name: '$nin: [] matches everything', filter: { name: { $nin: [] } }, expected: ALL },
  // --- ranges ---
  { name: '$gt on numbers ignores strings, null and missing', filter: { age: { $gt: 20 } }, expected: ['d1', 'd5'] },
  { name: '$gte', filter: { age: { $gte: 21 } }, expected: ['d1', 'd5'] },
  { name: '$lt', filter: { age: { $lt: 21 } }, expected: ['d2'] },
  { name: '$lte', filter: { age: { $lte: 30 } }, expected: ['d1', 'd2', 'd5'] },
  { name: 'two ranges on one field are AND-ed', filter: { age: { $gt: 20, $lt: 30 } }, expected: ['d5'] },
  { name: 'string range: only strings', filter: { name: { $gt: 'bob' } }, expected: ['d3', 'd4', 'd5'] },
  { name: 'string range on a numeric field only sees strings', filter: { age: { $gte: '0' } }, expected: ['d3'] },
  { name: 'ranges never look inside arrays', filter: { nums: { $gt: 0 } }, expected: [] },
  { name: 'range on an index path', filter: { 'nums.0': { $gte: 1 } }, expected: ['d3'] },
  { name: 'boolean range: false < true', filter: { active: { $gt: false } }, expected: ['d1'] },
  { name: 'boolean range $lt true', filter: { active: { $lt: true } }, expected: ['d2'] },
  { name: 'date range $gt', filter: { created: { $gt: { $date: 1_650_000_000_000 } } }, expected: ['d1'] },
  { name: 'date range $lte', filter: { created: { $lte: { $date: D2 } } }, expected: ['d2'] },
  { name: 'dates are not numbers', filter: { created: { $gt: 0 } }, expected: [] },
  { name: 'date equality', filter: { created: { $date: D1 } }, expected: ['d1'] },
  { name: 'date equality inside an array', filter: { when: { $date: D1 } }, expected: ['d5'] },
  { name: 'range on a field only some docs have', filter: { score: { $lt: 100 } }, expected: ['d1'] },
  {
    name: 'string ranges use UTF-16 code unit order (uppercase before lowercase)',
    filter: { s: { $lt: 'a' } },
    docs: { up: { _id: 1, s: 'Zed' }, low: { _id: 2, s: 'apple' } },
    expected: ['up'],
  },
  {
    name: 'string ranges use UTF-16 code units (surrogate pair below U+FFFF)',
    filter: { s: { $lt: '\uffff' } },
    docs: { emoji: { _id: 1, s: '\u{1F600}' }, max: { _id: 2, s: '\uffff' } },
    expected: ['emoji'],
  },
  // --- $exists ---
  { name: '$exists true counts a present null', filter: { nil: { $exists: true } }, expected: ['d1', 'd3'] },
  { name: '$exists false', filter: { age: { $exists: false } }, expected: except('d1', 'd2', 'd3', 'd4', 'd5') },
  { name: '$exists on a dotted path', filter: { 'address.city': { $exists: true } }, expected: ['d1', 'd2'] },
  { name: '$exists does not run through arrays', filter: { 'items.a': { $exists: true } }, expected: [] },
  { name: '$exists false on _id matches nothing', filter: { _id: { $exists: false } }, expected: [] },
  // --- $all / $size ---
  { name: '$all works on scalar fields', filter: { tags: { $all: ['a'] } }, expected: ['d1', 'd4'] },
  { name: '$all needs every value', filter: { tags: { $all: ['a', 'c'] } }, expected: ['d1'] },
  { name: '$all ignores order', filter: { tags: { $all: ['c', 'a', 'b'] } }, expected: ['d1'] },
  { name: '$all with an object finds it in an array', filter: { items: { $all: [{ a: 1 }] } }, expected: ['d2'] },
  { name: '$all with an array element', filter: { nested: { $all: [['x'], 'y'] } }, expected: ['d3'] },
  { name: '$all with null finds a null element', filter: { nil: { $all: [null] } }, expected: ['d1', 'd3'] },
  { name: '$size matches arrays of that length', filter: { tags: { $size: 1 } }, expected: ['d2'] },
  { name: '$size 0', filter: { tags: { $size: 0 } }, expected: ['d3'] },
  { name: '$size never matches non-arrays', filter: { name: { $size: 5 } }, expected: [] },
  // --- $not ---
  { name: '$not of a range does not match missing fields', filter: { $not: { age: { $gte: 21 } } }, expected: ['d2'] },
  { name: '$not of $gt is $lte (boundary included)', filter: { $not: { age: { $gt: 21 } } }, expected: ['d2', 'd5'] },
  { name: '$not of $lt is $gte (boundary included)', filter: { $not: { age: { $lt: 21 } } }, expected: ['d1', 'd5'] },
  { name: '$not of $lte is $gt (boundary excluded)', filter: { $not: { age: { $lte: 21 } } }, expected: ['d1'] },
  { name: '$not of null equality is $ne null', filter: { $not: { age: null } }, expected: except('d4') },
  { name: '$not of $eq is $ne (missing fields match)', filter: { $not: { name: 'alice' } }, expected: except('d1') },
  { name: '$not of $ne is $eq', filter: { $not: { name: { $ne: 'alice' } } }, expected: ['d1'] },
  { name: 'double $not', filter: { $not: { $not: { name: 'bob' } } }, expected: ['d2'] },
  { name: '$not of several clauses is an OR of inversions', filter: { $not: { active: true, name: 'alice' } }, expected: except('d1') },
  { name: '$not of $or is an AND of inversions', filter: { $not: { $or: [{ name: 'alice' }, { name: 'bob' }] } }, expected: except('d1', 'd2') },
  { name: '$not of $in is $nin', filter: { $not: { tags: { $in: ['a'] } } }, expected: except('d1', 'd4') },
  { name: '$not of $nin is $in', filter: { $not: { tags: { $nin: ['a'] } } }, expected: ['d1', 'd4'] },
  { name: '$not of $exists true', filter: { $not: { nil: { $exists: true } } }, expected: except('d1', 'd3') },
  { name: '$not of $all is "none of" (reference 5.3: ALL inverts to NOT-ANY)', filter: { $not: { tags: { $all: ['a', 'b'] } } }, expected: except('d1', 'd2', 'd4') },
  { name: '$not of $size: arrays of another size only', filter: { $not: { tags: { $size: 1 } } }, expected: ['d1', 'd3'] },
  { name: '$not of $lt on booleans', filter: { $not: { active: { $lt: true } } }, expected: ['d1'] },
  { name: '$not with _id (single clause) is allowed', filter: { $not: { _id: 'd1' } }, expected: except('d1') },
  // --- $vector / $vectorize ---
  { name: '$vector $exists true (null means no vector)', filter: { $vector: { $exists: true } }, expected: ['d4'] },
  { name: '$vector $exists false', filter: { $vector: { $exists: false } }, expected: except('d4') },
  { name: '$vectorize $exists', filter: { $vectorize: { $exists: true } }, expected: ['d4'] },
  // --- _id ---
  { name: '_id number 5', filter: { _id: 5 }, expected: ['n5'] },
  { name: '_id string "5"', filter: { _id: '5' }, expected: ['s5'] },
  { name: 'bare string equals a $uuid _id', filter: { _id: U }, expected: ['u1'] },
  { name: '$uuid literal equals a $uuid _id', filter: { _id: { $uuid: U } }, expected: ['u1'] },
  { name: 'bare string equals an $objectId _id', filter: { _id: O }, expected: ['o1'] },
  { name: '$objectId literal', filter: { _id: { $eq: { $objectId: O } } }, expected: ['o1'] },
  { name: '_id boolean', filter: { _id: true }, expected: ['t1'] },
  { name: '_id date', filter: { _id: { $date: 1000 } }, expected: ['dt'] },
  { name: '_id $in with mixed types', filter: { _id: { $in: [5, 'd1'] } }, expected: ['n5', 'd1'] },
  { name: '_id $nin', filter: { _id: { $nin: ['d1', 5] } }, expected: except('d1', 'n5') },
  { name: '_id range compares strings only (uuid/objectId as strings)', filter: { _id: { $gt: 'd3' } }, expected: ['d4', 'd5'] },
  { name: '_id $ne', filter: { _id: { $ne: 'd1' } }, expected: except('d1') },
  { name: 'field $uuid equals its bare string', filter: { ref: U }, expected: ['d5'] },
  { name: 'field $uuid literal', filter: { ref: { $uuid: U } }, expected: ['d5'] },
  { name: 'field $objectId in $in', filter: { oid: { $in: [{ $objectId: O }] } }, expected: ['d5'] },
  // --- logical ---
  { name: '$and', filter: { $and: [{ tags: 'b' }, { age: 20 }] }, expected: ['d2'] },
  { name: '$or', filter: { $or: [{ name: 'alice' }, { age: 20 }] }, expected: ['d1', 'd2'] },
  { name: '$or elements are implicit ANDs', filter: { $or: [{ name: 'alice', age: 20 }, { name: 'carol' }] }, expected: ['d3'] },
  { name: 'nested $and/$or', filter: { $and: [{ $or: [{ age: 30 }, { age: 20 }] }, { active: true }] }, expected: ['d1'] },
  { name: '_id inside $and inside $or is allowed', filter: { $or: [{ $and: [{ _id: 'd1' }] }, { name: 'bob' }] }, expected: ['d1', 'd2'] },
  { name: 'top-level keys and $or combine with AND', filter: { active: true, $or: [{ age: 30 }, { age: 20 }] }, expected: ['d1'] },
  {
    name: 'a field named __proto__ in a sub-document literal stays a field',
    filter: JSON.parse('{"o": {"__proto__": {"x": 1}}}') as unknown,
    docs: { own: JSON.parse('{"_id": 1, "o": {"__proto__": {"x": 1}}}') as Document, empty: { _id: 2, o: {} } },
    expected: ['own'],
  },
  {
    name: 'exactly 64 comparisons is allowed',
    filter: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`f${i}`, { $exists: false }])),
    expected: ALL,
  },
  { name: 'exactly 100 $in values is allowed', filter: { age: { $in: Array.from({ length: 100 }, (_, i) => i) } }, expected: ['d1', 'd2', 'd5'] },
];

describe('parseFilter: matching', () => {
  it.each(matchCases)('$name', ({ filter, expected, docs, options }) => {
    const parsed = parseFilter(filter, options ?? allIndexed);
    const set = docs ?? FIXTURES;
    const matched = Object.entries(set)
      .filter(([, doc]) => parsed.matches(doc))
      .map(([label]) => label);
    expect(matched.sort()).toEqual([...expected].sort());
  });
});
