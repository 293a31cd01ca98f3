/**
 * Paging conformance cases (data-api-protocol.md 7.2, 3.3 deleteMany / countDocuments, 11 limits): unsorted
 * pages of 20 with an opaque pageState that resumes exactly (also across writes), `limit` as a total cap,
 * deleteMany's 20 per request with moreData, `deletedCount: -1` for an empty filter, and the count cap.
 */
import type { JsonObject } from '../../src/index.js';
import { pid, pids, peopleDocs } from './fixtures.js';
import { PAGE_STATE, type ConformanceCase } from './types.js';

const ALL = pids(45);
const next = (options: JsonObject = {}, filter?: JsonObject): JsonObject => ({
  find: { ...(filter ? { filter } : {}), options: { ...options, pageState: PAGE_STATE } },
});

export const pagingCases: ConformanceCase[] = [
  // ---- find pages ---------------------------------------------------------------------------------------------
  { name: 'an unsorted find returns a first page of 20 and a page state', section: '7.2', setup: 'people', command: { find: {} }, expect: { count: 20, nextPageState: 'string' } },
  {
    name: 'page states resume exactly: 20 + 20 + 5, every document once',
    section: '7.2',
    setup: 'people',
    command: { find: {} },
    expect: { count: 20, nextPageState: 'string' },
    then: [
      { command: next(), expect: { count: 20, nextPageState: 'string' } },
      { command: next(), expect: { count: 5, nextPageState: null } },
    ],
    expectAll: { ids: ALL },
  },
  {
    name: 'limit is a total cap across pages',
    section: '7.2',
    setup: 'people',
    command: { find: { options: { limit: 30 } } },
    expect: { count: 20, nextPageState: 'string' },
    then: [{ command: next({ limit: 30 }), expect: { count: 10, nextPageState: 'end' } }],
    expectAll: { count: 30 },
  },
  { name: 'limit under the page size', section: '7.2', setup: 'people', command: { find: { options: { limit: 5 } } }, expect: { count: 5, nextPageState: 'end' } },
  { name: 'limit equal to the page size', section: '7.2', setup: 'people', command: { find: { options: { limit: 20 } } }, expect: { count: 20, nextPageState: 'end' } },
  {
    name: 'filtered paging returns exactly the matching set',
    section: '7.2',
    setup: 'people',
    command: { find: { filter: { grp: { $in: ['a', 'b'] } } } },
    expect: { count: 20, nextPageState: 'string' },
    then: [{ command: next({}, { grp: { $in: ['a', 'b'] } }), expect: { count: 10, nextPageState: 'end' } }],
    expectAll: { ids: pids(45, (i) => i % 3 !== 2) },
  },
  { name: 'a result smaller than a page has no page state', section: '7.2', setup: 'people', command: { find: { filter: { grp: 'a' } } }, expect: { ids: pids(45, (i) => i % 3 === 0), nextPageState: null } },
  { name: '_id $in lookups have no page state', section: '7.2', setup: 'people', command: { find: { filter: { _id: { $in: [pid(1), pid(2), 'zz'] } } } }, expect: { ids: [pid(1), pid(2)], nextPageState: null } },
  {
    name: 'an empty sort with a pageState is allowed',
    section: '7.2',
    setup: 'people',
    command: { find: {} },
    expect: { count: 20, nextPageState: 'string' },
    then: [{ command: { find: { sort: {}, options: { pageState: PAGE_STATE } } }, expect: { count: 20, nextPageState: 'string' } }],
    expectAll: { count: 40 },
  },
  {
    name: 'pagingState is an alias of pageState',
    section: '3.3',
    setup: 'people',
    command: { find: {} },
    expect: { count: 20, nextPageState: 'string' },
    then: [{ command: { find: { options: { pagingState: PAGE_STATE } } }, expect: { count: 20, nextPageState: 'string' } }],
    expectAll: { count: 40 },
  },
  {
    name: 'a page state resumes exactly while other writes happen',
    section: '7.2',
    setup: peopleDocs(),
    command: { find: {} },
    expect: { count: 20, nextPageState: 'string' },
    then: [
      { command: { insertMany: { documents: [0, 1, 2, 3, 4].map((i) => ({ _id: `q-${i}`, n: 100 + i })) } }, expect: { status: { insertedIds: ['q-0', 'q-1', 'q-2', 'q-3', 'q-4'] } } },
      { command: { updateOne: { filter: { _id: pid(44) }, update: { $set: { touched: true } } } }, expect: { status: { matchedCount: 1, modifiedCount: 1 } } },
      { command: next(), expect: { nextPageState: null }, drain: true },
    ],
    expectAll: { includes: ALL },
  },
  {
    name: 'pages follow the configured page size',
    section: '11',
    setup: 'people',
    limits: { pageSize: 7 },
    command: { find: {} },
    expect: { count: 7, nextPageState: 'string' },
    then: [{ command: next(), expect: { count: 3, nextPageState: null }, drain: true }],
    expectAll: { ids: ALL },
  },

  // ---- deleteMany ------------------------------------------------------------------------------------------
  {
    name: 'deleteMany deletes 20 per request with moreData',
    section: '3.3',
    setup: peopleDocs(),
    command: { deleteMany: { filter: { n: { $gte: 0 } } } },
    expect: { status: { deletedCount: 20, moreData: true } },
    then: [
      { command: { deleteMany: { filter: { n: { $gte: 0 } } } }, expect: { status: { deletedCount: 20, moreData: true } } },
      { command: { deleteMany: { filter: { n: { $gte: 0 } } } }, expect: { status: { deletedCount: 5 } } },
      { command: { countDocuments: { filter: {} } }, expect: { status: { count: 0 } } },
    ],
  },
  {
    name: 'deleteMany of exactly 20 has no moreData',
    section: '3.3',
    setup: peopleDocs(),
    command: { deleteMany: { filter: { n: { $lt: 20 } } } },
    expect: { status: { deletedCount: 20 } },
    then: [{ command: { countDocuments: { filter: {} } }, expect: { status: { count: 25 } } }],
  },
  {
    name: 'deleteMany with an empty filter truncates: deletedCount -1',
    section: '3.3',
    setup: peopleDocs(),
    command: { deleteMany: { filter: {} } },
    expect: { status: { deletedCount: -1 }, stored: [] },
  },
  { name: 'deleteMany without a filter truncates', section: '3.3', setup: peopleDocs(5), command: { deleteMany: {} }, expect: { status: { deletedCount: -1 }, stored: [] } },
  { name: 'deleteMany matching nothing', section: '3.3', setup: peopleDocs(5), command: { deleteMany: { filter: { n: 99 } } }, expect: { status: { deletedCount: 0 } } },
  {
    name: 'deleteMany uses Data API filter semantics ($ne matches missing)',
    section: '5.3',
    setup: [{ _id: 'k1', t: 1 }, { _id: 'k2' }, { _id: 'k3', t: null }],
    command: { deleteMany: { filter: { t: { $ne: 1 } } } },
    expect: { status: { deletedCount: 2 }, stored: [{ _id: 'k1', t: 1 }] },
  },

  // ---- countDocuments cap ----------------------------------------------------------------------------------
  { name: 'countDocuments under the cap', section: '3.3', setup: 'people', command: { countDocuments: { filter: {} } }, expect: { status: { count: 45 } } },
  { name: 'countDocuments with a filter', section: '3.3', setup: 'people', command: { countDocuments: { filter: { grp: 'a' } } }, expect: { status: { count: 15 } } },
  { name: 'countDocuments over the cap', section: '11', setup: 'people', limits: { maxCountDocuments: 10 }, command: { countDocuments: { filter: {} } }, expect: { status: { count: 10, moreData: true } } },
  { name: 'countDocuments exactly at the cap', section: '11', setup: 'people', limits: { maxCountDocuments: 10 }, command: { countDocuments: { filter: { n: { $lt: 10 } } } }, expect: { status: { count: 10 } } },
  { name: 'filtered countDocuments over the cap', section: '11', setup: 'people', limits: { maxCountDocuments: 10 }, command: { countDocuments: { filter: { grp: 'a' } } }, expect: { status: { count: 10, moreData: true } } },
  { name: 'countDocuments under a small cap', section: '11', setup: 'people', limits: { maxCountDocuments: 10 }, command: { countDocuments: { filter: { n: { $lt: 4 } } } }, expect: { status: { count: 4 } } },
];
