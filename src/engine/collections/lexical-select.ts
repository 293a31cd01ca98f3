/**
 * A `$lexical` sort: the documents holding every analyzed query term (their postings intersected), scored
 * by BM25 with the index's exact statistics, best first, then read in that order until `k` pass the filter.
 * Reads the query terms' postings and the documents returned (and those the filter turns down), nothing else.
 */
import { queryTerms, type Analyzer } from '../../query/analyzers.js';
import { hasEveryTerm, type Filter } from '../../query/filter.js';
import type { DocumentStore } from './document-store.js';
import { rankPostings } from '../lexical-store.js';
import type { LexicalIndex } from './lexical-index.js';
import type { FoundDocument } from './types.js';

export interface LexicalQuery {
  readonly store: DocumentStore;
  readonly index: LexicalIndex;
  readonly analyzer: Analyzer;
  readonly filter: Filter;
  readonly text: string;
  readonly k: number;
  readonly withVector: boolean;
}

/** Documents read per round while the filter turns some down. */
const MIN_READ = 16;

/** The best `k` documents by BM25 (`score` set on each), best first; ties by document key. */
export async function selectByLexical(query: LexicalQuery): Promise<(FoundDocument & { readonly score: number })[]> {
  const terms = queryTerms(query.text, query.analyzer);
  if (terms.length === 0 || query.k <= 0) return [];
  await query.index.ready();
  const lists = await Promise.all(terms.map((term) => query.index.postings(term)));
  const stats = query.index.stats(new Map(terms.map((term, i) => [term, lists[i]!.size])));
  const scored = rankPostings(terms, lists, stats);
  const found: (FoundDocument & { score: number })[] = [];
  for (let at = 0; at < scored.length && found.length < query.k; ) {
    const round = scored.slice(at, at + Math.max(MIN_READ, (query.k - found.length) * 2));
    at += round.length;
    const docs = await query.store.getMany(
      round.map((hit) => hit.key),
      { withVector: query.withVector },
    );
    for (let i = 0; i < round.length && found.length < query.k; i++) {
      const doc = docs[i];
      // A document changed since its postings were read is checked again.
      if (doc && query.filter.matches(doc) && hasEveryTerm(doc, terms, query.analyzer)) found.push({ key: round[i]!.key, doc, score: round[i]!.score });
    }
  }
  return found;
}
