/**
 * The filtered vector search planner: candidates come from the collection's in-memory postings once built
 * (labels, no LevelDB read), else from the secondary indexes (both a superset, verified on the documents),
 * or, for filters no index can narrow, from a scan (exact). CollectionVectors then scans
 * small candidate sets exactly and searches the graph for large ones; results are fetched and verified,
 * asking for more when verification or a concurrent delete drops some.
 */
import type { Filter } from '../../query/filter.js';
import { FifoCache } from '../../storage/fifo-cache.js';
import type { CollectionVectors, LabelFilter } from '../vectors/collection-vectors.js';
import type { FoundDocument, StoredDocument } from './types.js';
import type { ScoredLabel } from '../../vector-index/index.js';
import type { DocumentStore } from './document-store.js';
import { planCandidates, planFrom, singleEquality, type LexicalMatch } from './planner.js';
import { LabelSet, type VectorPostings } from '../vectors/postings.js';

export interface VectorSelectRequest {
  readonly store: DocumentStore;
  readonly vectors: CollectionVectors;
  readonly isIndexed: (path: string) => boolean;
  readonly filter: Filter;
  readonly query: Float32Array;
  readonly k: number;
  /** Whether the documents come back with their `$vector` values. */
  readonly withVector: boolean;
  /** The graph's candidate list size for this query (undefined: the collection's efSearch). */
  readonly efSearch?: number | undefined;
  /** The documents may be the store's cached bodies (see SelectOptions.shared). */
  readonly shared?: boolean | undefined;
  /** Whether the caller reads `similarity` (see SelectOptions.withSimilarity). */
  readonly withSimilarity?: boolean | undefined;
  /** The collection's recent candidate sets. */
  readonly candidates: CandidateCache;
  /** The collection's secondary index by label, when built. */
  readonly postings?: VectorPostings | undefined;
  /** A lexical collection's `$lexical` match candidates (planner.ts). */
  readonly lexicalMatch?: LexicalMatch | undefined;
}

/**
 * Labels a filter may match (undefined: all), whether they are exact (no need to verify), and whether
 * they are at most a slight superset (the postings': only corner cases such as a sub-document field
 * named like an array position add candidates), so the first read need not ask for extra hits.
 */
interface Candidates {
  readonly allowed: LabelFilter | undefined;
  readonly verified: boolean;
  readonly tight?: boolean;
  /** `allowed` is a view of the postings: valid until the next write, so only until the next await. */
  readonly live?: boolean;
}

/**
 * At most this many labels are kept in all, each set counted as at least CACHED_LABELS / CACHED_FILTERS
 * (so at most CACHED_FILTERS sets).
 */
const CACHED_FILTERS = 64;
const CACHED_LABELS = 1_000_000;

/**
 * The candidate label sets of a collection's recent filters (parsed filters are shared per filter text),
 * each valid until the collection's next committed write. A repeated filtered search (the same tenant,
 * category or date range with new query vectors) then skips reading the secondary index.
 */
export class CandidateCache {
  readonly #entries = new FifoCache<Filter, Candidates & { readonly generation: number }>(CACHED_LABELS);

  get(filter: Filter, generation: number): Candidates | undefined {
    const entry = this.#entries.get(filter);
    if (entry === undefined) return undefined;
    if (entry.generation === generation) return entry;
    this.#entries.delete(filter);
    return undefined;
  }

  set(filter: Filter, generation: number, candidates: Candidates): void {
    const size = candidates.allowed?.size ?? 0;
    if (size > CACHED_LABELS) return;
    this.#entries.set(filter, { ...candidates, generation }, Math.max(size, CACHED_LABELS / CACHED_FILTERS));
  }
}

/**
 * The k documents nearest to the query among those the filter matches, best first, with similarity: an
 * array when nothing had to be awaited (an unfiltered or one-equality search whose hits were in the hit
 * cache or read at once, the common case), else a promise. An async function would cost a promise and a microtask turn a query.
 */
export function selectByVector(request: VectorSelectRequest): FoundDocument[] | Promise<FoundDocument[]> {
  const turn = request.vectors.turnDue();
  return turn === undefined ? selectNow(request) : turn.then(() => selectNow(request));
}

function selectNow(request: VectorSelectRequest): FoundDocument[] | Promise<FoundDocument[]> {
  const { filter } = request;
  // An unfiltered search (the common case) needs no candidates: no await for them.
  // So does a filter that is one equality on an indexed scalar, once the postings are built (one lookup).
  const candidates = filter.isEmpty ? ALL_LABELS : equalityLabels(request);
  if (candidates !== undefined) return searchRounds(request, usable(candidates, request));
  return allowedLabels(request).then((read) => searchRounds(request, usable(read, request)));
}

/**
 * What decides a search's rounds: the candidates searched (`live` ones read again after an await), whether
 * the hits need verifying (fixed by the first candidates: the same filter on the same postings), and how
 * many hits this round asks for.
 */
interface Round {
  candidates: Candidates;
  readonly verified: boolean;
  want: number;
}

/** Searches and reads hits, asking for more while verification or a concurrent delete drops some. */
function searchRounds(request: VectorSelectRequest, candidates: Candidates): FoundDocument[] | Promise<FoundDocument[]> {
  const { verified, tight } = candidates;
  const k = request.k;
  const round: Round = { candidates, verified, want: verified || tight ? k : Math.min(limitOf(candidates, request), k * 2) };
  return nextRounds(request, round);
}

