/**
 * Sort conformance cases (data-api-protocol.md 7.1 regular sort, 7.3 vector search): the cross-type order
 * missing < null < number < string < boolean < date, `_id` tie-breaker, one page of at most 20, skip and limit,
 * the errors, OVERLOADED_SORT_ROW_LIMIT on a small `maxSortCandidates`, and ANN with `$similarity`.
 */
import type { JsonObject } from '../../src/index.js';
import { PAGE_STATE, type ConformanceCase } from './types.js';
import { pids } from './fixtures.js';

const ASC = ['s01', 's12', 's02', 's04', 's03', 's11', 's06', 's05', 's08', 's07', 's10', 's09'];
const DESC = ['s09', 's10', 's07', 's08', 's05', 's06', 's03', 's11', 's04', 's02', 's01', 's12'];

function sorted(name: string, find: JsonObject, ids: string[], setup: 'mixed' | 'people' = 'mixed'): ConformanceCase {
  return { name, section: '7.1', setup, command: { find }, expect: { ids, nextPageState: null } };
}

function reject(name: string, find: JsonObject, errorCode: string, section = '7.1'): ConformanceCase {
  return { name, section, setup: 'mixed', command: { find }, expect: { errorCode } };
}

const desc = (from: number, to: number): string[] => pids(45, (i) => i >= to && i <= from).reverse();

