/**
 * The filtered vector search planner. A filter whose candidates (from the secondary indexes) are few is
 * answered by an exact scan of those candidates' vectors; a filter that matches much of the collection, or
 * that no index can narrow, searches the graph without it and keeps the hits that pass, asking for more hits
 * until k pass. Either way documents are fetched in score order and verified against the full filter
 * (index candidates are a superset), so a concurrent delete or a near miss only means fetching a few more.
 */
import type { Filter } from '../query/filter.js';
import type { CollectionVectors } from './collection-vectors.js';
import type { FoundDocument } from './collection.js';
import type { DocumentStore } from './document-store.js';
import { planCandidates } from './planner.js';

export interface VectorSelectRequest {
  readonly store: DocumentStore;
  readonly vectors: CollectionVectors;
  readonly isIndexed: (path: string) => boolean;
  readonly filter: Filter;
  readonly query: Float32Array;
  readonly k: number;
}

/**
 * Up to this fraction of the collection (or 2,000 documents), a filter's candidates are scanned exactly;
 * above it the graph is searched unfiltered and its hits filtered (at least this fraction of them pass).
 */
const EXACT_FRACTION = 0.15;
const EXACT_MIN = 2000;

/** The k documents nearest to the query among those the filter matches, best first, with similarity. */
export async function selectByVector(request: VectorSelectRequest): Promise<FoundDocument[]> {
  const { store, vectors, filter, isIndexed, k } = request;
  if (filter.isEmpty) return searchAndVerify(request, undefined, k);
  const cap = Math.max(EXACT_MIN, Math.ceil(vectors.size * EXACT_FRACTION));
  const plan = await planCandidates(filter, { store, isIndexed, maxCandidates: cap });
  if (plan.kind === 'keys') {
    const allowed = new Set<number>();
    for (const key of plan.keys) {
      const label = vectors.labelOf(key);
      if (label !== undefined) allowed.add(label);
    }
    return searchAndVerify(request, allowed, Math.min(allowed.size, k * 2));
  }
  // A wide (or unindexable) filter: most hits pass, so oversample the unfiltered graph.
  return searchAndVerify(request, undefined, Math.min(vectors.size, k * 2));
}

/** Searches, fetches the hits in score order and keeps those that pass, widening until k pass or all are seen. */
async function searchAndVerify(request: VectorSelectRequest, allowed: ReadonlySet<number> | undefined, firstWant: number): Promise<FoundDocument[]> {
  const { store, vectors, filter, query, k } = request;
  const limit = allowed?.size ?? vectors.size;
  for (let want = Math.max(k, firstWant); ; want = Math.min(limit, want * 4)) {
    const hits = vectors.search(query, want, allowed);
    const keys = hits.map((hit) => vectors.keyOf(hit.label) ?? '\u0000');
    const docs = await store.getMany(keys);
    const found: FoundDocument[] = [];
    hits.forEach((hit, i) => {
      const doc = docs[i];
      if (doc && doc.$vector !== undefined && doc.$vector !== null && (filter.isEmpty || filter.matches(doc))) {
        found.push({ key: keys[i]!, doc, similarity: hit.score });
      }
    });
    if (found.length >= k || hits.length < want || want >= limit) return found.slice(0, k);
  }
}
