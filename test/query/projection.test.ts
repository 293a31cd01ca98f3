/**
 * Tests for src/query/projection.ts: the projection clause's rules (protocol section 6), exact output
 * documents including key order (`_id` first, `$similarity` last), and every error code it throws.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors/index.js';
import type { Document } from '../../src/query/json.js';
import { parseProjection } from '../../src/query/projection.js';
import { expectError, expectExact } from '../support/expect.js';

const DOC: Document = {
  _id: 'd1',
  name: 'Ann',
  age: 30,
  address: { city: 'Paris', zip: '75001', geo: { lat: 1, lon: 2 } },
  items: [{ a: 1, b: 2 }, { a: 3, c: 4 }, 7, [{ a: 5, b: 6 }]],
  tags: ['t1', 't2', 't3', 't4', 't5'],
  created: { $date: 1700000000000 },
  $vector: [0.1, 0.2],
  $vectorize: 'text',
  $lexical: 'lex',
};

/** DOC without the fields the default projection hides. */
const PLAIN: Document = {
  _id: 'd1',
  name: 'Ann',
  age: 30,
  address: { city: 'Paris', zip: '75001', geo: { lat: 1, lon: 2 } },
  items: [{ a: 1, b: 2 }, { a: 3, c: 4 }, 7, [{ a: 5, b: 6 }]],
  tags: ['t1', 't2', 't3', 't4', 't5'],
  created: { $date: 1700000000000 },
};



interface Case {
  readonly name: string;
  readonly projection: unknown;
  readonly expected: Document;
  readonly includesVector?: boolean;
  readonly doc?: Document;
}

