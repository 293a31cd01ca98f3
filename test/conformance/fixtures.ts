/**
 * Shared documents of the conformance suite: the tricky shapes of data-api-protocol.md 4 and 5.3 (arrays of
 * scalars and of objects, nested arrays, sub-documents with key orders, nulls, missing fields, $date / $uuid /
 * $objectId values and ids, numbers vs numeric strings, booleans, empty arrays and objects).
 */
import type { JsonObject } from '../../src/index.js';

export const UUID1 = '0191a0b4-5e7e-7a6c-8e2a-5a1b2c3d4e5f';
export const UUID2 = '123e4567-e89b-12d3-a456-426614174000';
export const OID1 = '65f0a1b2c3d4e5f6a7b8c9d0';
export const OID2 = '5f1d7a9e8b7c6d5e4f3a2b1c';

/** `_id`s of the shapes fixture. */
export const ID = {
  a: 'a',
  b: 'b',
  c: 'c',
  d: 'd',
  e: 'e',
  f: 'f',
  g: 'g',
  n5: 5,
  s5: '5',
  u: { $uuid: UUID1 },
  o: { $objectId: OID1 },
  dt: { $date: 1650000000000 },
} as const;

export const DOC_A: JsonObject = {
  _id: 'a',
  name: 'Ann',
  age: 30,
  tags: ['red', 'blue'],
  address: { city: 'Paris', zip: '75001' },
  items: [
    { sku: 'x1', qty: 2 },
    { sku: 'x2', qty: 5 },
  ],
  active: true,
  when: { $date: 1700000000000 },
  ref: { $uuid: UUID2 },
};

export const DOC_B: JsonObject = {
  _id: 'b',
  name: 'Bob',
  age: 25,
  tags: ['blue'],
  address: { zip: '10001', city: 'NYC' },
  items: [{ sku: 'x2', qty: 1 }],
  active: false,
  when: { $date: 1600000000000 },
};

export const DOC_G: JsonObject = {
  _id: 'g',
  name: 'gus',
  age: 18,
  tags: ['green', 'red', 'blue'],
  address: { city: 'Paris', zip: '75002', geo: { lat: 48.8, lng: 2.3 } },
  obj: { '1': 'one' },
};

/**
 * a: full doc; b: other key order in `address`; c: numeric string, empty array/object, string "true";
 * d: null values, nested array element; e: missing age, scalar `tags`, array of numbers; 5 and "5": number vs
 * string ids; $uuid / $objectId / $date ids; f: null name, array holding null, array of arrays; g: deeper sub-doc.
 */
const SHAPES: JsonObject[] = [
  DOC_A,
  DOC_B,
  { _id: 'c', name: 'Cid', age: '30', tags: [], address: {}, active: 'true', meta: {} },
  { _id: 'd', name: 'Dee', age: null, tags: ['red', ['blue']], nested: { a: { b: { c: 1 } } }, active: null },
  { _id: 'e', name: 'Eve', tags: 'red', scores: [10, 20] },
  { _id: 5, name: 'Five', age: 5.5 },
  { _id: '5', name: 'FiveStr', age: 45 },
  { _id: { $uuid: UUID1 }, name: 'Uuid', ref: { $objectId: OID2 }, when: { $date: 1800000000000 } },
  { _id: { $objectId: OID1 }, name: 'Oid' },
  { _id: { $date: 1650000000000 }, name: 'DateId', active: true },
  { _id: 'f', name: null, age: 40, tags: [null], active: true, matrix: [[1, 2], [3, 4]] },
  DOC_G,
];

/** Every id of the shapes fixture. */
export const ALL_SHAPES = SHAPES.map((d) => d._id!);

/**
 * Cross-type sort: `v` missing (s01, s12), null, numbers (with a tie), strings (upper before lower case),
 * booleans, dates; `g` groups for multi-key sorts.
 */
const MIXED: JsonObject[] = [
  { _id: 's01', g: 'x' },
  { _id: 's02', v: null, g: 'y' },
  { _id: 's03', v: 10, g: 'x' },
  { _id: 's04', v: -2.5, g: 'y' },
  { _id: 's05', v: 'apple', g: 'x' },
  { _id: 's06', v: 'Banana', g: 'y' },
  { _id: 's07', v: true, g: 'x' },
  { _id: 's08', v: false, g: 'y' },
  { _id: 's09', v: { $date: 1000 }, g: 'x' },
  { _id: 's10', v: { $date: 500 }, g: 'y' },
  { _id: 's11', v: 10, g: 'y' },
  { _id: 's12', g: 'x' },
];

export const pid = (i: number): string => `p-${String(i).padStart(3, '0')}`;

/** 45 plain documents: more than two pages of 20. */
export function peopleDocs(n = 45): JsonObject[] {
  return Array.from({ length: n }, (_, i) => ({ _id: pid(i), n: i, grp: ['a', 'b', 'c'][i % 3]!, sub: { k: n - 1 - i } }));
}

/** Ids p-000..p-(n-1) matching a predicate on the index. */
export function pids(n: number, keep: (i: number) => boolean = () => true): string[] {
  return Array.from({ length: n }, (_, i) => i)
    .filter(keep)
    .map(pid);
}

/** Euclidean distances² from [0,0,0,0]: 0, 1, 3, 7 → similarity 1, 0.5, 0.25, 0.125 (exact in float32). */
const VECTORS: JsonObject[] = [
  { _id: 'v0', $vector: [0, 0, 0, 0], label: 'zero' },
  { _id: 'v1', $vector: [1, 0, 0, 0], label: 'one' },
  { _id: 'v3', $vector: [1, 1, 1, 0], label: 'three' },
  { _id: 'v7', $vector: [2, 1, 1, 1], label: 'seven' },
  { _id: 'vn', label: 'novector' },
];

/** U+FF21 (one UTF-16 code unit), U+1F600 (surrogate pair D83D DE00), "z". */
const UTF16: JsonObject[] = [
  { _id: 'w1', s: '\uFF21' },
  { _id: 'w2', s: '\uD83D\uDE00' },
  { _id: 'w3', s: 'z' },
];

/** A collection denying `secret` and `address.zip`. */
const DENIED: JsonObject[] = [
  { _id: 'x1', secret: 's', pub: 1, address: { city: 'c', zip: 'z' } },
  { _id: 'x2', secret: 't', pub: 2, address: { city: 'd' } },
];

export interface Fixture {
  readonly documents: readonly JsonObject[];
  readonly options?: JsonObject;
}

export const FIXTURES = {
  shapes: { documents: SHAPES },
  mixed: { documents: MIXED },
  people: { documents: peopleDocs() },
  vectors: { documents: VECTORS, options: { vector: { dimension: 4, metric: 'euclidean' } } },
  denied: { documents: DENIED, options: { indexing: { deny: ['secret', 'address.zip'] } } },
  allowName: { documents: DENIED, options: { indexing: { allow: ['pub'] } } },
  utf16: { documents: UTF16 },
} satisfies Record<string, Fixture>;

export type FixtureName = keyof typeof FIXTURES;
