/**
 * Reading a collection's matches without a vector: in key order (from the planner's candidates, an
 * equality clause's index runs, or a scan), a page of them, and sorted on fields (by an index walk or in
 * memory). Functions over the collection's store and limits (Collection).
 */
import { VectorDbError } from '../../errors/index.js';
import type { Filter } from '../../query/filter.js';
import { documentComparator, type SortSpec } from '../../query/sort.js';
import type { Limits } from '../limits.js';
import { decodePageState, encodePageState } from '../page-state.js';
import { keyOrderedRuns, keysAfter, planCandidates, type CandidatePlan, type LexicalMatch } from './planner.js';
import type { DocumentStore, ReadOptions } from './document-store.js';
import { canSortWithIndex, sortWithIndex } from './index-sort.js';
import type { FoundDocument, SelectOptions, SelectResult, StoredDocument } from './types.js';

/** What the reads take from the collection. */
export interface MatchSource {
  readonly store: DocumentStore;
  readonly isIndexed: (path: string) => boolean;
  readonly limits: Limits;
  /** A lexical collection's `$lexical` match candidates (planner.ts). */
  readonly lexicalMatch?: LexicalMatch | undefined;
  /** Throws if the collection was dropped or closed. */
  checkLive(): void;
}

/** Which matches `matching` yields and how it reads them. */
export interface MatchScope {
  /** Only keys after this one (paging). */
  readonly afterKey?: string | undefined;
  /** A plan already made (else the planner makes one). */
  readonly plan?: CandidatePlan | undefined;
  /** Whether documents come back with their `$vector` values (default true). */
  readonly withVector?: boolean;
  /** Every match will be read (an in-memory sort), not just a page: plan for all of them. */
  readonly readsAll?: boolean;
}

/**
 * How many candidates the planner collects for a page of matches before it gives up: past this many,
 * one equality clause's index runs are read in key order instead (a page reads about as many candidates
 * as it needs; a filter that is that one clause skips the planner), and without one a scan finds a page
 * sooner. Past READ_ALL_CANDIDATES, a read of every match scans.
 */
const PAGE_CANDIDATES_WITH_RUNS = 1000;
const PAGE_CANDIDATES = 2000;
const READ_ALL_CANDIDATES = 100_000;

/**
 * At most this many candidates, a sort runs in memory rather than through an index. Finding out costs
 * reading up to this many index keys per clause, so it stays small: at 100k documents, 5,000 made a
 * top-10 sort with a 4 % filter take 27 ms, 1,000 takes 8 ms (the walk itself 2 ms).
 */
const SMALL_SORT = 1000;

export async function pagedSelect(from: MatchSource, options: SelectOptions): Promise<SelectResult> {
  const state = options.pageState ? decodePageState(options.pageState) : undefined;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const remaining = limit - (state?.returned ?? 0);
  const pageSize = Math.min(from.limits.pageSize, remaining);
  const documents: FoundDocument[] = [];
  if (pageSize <= 0) return { documents, nextPageState: null };
  let more = false;
  for await (const found of matching(from, options.filter, { afterKey: state?.after, withVector: options.withVector ?? true })) {
    if (documents.length === pageSize) {
      more = true;
      break;
    }
    documents.push(found);
  }
  const returned = (state?.returned ?? 0) + documents.length;
  const nextPageState = more && returned < limit ? encodePageState({ after: documents.at(-1)!.key, returned }) : null;
  return { documents, nextPageState };
}

/**
 * Matching documents in key order, after `afterKey`: from the planner's candidates when they are few
 * (or the plan given), else from an equality clause's index runs, else by a scan.
 */