const CASES: readonly Case[] = [
  { name: 'absent projection = default (hides $vector, $vectorize, $lexical)', projection: undefined, expected: PLAIN },
  { name: 'null = default', projection: null, expected: PLAIN },
  { name: '{} = default', projection: {}, expected: PLAIN },
  { name: '{"*":1} returns everything, special fields included', projection: { '*': 1 }, expected: DOC, includesVector: true },
  { name: '{"*":true} is the same as {"*":1}', projection: { '*': true }, expected: DOC, includesVector: true },
  { name: '{"*":0} returns empty documents', projection: { '*': 0 }, expected: {} },
  { name: '{"*":false} returns empty documents', projection: { '*': false }, expected: {} },
  { name: 'inclusion keeps _id', projection: { name: 1 }, expected: { _id: 'd1', name: 'Ann' } },
  { name: 'inclusion keeps document order, not clause order', projection: { age: true, name: 1 }, expected: { _id: 'd1', name: 'Ann', age: 30 } },
  { name: 'any non-zero number includes', projection: { name: -2.5 }, expected: { _id: 'd1', name: 'Ann' } },
  { name: 'inclusion with _id excluded', projection: { name: 1, _id: 0 }, expected: { name: 'Ann' } },
  {
    name: '{"_id":0} alone is an exclusion projection',
    projection: { _id: 0 },
    expected: { name: 'Ann', age: 30, address: PLAIN.address, items: PLAIN.items, tags: PLAIN.tags, created: PLAIN.created },
  },
  { name: '{"_id":1} alone is the default projection', projection: { _id: 1 }, expected: PLAIN },
  {
    name: 'exclusion drops the field and the special fields',
    projection: { name: 0, age: false },
    expected: { _id: 'd1', address: PLAIN.address, items: PLAIN.items, tags: PLAIN.tags, created: PLAIN.created },
  },
  { name: 'dotted inclusion', projection: { 'address.city': 1 }, expected: { _id: 'd1', address: { city: 'Paris' } } },
  { name: 'nested object form equals dotted form', projection: { address: { city: 1 } }, expected: { _id: 'd1', address: { city: 'Paris' } } },
  {
    name: 'nested object form mixing dotted keys',
    projection: { address: { 'geo.lat': 1, zip: 1 } },
    expected: { _id: 'd1', address: { zip: '75001', geo: { lat: 1 } } },
  },
  {
    name: 'dotted exclusion',
    projection: { 'address.geo.lat': 0 },
    expected: { ...PLAIN, address: { city: 'Paris', zip: '75001', geo: { lon: 2 } } },
  },
  { name: 'an empty nested object projects nothing (default)', projection: { address: {} }, expected: PLAIN },
  { name: '{"$vector":1} alone = whole document plus $vector', projection: { $vector: 1 }, expected: { ...PLAIN, $vector: [0.1, 0.2] }, includesVector: true },
  { name: 'inclusion plus $vector', projection: { name: 1, $vector: 1 }, expected: { _id: 'd1', name: 'Ann', $vector: [0.1, 0.2] }, includesVector: true },
  {
    name: '$vectorize and $lexical are toggles too',
    projection: { name: 1, $vectorize: 1, $lexical: true },
    expected: { _id: 'd1', name: 'Ann', $vectorize: 'text', $lexical: 'lex' },
  },
  { name: '{"$vector":0} = default', projection: { $vector: 0 }, expected: PLAIN, includesVector: false },
  {
    name: 'inclusion through an array applies to every object element',
    projection: { 'items.a': 1 },
    expected: { _id: 'd1', items: [{ a: 1 }, { a: 3 }, 7, [{ a: 5 }]] },
  },
  {
    name: 'exclusion through an array applies to every object element',
    projection: { 'items.a': 0 },
    expected: { ...PLAIN, items: [{ b: 2 }, { c: 4 }, 7, [{ b: 6 }]] },
  },
  {
    name: 'numeric segments name properties (arrays are traversed, not indexed)',
    projection: { 'items.0': 1 },
    expected: { _id: 'd1', items: [{}, {}, 7, [{}]] },
  },
  { name: 'an EJSON date is a value', projection: { created: 1 }, expected: { _id: 'd1', created: { $date: 1700000000000 } } },
  { name: 'a longer path into an EJSON value keeps it whole', projection: { 'created.x': 1 }, expected: { _id: 'd1', created: { $date: 1700000000000 } } },
  { name: 'excluding inside an EJSON value leaves it alone', projection: { 'created.x': 0 }, expected: PLAIN },
  { name: 'a longer path into an atomic value keeps it (Data API behaviour)', projection: { 'age.x': 1 }, expected: { _id: 'd1', age: 30 } },
  { name: 'including a missing field gives _id only', projection: { missing: 1 }, expected: { _id: 'd1' } },
  { name: '$slice n keeps the first n; alone it is not an inclusion', projection: { tags: { $slice: 2 } }, expected: { ...PLAIN, tags: ['t1', 't2'] } },
  { name: '$slice -n keeps the last n', projection: { tags: { $slice: -2 } }, expected: { ...PLAIN, tags: ['t4', 't5'] } },
  { name: '$slice 0 gives an empty array', projection: { tags: { $slice: 0 } }, expected: { ...PLAIN, tags: [] } },
  { name: '$slice n larger than the array keeps it all', projection: { tags: { $slice: 10 } }, expected: PLAIN },
  { name: '$slice [skip, count]', projection: { tags: { $slice: [1, 2] } }, expected: { ...PLAIN, tags: ['t2', 't3'] } },
  { name: '$slice [negative skip, count]', projection: { tags: { $slice: [-2, 1] } }, expected: { ...PLAIN, tags: ['t4'] } },
  { name: '$slice skip past the end', projection: { tags: { $slice: [10, 2] } }, expected: { ...PLAIN, tags: [] } },
  { name: '$slice negative skip before the start is clamped', projection: { tags: { $slice: [-10, 2] } }, expected: { ...PLAIN, tags: ['t1', 't2'] } },
  { name: '$slice negative skip clamped, count past the end', projection: { tags: { $slice: [-7, 3] } }, expected: { ...PLAIN, tags: ['t1', 't2', 't3'] } },
  { name: '$slice [skip, 0]', projection: { tags: { $slice: [1, 0] } }, expected: { ...PLAIN, tags: [] } },
  { name: '$slice on a non-array leaves it unchanged', projection: { name: { $slice: 1 } }, expected: PLAIN },
  { name: '$slice in an inclusion projection includes the field', projection: { name: 1, tags: { $slice: 1 } }, expected: { _id: 'd1', name: 'Ann', tags: ['t1'] } },
  {
    name: '$slice through an array of objects',
    projection: { 'groups.vals': { $slice: -1 } },
    doc: { _id: 2, groups: [{ vals: [1, 2, 3] }, { vals: [4, 5] }, { other: 1 }] },
    expected: { _id: 2, groups: [{ vals: [3] }, { vals: [5] }, { other: 1 }] },
  },
  {
    name: 'escaped dot names a field containing a dot',
    projection: { 'a&.b': 1 },
    doc: { _id: 3, 'a.b': 1, a: { b: 2 } },
    expected: { _id: 3, 'a.b': 1 },
  },
  {
    name: 'escaped ampersand',
    projection: { 'x&&y': 0 },
    doc: { _id: 4, 'x&y': 1, z: 2 },
    expected: { _id: 4, z: 2 },
  },
  {
    name: 'a document without _id stays without it',
    projection: { name: 1 },
    doc: { name: 'n', other: 1 },
    expected: { name: 'n' },
  },
  {
    name: '_id is moved first when stored elsewhere',
    projection: undefined,
    doc: { name: 'n', _id: 5 },
    expected: { _id: 5, name: 'n' },
  },
];