export const sortCases: ConformanceCase[] = [
  // ---- order ----------------------------------------------------------------------------------------------
  sorted('ascending: missing < null < numbers < strings < booleans < dates, ties by _id', { sort: { v: 1 } }, ASC),
  sorted('descending reverses the type order, ties still by ascending _id', { sort: { v: -1 } }, DESC),
  sorted('two keys: priority by key order', { sort: { g: 1, v: -1 } }, ['s09', 's07', 's05', 's03', 's01', 's12', 's10', 's08', 's06', 's11', 's04', 's02']),
  sorted('two keys, other directions', { sort: { g: -1, v: 1 } }, ['s02', 's04', 's11', 's06', 's08', 's10', 's01', 's12', 's03', 's05', 's07', 's09']),
  sorted('sort on _id', { sort: { _id: -1 } }, [...ASC].sort().reverse()),
  sorted('filter then sort', { filter: { g: 'y' }, sort: { v: 1 } }, ['s02', 's04', 's11', 's06', 's08', 's10']),
  sorted('ties of equal numbers by _id', { filter: { v: { $gte: 0 } }, sort: { v: -1 } }, ['s03', 's11']),
  { name: 'strings sort by UTF-16 code units', section: '7.1', setup: 'utf16', command: { find: { sort: { s: 1 } } }, expect: { ids: ['w3', 'w2', 'w1'], nextPageState: null } },
  sorted('nested path', { sort: { 'sub.k': 1 } }, desc(44, 25), 'people'),

  // ---- one page, limit and skip --------------------------------------------------------------------------
  sorted('limit', { sort: { v: 1 }, options: { limit: 3 } }, ['s01', 's12', 's02']),
  sorted('skip and limit', { sort: { v: 1 }, options: { skip: 2, limit: 3 } }, ['s02', 's04', 's03']),
  sorted('skip near the end', { sort: { v: 1 }, options: { skip: 10 } }, ['s10', 's09']),
  sorted('skip past the end', { sort: { v: 1 }, options: { skip: 20 } }, []),
  sorted('a sorted find returns one page of 20 and no page state', { sort: { n: -1 } }, desc(44, 25), 'people'),
  sorted('limit above the page size still returns 20', { sort: { n: 1 }, options: { limit: 30 } }, pids(20), 'people'),
  sorted('skip 40 of 45', { sort: { n: 1 }, options: { skip: 40 } }, pids(45, (i) => i >= 40), 'people'),
  sorted('skip 15 limit 10', { sort: { n: 1 }, options: { skip: 15, limit: 10 } }, pids(45, (i) => i >= 15 && i < 25), 'people'),
  sorted('two keys with limit', { sort: { grp: 1, n: -1 }, options: { limit: 5 } }, ['p-042', 'p-039', 'p-036', 'p-033', 'p-030'], 'people'),

  // ---- single-document commands pick the first in sort order ----------------------------------------------
  { name: 'findOne takes the first in sort order', section: '7.1', setup: 'people', command: { findOne: { sort: { n: -1 }, projection: { n: 1 } } }, expect: { document: { _id: 'p-044', n: 44 } } },
  { name: 'findOne sorts across types', section: '7.1', setup: 'mixed', command: { findOne: { sort: { v: -1 } } }, expect: { document: { _id: 's09', v: { $date: 1000 }, g: 'x' } } },

  // ---- errors --------------------------------------------------------------------------------------------
  reject('sort value must be 1 or -1 (2)', { sort: { v: 2 } }, 'SORT_CLAUSE_VALUE_INVALID'),
  reject('sort value must be 1 or -1 (0)', { sort: { v: 0 } }, 'SORT_CLAUSE_VALUE_INVALID'),
  reject('sort value must be an integer', { sort: { v: 1.5 } }, 'SORT_CLAUSE_VALUE_INVALID'),
  reject('sort value must not be a boolean', { sort: { v: true } }, 'SORT_CLAUSE_VALUE_INVALID'),
  reject('sort must be an object (array)', { sort: [] }, 'SORT_CLAUSE_INVALID'),
  reject('sort must be an object (string)', { sort: 'v' }, 'SORT_CLAUSE_INVALID'),
  reject('sort path cannot start with $', { sort: { $foo: 1 } }, 'SORT_CLAUSE_PATH_INVALID'),
  reject('skip without sort', { options: { skip: 1 } }, 'COMMAND_FIELD_VALUE_INVALID'),
  reject('skip with an empty sort', { sort: {}, options: { skip: 1 } }, 'COMMAND_FIELD_VALUE_INVALID'),
  reject('negative skip', { sort: { v: 1 }, options: { skip: -1 } }, 'COMMAND_FIELD_VALUE_INVALID'),
  reject('limit 0', { options: { limit: 0 } }, 'COMMAND_FIELD_VALUE_INVALID'),
  reject('negative limit', { sort: { v: 1 }, options: { limit: -1 } }, 'COMMAND_FIELD_VALUE_INVALID'),
  {
    name: 'sort on a denied path',
    section: '7.1',
    setup: 'denied',
    command: { find: { sort: { secret: 1 } } },
    expect: { errorCode: 'SORT_CLAUSE_PATH_UNINDEXED' },
  },
  {
    name: 'pageState with a non-empty sort is rejected',
    section: '7.1',
    setup: 'people',
    command: { find: {} },
    expect: { count: 20, nextPageState: 'string' },
    then: [{ command: { find: { sort: { n: 1 }, options: { pageState: PAGE_STATE } } }, expect: { errorCode: 'SORT_CLAUSE_INVALID' } }],
  },
  {
    name: 'in-memory sort over the candidate limit',
    section: '7.1',
    setup: 'mixed',
    limits: { maxSortCandidates: 5 },
    command: { find: { sort: { v: 1 } } },
    expect: { errorCode: 'OVERLOADED_SORT_ROW_LIMIT' },
  },
  {
    name: 'in-memory sort under the candidate limit',
    section: '7.1',
    setup: 'mixed',
    limits: { maxSortCandidates: 5 },
    command: { find: { filter: { g: 'x', v: { $exists: true } }, sort: { v: -1 } } },
    expect: { ids: ['s09', 's07', 's05', 's03'], nextPageState: null },
  },
  {
    name: 'in-memory sort with exactly as many matches as the limit fails (the Data API reads the limit and stops)',
    section: '7.1',
    setup: 'mixed',
    limits: { maxSortCandidates: 6 },
    command: { find: { filter: { g: 'x' }, sort: { v: 1 } } },
    expect: { errorCode: 'OVERLOADED_SORT_ROW_LIMIT' },
  },
  {
    name: 'in-memory sort with one match fewer than the limit',
    section: '7.1',
    setup: 'mixed',
    limits: { maxSortCandidates: 7 },
    command: { find: { filter: { g: 'x' }, sort: { v: 1 } } },
    expect: { ids: ['s01', 's12', 's03', 's05', 's07', 's09'], nextPageState: null },
  },
  {
    name: 'findOne with a sort over the candidate limit',
    section: '7.1',
    setup: 'mixed',
    limits: { maxSortCandidates: 5 },
    command: { findOne: { sort: { v: 1 } } },
    expect: { errorCode: 'OVERLOADED_SORT_ROW_LIMIT' },
  },

  // ---- 7.3 vector search -----------------------------------------------------------------------------------
  { name: 'vector sort: nearest first, documents without $vector left out', section: '7.3', setup: 'vectors', command: { find: { sort: { $vector: [0, 0, 0, 0] } } }, expect: { ids: ['v0', 'v1', 'v3', 'v7'] } },
  { name: 'vector sort from another point', section: '7.3', setup: 'vectors', command: { find: { sort: { $vector: [2, 1, 1, 1] } } }, expect: { ids: ['v7', 'v3', 'v1', 'v0'] } },
  {
    name: 'includeSimilarity adds $similarity last (euclidean 1/(1+d²))',
    section: '7.3',
    setup: 'vectors',
    command: { find: { sort: { $vector: [0, 0, 0, 0] }, projection: { label: 1 }, options: { includeSimilarity: true } } },
    expect: {
      documents: [
        { _id: 'v0', label: 'zero', $similarity: 1 },
        { _id: 'v1', label: 'one', $similarity: 0.5 },
        { _id: 'v3', label: 'three', $similarity: 0.25 },
        { _id: 'v7', label: 'seven', $similarity: 0.125 },
      ],
    },
  },
  { name: 'vector sort with limit', section: '7.3', setup: 'vectors', command: { find: { sort: { $vector: [0, 0, 0, 0] }, options: { limit: 2 } } }, expect: { ids: ['v0', 'v1'] } },
  { name: 'filtered vector sort', section: '7.3', setup: 'vectors', command: { find: { filter: { label: { $ne: 'zero' } }, sort: { $vector: [0, 0, 0, 0] } } }, expect: { ids: ['v1', 'v3', 'v7'] } },
  {
    name: 'includeSimilarity without a vector sort adds nothing',
    section: '7.3',
    setup: 'vectors',
    command: { find: { filter: { _id: 'v1' }, options: { includeSimilarity: true } } },
    expect: { documents: [{ _id: 'v1', label: 'one' }] },
  },
  {
    name: 'findOne includeSortVector returns status.sortVector',
    section: '7.3',
    setup: 'vectors',
    command: { findOne: { sort: { $vector: [1, 0, 0, 0] }, options: { includeSortVector: true } } },
    expect: { document: { _id: 'v1', label: 'one' }, status: { sortVector: [1, 0, 0, 0] } },
  },
  {
    name: 'includeSortVector without a vector sort gives null',
    section: '7.3',
    setup: 'vectors',
    command: { find: { filter: { _id: 'v1' }, options: { includeSortVector: true } } },
    expect: { ids: ['v1'], status: { sortVector: null } },
  },
  { name: 'vector of the wrong dimension', section: '7.3', setup: 'vectors', command: { find: { sort: { $vector: [1, 0] } } }, expect: { errorCode: 'INVALID_VECTOR_LENGTH' } },
  { name: 'empty vector', section: '7.3', setup: 'vectors', command: { find: { sort: { $vector: [] } } }, expect: { errorCode: 'SHRED_BAD_VECTOR_SIZE' } },
  { name: 'skip with a vector sort', section: '7.3', setup: 'vectors', command: { find: { sort: { $vector: [1, 0, 0, 0] }, options: { skip: 1 } } }, expect: { errorCode: 'COMMAND_FIELD_VALUE_INVALID' } },
  { name: 'vector search limit over 1000', section: '7.3', setup: 'vectors', command: { find: { sort: { $vector: [1, 0, 0, 0] }, options: { limit: 1001 } } }, expect: { errorCode: 'COMMAND_FIELD_VALUE_INVALID' } },
  reject('vector sort on a collection without vectors', { sort: { $vector: [1, 0, 0, 0] } }, 'VECTOR_SEARCH_NOT_SUPPORTED', '7.3'),
];