function nextRounds(request: VectorSelectRequest, round: Round): FoundDocument[] | Promise<FoundDocument[]> {
  const { store, vectors, query, efSearch, withVector } = request;
  // Restoring `$vector` changes the documents: those must be copies.
  const shared = request.shared === true && !withVector;
  for (;;) {
    const hits = vectors.search(query, round.want, round.candidates.allowed, efSearch, request.withSimilarity !== false);
    const read = store.getHits(hits, vectors, shared);
    if (!Array.isArray(read)) return readRound(request, round, hits, read);
    const found = endOfRound(request, round, hits, read);
    if (found !== undefined) return found;
    round.want = Math.min(limitOf(round.candidates, request), round.want * 4);
  }
}

/** A round whose hits are read from LevelDB: the rest of it, and the rounds after it, once they are. */
async function readRound(request: VectorSelectRequest, round: Round, hits: readonly ScoredLabel[], read: Promise<(StoredDocument | null)[]>): Promise<FoundDocument[]> {
  const docs = await read;
  // A view of the postings holds only until a write lands, which an await allows: look again.
  if (round.candidates.live === true) round.candidates = usable(equalityLabels(request) ?? (await allowedLabels(request)), request);
  const found = endOfRound(request, round, hits, docs);
  if (found !== undefined) return found;
  round.want = Math.min(limitOf(round.candidates, request), round.want * 4);
  return nextRounds(request, round);
}

/** The round's verified hits when they are the answer (k of them, or no more to ask for); else undefined. */
function endOfRound(request: VectorSelectRequest, round: Round, hits: readonly ScoredLabel[], docs: readonly (StoredDocument | null)[]): FoundDocument[] | Promise<FoundDocument[]> | undefined {
  const { filter, k } = request;
  const found: FoundDocument[] = [];
  for (let i = 0; i < hits.length && found.length < k; i++) {
    const hit = docs[i];
    if (hit && (round.verified || filter.matches(hit.doc))) found.push({ key: hit.key, doc: hit.doc, similarity: hits[i]!.score });
  }
  if (found.length < k && hits.length >= round.want && round.want < limitOf(round.candidates, request)) return undefined;
  return request.withVector ? restoreVectors(request.store, found) : found;
}

/** How many labels a search of these candidates may find. */
function limitOf(candidates: Candidates, request: VectorSelectRequest): number {
  return candidates.allowed?.size ?? request.vectors.size;
}

/** The candidates as searched: when every vector is one, none (no filter callback; the hits are verified instead). */
function usable(candidates: Candidates, request: VectorSelectRequest): Candidates {
  const { allowed } = candidates;
  if (allowed === undefined || allowed.size < request.vectors.size) return candidates;
  return { allowed: undefined, verified: request.filter.isEmpty, tight: candidates.tight === true };
}

async function restoreVectors(store: DocumentStore, found: readonly FoundDocument[]): Promise<FoundDocument[]> {
  const out: FoundDocument[] = [];
  for (const hit of found) {
    const doc = await store.restoreVector(hit.key, hit.doc);
    if (doc !== null) out.push({ ...hit, doc });
  }
  return out;
}

/** An empty filter's candidates: every label, nothing to verify. */
const ALL_LABELS: Candidates = Object.freeze({ allowed: undefined, verified: true });

/**
 * The candidates of a filter that is one equality on an indexed path (`{cat: 5}`): that entry's labels in
 * the postings, read directly (what planFrom would read, without its general machinery or the cache, which
 * costs as much as the lookup) and not copied (`live`); undefined for other filters or while the postings
 * are not ready.
 */
function equalityLabels(request: VectorSelectRequest): Candidates | undefined {
  const { postings, filter, isIndexed } = request;
  if (!postings?.ready) return undefined;
  const entry = singleEquality(filter, isIndexed);
  const labels = entry && postings.equalNow(entry.indexPath, entry.value, entry.entry);
  // The entry's view is handed out until the entry changes: it stands for these labels alone.
  return labels === undefined ? undefined : { allowed: new LabelSet(labels, labels), verified: false, tight: true, live: true };
}

/** The filter's candidates: from the cache while no write has committed since they were read. */
async function allowedLabels(request: VectorSelectRequest): Promise<Candidates> {
  const { store, filter, candidates: cache } = request;
  if (filter.isEmpty) return ALL_LABELS;
  const generation = store.generation;
  const cached = cache.get(filter, generation);
  if (cached !== undefined) return cached;
  const candidates = await readCandidates(request);
  if (store.generation === generation) cache.set(filter, generation, candidates);
  return candidates;
}

async function readCandidates(request: VectorSelectRequest): Promise<Candidates> {
  const { store, vectors, filter, isIndexed, postings, lexicalMatch } = request;
  const maxCandidates = Math.max(1000, vectors.size);
  // The in-memory postings know no `$lexical` match: the planner reads its terms' postings.
  if (postings?.ready && filter.lexical === undefined) {
    const labels = await planFrom(filter, { source: postings.source((key) => vectors.labelOf(key)), isIndexed, maxCandidates });
    // A fresh array (the postings copy what they hand the planner), never changed: it stands for these labels.
    if (labels !== undefined) return { allowed: new LabelSet(labels, labels), verified: false, tight: true };
  }
  const allowed = new Set<number>();
  const plan = await planCandidates(filter, { store, isIndexed, maxCandidates, lexicalMatch });
  if (plan.kind === 'keys') {
    for (const key of plan.keys) {
      const label = vectors.labelOf(key);
      if (label !== undefined) allowed.add(label);
    }
    return { allowed, verified: false };
  }
  for await (const { key, doc } of store.scan()) {
    const label = vectors.labelOf(key);
    if (label !== undefined && filter.matches(doc)) allowed.add(label);
  }
  return { allowed, verified: true };
}
