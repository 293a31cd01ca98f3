/**
 * Filter conformance cases (data-api-protocol.md 5.1 syntax, 5.2 `_id` rules, 5.3 semantics, 10 error codes):
 * every operator and every place where the Data API differs from MongoDB, run as `find` on the shapes fixture.
 */
import type { JsonObject, JsonValue } from '../../src/index.js';
import { ALL_SHAPES, ID, OID1, OID2, UUID1, UUID2, type FixtureName } from './fixtures.js';
import type { ConformanceCase } from './types.js';

const { a, b, c, d, e, f, g, n5, s5, u, o, dt } = ID;

const allBut = (...excluded: JsonValue[]): JsonValue[] =>
  ALL_SHAPES.filter((id) => !excluded.some((x) => JSON.stringify(x) === JSON.stringify(id)));

function match(section: string, name: string, filter: JsonValue, ids: JsonValue[], setup: FixtureName = 'shapes'): ConformanceCase {
  return { name, section, setup, command: { find: { filter } as JsonObject }, expect: { ids, nextPageState: null } };
}

function reject(section: string, name: string, filter: JsonValue, errorCode: string, setup: FixtureName = 'shapes'): ConformanceCase {
  return { name, section, setup, command: { find: { filter } as JsonObject }, expect: { errorCode } };
}

const range = (n: number, from = 1): number[] => Array.from({ length: n }, (_, i) => i + from);

