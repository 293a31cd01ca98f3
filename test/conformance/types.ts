/**
 * The shape of one conformance case (data-api-protocol.md sections 5 to 8): a full JSON command run through
 * `db.command` on a seeded collection, with its exact expected answer. Optional follow-up steps reuse the
 * previous `nextPageState` through the PAGE_STATE placeholder. See conformance.test.ts for how cases run.
 */
import type { JsonObject, JsonValue, Limits } from '../../src/index.js';
import type { FixtureName } from './fixtures.js';

/** Replaced, anywhere in a step's command, by the last `nextPageState` (data or status) seen in the case. */
export const PAGE_STATE = '$$PAGE_STATE$$';

/**
 * A value in an expectation: plain JSON, or a vitest asymmetric matcher such as `expect.any(String)` for
 * values the server picks (generated ids, page states, `$currentDate` times).
 */
export type Expected = JsonValue | { asymmetricMatch(other: unknown): boolean } | ExpectedObject | Expected[];
export interface ExpectedObject {
  [key: string]: Expected;
}

export interface Expect {
  /** The first error's `errorCode`; the response must carry no `data`. */
  errorCode?: string;
  /** find: exact `_id`s, in order when the command sorts (or `ordered` is set), else as a set. */
  ids?: JsonValue[];
  /** find: exact documents (same ordering rule as `ids`), compared with key order unless `keyOrder: false`. */
  documents?: ExpectedObject[];
  /** find: how many documents (when which ones is unspecified, e.g. an unsorted first page). */
  count?: number;
  /** findOne / findOneAnd*: exact `data.document`. */
  document?: ExpectedObject | null;
  /** Exact `status` object (absent status must be expected as `undefined`, i.e. leave it out). */
  status?: ExpectedObject;
  /**
   * find: `'string'` a page state, `null` no more pages, `'end'` no more results: either null, or a
   * state whose next page (same command + that pageState) is empty and ends with null.
   */
  nextPageState?: 'string' | null | 'end';
  /** After the command: every document in the collection (any order, key order checked), read with `*`. */
  stored?: ExpectedObject[];
}

export interface Step {
  command: JsonObject;
  expect: Expect;
  /** find: repeat with each new `nextPageState` until it is null; `expect` applies to the last page. */
  drain?: boolean;
}

export interface ConformanceCase {
  name: string;
  /** Section of data-api-protocol.md, e.g. '5.3'. */
  section: string;
  /** A shared fixture, or the documents of a private collection (default: an empty collection). */
  setup?: FixtureName | JsonObject[];
  /** createCollection options of the collection (e.g. `indexing`, `vector`). */
  collectionOptions?: JsonObject;
  /** Limits of the database the case runs on. */
  limits?: Partial<Limits>;
  /** The full command, e.g. `{ find: { filter: {...} } }`. */
  command: JsonObject;
  expect: Expect;
  /** More commands on the same collection, in order (paging, follow-up reads). */
  then?: Step[];
  /** Over all find steps: every returned `_id`, which must be distinct. */
  expectAll?: { ids?: JsonValue[]; includes?: JsonValue[]; count?: number };
  /** Order of `ids`/`documents` regardless of sort. */
  ordered?: boolean;
  /** Compare documents without key order (default: key order is checked). */
  keyOrder?: false;
  /** Write cases get a private collection; detected from the command names unless set. */
  mutates?: boolean;
}
