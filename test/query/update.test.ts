/**
 * Tests for src/query/update*.ts: every update operator (protocol section 8) with exact result
 * documents (key order included), the `modified` flag, application order, and every parse-time and
 * apply-time error code.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors/index.js';
import type { Document } from '../../src/query/json.js';
import { parseUpdate } from '../../src/query/update.js';
import { expectError, expectExact } from '../support/expect.js';

const NOW = 1_700_000_000_000;
const UPDATE = { isInsert: false, now: NOW };
const INSERT = { isInsert: true, now: NOW };



interface Case {
  readonly name: string;
  readonly doc: Document;
  readonly update: unknown;
  readonly expected: Document;
  readonly modified: boolean;
  readonly insert?: boolean;
}

const CASES: readonly Case[] = [
  // --- $set / $setOnInsert ---------------------------------------------------------------------
  { name: '$set adds a new field last', doc: { _id: 1, a: 1 }, update: { $set: { b: 2 } }, expected: { _id: 1, a: 1, b: 2 }, modified: true },
  { name: '$set replaces in place (key order kept)', doc: { _id: 1, a: 1, b: 2 }, update: { $set: { a: 5 } }, expected: { _id: 1, a: 5, b: 2 }, modified: true },
  { name: '$set of the same value is not a change', doc: { _id: 1, a: { x: [1, 2] } }, update: { $set: { a: { x: [1, 2] } } }, expected: { _id: 1, a: { x: [1, 2] } }, modified: false },
  { name: '$set with a different key order is a change', doc: { _id: 1, o: { a: 1, b: 2 } }, update: { $set: { o: { b: 2, a: 1 } } }, expected: { _id: 1, o: { b: 2, a: 1 } }, modified: true },
  { name: '$set of a $uuid over its bare string is a change', doc: { _id: 1, u: 'abc' }, update: { $set: { u: { $uuid: 'abc' } } }, expected: { _id: 1, u: { $uuid: 'abc' } }, modified: true },
  { name: '$set creates intermediate objects', doc: { _id: 1 }, update: { $set: { 'x.y.z': 1 } }, expected: { _id: 1, x: { y: { z: 1 } } }, modified: true },
  { name: '$set into an existing sub-document', doc: { _id: 1, x: { a: 1 } }, update: { $set: { 'x.b': 2 } }, expected: { _id: 1, x: { a: 1, b: 2 } }, modified: true },
  { name: '$set by array index', doc: { _id: 1, arr: [1, 2, 3] }, update: { $set: { 'arr.1': 9 } }, expected: { _id: 1, arr: [1, 9, 3] }, modified: true },
  { name: '$set past the array end pads with null', doc: { _id: 1, arr: [1] }, update: { $set: { 'arr.3': 4 } }, expected: { _id: 1, arr: [1, null, null, 4] }, modified: true },
  { name: '$set through a missing array element creates an object', doc: { _id: 1, arr: [] }, update: { $set: { 'arr.1.a': 1 } }, expected: { _id: 1, arr: [null, { a: 1 }] }, modified: true },
  { name: '$set of a numeric segment on an object names a property', doc: { _id: 1, o: {} }, update: { $set: { 'o.0': 'x' } }, expected: { _id: 1, o: { '0': 'x' } }, modified: true },
  { name: '$set with an escaped dot', doc: { _id: 1 }, update: { $set: { 'a&.b': 1, 'c&&d.e': 2 } }, expected: { _id: 1, 'a.b': 1, 'c&d': { e: 2 } }, modified: true },
  { name: '$setOnInsert is ignored on update', doc: { _id: 1, a: 1 }, update: { $setOnInsert: { b: 2 } }, expected: { _id: 1, a: 1 }, modified: false },
  { name: '$setOnInsert applies on insert', doc: { _id: 1, a: 1 }, update: { $setOnInsert: { b: 2 } }, expected: { _id: 1, a: 1, b: 2 }, modified: true, insert: true },
  { name: '$setOnInsert may set _id, which goes first', doc: { name: 'x' }, update: { $set: { v: 1 }, $setOnInsert: { _id: 'new' } }, expected: { _id: 'new', name: 'x', v: 1 }, modified: true, insert: true },
  { name: '$set of $vector removes $vectorize', doc: { _id: 1, $vectorize: 'old', $vector: [1, 2] }, update: { $set: { $vector: [3, 4] } }, expected: { _id: 1, $vector: [3, 4] }, modified: true },
  { name: '$set of $vector keeps the $binary form', doc: { _id: 1 }, update: { $set: { $vector: { $binary: 'P4AAAA==' } } }, expected: { _id: 1, $vector: { $binary: 'P4AAAA==' } }, modified: true },

  // --- $unset ----------------------------------------------------------------------------------
  { name: '$unset removes a field', doc: { _id: 1, a: 1, b: 2 }, update: { $unset: { a: '' } }, expected: { _id: 1, b: 2 }, modified: true },
  { name: '$unset of a missing field is a no-op', doc: { _id: 1, a: 1 }, update: { $unset: { zz: 1, 'a.b.c': 1, 'q.0': 1 } }, expected: { _id: 1, a: 1 }, modified: false },
  { name: '$unset of a nested field', doc: { _id: 1, x: { a: 1, b: 2 } }, update: { $unset: { 'x.a': 1 } }, expected: { _id: 1, x: { b: 2 } }, modified: true },
  { name: '$unset of an array element nulls it (indexes do not move)', doc: { _id: 1, arr: [1, 2, 3] }, update: { $unset: { 'arr.1': 1, 'arr.7': 1 } }, expected: { _id: 1, arr: [1, null, 3] }, modified: true },
  { name: '$unset of $vector also removes $vectorize', doc: { _id: 1, $vector: [1], $vectorize: 't', a: 1 }, update: { $unset: { $vector: 1 } }, expected: { _id: 1, a: 1 }, modified: true },
  { name: '$unset of $vectorize also removes $vector', doc: { _id: 1, $vector: [1], $vectorize: 't' }, update: { $unset: { $vectorize: 1 } }, expected: { _id: 1 }, modified: true },

  // --- $inc / $mul -----------------------------------------------------------------------------
  { name: '$inc of a missing field sets it', doc: { _id: 1 }, update: { $inc: { n: 5, 'x.y': -1 } }, expected: { _id: 1, n: 5, x: { y: -1 } }, modified: true },
  { name: '$inc adds', doc: { _id: 1, n: 40 }, update: { $inc: { n: 2 } }, expected: { _id: 1, n: 42 }, modified: true },
  { name: '$inc is decimal-exact', doc: { _id: 1, n: 0.1 }, update: { $inc: { n: 0.2 } }, expected: { _id: 1, n: 0.3 }, modified: true },
  { name: '$inc by 0 is not a change', doc: { _id: 1, n: 7 }, update: { $inc: { n: 0 } }, expected: { _id: 1, n: 7 }, modified: false },
  { name: '$inc by an array index', doc: { _id: 1, c: [1, 2] }, update: { $inc: { 'c.1': 10 } }, expected: { _id: 1, c: [1, 12] }, modified: true },
  { name: '$mul of a missing field sets 0', doc: { _id: 1 }, update: { $mul: { n: 5 } }, expected: { _id: 1, n: 0 }, modified: true },
  { name: '$mul multiplies, decimal-exact', doc: { _id: 1, n: 0.1, m: 4 }, update: { $mul: { n: 3, m: 2.5 } }, expected: { _id: 1, n: 0.3, m: 10 }, modified: true },
  { name: '$mul by 1 is not a change', doc: { _id: 1, n: 7 }, update: { $mul: { n: 1 } }, expected: { _id: 1, n: 7 }, modified: false },

  // --- $min / $max -----------------------------------------------------------------------------
  { name: '$min replaces a larger number', doc: { _id: 1, n: 5 }, update: { $min: { n: 3 } }, expected: { _id: 1, n: 3 }, modified: true },
  { name: '$min keeps a smaller number', doc: { _id: 1, n: 5 }, update: { $min: { n: 8 } }, expected: { _id: 1, n: 5 }, modified: false },
  { name: '$min/$max of a missing field sets it', doc: { _id: 1 }, update: { $min: { a: 'x' }, $max: { b: 2 } }, expected: { _id: 1, b: 2, a: 'x' }, modified: true },
  { name: '$min: null sorts below numbers', doc: { _id: 1, n: 5 }, update: { $min: { n: null } }, expected: { _id: 1, n: null }, modified: true },
  { name: '$min: numbers sort below strings', doc: { _id: 1, n: 5 }, update: { $min: { n: 'a' } }, expected: { _id: 1, n: 5 }, modified: false },
  { name: '$max: later date wins', doc: { _id: 1, d: { $date: 100 } }, update: { $max: { d: { $date: 200 } } }, expected: { _id: 1, d: { $date: 200 } }, modified: true },
  { name: '$max: a date (object) is above any number or string', doc: { _id: 1, d: 9e15, s: 'zzz' }, update: { $max: { d: { $date: 1 }, s: { $date: 1 } } }, expected: { _id: 1, d: { $date: 1 }, s: { $date: 1 } }, modified: true },
  { name: '$min: an earlier date wins', doc: { _id: 1, d: { $date: 100 } }, update: { $min: { d: { $date: 50 } } }, expected: { _id: 1, d: { $date: 50 } }, modified: true },
  { name: '$max: arrays above objects, booleans above arrays', doc: { _id: 1, a: { x: 1 }, b: [9] }, update: { $max: { a: [0], b: false } }, expected: { _id: 1, a: [0], b: false }, modified: true },
  { name: '$max: a longer array with the same prefix wins', doc: { _id: 1, a: [1] }, update: { $max: { a: [1, 0] } }, expected: { _id: 1, a: [1, 0] }, modified: true },
  { name: '$max: strings by code units', doc: { _id: 1, s: 'b' }, update: { $max: { s: 'B' } }, expected: { _id: 1, s: 'b' }, modified: false },

  // --- $rename ---------------------------------------------------------------------------------
  { name: '$rename moves a value (destination appended)', doc: { _id: 1, a: 1, b: 2 }, update: { $rename: { a: 'c' } }, expected: { _id: 1, b: 2, c: 1 }, modified: true },
  { name: '$rename overwrites the destination in place', doc: { _id: 1, a: 1, b: 2 }, update: { $rename: { b: 'a' } }, expected: { _id: 1, a: 2 }, modified: true },
  { name: '$rename into a new sub-document', doc: { _id: 1, a: { x: 1 } }, update: { $rename: { 'a.x': 'b.y' } }, expected: { _id: 1, a: {}, b: { y: 1 } }, modified: true },
  { name: '$rename of a missing source is a no-op', doc: { _id: 1, a: 1 }, update: { $rename: { zz: 'yy' } }, expected: { _id: 1, a: 1 }, modified: false },

  // --- $push / $addToSet -----------------------------------------------------------------------
  { name: '$push appends', doc: { _id: 1, arr: [1] }, update: { $push: { arr: 2 } }, expected: { _id: 1, arr: [1, 2] }, modified: true },
  { name: '$push of an array appends it as one element', doc: { _id: 1, arr: [1] }, update: { $push: { arr: [2, 3] } }, expected: { _id: 1, arr: [1, [2, 3]] }, modified: true },
  { name: '$push to a missing field creates the array', doc: { _id: 1 }, update: { $push: { 'x.arr': 'a' } }, expected: { _id: 1, x: { arr: ['a'] } }, modified: true },
  { name: '$push $each appends each', doc: { _id: 1, arr: [1] }, update: { $push: { arr: { $each: [2, 3] } } }, expected: { _id: 1, arr: [1, 2, 3] }, modified: true },
  { name: '$push $each $position 0 inserts first', doc: { _id: 1, arr: [1, 2] }, update: { $push: { arr: { $each: ['a', 'b'], $position: 0 } } }, expected: { _id: 1, arr: ['a', 'b', 1, 2] }, modified: true },
  { name: '$push negative $position counts from the end', doc: { _id: 1, arr: [1, 2, 3] }, update: { $push: { arr: { $each: ['x'], $position: -1 } } }, expected: { _id: 1, arr: [1, 2, 'x', 3] }, modified: true },
  { name: '$push $position past either end is clamped', doc: { _id: 1, a: [1], b: [1] }, update: { $push: { a: { $each: ['x'], $position: 9 }, b: { $each: ['y'], $position: -9 } } }, expected: { _id: 1, a: [1, 'x'], b: ['y', 1] }, modified: true },
  { name: '$push always counts as modified, even with an empty $each', doc: { _id: 1, arr: [1] }, update: { $push: { arr: { $each: [] } } }, expected: { _id: 1, arr: [1] }, modified: true },
  { name: '$push of an EJSON value adds the value', doc: { _id: 1, arr: [] }, update: { $push: { arr: { $date: 5 } } }, expected: { _id: 1, arr: [{ $date: 5 }] }, modified: true },
  { name: '$push of an object without modifiers adds it', doc: { _id: 1, arr: [] }, update: { $push: { arr: { a: 1 } } }, expected: { _id: 1, arr: [{ a: 1 }] }, modified: true },
  { name: '$addToSet adds a missing value', doc: { _id: 1, s: [1] }, update: { $addToSet: { s: 2 } }, expected: { _id: 1, s: [1, 2] }, modified: true },
  { name: '$addToSet skips a present value', doc: { _id: 1, s: [1, { a: 1, b: 2 }] }, update: { $addToSet: { s: { a: 1, b: 2 } } }, expected: { _id: 1, s: [1, { a: 1, b: 2 }] }, modified: false },
  { name: '$addToSet tells a $uuid from its bare string', doc: { _id: 1, s: [{ $uuid: '0192d5a5-2f7e-7b1c-9d3a-1f2e3d4c5b6a' }] }, update: { $addToSet: { s: '0192d5a5-2f7e-7b1c-9d3a-1f2e3d4c5b6a' } }, expected: { _id: 1, s: [{ $uuid: '0192d5a5-2f7e-7b1c-9d3a-1f2e3d4c5b6a' }, '0192d5a5-2f7e-7b1c-9d3a-1f2e3d4c5b6a'] }, modified: true },
  { name: '$addToSet equality is key-order sensitive', doc: { _id: 1, s: [{ a: 1, b: 2 }] }, update: { $addToSet: { s: { b: 2, a: 1 } } }, expected: { _id: 1, s: [{ a: 1, b: 2 }, { b: 2, a: 1 }] }, modified: true },
  { name: '$addToSet $each de-duplicates against the array and itself', doc: { _id: 1, s: [1] }, update: { $addToSet: { s: { $each: [1, 2, 2, [3]] } } }, expected: { _id: 1, s: [1, 2, [3]] }, modified: true },
  { name: '$addToSet to a missing field creates the array', doc: { _id: 1 }, update: { $addToSet: { s: 'x' } }, expected: { _id: 1, s: ['x'] }, modified: true },

  // --- $pop / $currentDate ---------------------------------------------------------------------
  { name: '$pop 1 removes the last element', doc: { _id: 1, arr: [1, 2, 3] }, update: { $pop: { arr: 1 } }, expected: { _id: 1, arr: [1, 2] }, modified: true },
  { name: '$pop -1 removes the first element', doc: { _id: 1, arr: [1, 2, 3] }, update: { $pop: { arr: -1 } }, expected: { _id: 1, arr: [2, 3] }, modified: true },
  { name: '$pop of a missing or empty array is a no-op', doc: { _id: 1, arr: [] }, update: { $pop: { arr: 1, zz: -1, 'q.r': 1 } }, expected: { _id: 1, arr: [] }, modified: false },
  { name: '$currentDate true', doc: { _id: 1 }, update: { $currentDate: { at: true } }, expected: { _id: 1, at: { $date: NOW } }, modified: true },
  { name: '$currentDate {$type: date}', doc: { _id: 1, at: { $date: 1 } }, update: { $currentDate: { at: { $type: 'date' } } }, expected: { _id: 1, at: { $date: NOW } }, modified: true },
  { name: '$currentDate with the same time is not a change', doc: { _id: 1, at: { $date: NOW } }, update: { $currentDate: { at: true } }, expected: { _id: 1, at: { $date: NOW } }, modified: false },

  // --- ordering --------------------------------------------------------------------------------
  { name: 'operators apply in enum order ($inc before $set), whatever the clause order', doc: { _id: 1 }, update: { $set: { x: 1 }, $inc: { y: 1 } }, expected: { _id: 1, y: 1, x: 1 }, modified: true },
  { name: '$rename applies before $set', doc: { _id: 1, a: 1 }, update: { $set: { z: 0 }, $rename: { a: 'b' } }, expected: { _id: 1, b: 1, z: 0 }, modified: true },
  { name: 'actions within an operator apply in path order', doc: { _id: 1 }, update: { $set: { b: 1, a: 1, 'c.z': 1, 'c.y': 1 } }, expected: { _id: 1, a: 1, b: 1, c: { y: 1, z: 1 } }, modified: true },
  { name: 'path order is string order ("arr.10" before "arr.5")', doc: { _id: 1, arr: [] }, update: { $set: { 'arr.5': 'five', 'arr.10': 'ten' } }, expected: { _id: 1, arr: [null, null, null, null, null, 'five', null, null, null, null, 'ten'] }, modified: true },
  { name: 'several operators, one unchanged', doc: { _id: 1, a: 1, b: [1] }, update: { $set: { a: 1 }, $addToSet: { b: 1 }, $unset: { nope: 1 } }, expected: { _id: 1, a: 1, b: [1] }, modified: false },
  { name: 'an empty update changes nothing', doc: { _id: 1, a: 1 }, update: {}, expected: { _id: 1, a: 1 }, modified: false },
];

describe('parseUpdate / apply', () => {
  it.each(CASES)('$name', ({ doc, update, expected, modified, insert }) => {
    const before = structuredClone(doc);
    const result = parseUpdate(update).apply(doc, insert === true ? INSERT : UPDATE);
    expectExact(result.doc, expected);
    expect(result.modified).toBe(modified);
    expectExact(doc, before); // the input is never mutated
  });

  it('$set of $vectorize text sets the vector computed for it (withVectors); null or blank text a null $vector', () => {
    const update = parseUpdate({ $set: { $vectorize: 'new text', a: 'other text' } });
    expect(update.vectorizeTexts).toEqual(['new text']);
    // Nobody computed the vector (no embedding provider): refused, never a document with stale vectors.
    expectError(() => update.apply({ _id: 1, $vectorize: 'old', $vector: [1, 2] }, UPDATE), 'VECTORIZE_FEATURE_NOT_AVAILABLE');
    const withVectors = update.withVectors(new Map([['new text', [3, 4]]]));
    expectExact(withVectors.apply({ _id: 1, $vectorize: 'old', $vector: [1, 2] }, UPDATE).doc, { _id: 1, $vectorize: 'new text', $vector: [3, 4], a: 'other text' });
    // The same text again: not a change, and the stored vector stays.
    expect(withVectors.apply({ _id: 1, $vectorize: 'new text', $vector: [1, 2], a: 'other text' }, UPDATE)).toEqual({ doc: { _id: 1, $vectorize: 'new text', $vector: [1, 2], a: 'other text' }, modified: false });
    const blank = parseUpdate({ $set: { $vectorize: ' ' } });
    expect(blank.vectorizeTexts).toEqual([]);
    expectExact(blank.apply({ _id: 1, $vector: [1, 2] }, UPDATE).doc, { _id: 1, $vector: null, $vectorize: ' ' });
  });

  it('results do not share values with the update clause across documents', () => {
    const update = parseUpdate({ $set: { o: { list: [1] } } });
    const first = update.apply({ _id: 1 }, UPDATE).doc;
    const second = parseUpdate({ $push: { 'o.list': 2 } }).apply(first, UPDATE).doc;
    expectExact(second, { _id: 1, o: { list: [1, 2] } });
    expectExact(update.apply({ _id: 2 }, UPDATE).doc, { _id: 2, o: { list: [1] } });
  });

  it.each([
    { update: {}, isEmpty: true },
    { update: { $set: {} }, isEmpty: true },
    { update: { $set: {}, $unset: { a: 1 } }, isEmpty: false },
  ])('isEmpty of $update is $isEmpty', ({ update, isEmpty }) => {
    expect(parseUpdate(update).isEmpty).toBe(isEmpty);
  });

  it.each([
    { update: { $set: { $vector: [1, 2] } }, touches: true },
    { update: { $setOnInsert: { $vector: null } }, touches: true },
    { update: { $unset: { $vector: 1 } }, touches: true },
    { update: { $unset: { $vectorize: 1 } }, touches: true },
    { update: { $set: { vector: [1] }, $inc: { n: 1 } }, touches: false },
  ])('touchesVector of $update is $touches', ({ update, touches }) => {
    expect(parseUpdate(update).touchesVector).toBe(touches);
  });
});

interface ErrorCase {
  readonly name: string;
  readonly update: unknown;
  readonly code: ErrorCode;
  readonly message?: string;
}

const PARSE_ERRORS: readonly ErrorCase[] = [
  { name: 'a string clause', update: 'x', code: 'UNSUPPORTED_UPDATE_DATA_TYPE', message: 'must be JSON Object, was: String' },
  { name: 'a null clause', update: null, code: 'UNSUPPORTED_UPDATE_DATA_TYPE' },
  { name: 'an array clause', update: [{ $set: {} }], code: 'UNSUPPORTED_UPDATE_DATA_TYPE', message: 'was: Array' },
  { name: 'a key without $', update: { set: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION', message: "Invalid update operator 'set' (must start with '$')" },
  { name: 'a replacement-style document', update: { a: 1 }, code: 'UNSUPPORTED_UPDATE_OPERATION', message: "Invalid update operator 'a'" },
  { name: '$pull', update: { $pull: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION', message: "Unrecognized update operator '$pull'" },
  { name: '$bit', update: { $bit: { a: { and: 1 } } }, code: 'UNSUPPORTED_UPDATE_OPERATION', message: "Unrecognized update operator '$bit'" },
  { name: '$pullAll', update: { $pullAll: { a: [1] } }, code: 'UNSUPPORTED_UPDATE_OPERATION', message: "Unsupported update operator '$pullAll'" },
  { name: 'an operator with a number value', update: { $set: 5 }, code: 'UNSUPPORTED_UPDATE_DATA_TYPE', message: "update data type for Operator '$set' must be JSON Object, was: Number" },
  { name: 'an operator with an array value', update: { $unset: ['a'] }, code: 'UNSUPPORTED_UPDATE_DATA_TYPE', message: 'was: Array' },
  { name: 'the same path in two operators', update: { $set: { a: 1 }, $unset: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: "Update operators '$set' and '$unset' must not refer to same path: 'a'" },
  { name: 'a path and its sub-path across operators', update: { $set: { 'root.array.1': 13 }, $unset: { 'root.array': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: "Update operator path conflict due to overlap: 'root.array' ($unset) vs 'root.array.1' ($set)" },
  { name: 'a path and its sub-path in one operator', update: { $set: { 'root.1': -7, root: [] } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: "path conflict due to overlap: 'root' ($set) vs 'root.1' ($set)" },
  { name: '$set and $setOnInsert on one path', update: { $set: { a: 1 }, $setOnInsert: { a: 2 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: 'must not refer to same path' },
  { name: 'a $rename destination used by $set', update: { $rename: { a: 'b' }, $set: { b: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: "'$rename' and '$set' must not refer to same path: 'b'" },
  { name: 'a $rename into its own sub-path', update: { $rename: { a: 'a.b' } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: 'path conflict due to overlap' },
  { name: '$set of _id', update: { $set: { _id: 2 } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID', message: "Update operator '$set' cannot be used on '_id'" },
  { name: '$inc of _id', update: { $inc: { _id: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID', message: "'$inc'" },
  { name: '$unset of _id', update: { $unset: { _id: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID' },
  { name: 'a path inside _id', update: { $set: { '_id.x': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID' },
  { name: '$rename to _id', update: { $rename: { a: '_id' } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID', message: "'$rename'" },
  { name: '$inc of $vector', update: { $inc: { $vector: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTOR', message: "Update operator '$inc' cannot be used on '$vector'" },
  { name: '$push to $vector', update: { $push: { $vector: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTOR' },
  { name: '$rename to $vector', update: { $rename: { v: '$vector' } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTOR' },
  { name: '$currentDate of $vectorize', update: { $currentDate: { $vectorize: true } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTORIZE' },
  { name: '$pop of $lexical', update: { $pop: { $lexical: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATOR_FOR_LEXICAL' },
  { name: 'a path inside $vector', update: { $set: { '$vector.0': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: "cannot update inside '$vector'" },
  { name: '$set of $vectorize to a number', update: { $set: { $vectorize: 5 } }, code: 'INVALID_VECTORIZE_VALUE_TYPE', message: 'needs to be String, not Number' },
  { name: '$set of $vector and $vectorize together', update: { $set: { $vector: [1], $vectorize: 'text' } }, code: 'INVALID_USAGE_OF_VECTORIZE' },
  { name: '$unset of $vector and $vectorize together', update: { $unset: { $vector: 1, $vectorize: 1 } }, code: 'INVALID_USAGE_OF_VECTORIZE' },
  { name: '$set of an empty $vector', update: { $set: { $vector: [] } }, code: 'SHRED_BAD_VECTOR_SIZE' },
  { name: '$set of a $vector with a wrong key', update: { $set: { $vector: { $b: 'x' } } }, code: 'SHRED_BAD_DOCUMENT_VECTOR_TYPE' },
  { name: '$set of a $-field', update: { $set: { $foo: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: "$set requires field names, found '$foo'" },
  { name: 'a $-segment inside a path', update: { $inc: { 'a.$b': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: "found 'a.$b'" },
  { name: 'a modifier at the main level of $push', update: { $push: { $each: [1] } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$push requires field names' },
  { name: 'an empty path segment', update: { $set: { 'a..b': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: "invalid path 'a..b'" },
  { name: 'an empty path', update: { $unset: { '': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH' },
  { name: 'a lone & in a path', update: { $set: { 'a&b': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH' },
  { name: '$inc with a string', update: { $inc: { a: '1' } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$inc requires numeric parameter, got: String' },
  { name: '$mul with null', update: { $mul: { a: null } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$mul requires numeric parameter, got: null' },
  { name: '$rename to a number', update: { $rename: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: "$rename requires String parameter for 'to', got: Number" },
  { name: '$rename to itself', update: { $rename: { a: 'a' } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: "$rename requires that 'source' and 'destination' differ ('a')" },
  { name: '$push $each not an array', update: { $push: { a: { $each: 1 } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$push modifier $each requires Array argument, found: Number' },
  { name: '$push $position without $each', update: { $push: { a: { $position: 1 } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$push modifiers can only be used with $each modifier; none included' },
  { name: '$push $position not a number', update: { $push: { a: { $each: [1], $position: true } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$position requires (integral) Number argument, found: Boolean' },
  { name: '$push $position not an integer', update: { $push: { a: { $each: [1], $position: 1.5 } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$position requires Integer Number argument, instead got: 1.5' },
  { name: '$push $slice modifier', update: { $push: { a: { $each: [1], $slice: 2 } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_MODIFIER', message: "$push only supports $each and $position currently; trying to use '$slice'" },
  { name: '$push mixing modifiers and fields', update: { $push: { a: { $each: [1], x: 1 } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_MODIFIER', message: "trying to use 'x'" },
  { name: '$addToSet $position', update: { $addToSet: { a: { $each: [1], $position: 0 } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_MODIFIER', message: "$addToSet only supports $each modifier; trying to use '$position'" },
  { name: '$addToSet $each not an array', update: { $addToSet: { a: { $each: 'x' } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$addToSet modifier $each requires Array argument' },
  { name: '$pop 2', update: { $pop: { a: 2 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$pop requires argument of -1 or 1, instead got: 2' },
  { name: '$pop "1"', update: { $pop: { a: '1' } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$pop requires Number argument (-1 or 1), instead got: String' },
  { name: '$currentDate false', update: { $currentDate: { a: false } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$currentDate requires argument of either `true` or `{"$type":"date"}`' },
  { name: '$currentDate timestamp', update: { $currentDate: { a: { $type: 'timestamp' } } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: '$currentDate requires' },
];

describe('parseUpdate errors', () => {
  it.each(PARSE_ERRORS)('$name -> $code', ({ update, code, message }) => {
    expectError(() => parseUpdate(update), code, message);
  });

  it('$setOnInsert may target _id (and only it, not a path inside it)', () => {
    expect(parseUpdate({ $setOnInsert: { _id: 'x' } }).isEmpty).toBe(false);
    expectError(() => parseUpdate({ $setOnInsert: { '_id.a': 1 } }), 'UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID');
  });
});

interface ApplyErrorCase extends ErrorCase {
  readonly doc: Document;
}

const APPLY_ERRORS: readonly ApplyErrorCase[] = [
  { name: 'creating a property on an array', doc: { _id: 1, subdoc: { array: [1] } }, update: { $set: { 'subdoc.array.name': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: "cannot create field ('name') in path 'subdoc.array.name'; only Object nodes have properties (got Array)" },
  { name: 'creating a property on a number', doc: { _id: 1, a: 5 }, update: { $set: { 'a.b.c': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: "cannot create field ('b') in path 'a.b.c'; only Object nodes have properties (got Number)" },
  { name: 'creating a property on null', doc: { _id: 1, a: null }, update: { $inc: { 'a.n': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: '(got Null)' },
  { name: 'creating a property inside an EJSON date', doc: { _id: 1, d: { $date: 1 } }, update: { $set: { 'd.x': 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: '(got Date)' },
  { name: '$inc of a string', doc: { _id: 1, a: 'x' }, update: { $inc: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_TARGET', message: "$inc requires target to be Number; value at 'a' of type String" },
  { name: '$mul of an array', doc: { _id: 1, a: [1] }, update: { $mul: { a: 2 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_TARGET', message: "$mul requires target to be Number; value at 'a' of type Array" },
  { name: '$inc of a date', doc: { _id: 1, a: { $date: 5 } }, update: { $inc: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_TARGET', message: 'of type Date' },
  { name: '$push to a string', doc: { _id: 1, a: 'x' }, update: { $push: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_TARGET', message: "$push requires target to be Array; value at 'a' of type String" },
  { name: '$push to null', doc: { _id: 1, a: null }, update: { $push: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_TARGET', message: 'of type Null' },
  { name: '$addToSet to an object', doc: { _id: 1, a: { b: 1 } }, update: { $addToSet: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_TARGET', message: '$addToSet requires target to be Array' },
  { name: '$pop of a number', doc: { _id: 1, a: 3 }, update: { $pop: { a: 1 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_TARGET', message: "$pop requires target to be Array; value at 'a' of type Number" },
  { name: '$rename of an array element', doc: { _id: 1, arr: [1, 2] }, update: { $rename: { 'arr.0': 'x' } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: "$rename does not allow Array field as source ('arr.0')" },
  { name: '$rename into an array element', doc: { _id: 1, a: 1, arr: [] }, update: { $rename: { a: 'arr.0' } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PATH', message: "$rename does not allow Array field as destination ('arr.0')" },
  { name: '$mul overflowing a double', doc: { _id: 1, n: 1e308 }, update: { $mul: { n: 10 } }, code: 'UNSUPPORTED_UPDATE_OPERATION_PARAM', message: 'out of the range' },
];

describe('update apply errors', () => {
  it.each(APPLY_ERRORS)('$name -> $code', ({ doc, update, code, message }) => {
    const before = structuredClone(doc);
    const parsed = parseUpdate(update);
    expectError(() => parsed.apply(doc, UPDATE), code, message);
    expectExact(doc, before);
  });
});