export async function* matching(from: MatchSource, filter: Filter, scope: MatchScope = {}): AsyncGenerator<StoredDocument> {
  from.checkLive();
  const { afterKey } = scope;
  const read = { withVector: scope.withVector ?? true };
  const ordered = scope.plan || scope.readsAll ? undefined : keyOrderedRuns(filter, from);
  const cap = scope.readsAll ? READ_ALL_CANDIDATES : ordered ? PAGE_CANDIDATES_WITH_RUNS : PAGE_CANDIDATES;
  // A lone equality's runs are its candidates already: planning would only read them all first.
  const plan = scope.plan ?? (ordered?.whole ? undefined : await planCandidates(filter, { store: from.store, isIndexed: from.isIndexed, maxCandidates: cap, lexicalMatch: from.lexicalMatch }));
  if (plan?.kind === 'keys') {
    yield* matchingKeys(from.store, filter, keysAfter(plan, afterKey), read);
  } else if (ordered) {
    yield* matchingKeys(from.store, filter, from.store.indexRunKeys(ordered.runs, afterKey), read);
  } else {
    for await (const stored of from.store.scan(afterKey, read)) {
      if (filter.matches(stored.doc)) yield stored;
    }
  }
}

/** The documents of candidate keys (in key order) that match the filter, read 64 at a time. */
async function* matchingKeys(store: DocumentStore, filter: Filter, candidates: Iterable<string> | AsyncIterable<string>, read: ReadOptions): AsyncGenerator<StoredDocument> {
  let slice: string[] = [];
  const readSlice = async (): Promise<StoredDocument[]> => {
    const docs = await store.getMany(slice, read);
    const found: StoredDocument[] = [];
    slice.forEach((key, i) => {
      const doc = docs[i];
      if (doc && filter.matches(doc)) found.push({ key, doc });
    });
    slice = [];
    return found;
  };
  for await (const key of candidates) {
    slice.push(key);
    if (slice.length === 64) yield* await readSlice();
  }
  if (slice.length > 0) yield* await readSlice();
}

/**
 * A regular sort: few candidates (from the planner) are sorted in memory; otherwise a sort on one indexed
 * path walks that path's index and stops after `need` documents; otherwise every match is sorted in memory.
 */
export async function sortedMatches(from: MatchSource, filter: Filter, sort: Extract<SortSpec, { kind: 'fields' }>, need: number, withVector: boolean): Promise<FoundDocument[]> {
  const field = sort.fields[0]!;
  const indexable = sort.fields.length === 1 && canSortWithIndex(filter, field, from.isIndexed);
  // Fewer candidates than the in-memory limit, or the index walk (which has no such limit) decides.
  const cap = indexable ? Math.min(SMALL_SORT, from.limits.maxSortCandidates - 1) : READ_ALL_CANDIDATES;
  const plan = await planCandidates(filter, { store: from.store, isIndexed: from.isIndexed, maxCandidates: cap, lexicalMatch: from.lexicalMatch });
  // A `$lexical` match's candidates come past the cap too: many of them, the walk may still answer sooner.
  if (indexable && (plan.kind === 'scan' || plan.keys.length > cap)) {
    const walked = await sortWithIndex({ store: from.store, filter, field, need, maxReads: 10 * from.limits.maxSortCandidates, withVector });
    if (walked) return walked;
  }
  // A small plan that gave up (the walk could not answer) is planned again by #matching, for every match;
  // a non-indexable sort's plan was already made for every match.
  return sortedInMemory(from, filter, sort, { withVector, readsAll: true, ...(plan.kind === 'keys' || !indexable ? { plan } : {}) });
}

async function sortedInMemory(from: MatchSource, filter: Filter, sort: Extract<SortSpec, { kind: 'fields' }>, scope: MatchScope): Promise<FoundDocument[]> {
  const max = from.limits.maxSortCandidates;
  const all: FoundDocument[] = [];
  for await (const found of matching(from, filter, scope)) {
    all.push(found);
    // The Data API reads at most `max` rows and fails when it got them all: `max` matches is too many.
    if (all.length >= max) throw VectorDbError.of('OVERLOADED_SORT_ROW_LIMIT', { max });
  }
  const compare = documentComparator(sort.fields);
  return all.sort((a, b) => compare(a.doc, b.doc));
}