describe('parseProjection / apply', () => {
  it.each(CASES)('$name', ({ projection, expected, includesVector, doc }) => {
    const parsed = parseProjection(projection);
    expectExact(parsed.apply(doc ?? DOC), expected);
    if (includesVector !== undefined) expect(parsed.includesVector).toBe(includesVector);
  });

  it('includesVector is false for the default projection and plain inclusions', () => {
    expect(parseProjection(undefined).includesVector).toBe(false);
    expect(parseProjection({ name: 1 }).includesVector).toBe(false);
    expect(parseProjection({ '*': 0 }).includesVector).toBe(false);
  });

  it.each([
    { name: 'inclusion', projection: { name: 1 }, expected: { _id: 'd1', name: 'Ann', $similarity: 0.75 } },
    { name: 'default', projection: undefined, expected: { ...PLAIN, $similarity: 0.75 } },
    { name: '{"*":1}', projection: { '*': 1 }, expected: { ...DOC, $similarity: 0.75 } },
    { name: '{"*":0}', projection: { '*': 0 }, expected: { $similarity: 0.75 } },
    { name: 'exclusion of _id', projection: { _id: 0, $vector: 1, items: 0, address: 0, tags: 0, created: 0 }, expected: { name: 'Ann', age: 30, $vector: [0.1, 0.2], $similarity: 0.75 } },
  ])('$similarity is appended last ($name)', ({ projection, expected }) => {
    const out = parseProjection(projection).apply(DOC, 0.75);
    expectExact(out, expected);
    expect(Object.keys(out).at(-1)).toBe('$similarity');
  });

  it('projections that show what the default shows are the default itself (no trie per query)', () => {
    const fallback = parseProjection(undefined);
    for (const same of [{ _id: 1 }, { _id: true }, { $vector: 0 }, { _id: 1, $vector: false, $vectorize: 0, $lexical: 0 }]) {
      expect(parseProjection(same)).toBe(fallback);
    }
    for (const other of [{ _id: 0 }, { $vector: 1 }, { _id: 1, name: 1 }, { _id: 1, name: 0 }, { tags: { $slice: 1 } }]) {
      expect(parseProjection(other)).not.toBe(fallback);
    }
    expectExact(parseProjection({ _id: 1, $vector: 0 }).apply(DOC, 0.5), { ...PLAIN, $similarity: 0.5 });
  });

  it('a stale $similarity in the document is replaced and moved last', () => {
    expectExact(parseProjection(undefined).apply({ _id: 1, $similarity: 9, a: 2 }, 0.5), { _id: 1, a: 2, $similarity: 0.5 });
  });

  it('never mutates the input document', () => {
    const doc = structuredClone(DOC);
    parseProjection({ tags: { $slice: 1 }, 'items.a': 0 }).apply(doc, 0.5);
    parseProjection({ 'address.city': 1 }).apply(doc);
    expectExact(doc, DOC);
  });
});

