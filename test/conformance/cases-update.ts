/**
 * Update conformance cases (data-api-protocol.md 8, 5.3 upsert seed, 3.3 update commands): every operator and
 * its errors, modifiedCount semantics, upserts, updateMany paging and findOneAndUpdate returnDocument; each case
 * checks the status and the exact stored documents afterwards.
 */
import { expect } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/index.js';
import { peopleDocs } from './fixtures.js';
import { PAGE_STATE, type ConformanceCase, type Expect, type ExpectedObject } from './types.js';

const U1: JsonObject = { _id: 'u1', name: 'Ann', n: 5, f: 1.5, tags: ['a', 'b'], sub: { x: 1, y: { z: 2 } }, arr: [1, 2, 3], s: 'str', nul: null, when: { $date: 1000 } };
const U2: JsonObject = { _id: 'u2', name: 'Bob', n: 10, tags: ['c'] };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** U1 with `changes` applied: existing keys replaced in place, new keys appended, `undefined` removes. */
function u1(changes: Record<string, unknown> = {}): ExpectedObject {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(U1)) if (!(k in changes)) out[k] = v;
  else if (changes[k] !== undefined) out[k] = changes[k];
  for (const [k, v] of Object.entries(changes)) if (!(k in U1) && v !== undefined) out[k] = v;
  return out as ExpectedObject;
}

const MATCHED = { matchedCount: 1, modifiedCount: 1 };
const UNCHANGED = { matchedCount: 1, modifiedCount: 0 };

/** updateOne on u1 of the two-document setup. */
function updateU1(name: string, update: JsonValue, after: ExpectedObject | null, status: ExpectedObject = MATCHED): ConformanceCase {
  return {
    name,
    section: '8',
    setup: [U1, U2],
    command: { updateOne: { filter: { _id: 'u1' }, update } as JsonObject },
    expect: { status, stored: [after ?? (U1 as ExpectedObject), U2 as ExpectedObject] },
  };
}

/** updateOne on u1 that must fail with `errorCode` and leave both documents unchanged. */
function rejectU1(name: string, update: JsonValue, errorCode: string, section = '8'): ConformanceCase {
  return {
    name,
    section,
    setup: [U1, U2],
    command: { updateOne: { filter: { _id: 'u1' }, update } as JsonObject },
    expect: { errorCode, stored: [U1 as ExpectedObject, U2 as ExpectedObject] },
  };
}

/** updateOne on a one-document collection. */
function updateDoc(name: string, doc: JsonObject, update: JsonValue, after: ExpectedObject, status: ExpectedObject = MATCHED): ConformanceCase {
  return { name, section: '8', setup: [doc], command: { updateOne: { filter: { _id: doc._id! }, update } as JsonObject }, expect: { status, stored: [after] } };
}

const R: JsonObject[] = [
  { _id: 'r1', n: 3 },
  { _id: 'r2', n: 1 },
  { _id: 'r3', n: 2 },
];

function findOneAndUpdate(name: string, body: JsonObject, expected: Expect, setup: JsonObject[] = [U1, U2]): ConformanceCase {
  return { name, section: '3.3', setup, command: { findOneAndUpdate: body }, expect: expected };
}

