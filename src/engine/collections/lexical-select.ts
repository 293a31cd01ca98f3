/**
 * A `$lexical` sort: the documents holding every analyzed query term (their postings intersected), scored
 * by BM25 with the index's exact statistics, best first, then read in that order until `k` pass the filter.
 * Reads the query terms' postings (from memory when hot) and the documents returned (and those the filter
 * turns down), nothing else; only the best few are ranked unless the filter turns many down (engine/lexical-ranking.ts).
 */
import { queryTerms, type Analyzer } from '../../query/analyzers.js';
import { hasEveryTerm, type Filter } from '../../query/filter.js';
import type { DocumentStore } from './document-store.js';
import { rankTerms } from '../lexical-ranking.js';
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

/** Documents read per round (at least) while a filter turns some down. */
const MIN_READ = 16;

/** The best `k` documents by BM25 (`score` set on each), best first; ties by document key. */
export async function selectByLexical(query: LexicalQuery): Promise<(FoundDocument & { readonly score: number })[]> {
  const terms = queryTerms(query.text, query.analyzer);
  if (terms.length === 0 || query.k <= 0) return [];
  await query.index.ready();
  const { ranking, mark } = await rankTerms(query.index, terms);
  const found: (FoundDocument & { score: number })[] = [];
  while (found.length < query.k) {
    // Without a filter every document read is returned (unless deleted meanwhile): read no more than needed.
    const wanted = query.k - found.length;
    const round = ranking.next(query.filter.isEmpty ? wanted : Math.max(MIN_READ, wanted * 2));
    if (round.length === 0) break;
    const docs = await query.store.getMany(
      round.map((hit) => ranking.table.keyOf(hit.ordinal)),
      { withVector: query.withVector },
    );
    // A write seen since the postings were read may have changed a document: its text is checked again.
    const trusted = query.index.unchangedSince(mark);
    for (let j = 0; j < round.length && found.length < query.k; j++) {
      const doc = docs[j];
      if (doc && query.filter.matches(doc) && (trusted || hasEveryTerm(doc, terms, query.analyzer))) {
        found.push({ key: ranking.table.keyOf(round[j]!.ordinal), doc, score: round[j]!.score });
      }
    }
  }
  return found;
}