export const filterCases: ConformanceCase[] = [
  // ---- 5.1 syntax: empty filters, implicit AND, several operators on one path ----------------------
  { name: 'no filter key matches all', section: '5.1', setup: 'shapes', command: { find: {} }, expect: { ids: ALL_SHAPES, nextPageState: null } },
  match('5.1', 'null filter matches all', null, ALL_SHAPES),
  match('5.1', 'empty filter matches all', {}, ALL_SHAPES),
  match('5.1', 'top-level keys are AND-ed', { 'address.city': 'Paris', age: 30 }, [a]),
  match('5.1', 'several operators on one path are AND-ed', { age: { $gte: 18, $lt: 30 } }, [b, g]),
  match('5.1', '64 comparisons are allowed', Object.fromEntries(range(64, 0).map((i) => [`k${i}`, { $exists: false }])), ALL_SHAPES),

  // ---- 5.3 $eq: scalars, type strictness, present null ----------------------------------------------
  match('5.3', 'implicit $eq on a string', { name: 'Ann' }, [a]),
  match('5.3', 'explicit $eq on a string', { name: { $eq: 'Bob' } }, [b]),
  match('5.3', 'number does not match numeric string', { age: 30 }, [a]),
  match('5.3', 'numeric string does not match number', { age: '30' }, [c]),
  match('5.3', 'decimal number equality', { age: 5.5 }, [n5]),
  match('5.3', 'boolean true does not match string "true"', { active: true }, [a, f, dt]),
  match('5.3', 'string "true" does not match boolean', { active: 'true' }, [c]),
  match('5.3', 'boolean false', { active: false }, [b]),
  match('5.3', 'null matches only a present null, not missing (Mongo differs)', { age: null }, [d]),
  match('5.3', '$eq null matches only a present null', { active: { $eq: null } }, [d]),
  match('5.3', 'null does not match an array containing null', { tags: null }, []),
  match('5.3', 'date equality', { when: { $date: 1700000000000 } }, [a]),
  match('5.3', 'a number does not match a date', { when: 1700000000000 }, []),
  match('5.3', '$uuid value matches its bare string', { ref: UUID2 }, [a]),
  match('5.3', '$uuid value matches the $uuid literal', { ref: { $uuid: UUID2 } }, [a]),
  match('5.3', '$objectId value matches its bare string', { ref: OID2 }, [u]),

  // ---- 5.3 arrays ------------------------------------------------------------------------------------
  match('5.3', 'scalar matches array elements and equal scalars', { tags: 'red' }, [a, d, e, g]),
  match('5.3', 'scalar does not match inside a nested array', { tags: 'blue' }, [a, b, g]),
  match('5.3', 'array literal matches exactly', { tags: ['red', 'blue'] }, [a]),
  match('5.3', 'array literal is order-sensitive', { tags: ['blue', 'red'] }, []),
  match('5.3', 'array literal does not match a nested array element', { tags: ['blue'] }, [b]),
  match('5.3', 'empty array literal', { tags: [] }, [c]),
  match('5.3', 'array of arrays: array literal does not match an element', { matrix: [1, 2] }, []),
  match('5.3', 'array index path', { 'tags.0': 'red' }, [a, d]),
  match('5.3', 'array index path reaching a nested array matches its elements', { 'tags.1': 'blue' }, [a, d]),
  match('5.3', 'array index path to an array element of an array of arrays', { 'matrix.0': [1, 2] }, [f]),
  match('5.3', 'two array indexes', { 'matrix.1.0': 3 }, [f]),
  match('5.3', 'scalar matches an array of numbers', { scores: 10 }, [e]),

  // ---- 5.3 sub-documents and paths -------------------------------------------------------------------
  match('5.3', 'sub-document literal matches exactly', { address: { city: 'Paris', zip: '75001' } }, [a]),
  match('5.3', 'sub-document literal is key-order-sensitive', { address: { zip: '75001', city: 'Paris' } }, []),
  match('5.3', 'sub-document literal in stored key order', { address: { zip: '10001', city: 'NYC' } }, [b]),
  match('5.3', 'empty sub-document literal', { meta: {} }, [c]),
  match('5.3', 'deep sub-document literal', { nested: { a: { b: { c: 1 } } } }, [d]),
  match('5.3', 'dotted path', { 'address.city': 'Paris' }, [a, g]),
  match('5.3', 'deep dotted path', { 'address.geo.lat': 48.8 }, [g]),
  match('5.3', 'dotted path to a deep nested value', { 'nested.a.b.c': 1 }, [d]),
  match('5.3', 'object key that looks like a number', { 'obj.1': 'one' }, [g]),
  match('5.3', 'path does not run through an array of objects', { 'items.sku': 'x2' }, []),
  match('5.3', 'indexed path into an array of objects', { 'items.0.sku': 'x2' }, [b]),
  match('5.3', 'object literal does not match an array containing it (#1777)', { items: { sku: 'x2', qty: 1 } }, []),

  // ---- 5.3 $ne ---------------------------------------------------------------------------------------
  match('5.3', '$ne matches missing fields and other types', { age: { $ne: 30 } }, allBut(a)),
  match('5.3', '$ne null matches missing fields and non-null values', { age: { $ne: null } }, allBut(d)),
  match('5.3', '$ne on an array field excludes arrays containing the value', { tags: { $ne: 'red' } }, [b, c, n5, s5, u, o, dt, f]),
  match('5.3', '$ne with an array literal', { tags: { $ne: ['red', 'blue'] } }, allBut(a)),
  match('5.3', '$ne with a sub-document literal', { address: { $ne: { city: 'Paris', zip: '75001' } } }, allBut(a)),

  // ---- 5.3 $in / $nin --------------------------------------------------------------------------------
  match('5.3', '$in is type-strict', { age: { $in: [30, '30'] } }, [a, c]),
  match('5.3', '$in on array elements', { tags: { $in: ['green', 'blue'] } }, [a, b, g]),
  match('5.3', '$in with array literals matches exactly', { tags: { $in: [['blue'], []] } }, [b, c]),
  match('5.3', '$in with sub-document literals', { address: { $in: [{ zip: '10001', city: 'NYC' }, {}] } }, [b, c]),
  match('5.3', '$in with null matches only present nulls', { age: { $in: [null] } }, [d]),
  match('5.3', '$in with dates', { when: { $in: [{ $date: 1600000000000 }, { $date: 1800000000000 }] } }, [b, u]),
  match('5.3', 'empty $in matches nothing', { age: { $in: [] } }, []),
  match('5.3', '$in with 100 values is allowed', { age: { $in: range(100) } }, [a, b, s5, f, g]),
  match('5.3', '$nin matches missing fields', { age: { $nin: [30, 25, null] } }, [c, e, n5, s5, u, o, dt, f, g]),
  match('5.3', 'empty $nin matches everything', { age: { $nin: [] } }, ALL_SHAPES),
  match('5.3', '$nin on array elements', { tags: { $nin: ['red', 'blue'] } }, [c, n5, s5, u, o, dt, f]),

  // ---- 5.3 ranges: same type only, never inside arrays -----------------------------------------------
  match('5.3', '$gt compares numbers only', { age: { $gt: 25 } }, [a, s5, f]),
  match('5.3', '$gte', { age: { $gte: 25 } }, [a, b, s5, f]),
  match('5.3', '$lt', { age: { $lt: 20 } }, [n5, g]),
  match('5.3', '$lte on a decimal', { age: { $lte: 5.5 } }, [n5]),
  match('5.3', 'string range compares strings only', { age: { $gt: '2' } }, [c]),
  match('5.3', 'string range in UTF-16 order', { name: { $gte: 'D' } }, [d, e, n5, s5, u, o, dt, g]),
  match('5.3', 'lowercase sorts after uppercase', { name: { $gt: 'Z' } }, [g]),
  match('5.3', '$lt on strings', { name: { $lt: 'C' } }, [a, b]),
  match('5.3', 'boolean range', { active: { $gt: false } }, [a, f, dt]),
  match('5.3', 'boolean $lte true matches booleans only', { active: { $lte: true } }, [a, b, f, dt]),
  match('5.3', 'date range', { when: { $gt: { $date: 1650000000000 } } }, [a, u]),
  match('5.3', 'date range between', { when: { $gte: { $date: 1600000000000 }, $lte: { $date: 1700000000000 } } }, [a, b]),
  match('5.3', 'range does not look inside arrays', { scores: { $gt: 5 } }, []),
  match('5.3', 'range on an array index path', { 'scores.1': { $gte: 20 } }, [e]),

  // ---- 5.3 $exists / $all / $size --------------------------------------------------------------------
  match('5.3', '$exists true counts null as present', { age: { $exists: true } }, [a, b, c, d, n5, s5, f, g]),
  match('5.3', '$exists false', { age: { $exists: false } }, [e, u, o, dt]),
  match('5.3', '$exists false on a present null', { name: { $exists: false } }, []),
  match('5.3', '$exists on a deep path', { 'address.geo': { $exists: true } }, [g]),
  match('5.3', '$exists does not run through arrays of objects', { 'items.sku': { $exists: true } }, []),
  match('5.3', '$all needs every value as an element', { tags: { $all: ['red', 'blue'] } }, [a, g]),
  match('5.3', '$all matches a scalar field equal to the value', { tags: { $all: ['red'] } }, [a, d, e, g]),
  match('5.3', '$all with an object element', { items: { $all: [{ sku: 'x2', qty: 1 }] } }, [b]),
  match('5.3', '$size', { tags: { $size: 2 } }, [a, d]),
  match('5.3', '$size 0', { tags: { $size: 0 } }, [c]),
  match('5.3', '$size never matches non-arrays', { tags: { $size: 1 } }, [b, f]),

  // ---- 5.3 $and / $or / $not -------------------------------------------------------------------------
  match('5.3', '$or', { $or: [{ name: 'Ann' }, { age: 25 }] }, [a, b]),
  match('5.3', '$and', { $and: [{ 'address.city': 'Paris' }, { age: { $lt: 20 } }] }, [g]),
  match('5.3', 'nested $or of $and', { $or: [{ $and: [{ tags: 'red' }, { age: { $gte: 30 } }] }, { name: 'Five' }] }, [a, n5]),
  match('5.3', '$or beside a field clause', { name: { $in: ['Ann', 'Bob', 'Cid'] }, $or: [{ active: true }, { active: false }] }, [a, b]),
  match('5.3', '$not inverts a range and never matches missing fields', { $not: { age: { $gte: 30 } } }, [b, n5, g]),
  match('5.3', '$not of $eq is $ne (matches missing)', { $not: { name: 'Ann' } }, allBut(a)),
  match('5.3', '$not of $exists', { $not: { age: { $exists: true } } }, [e, u, o, dt]),
  match('5.3', '$not of $not', { $not: { $not: { name: 'Ann' } } }, [a]),
  match('5.3', '$not of $or is AND of $ne', { $not: { $or: [{ name: 'Ann' }, { name: 'Bob' }] } }, allBut(a, b)),
  match('5.3', '$not of two clauses is OR of inverses', { $not: { name: 'Ann', age: 30 } }, allBut(a)),
  match('5.3', '$not of $in is $nin', { $not: { tags: { $in: ['red', 'blue'] } } }, [c, n5, s5, u, o, dt, f]),
  match('5.3', '$not of $all is "none of"', { $not: { tags: { $all: ['red', 'blue'] } } }, [c, n5, s5, u, o, dt, f]),
  match('5.3', '$not of a date range', { $not: { when: { $lt: { $date: 1700000000000 } } } }, [a, u]),

  // ---- 5.2 _id ----------------------------------------------------------------------------------------
  match('5.2', 'number id 5 is not string id "5"', { _id: 5 }, [n5]),
  match('5.2', 'string id "5" is not number id 5', { _id: '5' }, [s5]),
  match('5.2', '$uuid id', { _id: { $uuid: UUID1 } }, [u]),
  match('5.2', '$uuid id by its bare string', { _id: UUID1 }, [u]),
  match('5.2', '$objectId id by its bare string', { _id: OID1 }, [o]),
  match('5.2', '$date id', { _id: { $date: 1650000000000 } }, [dt]),
  match('5.2', '_id $in of mixed types', { _id: { $in: ['a', 5, 'zz', { $objectId: OID1 }] } }, [a, n5, o]),
  match('5.2', '_id $ne', { _id: { $ne: 'a' } }, allBut(a)),
  match('5.2', '_id $nin', { _id: { $nin: ['a', 5] } }, allBut(a, n5)),
  match('5.2', '_id string range', { _id: { $gt: 'c' } }, [d, e, f, g]),
  match('5.2', '_id number range', { _id: { $lt: 10 } }, [n5]),
  match('5.2', '_id $exists false matches nothing', { _id: { $exists: false } }, []),
  match('5.2', '_id $exists true matches everything', { _id: { $exists: true } }, ALL_SHAPES),
  match('5.2', '_id inside $and', { $and: [{ _id: 'a' }, { name: 'Ann' }] }, [a]),
  match('5.2', '$eq on _id of a collection that does not index _id', { _id: 'x1' }, ['x1'], 'allowName'),
  match('5.2', '$in on _id of a collection that does not index _id', { _id: { $in: ['x1', 'x2'] } }, ['x1', 'x2'], 'allowName'),

  // ---- 5.3 indexing ---------------------------------------------------------------------------------
  match('5.3', 'sub-document literal with only indexed paths', { address: { city: 'd' } }, ['x2'], 'denied'),
  match('5.3', 'indexed sibling of a denied path', { 'address.city': 'c' }, ['x1'], 'denied'),
  reject('5.3', 'denied path', { secret: 's' }, 'FILTER_PATH_UNINDEXED', 'denied'),
  reject('5.3', 'denied nested path', { 'address.zip': 'z' }, 'FILTER_PATH_UNINDEXED', 'denied'),
  reject('5.3', 'sub-document literal reaching a denied path', { address: { city: 'c', zip: 'z' } }, 'FILTER_PATH_UNINDEXED', 'denied'),
  reject('5.3', 'path outside the allow list', { secret: 's' }, 'FILTER_PATH_UNINDEXED', 'allowName'),
  reject('5.2', '$ne on _id of a collection that does not index _id', { _id: { $ne: 'x1' } }, 'FILTER_ID_NOT_INDEXED', 'allowName'),

  // ---- 5.1 / 5.2 errors --------------------------------------------------------------------------------
  reject('5.1', 'filter must be an object (array)', [], 'FILTER_UNSUPPORTED_DATA_TYPE'),
  reject('5.1', 'filter must be an object (string)', 'x', 'FILTER_UNSUPPORTED_DATA_TYPE'),
  reject('5.1', '$or elements must be objects', { $or: [1] }, 'FILTER_UNSUPPORTED_DATA_TYPE'),
  reject('5.1', '$and elements must be objects', { $and: ['x'] }, 'FILTER_UNSUPPORTED_DATA_TYPE'),
  reject('5.1', '$nor is not supported', { $nor: [{ name: 'Ann' }] }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$regex is not supported', { name: { $regex: '^A' } }, 'FILTER_UNSUPPORTED_OPERATOR'),
  reject('5.1', '$elemMatch is not supported', { items: { $elemMatch: { sku: 'x1' } } }, 'FILTER_UNSUPPORTED_OPERATOR'),
  reject('5.1', 'unknown operator', { age: { $type: 'number' } }, 'FILTER_UNSUPPORTED_OPERATOR'),
  reject('5.1', 'field-level $not is not supported', { age: { $not: { $gt: 5 } } }, 'FILTER_UNSUPPORTED_OPERATOR'),
  reject('5.1', 'path starting with $', { $gt: 5 }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', 'empty path', { '': 1 }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', 'operator nested in a sub-document literal', { address: { city: { $eq: 'Paris' } } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', 'more than 64 comparisons', Object.fromEntries(range(65, 0).map((i) => [`k${i}`, i])), 'FILTER_FIELDS_LIMIT_VIOLATION'),
  reject('5.1', '$in over 100 values', { age: { $in: range(101) } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$nin over 100 values', { age: { $nin: range(101) } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$in needs an array', { age: { $in: 30 } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$nin needs an array', { age: { $nin: 'x' } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$exists needs a boolean', { age: { $exists: 1 } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$all needs an array', { tags: { $all: 'red' } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$all needs a non-empty array', { tags: { $all: [] } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$size needs a non-negative integer', { tags: { $size: -1 } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$size needs an integer', { tags: { $size: 1.5 } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$size needs a number', { tags: { $size: '2' } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$gt needs a number, string, boolean or date (null)', { age: { $gt: null } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$lt needs a number, string, boolean or date (array)', { age: { $lt: [1] } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$gte needs a number, string, boolean or date (object)', { age: { $gte: { x: 1 } } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.1', '$date needs integer epoch millis', { when: { $date: '2024-01-01' } }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.2', '_id inside $or', { $or: [{ _id: 'a' }, { name: 'Bob' }] }, 'FILTER_INVALID_EXPRESSION'),
  reject('5.2', 'two _id operators on one path', { _id: { $gt: 'a', $lt: 'z' } }, 'FILTER_MULTIPLE_ID_FILTER'),
  reject('5.2', 'two _id clauses in $and', { $and: [{ _id: 'a' }, { _id: 'b' }] }, 'FILTER_MULTIPLE_ID_FILTER'),
  reject('5.2', '_id at root and inside $and', { _id: 'a', $and: [{ _id: { $ne: 'b' } }] }, 'FILTER_MULTIPLE_ID_FILTER'),

  // ---- $vector filters (5.1) --------------------------------------------------------------------------
  match('5.1', '$vector $exists', { $vector: { $exists: true } }, ['v0', 'v1', 'v3', 'v7'], 'vectors'),
  match('5.1', '$vector $exists false', { $vector: { $exists: false } }, ['vn'], 'vectors'),
  reject('5.1', '$vector equality is not supported', { $vector: [1, 0, 0, 0] }, 'FILTER_INVALID_EXPRESSION', 'vectors'),

  // ---- strings compare by UTF-16 code units (5.3) ---------------------------------------------------------
  {
    name: 'string range in UTF-16 code unit order, not code point order',
    section: '5.3',
    setup: 'utf16',
    command: { find: { filter: { s: { $gt: '\uE000' } } } },
    expect: { ids: ['w1'], nextPageState: null },
  },

  // ---- other commands take the same filters -----------------------------------------------------------
  { name: 'countDocuments with a Data API filter', section: '5.3', setup: 'shapes', command: { countDocuments: { filter: { age: { $ne: null } } } }, expect: { status: { count: 11 } } },
  { name: 'findOne with a type-strict filter', section: '5.3', setup: 'shapes', command: { findOne: { filter: { _id: 5 }, projection: { name: 1 } } }, expect: { document: { _id: 5, name: 'Five' } } },
  { name: 'countDocuments rejects a bad filter', section: '5.1', setup: 'shapes', command: { countDocuments: { filter: { name: { $regex: 'A' } } } }, expect: { errorCode: 'FILTER_UNSUPPORTED_OPERATOR' } },
];
