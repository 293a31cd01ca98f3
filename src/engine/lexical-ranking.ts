/**
 * BM25 ranking over a LexicalStore's postings, for both wings (a collection's `$lexical` sort, a table's lexical
 * sort): the texts holding every query term (typed-array postings intersected by galloping, smallest first),
 * scored with the store's exact statistics (the arithmetic is query/bm25.ts's), handed out best first (ties by
 * key) as far as asked: a bounded heap for the best few, a full sort only when more are asked for, and for one
 * term the merge of its postings' impact order. Reads the terms' postings only (from memory when hot).
 */
import { bm25Idf, bm25Norm, bm25TermScore } from '../query/bm25.js';
import { keys } from '../storage/index.js';
import { forEachInEvery, type OrdinalTable, type TermPostings, type WriteMark } from './lexical-postings.js';
import type { LexicalStore } from './lexical-store.js';

/** Candidates best first (score, then key), handed out as far as asked. */
export interface Ranking {
  readonly table: OrdinalTable;
  /** The next `count` candidates (fewer at the end). */
  next(count: number): { readonly ordinal: number; readonly score: number }[];
}

/**
 * The texts holding every term of `terms` (analyzed, at least one), ranked; the store's statistics loaded.
 * `mark` was taken before the postings were read: while `store.unchangedSince(mark)`, the texts read match them.
 */
export async function rankTerms(store: LexicalStore, terms: readonly string[]): Promise<{ readonly ranking: Ranking; readonly mark: WriteMark }> {
  const { lists, mark } = await store.everyTermPostings(terms);
  const stats = store.stats(new Map(terms.map((term, i) => [term, lists[i]!.ordinals.length])));
  const idfs = terms.map((term) => bm25Idf(stats.documents, stats.documentsWith.get(term) ?? 0));
  const ranking = lists.length === 1 ? singleTermRanking(lists[0]!, idfs[0]!, stats.meanLength) : new IntersectionRanking(intersect(lists, idfs, stats.meanLength));
  return { ranking, mark };
}

/** The documents holding every term, as ordinals of `table` with their scores (`count` of them). */
interface Scored {
  readonly table: OrdinalTable;
  readonly ordinals: Int32Array;
  readonly scores: Float64Array;
  readonly count: number;
}

/** The documents in every list, scored (the terms summed in query order, as bm25Score does). */
function intersect(lists: readonly TermPostings[], idfs: readonly number[], meanLength: number): Scored {
  const most = Math.min(...lists.map((list) => list.ordinals.length));
  const ordinals = new Int32Array(most);
  const scores = new Float64Array(most);
  let count = 0;
  forEachInEvery(lists, (at, smallest) => {
    const norm = bm25Norm(lists[smallest]!.lengths[at[smallest]!]!, meanLength);
    let score = 0;
    for (let t = 0; t < lists.length; t++) score += bm25TermScore(idfs[t]!, lists[t]!.tfs[at[t]!]!, norm);
    ordinals[count] = lists[smallest]!.ordinals[at[smallest]!]!;
    scores[count] = score;
    count++;
  });
  return { table: lists[0]!.table, ordinals, scores, count };
}

/**
 * The documents of several terms, ranked as far as asked: a bounded heap picks the best few (what a query
 * without a filter reads), everything is sorted only when more are asked for.
 */
class IntersectionRanking implements Ranking {
  readonly #scored: Scored;
  #ranked: number[] = [];
  #at = 0;

  constructor(scored: Scored) {
    this.#scored = scored;
  }

  get table(): OrdinalTable {
    return this.#scored.table;
  }

  next(count: number): { ordinal: number; score: number }[] {
    const to = this.#at + count;
    if (to > this.#ranked.length && this.#ranked.length < this.#scored.count) {
      this.#ranked = this.#at === 0 && to * 4 < this.#scored.count ? this.#best(to) : this.#all();
    }
    const round = this.#ranked.slice(this.#at, to).map((i) => ({ ordinal: this.#scored.ordinals[i]!, score: this.#scored.scores[i]! }));
    this.#at += round.length;
    return round;
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
    const scores = this.#scored.scores;
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
      } else if (scores[i]! >= scores[heap[0]!]! && this.#after(heap[0]!, i)) {
        // (Most candidates fail the score test alone: no call, no key compared.)
        heap[0] = i;
        down(0);
      }
    }
    return heap.sort((a, b) => (this.#after(a, b) ? 1 : -1));
  }
}

