/**
 * Okapi BM25 as Cassandra SAI (and Lucene) score it: k1 1.2, b 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
 * a document's length its analyzed token count. Pure arithmetic over statistics the caller keeps exact.
 */
import { tokenize, type Analyzer } from './analyzers.js';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** What BM25 needs of the whole corpus: documents holding text, their mean token count, and each query term's document count. */
export interface LexicalStats {
  readonly documents: number;
  readonly meanLength: number;
  readonly documentsWith: ReadonlyMap<string, number>;
}

/** Lucene's idf of a term found in `df` of `n` documents. */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The length normalisation of a document of `length` tokens (the denominator's k1 part). */
export function bm25Norm(length: number, meanLength: number): number {
  return BM25_K1 * (1 - BM25_B + (BM25_B * length) / (meanLength || 1));
}

/** One query term's share of a document's score: its idf, its count in the document, the document's norm. */
export function bm25TermScore(idf: number, tf: number, norm: number): number {
  return (idf * tf * (BM25_K1 + 1)) / (tf + norm);
}

/** The BM25 score of one document given each query term's frequency in it and its length (terms summed in query order). */
export function bm25Score(termFrequencies: ReadonlyMap<string, number>, length: number, queryTerms: readonly string[], stats: LexicalStats): number {
  let score = 0;
  const norm = bm25Norm(length, stats.meanLength);
  for (const term of queryTerms) {
    const tf = termFrequencies.get(term) ?? 0;
    if (tf === 0) continue;
    score += bm25TermScore(bm25Idf(stats.documents, stats.documentsWith.get(term) ?? 0), tf, norm);
  }
  return score;
}

/** Each token's count in a token list. */
export function termFrequencies(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** A text's analyzed terms (each one's count) and its length in tokens: what its postings and BM25 length are. */
export function analyzedTerms(text: string, analyzer: Analyzer): { terms: Map<string, number>; length: number } {
  const tokens = tokenize(text, analyzer);
  return { terms: termFrequencies(tokens), length: tokens.length };
}
