/**
 * What a query plan reads its candidates through (collections/planner.ts plans): LevelDB's index entries of a
 * collection (sets of document keys) or a vector collection's in-memory postings (sets of labels,
 * vectors/postings.ts). Below both, so that neither imports the other's layer.
 */
import type { IndexBounds } from './changes.js';

/** Where a plan reads index entries, and the set operations on what it reads (S: a set of candidates). */
export interface CandidateSource<S> {
  /** The candidates of the index entries under `indexPath` within bounds; undefined past `cap` of them. */
  range(indexPath: string, bounds: IndexBounds, cap: number): Promise<S | undefined> | S | undefined;
  /** The candidates of these document keys (an `_id` clause). */
  ids(keys: readonly string[]): S;
  unionAll(sets: readonly S[]): S;
  intersect(a: S, b: S): S;
  size(set: S): number;
}