/**
 * A one-term query's postings in an order that holds whatever the mean length: by count (descending), then
 * length (ascending: a longer document scores less at the same count), then key. Within one count the order
 * is the score order, so the best documents are a merge of the heads of the counts' runs.
 */
interface ImpactOrder {
  readonly positions: Int32Array;
  /** Where each count's run starts in `positions` (and, last, its length). */
  readonly runs: readonly number[];
}

/** Postings asked for once (a number) or more (their impact order), while they are cached. */
const impactOrders = new WeakMap<TermPostings, number | ImpactOrder>();

/**
 * One term: all its postings are scored the first time; from the second on (the postings still the cache's),
 * its impact order is built once and the best documents are a merge of a few runs, not a pass over every posting.
 */
function singleTermRanking(list: TermPostings, idf: number, meanLength: number): Ranking {
  const seen = impactOrders.get(list);
  if (seen === undefined) {
    impactOrders.set(list, 1);
    return new IntersectionRanking(intersect([list], [idf], meanLength));
  }
  const order = typeof seen === 'number' ? impactOrderOf(list) : seen;
  impactOrders.set(list, order);
  return new ImpactRanking(list, order, idf, meanLength);
}

function impactOrderOf(list: TermPostings): ImpactOrder {
  const { tfs, lengths } = list;
  // A stable sort of the postings in key order: ties keep key order, with no key compared.
  const inKeyOrder = list.byKey === undefined ? Array.from(list.ordinals.keys()) : Array.from(list.byKey);
  const positions = Int32Array.from(inKeyOrder.sort((a, b) => tfs[b]! - tfs[a]! || lengths[a]! - lengths[b]!));
  const runs: number[] = [];
  for (let i = 0; i < positions.length; i++) if (i === 0 || tfs[positions[i]!] !== tfs[positions[i - 1]!]) runs.push(i);
  runs.push(positions.length);
  return { positions, runs };
}

/** The merge of an impact order's runs, best head first (the score computed as intersect does). */
class ImpactRanking implements Ranking {
  readonly #list: TermPostings;
  readonly #order: ImpactOrder;
  readonly #idf: number;
  readonly #meanLength: number;
  readonly #heads: number[];

  constructor(list: TermPostings, order: ImpactOrder, idf: number, meanLength: number) {
    this.#list = list;
    this.#order = order;
    this.#idf = idf;
    this.#meanLength = meanLength;
    this.#heads = order.runs.slice(0, -1);
  }

  get table(): OrdinalTable {
    return this.#list.table;
  }

  next(count: number): { ordinal: number; score: number }[] {
    const { ordinals, tfs, lengths, table } = this.#list;
    const { positions, runs } = this.#order;
    const round: { ordinal: number; score: number }[] = [];
    while (round.length < count) {
      let best = -1;
      let bestScore = 0;
      for (let r = 0; r < this.#heads.length; r++) {
        const head = this.#heads[r]!;
        if (head === runs[r + 1]) continue;
        const p = positions[head]!;
        const score = 0 + bm25TermScore(this.#idf, tfs[p]!, bm25Norm(lengths[p]!, this.#meanLength));
        const bestP = best < 0 ? -1 : positions[this.#heads[best]!]!;
        if (best < 0 || score > bestScore || (score === bestScore && keys.compareKeys(table.keyOf(ordinals[p]!), table.keyOf(ordinals[bestP]!)) < 0)) {
          best = r;
          bestScore = score;
        }
      }
      if (best < 0) break;
      round.push({ ordinal: ordinals[positions[this.#heads[best]!]!]!, score: bestScore });
      this.#heads[best]!++;
    }
    return round;
  }
}
