/**
 * A `$lexical` sort: the documents holding every analyzed query term (their postings intersected), scored
 * by BM25 with the index's exact statistics, best first, then read in that order until `k` pass the filter.
 * Reads the query terms' postings (from memory when hot) and the documents returned (and those the filter
 * turns down), nothing else; only the best few are ranked unless the filter turns many down.
 */
import { queryTerms, type Analyzer } from '../../query/analyzers.js';
import { bm25Idf, bm25Norm, bm25TermScore } from '../../query/bm25.js';
import { hasEveryTerm, type Filter } from '../../query/filter.js';
import { keys } from '../../storage/index.js';
import type { DocumentStore } from './document-store.js';
import type { LexicalIndex } from './lexical-index.js';
import { sortedPostings, type OrdinalTable, type TermPostings } from './lexical-postings.js';
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

/** The documents holding every term, as ordinals of `table` with their scores (`count` of them). */
interface Scored {
  readonly table: OrdinalTable;
  readonly ordinals: Int32Array;
  readonly scores: Float64Array;
  readonly count: number;
}

/** The best `k` documents by BM25 (`score` set on each), best first; ties by document key. */
export async function selectByLexical(query: LexicalQuery): Promise<(FoundDocument & { readonly score: number })[]> {
  const terms = queryTerms(query.text, query.analyzer);
  if (terms.length === 0 || query.k <= 0) return [];
  await query.index.ready();
  const mark = query.index.writeMark();
  const lists = onOneTable(await Promise.all(terms.map((term) => query.index.termPostings(term, mark))));
  const stats = query.index.stats(new Map(terms.map((term, i) => [term, lists[i]!.ordinals.length])));
  const idfs = terms.map((term) => bm25Idf(stats.documents, stats.documentsWith.get(term) ?? 0));
  const scored = intersect(lists, idfs, stats.meanLength);
  const ranking = new Ranking(scored);
  const found: (FoundDocument & { score: number })[] = [];
  for (let at = 0; at < scored.count && found.length < query.k; ) {
    const round = ranking.slice(at, at + Math.max(MIN_READ, (query.k - found.length) * 2));
    at += round.length;
    const docs = await query.store.getMany(
      round.map((i) => scored.table.keyOf(scored.ordinals[i]!)),
      { withVector: query.withVector },
    );
    // A write seen since the postings were read may have changed a document: its text is checked again.
    const trusted = query.index.unchangedSince(mark);
    for (let j = 0; j < round.length && found.length < query.k; j++) {
      const doc = docs[j];
      if (doc && query.filter.matches(doc) && (trusted || hasEveryTerm(doc, terms, query.analyzer))) {
        const i = round[j]!;
        found.push({ key: scored.table.keyOf(scored.ordinals[i]!), doc, score: scored.scores[i]! });
      }
    }
  }
  return found;
}

/** The postings on one ordinal table (they differ only when the cache started afresh during the reads). */
function onOneTable(lists: TermPostings[]): TermPostings[] {
  const table = lists[0]!.table;
  return lists.map((list) => {
    if (list.table === table) return list;
    const ordinals = Array.from(list.ordinals, (o) => table.ordinal(list.table.keyOf(o)));
    return sortedPostings(table, ordinals, Array.from(list.tfs), Array.from(list.lengths));
  });
}

/** The documents in every list, scored (the terms summed in query order, as bm25Score does). */
function intersect(lists: readonly TermPostings[], idfs: readonly number[], meanLength: number): Scored {
  const bySize = lists.map((_, i) => i).sort((a, b) => lists[a]!.ordinals.length - lists[b]!.ordinals.length);
  const smallest = lists[bySize[0]!]!;
  const ordinals = new Int32Array(smallest.ordinals.length);
  const scores = new Float64Array(smallest.ordinals.length);
  const cursors = new Int32Array(lists.length);
  const tfs = new Int32Array(lists.length);
  let count = 0;
  candidates: for (let i = 0; i < smallest.ordinals.length; i++) {
    const ordinal = smallest.ordinals[i]!;
    tfs[bySize[0]!] = smallest.tfs[i]!;
    for (let j = 1; j < bySize.length; j++) {
      const t = bySize[j]!;
      const list = lists[t]!.ordinals;
      const at = gallop(list, cursors[t]!, ordinal);
      cursors[t] = at;
      if (at === list.length) break candidates;
      if (list[at] !== ordinal) continue candidates;
      tfs[t] = lists[t]!.tfs[at]!;
    }
    const norm = bm25Norm(smallest.lengths[i]!, meanLength);
    let score = 0;
    for (let t = 0; t < lists.length; t++) score += bm25TermScore(idfs[t]!, tfs[t]!, norm);
    ordinals[count] = ordinal;
    scores[count] = score;
    count++;
  }
  return { table: smallest.table, ordinals, scores, count };
}

/** The first index at or after `from` whose value is at least `target` (values ascending). */
function gallop(values: Int32Array, from: number, target: number): number {
  let low = from;
  let step = 1;
  let high = from;
  while (high < values.length && values[high]! < target) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  if (high > values.length) high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The candidates best first, ranked as far as asked: a bounded heap picks the best few (what a query without
 * a filter reads), everything is sorted only when more are asked for.
 */
class Ranking {
  readonly #scored: Scored;
  #ranked: number[] = [];

  constructor(scored: Scored) {
    this.#scored = scored;
  }

  /** Candidate indices at ranks `from` to `to` (exclusive), best first. */
  slice(from: number, to: number): number[] {
    if (to > this.#ranked.length && this.#ranked.length < this.#scored.count) {
      this.#ranked = from === 0 && to * 4 < this.#scored.count ? this.#best(to) : this.#all();
    }
    return this.#ranked.slice(from, to);
  }

  /** a ranks after b: lower score, or the same score and a later key. */
  #after(a: number, b: number): boolean {
    const { scores, ordinals, table } = this.#scored;
    return scores[a]! < scores[b]! || (scores[a] === scores[b] && keys.compareKeys(table.keyOf(ordinals[a]!), table.keyOf(ordinals[b]!)) > 0);
  }

  #all(): number[] {
    const order = Array.from({ length: this.#scored.count }, (_, i) => i);
    return order.sort((a, b) => (this.#after(a, b) ? 1 : this.#after(b, a) ? -1 : 0));
  }

  /** The best `m` by a heap whose root is the worst kept. */
  #best(m: number): number[] {
    const heap: number[] = [];
    const down = (at: number): void => {
      for (;;) {
        const left = 2 * at + 1;
        if (left >= heap.length) return;
        const right = left + 1;
        const worse = right < heap.length && this.#after(heap[right]!, heap[left]!) ? right : left;
        if (!this.#after(heap[worse]!, heap[at]!)) return;
        [heap[at], heap[worse]] = [heap[worse]!, heap[at]!];
        at = worse;
      }
    };
    for (let i = 0; i < this.#scored.count; i++) {
      if (heap.length < m) {
        heap.push(i);
        for (let at = heap.length - 1; at > 0; ) {
          const parent = (at - 1) >> 1;
          if (!this.#after(heap[at]!, heap[parent]!)) break;
          [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
          at = parent;
        }
      } else if (this.#after(heap[0]!, i)) {
        heap[0] = i;
        down(0);
      }
    }
    return heap.sort((a, b) => (this.#after(a, b) ? 1 : -1));
  }
}