export const updateCases: ConformanceCase[] = [
  // ---- $set -------------------------------------------------------------------------------------------------
  updateU1('$set replaces a value in place', { $set: { n: 6 } }, u1({ n: 6 })),
  updateU1('$set of the same value is not a modification', { $set: { n: 5, name: 'Ann' } }, null, UNCHANGED),
  updateU1('$set creates missing intermediate objects', { $set: { 'new.deep.k': 1 } }, u1({ new: { deep: { k: 1 } } })),
  updateU1('$set adds to an existing sub-document', { $set: { 'sub.y.w': 3 } }, u1({ sub: { x: 1, y: { z: 2, w: 3 } } })),
  updateU1('$set past the array end pads with null', { $set: { 'arr.5': 9 } }, u1({ arr: [1, 2, 3, null, null, 9] })),
  updateU1('$set an array element', { $set: { 'arr.0': 10 } }, u1({ arr: [10, 2, 3] })),
  updateU1('$set of a sub-document in another key order is a modification', { $set: { sub: { y: { z: 2 }, x: 1 } } }, u1({ sub: { y: { z: 2 }, x: 1 } })),
  updateU1('$set with EJSON values', { $set: { d: { $date: 5 }, s: null } }, u1({ s: null, d: { $date: 5 } })),
  updateU1('$set replaces an array element by index', { $set: { 'arr.1': { k: 1 } } }, u1({ arr: [1, { k: 1 }, 3] })),
  rejectU1('$set of a property of an array', { $set: { 'tags.name': 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_PATH'),
  rejectU1('$set of a property of a string', { $set: { 's.x': 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_PATH'),

  // ---- $unset -----------------------------------------------------------------------------------------------
  updateU1('$unset removes, missing paths are fine', { $unset: { s: '', zzz: 1 } }, u1({ s: undefined })),
  updateU1('$unset a nested path', { $unset: { 'sub.y.z': 1 } }, u1({ sub: { x: 1, y: {} } })),
  updateU1('$unset of missing paths only is not a modification', { $unset: { zzz: 1, 'sub.q': 1 } }, null, UNCHANGED),

  // ---- $inc / $mul ------------------------------------------------------------------------------------------
  updateU1('$inc adds, a missing field is set', { $inc: { n: 2, f: 0.25, newc: 3 } }, u1({ n: 7, f: 1.75, newc: 3 })),
  updateU1('$inc by a negative number', { $inc: { n: -10 } }, u1({ n: -5 })),
  updateU1('$inc creates missing intermediate objects', { $inc: { 'cnt.a': 2 } }, u1({ cnt: { a: 2 } })),
  updateDoc('$inc uses decimal arithmetic', { _id: 'd1', x: 0.1 }, { $inc: { x: 0.2 } }, { _id: 'd1', x: 0.3 }),
  rejectU1('$inc of a non-number', { $inc: { s: 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_TARGET'),
  rejectU1('$inc by a non-number', { $inc: { n: '1' } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),
  updateU1('$mul multiplies, a missing field becomes 0', { $mul: { n: 3, absent: 5 } }, u1({ n: 15, absent: 0 })),
  updateDoc('$mul uses decimal arithmetic', { _id: 'd1', x: 0.1 }, { $mul: { x: 3 } }, { _id: 'd1', x: 0.3 }),
  rejectU1('$mul of a non-number', { $mul: { tags: 2 } }, 'UNSUPPORTED_UPDATE_OPERATION_TARGET'),
  rejectU1('$mul by a non-number', { $mul: { n: true } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),

  // ---- $min / $max ------------------------------------------------------------------------------------------
  updateU1('$min lowers, a missing field is set', { $min: { n: 3, newmin: 7 } }, u1({ n: 3, newmin: 7 })),
  updateU1('$min with a larger value changes nothing', { $min: { n: 9 } }, null, UNCHANGED),
  updateU1('$max with a larger value', { $max: { n: 9 } }, u1({ n: 9 })),
  updateU1('$max across types: a string is above a number', { $max: { n: 'text' } }, u1({ n: 'text' })),
  updateU1('$min across types: null is lowest', { $min: { n: null } }, u1({ n: null })),
  updateU1('$max across types: a boolean is above an array', { $max: { tags: true } }, u1({ tags: true })),
  updateU1('$min across types: a number is below a date', { $min: { when: 5 } }, u1({ when: 5 })),
  updateU1('$max across types: a date is above a string', { $max: { s: { $date: 1 } } }, u1({ s: { $date: 1 } })),
  updateU1('$max of dates', { $max: { when: { $date: 2000 } } }, u1({ when: { $date: 2000 } })),

  // ---- $rename ----------------------------------------------------------------------------------------------
  updateU1('$rename moves the value to the new name', { $rename: { s: 's2' } }, u1({ s: undefined, s2: 'str' })),
  updateU1('$rename into a sub-document', { $rename: { name: 'sub.name' } }, u1({ name: undefined, sub: { x: 1, y: { z: 2 }, name: 'Ann' } })),
  updateU1('$rename overwrites the destination', { $rename: { s: 'name' } }, u1({ name: 'str', s: undefined })),
  updateU1('$rename of a missing source is not a modification', { $rename: { zzz: 'yyy' } }, null, UNCHANGED),
  rejectU1('$rename needs a string', { $rename: { s: 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),
  rejectU1('$rename of an array element', { $rename: { 'arr.0': 'first' } }, 'UNSUPPORTED_UPDATE_OPERATION_PATH'),

  // ---- $push ------------------------------------------------------------------------------------------------
  updateU1('$push appends', { $push: { tags: 'c' } }, u1({ tags: ['a', 'b', 'c'] })),
  updateU1('$push of an array appends it as one element', { $push: { tags: ['x', 'y'] } }, u1({ tags: ['a', 'b', ['x', 'y']] })),
  updateU1('$push $each', { $push: { tags: { $each: ['c', 'd'] } } }, u1({ tags: ['a', 'b', 'c', 'd'] })),
  updateU1('$push $each $position', { $push: { arr: { $each: [8, 9], $position: 1 } } }, u1({ arr: [1, 8, 9, 2, 3] })),
  updateU1('$push negative $position counts from the end', { $push: { arr: { $each: [7], $position: -1 } } }, u1({ arr: [1, 2, 7, 3] })),
  updateU1('$push $position past the end appends', { $push: { arr: { $each: [7], $position: 10 } } }, u1({ arr: [1, 2, 3, 7] })),
  updateU1('$push to a missing field creates an array', { $push: { list: 1 } }, u1({ list: [1] })),
  rejectU1('$push to a non-array', { $push: { s: 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_TARGET'),
  rejectU1('$push with an unsupported modifier', { $push: { tags: { $each: ['c'], $slice: 2 } } }, 'UNSUPPORTED_UPDATE_OPERATION_MODIFIER'),
  rejectU1('$push $position without $each', { $push: { tags: { $position: 0 } } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),

  // ---- $addToSet / $pop -------------------------------------------------------------------------------------
  updateU1('$addToSet of a present value is not a modification', { $addToSet: { tags: 'a' } }, null, UNCHANGED),
  updateU1('$addToSet $each adds each missing value once', { $addToSet: { tags: { $each: ['b', 'c', 'c'] } } }, u1({ tags: ['a', 'b', 'c'] })),
  updateDoc('$addToSet compares sub-documents with key order', { _id: 'o1', list: [{ a: 1, b: 2 }] }, { $addToSet: { list: { b: 2, a: 1 } } }, { _id: 'o1', list: [{ a: 1, b: 2 }, { b: 2, a: 1 }] }),
  rejectU1('$addToSet to a non-array', { $addToSet: { n: 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_TARGET'),
  updateU1('$pop 1 removes the last element', { $pop: { arr: 1 } }, u1({ arr: [1, 2] })),
  updateU1('$pop -1 removes the first element', { $pop: { arr: -1 } }, u1({ arr: [2, 3] })),
  updateU1('$pop of a missing field is not a modification', { $pop: { zzz: 1 } }, null, UNCHANGED),
  rejectU1('$pop needs 1 or -1', { $pop: { arr: 2 } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),
  rejectU1('$pop of a non-array', { $pop: { s: 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_TARGET'),

  // ---- $currentDate / $setOnInsert --------------------------------------------------------------------------
  updateU1('$currentDate true sets a $date', { $currentDate: { ts: true } }, u1({ ts: { $date: expect.any(Number) } })),
  updateU1('$currentDate {$type: "date"}', { $currentDate: { when: { $type: 'date' } } }, u1({ when: { $date: expect.any(Number) } })),
  rejectU1('$currentDate with another $type', { $currentDate: { ts: { $type: 'timestamp' } } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),
  rejectU1('$currentDate false', { $currentDate: { ts: false } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),
  updateU1('$setOnInsert does nothing on an update', { $setOnInsert: { x: 1 } }, null, UNCHANGED),

  // ---- clause errors ----------------------------------------------------------------------------------------
  rejectU1('$set of _id', { $set: { _id: 'z' } }, 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID'),
  rejectU1('$unset of _id', { $unset: { _id: 1 } }, 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID'),
  rejectU1('same path in two operators', { $set: { n: 1 }, $inc: { n: 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),
  rejectU1('a path and its sub-path in two operators', { $set: { sub: 1 }, $unset: { 'sub.x': 1 } }, 'UNSUPPORTED_UPDATE_OPERATION_PARAM'),
  rejectU1('update key without $', { n: 1 }, 'UNSUPPORTED_UPDATE_OPERATION'),
  rejectU1('unknown update operator', { $foo: { n: 1 } }, 'UNSUPPORTED_UPDATE_OPERATION'),
  rejectU1('$pull is not supported', { $pull: { tags: 'a' } }, 'UNSUPPORTED_UPDATE_OPERATION'),
  rejectU1('operator value must be an object', { $set: 1 }, 'UNSUPPORTED_UPDATE_DATA_TYPE'),
  {
    name: '$inc of $vector',
    section: '8',
    setup: [{ _id: 'v', $vector: [1, 0] }],
    collectionOptions: { vector: { dimension: 2, metric: 'cosine' } },
    command: { updateOne: { filter: { _id: 'v' }, update: { $inc: { $vector: 1 } } } },
    expect: { errorCode: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTOR' },
  },
  updateU1('empty update is a no-op', {}, null, UNCHANGED),
  {
    name: 'updateOne without update',
    section: '3.3',
    setup: [U1, U2],
    command: { updateOne: { filter: { _id: 'u1' } } },
    expect: { errorCode: 'COMMAND_FIELD_VALUE_INVALID' },
  },
  {
    name: 'updateOne matching nothing',
    section: '3.3',
    setup: [U1, U2],
    command: { updateOne: { filter: { _id: 'zz' }, update: { $set: { n: 1 } } } },
    expect: { status: { matchedCount: 0, modifiedCount: 0 }, stored: [U1 as ExpectedObject, U2 as ExpectedObject] },
  },
  {
    name: 'updateOne with sort updates the first in order',
    section: '7.1',
    setup: R,
    command: { updateOne: { filter: {}, sort: { n: -1 }, update: { $set: { top: true } } } },
    expect: { status: MATCHED, stored: [{ _id: 'r1', n: 3, top: true }, R[1]!, R[2]!] as ExpectedObject[] },
  },

  // ---- upserts ----------------------------------------------------------------------------------------------
  {
    name: 'upsert seeds root-level equalities only',
    section: '5.3',
    command: {
      updateOne: {
        filter: { _id: 'new', kind: 'k', sub: { a: 1 }, tags: ['x'], nul: null, age: { $gt: 5 }, cnt: { $in: [1] }, ex: { $exists: true }, big: { $all: [1] }, $or: [{ o: 1 }, { o: 2 }] },
        update: { $set: { v: 1 }, $setOnInsert: { ins: true } },
        options: { upsert: true },
      },
    },
    expect: { status: { upsertedId: 'new', matchedCount: 0, modifiedCount: 0 }, stored: [{ _id: 'new', kind: 'k', sub: { a: 1 }, tags: ['x'], nul: null, v: 1, ins: true }] },
  },
  {
    name: 'upsert seeds explicit $eq and dotted paths',
    section: '5.3',
    command: { updateOne: { filter: { _id: { $eq: 'e1' }, k: { $eq: 'v' }, 'a.b': 1 }, update: { $set: { 'a.c': 2 } }, options: { upsert: true } } },
    expect: { status: { upsertedId: 'e1', matchedCount: 0, modifiedCount: 0 }, stored: [{ _id: 'e1', k: 'v', a: { b: 1, c: 2 } }] },
  },
  {
    name: 'upsert without _id generates a UUID string',
    section: '8',
    command: { updateOne: { filter: { name: 'zz' }, update: { $inc: { n: 1 } }, options: { upsert: true } } },
    expect: {
      status: { upsertedId: expect.stringMatching(UUID_V4), matchedCount: 0, modifiedCount: 0 },
      stored: [{ _id: expect.stringMatching(UUID_V4), name: 'zz', n: 1 }],
    },
  },
  {
    name: 'upsert takes _id from $setOnInsert',
    section: '8',
    command: { updateOne: { filter: { name: 'zz' }, update: { $setOnInsert: { _id: 'chosen', x: 1 } }, options: { upsert: true } } },
    expect: { status: { upsertedId: 'chosen', matchedCount: 0, modifiedCount: 0 }, stored: [{ _id: 'chosen', name: 'zz', x: 1 }] },
  },
  {
    name: 'upsert with a number _id',
    section: '5.3',
    setup: [{ _id: '7', n: 0 }],
    command: { updateOne: { filter: { _id: 7 }, update: { $set: { n: 1 } }, options: { upsert: true } } },
    expect: { status: { upsertedId: 7, matchedCount: 0, modifiedCount: 0 }, stored: [{ _id: '7', n: 0 }, { _id: 7, n: 1 }] },
  },
  {
    name: 'upsert that matches updates instead',
    section: '8',
    setup: [U1, U2],
    command: { updateOne: { filter: { _id: 'u2' }, update: { $set: { n: 11 }, $setOnInsert: { ins: true } }, options: { upsert: true } } },
    expect: { status: MATCHED, stored: [U1 as ExpectedObject, { ...U2, n: 11 } as ExpectedObject] },
  },

  // ---- updateMany -------------------------------------------------------------------------------------------
  {
    name: 'updateMany counts only documents that changed',
    section: '8',
    setup: [
      { _id: 'm1', k: 1, v: 1 },
      { _id: 'm2', k: 1, v: 2 },
      { _id: 'm3', k: 1, v: 1 },
      { _id: 'm4', k: 2, v: 2 },
    ],
    command: { updateMany: { filter: { k: 1 }, update: { $set: { v: 1 } } } },
    expect: {
      status: { matchedCount: 3, modifiedCount: 1 },
      stored: [
        { _id: 'm1', k: 1, v: 1 },
        { _id: 'm2', k: 1, v: 1 },
        { _id: 'm3', k: 1, v: 1 },
        { _id: 'm4', k: 2, v: 2 },
      ],
    },
  },
  {
    name: 'updateMany handles one page per request, then resumes from status.nextPageState',
    section: '3.3',
    setup: peopleDocs(25),
    command: { updateMany: { filter: {}, update: { $set: { done: true } } } },
    expect: { status: { matchedCount: 20, modifiedCount: 20, moreData: true, nextPageState: expect.any(String) } },
    then: [
      { command: { updateMany: { filter: {}, update: { $set: { done: true } }, options: { pageState: PAGE_STATE } } }, expect: { status: { matchedCount: 5, modifiedCount: 5 } } },
      { command: { countDocuments: { filter: { done: true } } }, expect: { status: { count: 25 } } },
    ],
  },
  {
    name: 'updateMany upsert',
    section: '3.3',
    setup: [U2],
    command: { updateMany: { filter: { _id: 'x9', k: 'v' }, update: { $set: { n: 1 } }, options: { upsert: true } } },
    expect: { status: { upsertedId: 'x9', matchedCount: 0, modifiedCount: 0 }, stored: [U2 as ExpectedObject, { _id: 'x9', k: 'v', n: 1 }] },
  },

  // ---- findOneAndUpdate ---------------------------------------------------------------------------------------
  findOneAndUpdate('findOneAndUpdate returns the document before by default', { filter: { _id: 'u2' }, update: { $inc: { n: 1 } } }, { document: U2 as ExpectedObject, status: MATCHED, stored: [U1 as ExpectedObject, { ...U2, n: 11 } as ExpectedObject] }),
  findOneAndUpdate('findOneAndUpdate returnDocument after', { filter: { _id: 'u2' }, update: { $inc: { n: 1 } }, options: { returnDocument: 'after' } }, { document: { ...U2, n: 11 } as ExpectedObject, status: MATCHED }),
  findOneAndUpdate('findOneAndUpdate applies the projection', { filter: { _id: 'u2' }, update: { $push: { tags: 'd' } }, projection: { tags: 1 }, options: { returnDocument: 'after' } }, { document: { _id: 'u2', tags: ['c', 'd'] }, status: MATCHED }),
  findOneAndUpdate('findOneAndUpdate matching nothing', { filter: { _id: 'zz' }, update: { $set: { n: 1 } } }, { document: null, status: { matchedCount: 0, modifiedCount: 0 } }),
  findOneAndUpdate('findOneAndUpdate no-op returns the document, modifiedCount 0', { filter: { _id: 'u2' }, update: { $set: { n: 10 } }, options: { returnDocument: 'after' } }, { document: U2 as ExpectedObject, status: UNCHANGED }),
  findOneAndUpdate('findOneAndUpdate upsert with before returns null', { filter: { _id: 'n1' }, update: { $set: { n: 1 } }, options: { upsert: true } }, { document: null, status: { upsertedId: 'n1', matchedCount: 0, modifiedCount: 0 } }),
  findOneAndUpdate('findOneAndUpdate upsert with after returns the new document', { filter: { _id: 'n1', k: 'x' }, update: { $set: { n: 1 } }, options: { upsert: true, returnDocument: 'after' } }, { document: { _id: 'n1', k: 'x', n: 1 }, status: { upsertedId: 'n1', matchedCount: 0, modifiedCount: 0 } }),
  findOneAndUpdate('findOneAndUpdate with sort picks the first in order', { filter: {}, sort: { n: 1 }, update: { $inc: { n: 10 } }, options: { returnDocument: 'after' } }, { document: { _id: 'r2', n: 11 }, status: MATCHED, stored: [R[0]!, { _id: 'r2', n: 11 }, R[2]!] as ExpectedObject[] }, R),
  findOneAndUpdate('findOneAndUpdate rejects another returnDocument', { filter: { _id: 'u2' }, update: { $inc: { n: 1 } }, options: { returnDocument: 'later' } }, { errorCode: 'COMMAND_FIELD_VALUE_INVALID', stored: [U1 as ExpectedObject, U2 as ExpectedObject] }),
];