interface ErrorCase {
  readonly name: string;
  readonly projection: unknown;
  readonly code: ErrorCode;
  readonly message?: string;
}

const ERRORS: readonly ErrorCase[] = [
  { name: 'a string', projection: 'name', code: 'UNSUPPORTED_PROJECTION_DEFINITION', message: 'must be an Object, was String' },
  { name: 'an array', projection: ['name'], code: 'UNSUPPORTED_PROJECTION_DEFINITION', message: 'was Array' },
  { name: 'a number', projection: 1, code: 'UNSUPPORTED_PROJECTION_DEFINITION' },
  { name: 'exclusion in an inclusion projection', projection: { name: 1, age: 0 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "cannot exclude 'age' on inclusion projection" },
  { name: 'inclusion in an exclusion projection', projection: { age: 0, name: 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "cannot include 'name' on exclusion projection" },
  { name: 'mixing through the nested form', projection: { address: { city: 1, zip: 0 } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "cannot exclude 'address.zip'" },
  { name: 'a path and its sub-path', projection: { a: 1, 'a.b': 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "projection path conflict between 'a' and 'a.b'" },
  { name: 'a sub-path and its parent', projection: { 'a.b': 0, a: 0 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'projection path conflict' },
  { name: 'the same path twice (nested and dotted)', projection: { address: { city: 1 }, 'address.city': 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'projection path conflict' },
  { name: '$slice on a path also projected deeper', projection: { tags: { $slice: 1, x: 1 } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'projection path conflict' },
  { name: '* with other paths', projection: { '*': 1, name: 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "wildcard ('*') only allowed as the only root-level path" },
  { name: '* nested', projection: { address: { '*': 1 } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'wildcard' },
  { name: '* with a non-flag value', projection: { '*': 'yes' }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "path ('*') value must be Number or Boolean" },
  { name: 'a root-level operator', projection: { $foo: 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "cannot start with '$'" },
  { name: '$slice at the root', projection: { $slice: 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'no root-level operators' },
  { name: '$similarity requested as a field', projection: { $similarity: 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM' },
  { name: 'an operator other than $slice', projection: { tags: { $elemMatch: { a: 1 } } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "unsupported projection operator '$elemMatch' (only '$slice' supported)" },
  { name: '$slice with a string', projection: { tags: { $slice: 'x' } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "unsupported parameter for '$slice'" },
  { name: '$slice with a fraction', projection: { tags: { $slice: 1.5 } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "'$slice'" },
  { name: '$slice with one array element', projection: { tags: { $slice: [1] } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "'$slice'" },
  { name: '$slice with a negative count', projection: { tags: { $slice: [1, -1] } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'must not be negative' },
  { name: 'a string value', projection: { name: 'yes' }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "path ('name') value must be Number, Boolean or Object, was String" },
  { name: 'a null value', projection: { name: null }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'was null' },
  { name: 'an array value', projection: { name: [1] }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'was Array' },
  { name: 'an empty path', projection: { '': 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: 'empty paths' },
  { name: 'an empty segment', projection: { 'a..b': 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "path ('a..b') is not valid" },
  { name: 'a lone & in a path', projection: { 'a&b': 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "'&' not followed by" },
  { name: 'a $-segment inside a path', projection: { 'a.$b': 1 }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "segment '$b' cannot start with '$'" },
  { name: '_id with an object value', projection: { _id: { $slice: 1 } }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "path ('_id') value must be Number or Boolean" },
  { name: '$vector with a string value', projection: { $vector: 'yes' }, code: 'UNSUPPORTED_PROJECTION_PARAM', message: "path ('$vector')" },
];

describe('parseProjection errors', () => {
  it.each(ERRORS)('$name -> $code', ({ projection, code, message }) => {
    expectError(() => parseProjection(projection), code, message);
  });
});
