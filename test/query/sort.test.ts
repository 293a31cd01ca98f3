/**
 * Tests for src/query/sort.ts: sort clause parsing and its errors (protocol sections 7.1, 7.3), the
 * cross-type value order, and the document comparator with its `_id` tie-breaker.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors/index.js';
import type { Document, JsonValue } from '../../src/query/json.js';
import { compareValues, documentComparator, parseSort, type SortSpec } from '../../src/query/sort.js';
import { encodeBinaryVector } from '../../src/query/vector-value.js';
import { expectError } from '../support/expect.js';

const ALL_INDEXED = { isIndexed: (): boolean => true };


describe('parseSort', () => {
  it.each([undefined, null, {}])('%j means no sort', (raw) => {
    expect(parseSort(raw, ALL_INDEXED)).toEqual({ kind: 'none' });
  });

  it.each<{ name: string; raw: unknown; expected: SortSpec }>([
    {
      name: 'one ascending field',
      raw: { age: 1 },
      expected: { kind: 'fields', fields: [{ path: 'age', segments: ['age'], direction: 1 }] },
    },
    {
      name: 'key order is priority; dotted paths are split',
      raw: { 'a.b': -1, c: 1 },
      expected: {
        kind: 'fields',
        fields: [
          { path: 'a.b', segments: ['a', 'b'], direction: -1 },
          { path: 'c', segments: ['c'], direction: 1 },
        ],
      },
    },
    {
      name: 'escaped names keep their path as sent',
      raw: { 'a&.b': 1, 'x&&y.0': -1 },
      expected: {
        kind: 'fields',
        fields: [
          { path: 'a&.b', segments: ['a.b'], direction: 1 },
          { path: 'x&&y.0', segments: ['x&y', '0'], direction: -1 },
        ],
      },
    },
  ])('$name', ({ raw, expected }) => {
    expect(parseSort(raw, ALL_INDEXED)).toEqual(expected);
  });

  it('passes each path as sent to isIndexed', () => {
    const seen: string[] = [];
    parseSort({ 'a&.b': 1, c: -1 }, { isIndexed: (p) => (seen.push(p), true) });
    expect(seen).toEqual(['a&.b', 'c']);
  });

  it('a $vector array gives a vector sort and keeps the raw value', () => {
    const spec = parseSort({ $vector: [0.5, -1, 2] }, ALL_INDEXED);
    expect(spec.kind).toBe('vector');
    if (spec.kind !== 'vector') return;
    expect(Array.from(spec.vector)).toEqual([0.5, -1, 2]);
    expect(spec.raw).toEqual([0.5, -1, 2]);
  });

  it('a $vector {$binary} gives a vector sort and keeps the raw value', () => {
    const raw = { $binary: encodeBinaryVector([0.25, 4]) };
    const spec = parseSort({ $vector: raw }, ALL_INDEXED);
    expect(spec.kind).toBe('vector');
    if (spec.kind !== 'vector') return;
    expect(Array.from(spec.vector)).toEqual([0.25, 4]);
    expect(spec.raw).toEqual(raw);
  });

  it('a vector sort does not consult isIndexed', () => {
    expect(parseSort({ $vector: [1] }, { isIndexed: () => false }).kind).toBe('vector');
  });
});

const UNINDEXED_SECRET = { isIndexed: (p: string): boolean => p !== 'secret' && p !== 'a.secret' };

describe('parseSort errors', () => {
  it.each<{ name: string; raw: unknown; code: ErrorCode; message?: string }>([
    { name: 'a string', raw: 'age', code: 'SORT_CLAUSE_INVALID', message: 'must be submitted as a JSON Object, was String' },
    { name: 'an array', raw: [{ age: 1 }], code: 'SORT_CLAUSE_INVALID', message: 'was Array' },
    { name: 'value 2', raw: { age: 2 }, code: 'SORT_CLAUSE_VALUE_INVALID', message: "path 'age': sort ordering value can only be `1` for ascending or `-1` for descending" },
    { name: 'value 0', raw: { age: 0 }, code: 'SORT_CLAUSE_VALUE_INVALID' },
    { name: 'value 1.5', raw: { age: 1.5 }, code: 'SORT_CLAUSE_VALUE_INVALID' },
    { name: 'value "asc"', raw: { age: 'asc' }, code: 'SORT_CLAUSE_VALUE_INVALID' },
    { name: 'value true', raw: { age: true }, code: 'SORT_CLAUSE_VALUE_INVALID' },
    { name: 'value null', raw: { age: null }, code: 'SORT_CLAUSE_VALUE_INVALID' },
    { name: 'value {}', raw: { age: {} }, code: 'SORT_CLAUSE_VALUE_INVALID' },
    { name: 'a vector on a regular path', raw: { age: [1, 2] }, code: 'SORT_CLAUSE_INVALID', message: "only supported on '$vector'" },
    { name: 'a binary vector on a regular path', raw: { emb: { $binary: 'AAAAAA==' } }, code: 'SORT_CLAUSE_INVALID', message: "only supported on '$vector'" },
    { name: '$vector with another key after', raw: { $vector: [1, 2], age: 1 }, code: 'SORT_CLAUSE_INVALID', message: 'vector search cannot be used with other sort expressions' },
    { name: '$vector with another key before', raw: { age: 1, $vector: [1, 2] }, code: 'SORT_CLAUSE_INVALID', message: 'vector search cannot be used with other sort expressions' },
    { name: 'empty $vector', raw: { $vector: [] }, code: 'SHRED_BAD_VECTOR_SIZE', message: 'cannot be empty Array' },
    { name: '$vector with a string element', raw: { $vector: [1, 'x'] }, code: 'SHRED_BAD_VECTOR_VALUE' },
    { name: '$vector 1 (a direction)', raw: { $vector: 1 }, code: 'SHRED_BAD_VECTOR_VALUE' },
    { name: '$vector null', raw: { $vector: null }, code: 'SHRED_BAD_VECTOR_VALUE' },
    { name: '$vector object with a wrong key', raw: { $vector: { $base64: 'AAAAAA==' } }, code: 'SHRED_BAD_DOCUMENT_VECTOR_TYPE', message: "must be '$binary'" },
    { name: '$vector bad base64', raw: { $vector: { $binary: 'abc' } }, code: 'SHRED_BAD_BINARY_VECTOR_VALUE' },
    { name: '$vectorize (no embedding providers)', raw: { $vectorize: 'some text' }, code: 'VECTORIZE_FEATURE_NOT_AVAILABLE' },
    { name: '$vectorize with another key', raw: { $vectorize: 'text', age: 1 }, code: 'SORT_CLAUSE_INVALID', message: 'vector search cannot be used with other sort expressions' },
    { name: '$vector and $vectorize together', raw: { $vector: [1], $vectorize: 'text' }, code: 'SORT_CLAUSE_INVALID', message: 'vector search cannot be used' },
    { name: '$lexical without lexical search', raw: { $lexical: 'words' }, code: 'LEXICAL_NOT_ENABLED_FOR_COLLECTION' },
    { name: 'a $-path', raw: { $similarity: 1 }, code: 'SORT_CLAUSE_PATH_INVALID', message: "path cannot start with '$'" },
    { name: 'a $-segment', raw: { 'a.$b': 1 }, code: 'SORT_CLAUSE_PATH_INVALID', message: "Invalid sort clause path 'a.$b'" },
    { name: 'an empty path', raw: { '': 1 }, code: 'SORT_CLAUSE_PATH_INVALID' },
    { name: 'an empty segment', raw: { 'a..b': 1 }, code: 'SORT_CLAUSE_PATH_INVALID', message: 'empty path segment' },
    { name: 'a lone &', raw: { 'a&b': 1 }, code: 'SORT_CLAUSE_PATH_INVALID', message: "'&' not followed by" },
  ])('$name -> $code', ({ raw, code, message }) => {
    expectError(() => parseSort(raw, ALL_INDEXED), code, message);
  });

  it.each<{ name: string; raw: unknown; code: ErrorCode; message?: string }>([
    { name: 'an unindexed path', raw: { age: 1, secret: -1 }, code: 'SORT_CLAUSE_PATH_UNINDEXED', message: "Collection path 'secret' is not indexed" },
    { name: 'an unindexed nested path', raw: { 'a.secret': 1 }, code: 'SORT_CLAUSE_PATH_UNINDEXED', message: "'a.secret'" },
    { name: 'a bad value is reported before indexing', raw: { secret: 1, age: 5 }, code: 'SORT_CLAUSE_VALUE_INVALID' },
  ])('$name -> $code', ({ raw, code, message }) => {
    expectError(() => parseSort(raw, UNINDEXED_SECRET), code, message);
  });
});

describe('parseSort: $lexical', () => {
  const LEXICAL = { ...ALL_INDEXED, lexicalEnabled: true };
  it('is the only key and a string', () => {
    expect(parseSort({ $lexical: 'monkey banana' }, LEXICAL)).toEqual({ kind: 'lexical', text: 'monkey banana' });
    expectError(() => parseSort({ $lexical: 'words', age: 1 }, LEXICAL), 'SORT_CLAUSE_INVALID', "when sorting by field '$lexical' no other sort expressions allowed");
    expectError(() => parseSort({ $lexical: 5 }, LEXICAL), 'SORT_CLAUSE_INVALID', "when sorting by field '$lexical', value must be String, not Number");
  });
});

describe('compareValues', () => {
  // Each row: a < b (and so b > a).
  it.each<{ name: string; a: JsonValue | undefined; b: JsonValue | undefined }>([
    { name: 'missing < null', a: undefined, b: null },
    { name: 'null < number', a: null, b: -1e9 },
    { name: 'number < string', a: 1e9, b: '' },
    { name: 'string < boolean', a: 'zzz', b: false },
    { name: 'boolean < date', a: true, b: { $date: 0 } },
    { name: 'missing < date', a: undefined, b: { $date: -5 } },
    { name: 'numbers numerically', a: 9, b: 10 },
    { name: 'negative numbers', a: -2.5, b: -1 },
    { name: 'strings by UTF-16 code units: upper before lower', a: 'B', b: 'a' },
    { name: 'strings by UTF-16 code units: surrogate pair before U+FF5E', a: '\u{1F600}', b: '\uFF5E' },
    { name: 'a prefix sorts first', a: 'ab', b: 'abc' },
    { name: 'false < true', a: false, b: true },
    { name: 'dates by epoch ms', a: { $date: 1 }, b: { $date: 2 } },
    { name: '$uuid compares as its string', a: { $uuid: '00000000-0000-4000-8000-000000000001' }, b: '1' },
    { name: '$objectId compares as its string', a: 'a', b: { $objectId: 'b00000000000000000000000' } },
    { name: 'arrays sort among strings (above numbers)', a: 99, b: [1] },
    { name: 'arrays sort among strings (below booleans)', a: [1], b: false },
    { name: 'objects sort among strings (below booleans)', a: { x: 1 }, b: true },
  ])('$name', ({ a, b }) => {
    expect(compareValues(a, b)).toBeLessThan(0);
    expect(compareValues(b, a)).toBeGreaterThan(0);
  });

  it.each<{ name: string; a: JsonValue | undefined; b: JsonValue | undefined }>([
    { name: 'missing = missing', a: undefined, b: undefined },
    { name: 'null = null', a: null, b: null },
    { name: '0 = -0', a: 0, b: -0 },
    { name: 'equal strings', a: 'x', b: 'x' },
    { name: '$uuid = its bare string', a: { $uuid: 'u-1' }, b: 'u-1' },
    { name: 'equal dates', a: { $date: 7 }, b: { $date: 7 } },
    { name: 'equal arrays', a: [1, 'a'], b: [1, 'a'] },
  ])('$name', ({ a, b }) => {
    expect(compareValues(a, b)).toBe(0);
  });
});

function ids(docs: readonly Document[]): JsonValue[] {
  return docs.map((d) => d._id!);
}

const DOCS: readonly Document[] = [
  { _id: 'e', age: 30, name: 'x' },
  { _id: 'a', age: 30, name: 'y' },
  { _id: 'c', name: 'z' },
  { _id: 'b', age: null, name: 'x' },
  { _id: 'd', age: 'thirty', name: 'y' },
  { _id: 'f', age: 5, name: 'z' },
];

describe('documentComparator', () => {
  const sortBy = (raw: unknown): JsonValue[] => {
    const spec = parseSort(raw, ALL_INDEXED);
    if (spec.kind !== 'fields') throw new Error('expected a field sort');
    return ids([...DOCS].sort(documentComparator(spec.fields)));
  };

  it('ascending: missing < null < numbers < strings, ties by _id', () => {
    expect(sortBy({ age: 1 })).toEqual(['c', 'b', 'f', 'a', 'e', 'd']);
  });

  it('descending reverses the whole order (missing last) but ties stay by _id ascending', () => {
    expect(sortBy({ age: -1 })).toEqual(['d', 'a', 'e', 'f', 'b', 'c']);
  });

  it('later fields break ties of earlier ones', () => {
    expect(sortBy({ name: 1, age: -1 })).toEqual(['e', 'b', 'd', 'a', 'f', 'c']);
  });

  it('sorts by nested and array-index paths', () => {
    const docs: Document[] = [
      { _id: 1, s: { v: [3, 1] } },
      { _id: 2, s: { v: [1, 9] } },
      { _id: 3, s: { v: 'n/a' } },
      { _id: 4, s: { v: [2] } },
    ];
    const spec = parseSort({ 's.v.0': 1 }, ALL_INDEXED);
    if (spec.kind !== 'fields') throw new Error('expected a field sort');
    expect(ids(docs.sort(documentComparator(spec.fields)))).toEqual([3, 2, 4, 1]);
  });

  it('with no fields, orders by _id across types in the JSON order (EJSON ids are objects, before booleans)', () => {
    const uuid = { $uuid: '0192d5a5-2f7e-7b1c-9d3a-1f2e3d4c5b6a' };
    const docs: Document[] = [{ _id: 'b' }, { _id: true }, { _id: 2 }, { _id: { $date: 5 } }, { _id: uuid }, { _id: null }, { _id: false }, { _id: { $date: 1 } }, { _id: 'a' }];
    // Objects compare by their first key's name, then its value: "$date" < "$uuid", {$date: 1} < {$date: 5}.
    expect(ids(docs.sort(documentComparator([])))).toEqual([null, 2, 'a', 'b', { $date: 1 }, { $date: 5 }, uuid, false, true]);
  });
});
