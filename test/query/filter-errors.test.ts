/**
 * Tests for src/query/filter*.ts, what a filter refuses: each malformed, unsupported or over-limit filter and
 * the Data API error code (and message) it gets. Table-driven; what filters match is filter.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors/index.js';
import { VectorDbError } from '../../src/errors/index.js';
import { parseFilter, type FilterOptions } from '../../src/query/filter.js';

const allIndexed: FilterOptions = { isIndexed: () => true };
const noIdIndex: FilterOptions = { isIndexed: (p) => p !== '_id' };

interface ErrorCase {
  readonly name: string;
  readonly filter: unknown;
  readonly code: ErrorCode;
  readonly message?: string;
  readonly options?: FilterOptions;
}

const many = (n: number): Record<string, unknown> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i]));

const errorCases: readonly ErrorCase[] = [
  { name: '$regex', filter: { name: { $regex: 'a.*' } }, code: 'FILTER_UNSUPPORTED_OPERATOR', message: "'$regex'" },
  { name: '$elemMatch', filter: { items: { $elemMatch: { a: 1 } } }, code: 'FILTER_UNSUPPORTED_OPERATOR', message: "'$elemMatch'" },
  { name: '$type', filter: { a: { $type: 'string' } }, code: 'FILTER_UNSUPPORTED_OPERATOR' },
  { name: '$match (lexical only)', filter: { a: { $match: 'x' } }, code: 'FILTER_INVALID_EXPRESSION', message: "'$match' operator can only be used with the '$lexical' field, not 'a'" },
  { name: '$lexical without lexical search', filter: { $lexical: { $match: 'x' } }, code: 'LEXICAL_NOT_ENABLED_FOR_COLLECTION' },
  { name: 'internal $notAll is not a user operator', filter: { a: { $notAll: [1] } }, code: 'FILTER_UNSUPPORTED_OPERATOR' },
  { name: 'internal $sizeNe is not a user operator', filter: { a: { $sizeNe: 1 } }, code: 'FILTER_UNSUPPORTED_OPERATOR' },
  { name: 'field-level $not', filter: { a: { $not: { $eq: 1 } } }, code: 'FILTER_UNSUPPORTED_OPERATOR', message: "Unsupported filter operator '$not'" },
  { name: '$nor', filter: { $nor: [{ a: 1 }] }, code: 'FILTER_INVALID_EXPRESSION', message: "cannot filter on '$nor' by array type" },
  { name: '_id directly inside $or', filter: { $or: [{ _id: 'd1' }, { a: 1 }] }, code: 'FILTER_INVALID_EXPRESSION', message: "'_id' field within '$or'" },
  { name: '_id next to other keys inside an $or element', filter: { $or: [{ a: 1, _id: 'd1' }] }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'two _id clauses via $and', filter: { _id: 'a', $and: [{ _id: 'b' }] }, code: 'FILTER_MULTIPLE_ID_FILTER' },
  { name: 'two _id operators on one key', filter: { _id: { $gt: 'a', $lt: 'z' } }, code: 'FILTER_MULTIPLE_ID_FILTER' },
  { name: '_id in $not and at root', filter: { _id: 'a', $not: { _id: 'b' } }, code: 'FILTER_MULTIPLE_ID_FILTER' },
  { name: '65 comparisons', filter: many(65), code: 'FILTER_FIELDS_LIMIT_VIOLATION', message: 'Filter has 65 fields, exceeds maximum allowed (64)' },
  { name: 'comparisons counted across logical groups', filter: { ...many(60), $or: [many(3), many(2)] }, code: 'FILTER_FIELDS_LIMIT_VIOLATION' },
  { name: 'custom maxClauses', filter: many(3), code: 'FILTER_FIELDS_LIMIT_VIOLATION', options: { isIndexed: () => true, maxClauses: 2 } },
  { name: '$in not an array', filter: { a: { $in: 'x' } }, code: 'FILTER_INVALID_EXPRESSION', message: "'$in' operator must have `Array`" },
  { name: '$nin not an array', filter: { a: { $nin: 1 } }, code: 'FILTER_INVALID_EXPRESSION', message: "'$nin'" },
  { name: '$in with 101 values', filter: { a: { $in: Array.from({ length: 101 }, (_, i) => i) } }, code: 'FILTER_INVALID_EXPRESSION', message: 'at most 100 values' },
  { name: 'custom maxInValues', filter: { a: { $nin: [1, 2, 3] } }, code: 'FILTER_INVALID_EXPRESSION', options: { isIndexed: () => true, maxInValues: 2 } },
  { name: '$exists not boolean', filter: { a: { $exists: 1 } }, code: 'FILTER_INVALID_EXPRESSION', message: "'$exists'" },
  { name: '$size negative', filter: { a: { $size: -1 } }, code: 'FILTER_INVALID_EXPRESSION', message: "'$size'" },
  { name: '$size fractional', filter: { a: { $size: 1.5 } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: '$size string', filter: { a: { $size: '2' } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: '$all empty', filter: { a: { $all: [] } }, code: 'FILTER_INVALID_EXPRESSION', message: 'at least one value' },
  { name: '$all not an array', filter: { a: { $all: 'x' } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'range with null', filter: { a: { $gt: null } }, code: 'FILTER_INVALID_EXPRESSION', message: "'$gt' operator must have `Date` or `Number`" },
  { name: 'range with an array', filter: { a: { $lte: [1] } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'range with a sub-document', filter: { a: { $lt: { b: 1 } } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: '$date as ISO string', filter: { a: { $date: '2024-01-01' } }, code: 'FILTER_INVALID_EXPRESSION', message: "'$date'" },
  { name: '$date fractional in a range', filter: { a: { $gt: { $date: 1.5 } } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: '$date with extra keys', filter: { a: { $date: 1, x: 2 } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'bad $uuid', filter: { a: { $uuid: 'nope' } }, code: 'FILTER_INVALID_EXPRESSION', message: "'$uuid'" },
  { name: '$binary literal', filter: { a: { $binary: 'AAAA' } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'filter is an array', filter: [{ a: 1 }], code: 'FILTER_UNSUPPORTED_DATA_TYPE', message: 'Array' },
  { name: 'filter is a string', filter: 'a', code: 'FILTER_UNSUPPORTED_DATA_TYPE' },
  { name: 'filter is a number', filter: 5, code: 'FILTER_UNSUPPORTED_DATA_TYPE' },
  { name: '$and not an array', filter: { $and: { a: 1 } }, code: 'FILTER_UNSUPPORTED_DATA_TYPE', message: "'$and'" },
  { name: '$or element not an object', filter: { $or: [{ a: 1 }, 'b'] }, code: 'FILTER_UNSUPPORTED_DATA_TYPE', message: "'$or'" },
  { name: '$and element is an array', filter: { $and: [[{ a: 1 }]] }, code: 'FILTER_UNSUPPORTED_DATA_TYPE' },
  { name: '$not not an object', filter: { $not: [{ a: 1 }] }, code: 'FILTER_INVALID_EXPRESSION', message: "'$not'" },
  { name: 'path starting with $', filter: { $gt: 5 }, code: 'FILTER_INVALID_EXPRESSION', message: "filter expression path ('$gt') cannot start with '$'" },
  { name: 'unknown $ path with an object value', filter: { $where: { a: 1 } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'nested operator inside a sub-document literal', filter: { address: { city: { $eq: 'x' } } }, code: 'FILTER_INVALID_EXPRESSION', message: "invalid use of '$eq' operator" },
  { name: 'operator inside an array literal', filter: { tags: [{ $gt: 1 }] }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'operator inside a $in value', filter: { tags: { $in: [{ a: { $exists: true } }] } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'operators mixed with field names', filter: { a: { $gt: 1, b: 2 } }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'lone & in a path', filter: { 'a&b': 1 }, code: 'FILTER_INVALID_EXPRESSION', message: "'a&b'" },
  { name: 'empty path segment', filter: { 'a..b': 1 }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'trailing dot', filter: { 'a.': 1 }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'empty path', filter: { '': 1 }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'non-JSON value', filter: { a: new Date(0) }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'non-finite number', filter: { a: Number.NaN }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: 'unindexed path', filter: { secret: 1 }, code: 'FILTER_PATH_UNINDEXED', message: "'secret'", options: { isIndexed: (p) => p !== 'secret' } },
  { name: 'unindexed path with $exists', filter: { secret: { $exists: true } }, code: 'FILTER_PATH_UNINDEXED', options: { isIndexed: (p) => p !== 'secret' } },
  { name: 'unindexed path inside $not', filter: { $not: { secret: 1 } }, code: 'FILTER_PATH_UNINDEXED', options: { isIndexed: (p) => p !== 'secret' } },
  {
    name: 'unindexed nested path of a sub-document literal',
    filter: { address: { city: 'Paris', zip: '75001' } },
    code: 'FILTER_PATH_UNINDEXED',
    message: "'address.zip'",
    options: { isIndexed: (p) => p !== 'address.zip' },
  },
  {
    name: 'unindexed nested path of an object inside an array literal',
    filter: { items: { $all: [{ a: 1 }] } },
    code: 'FILTER_PATH_UNINDEXED',
    message: "'items.a'",
    options: { isIndexed: (p) => p !== 'items.a' },
  },
  { name: '_id not indexed: $ne', filter: { _id: { $ne: 'a' } }, code: 'FILTER_ID_NOT_INDEXED', message: "'$ne'", options: noIdIndex },
  { name: '_id not indexed: range', filter: { _id: { $gt: 'a' } }, code: 'FILTER_ID_NOT_INDEXED', options: noIdIndex },
  { name: '_id not indexed: $not of $in is $nin', filter: { $not: { _id: { $in: ['a'] } } }, code: 'FILTER_ID_NOT_INDEXED', options: noIdIndex },
  { name: '$vector with $eq', filter: { $vector: { $eq: [1, 2] } }, code: 'FILTER_INVALID_EXPRESSION', message: "only '$exists' is supported" },
  { name: '$vector with an array literal', filter: { $vector: [1, 2] }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: '$vectorize with a string', filter: { $vectorize: 'text' }, code: 'FILTER_INVALID_EXPRESSION' },
  { name: '_id with an array literal', filter: { _id: ['a'] }, code: 'SHRED_BAD_DOCID_TYPE' },
  { name: '_id with a sub-document literal', filter: { _id: { a: 1 } }, code: 'SHRED_BAD_DOCID_TYPE' },
  { name: '_id with an empty string', filter: { _id: '' }, code: 'SHRED_BAD_DOCID_VALUE' },
  { name: '_id with $all', filter: { _id: { $all: ['a'] } }, code: 'FILTER_UNSUPPORTED_OPERATOR', message: "'_id' supports only" },
  { name: '_id with $size', filter: { _id: { $size: 1 } }, code: 'FILTER_UNSUPPORTED_OPERATOR' },
];

describe('parseFilter: errors', () => {
  it.each(errorCases)('$name -> $code', ({ filter, code, message, options }) => {
    let caught: unknown;
    try {
      parseFilter(filter, options ?? allIndexed);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(VectorDbError);
    const error = caught as VectorDbError;
    expect(error.code).toBe(code);
    if (message !== undefined) expect(error.message).toContain(message);
  });
});
