/**
 * The filtered vector search planner: candidates come from the secondary indexes (a superset, verified on
 * the documents) or, for filters no index can narrow, from a scan (exact). CollectionVectors then scans
 * small candidate sets exactly and searches the graph for large ones; results are fetched and verified,
 * asking for more when verification or a concurrent delete drops some.
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

/** The k documents nearest to the query among those the filter matches, best first, with similarity. */
export async function selectByVector(request: VectorSelectRequest): Promise<FoundDocument[]> {
  const { store, vectors, filter, query, k } = request;
  const { allowed, verified } = await allowedLabels(request);
  const limit = allowed?.size ?? vectors.size;
  for (let want = verified ? k : Math.min(limit, k * 2); ; want = Math.min(limit, want * 4)) {
    const hits = vectors.search(query, want, allowed);
    const keys = hits.map((hit) => vectors.keyOf(hit.label) ?? '\u0000');
    const docs = await store.getMany(keys);
    const found: FoundDocument[] = [];
    hits.forEach((hit, i) => {
      const doc = docs[i];
      if (doc && doc.$vector !== undefined && doc.$vector !== null && (verified || filter.matches(doc))) {
        found.push({ key: keys[i]!, doc, similarity: hit.score });
      }
    });
    if (found.length >= k || hits.length < want || want >= limit) return found.slice(0, k);
  }
}

/** Labels the filter may match (undefined: all), and whether they are exact (no need to verify). */
async function allowedLabels(request: VectorSelectRequest): Promise<{ allowed: Set<number> | undefined; verified: boolean }> {
  const { store, vectors, filter, isIndexed } = request;
  if (filter.isEmpty) return { allowed: undefined, verified: true };
  const allowed = new Set<number>();
  const plan = await planCandidates(filter, { store, isIndexed, maxCandidates: Math.max(1000, vectors.size) });
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
