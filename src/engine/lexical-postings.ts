/**
 * A LexicalStore's postings in memory (a collection's lexical index, a table's text index), so that a query
 * on hot terms reads no LevelDB record: each cached term's postings as typed arrays over document (row)
 * ordinals (a number per key, given at first sight), ascending for intersection, within a byte budget (the
 * least recently used terms go first). It also keeps the write history a reader needs: writes in flight
 * (staged, not yet committed or discarded) and a version bumped by each commit, which drops the terms the
 * write touched. A term read from LevelDB is cached only when no write overlapped the read, and a query that
 * overlapped one re-checks its documents' text. And the walk both readers of postings make (BM25 ranking, a
 * `$match` filter's candidates): the documents every term's postings hold.
 */

/**
 * Document keys numbered in order of first sight. A table is replaced, never renumbered: postings keep the
 * table their ordinals belong to, so that a query holding them while the cache starts afresh stays right.
 */
export class OrdinalTable {
  readonly #ordinals = new Map<string, number>();
  readonly #keys: string[] = [];

  /** The ordinal of a document key (given now if new). */
  ordinal(key: string): number {
    let ordinal = this.#ordinals.get(key);
    if (ordinal === undefined) {
      ordinal = this.#keys.push(key) - 1;
      this.#ordinals.set(key, ordinal);
    }
    return ordinal;
  }

  keyOf(ordinal: number): string {
    return this.#keys[ordinal]!;
  }

  get size(): number {
    return this.#keys.length;
  }
}

/** One term's postings: document ordinals (of `table`) ascending, with the term's count and the document's length. */
export interface TermPostings {
  readonly table: OrdinalTable;
  readonly ordinals: Int32Array;
  readonly tfs: Int32Array;
  readonly lengths: Int32Array;
  /** Positions in document key order (as LevelDB lists them), when that is not the ordinal order. */
  readonly byKey?: Int32Array;
}

/** A point in the write history (see PostingCache.mark). */
export interface WriteMark {
  readonly version: number;
  readonly quiet: boolean;
}

/** Bytes the postings cost in the cache (three or four int32 each). */
const bytesOf = (postings: TermPostings): number => postings.ordinals.length * (postings.byKey === undefined ? 12 : 16);

export class PostingCache {
  readonly #budget: number;
  #table = new OrdinalTable();
  /** Cached terms, least recently used first (a hit moves its term to the end). */
  readonly #terms = new Map<string, TermPostings>();
  #bytes = 0;
  #pending = 0;
  #version = 0;

  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }

  /** Bytes of the postings held now (what the budget counts). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The ordinals that postings read now should use. */
  get table(): OrdinalTable {
    return this.#table;
  }

  get(term: string): TermPostings | undefined {
    const found = this.#terms.get(term);
    if (found !== undefined) {
      this.#terms.delete(term);
      this.#terms.set(term, found);
    }
    return found;
  }

  /** Now, before a read: `unchangedSince` then tells whether any write could have been seen by it. */
  mark(): WriteMark {
    return { version: this.#version, quiet: this.#pending === 0 };
  }

  /** No write was in flight at `mark` or is now, and none committed in between. */
  unchangedSince(mark: WriteMark): boolean {
    return mark.quiet && this.#pending === 0 && this.#version === mark.version;
  }

  /** Caches a term read from LevelDB after `mark`, unless a write overlapped the read. */
  put(term: string, postings: TermPostings, mark: WriteMark): void {
    if (!this.unchangedSince(mark) || postings.table !== this.#table) return;
    // Ordinals of deleted documents are never reused: start afresh when the table grows past its share.
    if (this.#table.size > this.#budget / 16) {
      this.clear();
      return;
    }
    const bytes = bytesOf(postings);
    if (bytes > this.#budget) return;
    this.#drop(term);
    this.#terms.set(term, postings);
    this.#bytes += bytes;
    for (const [old] of this.#terms) {
      if (this.#bytes <= this.#budget) break;
      this.#drop(old);
    }
  }

  /** A write is staged (its batch may become visible before it commits). */
  beginWrite(): void {
    this.#pending++;
  }

  /** The staged write committed (its terms' cached postings are dropped) or was discarded. */
  endWrite(committed: boolean, terms: Iterable<string>): void {
    this.#pending--;
    if (!committed) return;
    this.#version++;
    for (const term of terms) this.#drop(term);
  }

  /** Everything dropped (the collection cleared or its index rebuilt). */
  clear(): void {
    this.#version++;
    this.#terms.clear();
    this.#bytes = 0;
    this.#table = new OrdinalTable();
  }

  #drop(term: string): void {
    const old = this.#terms.get(term);
    if (old === undefined) return;
    this.#terms.delete(term);
    this.#bytes -= bytesOf(old);
  }
}

/** Postings read in key order, as typed arrays sorted by ordinal (with their key order when it differs). */
export function sortedPostings(table: OrdinalTable, ordinals: number[], tfs: number[], lengths: number[]): TermPostings {
  let ascending = true;
  for (let i = 1; i < ordinals.length && ascending; i++) ascending = ordinals[i - 1]! < ordinals[i]!;
  if (ascending) return { table, ordinals: Int32Array.from(ordinals), tfs: Int32Array.from(tfs), lengths: Int32Array.from(lengths) };
  const order = Int32Array.from(ordinals.keys()).sort((a, b) => ordinals[a]! - ordinals[b]!);
  const byKey = new Int32Array(order.length);
  for (let at = 0; at < order.length; at++) byKey[order[at]!] = at;
  return {
    table,
    ordinals: Int32Array.from(order, (i) => ordinals[i]!),
    tfs: Int32Array.from(order, (i) => tfs[i]!),
    lengths: Int32Array.from(order, (i) => lengths[i]!),
    byKey,
  };
}

/** The postings on one ordinal table (they differ only when the cache started afresh during the reads). */
export function onOneTable(lists: TermPostings[]): TermPostings[] {
  const table = lists[0]!.table;
  return lists.map((list) => {
    if (list.table === table) return list;
    // Handed over in key order, as they were read.
    const inKeyOrder = list.byKey ?? Int32Array.from(list.ordinals.keys());
    const ordinals = Array.from(inKeyOrder, (p) => table.ordinal(list.table.keyOf(list.ordinals[p]!)));
    return sortedPostings(table, ordinals, Array.from(inKeyOrder, (p) => list.tfs[p]!), Array.from(inKeyOrder, (p) => list.lengths[p]!));
  });
}

/**
 * Calls `found(at, smallest)` for each document that every list holds (the lists on one ordinal table), in
 * ordinal order: `at[t]` is its position in list t, `smallest` the list walked (the others are galloped through).
 */
export function forEachInEvery(lists: readonly TermPostings[], found: (at: Int32Array, smallest: number) => void): void {
  const bySize = lists.map((_, i) => i).sort((a, b) => lists[a]!.ordinals.length - lists[b]!.ordinals.length);
  const smallest = bySize[0]!;
  const walked = lists[smallest]!.ordinals;
  const at = new Int32Array(lists.length);
  candidates: for (let i = 0; i < walked.length; i++) {
    const ordinal = walked[i]!;
    at[smallest] = i;
    for (let j = 1; j < bySize.length; j++) {
      const t = bySize[j]!;
      const list = lists[t]!.ordinals;
      const p = gallop(list, at[t]!, ordinal);
      at[t] = p;
      if (p === list.length) return;
      if (list[p] !== ordinal) continue candidates;
    }
    found(at, smallest);
  }
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
