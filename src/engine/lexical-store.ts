/**
 * An inverted index with exact BM25 statistics in LevelDB under one key prefix, the stored form both wings use:
 * a lexical collection's `$lexical` index (collections/lexical-index.ts) and a table's text index
 * (tables/text-postings.ts). One posting per (term, document or row) holds the term's count and the text's
 * token count; the statistics (texts indexed, their total length) are a base record plus one delta record per
 * batch (a delta lands exactly when its batch does, so a crash or a failed batch never skews them), folded into
 * the base now and then. A term's document frequency is the number of its postings, which a query reads
 * anyway: a lexical query reads only its terms' postings. Layout: postings `p\0term\0key` ("tf length"), the
 * base `s` and the deltas `d\0seq` ("documents length"). Knows nothing of documents or rows: it is given terms.
 * Hot terms' postings stay in memory (lexical-postings.ts): every write path here (a staged batch, a rebuild,
 * a clear, a reset) drops the terms it touches, and a reader learns whether a write overlapped its read.
 */
import { onceSucceeded } from '../platform/once.js';
import { bytesToString, keys, type KvOperation, type KvSnapshot, type KvStore } from '../storage/index.js';
import type { LexicalStats } from '../query/bm25.js';
import type { LexicalTerms } from './changes.js';
import { onOneTable, PostingCache, sortedPostings, type TermPostings, type WriteMark } from './lexical-postings.js';

const { SEP, HIGH, escapeString } = keys;
/** Committed deltas folded into the base by the next batch once there are this many. */
const FOLD_AFTER = 256;
/** Bytes of postings an index keeps in memory (hot terms; about 12 bytes a posting). */
const POSTING_CACHE_BYTES = 64 * 2 ** 20;

/** What a staged batch does to the statistics, applied once it commits. */
export interface StagedLexical {
  commit(): void;
  discard(): void;
}

/** The BM25 statistics as stored: texts indexed, and their total length in tokens. */
export interface Totals {
  documents: number;
  length: number;
}

/** One document's (row's) analyzed text before and after a change (undefined: it has none). */
export interface TermsChange {
  readonly key: string;
  readonly before: LexicalTerms | undefined;
  readonly after: LexicalTerms | undefined;
}

export class LexicalStore {
  readonly #kv: KvStore;
  readonly #prefix: string;
  readonly #baseKey: string;
  readonly #deltaPrefix: string;
  #totals: Totals | undefined;
  #based = false;
  /** Loads the statistics once (a failed load is tried again); replaced by a rebuild and a clear. */
  #loadOnce = onceSucceeded(() => this.#load());
  /** Delta records of committed batches not yet folded into the base. */
  #deltaKeys: string[] = [];
  #seq = 0;
  /** The delta keys a staged batch folds (one fold in flight at a time). */
  #folding: readonly string[] | undefined;
  readonly #cache = new PostingCache(POSTING_CACHE_BYTES);

  constructor(kv: KvStore, prefix: string) {
    this.#kv = kv;
    this.#prefix = prefix;
    this.#baseKey = `${prefix}s`;
    this.#deltaPrefix = `${prefix}d${SEP}`;
  }

  /** Reads the statistics (base plus deltas) once; writes and queries wait for it. */
  ready(): Promise<void> {
    return this.#loadOnce();
  }

  async #load(): Promise<void> {
    const base = await this.#kv.getString(this.#baseKey);
    const totals = parseTotals(base);
    const deltaKeys: string[] = [];
    for await (const chunk of this.#kv.textEntryChunks({ gte: this.#deltaPrefix, lt: this.#deltaPrefix + HIGH })) {
      for (const [key, value] of chunk) {
        const delta = parseTotals(value);
        totals.documents += delta.documents;
        totals.length += delta.length;
        deltaKeys.push(key);
        this.#seq = Math.max(this.#seq, parseInt(key.slice(this.#deltaPrefix.length), 36) + 1);
      }
    }
    this.#totals = totals;
    this.#based = base !== undefined;
    this.#deltaKeys = deltaKeys;
  }

  /** Whether the statistics' base record was there when loaded (after ready(); a rebuild always writes it). */
  get based(): boolean {
    return this.#based;
  }

  /** The statistics BM25 needs, with each query term's document count. */
  stats(documentsWith: ReadonlyMap<string, number>): LexicalStats {
    const totals = this.#totals ?? { documents: 0, length: 0 };
    return { documents: totals.documents, meanLength: totals.documents === 0 ? 0 : totals.length / totals.documents, documentsWith };
  }

  /** Adds the postings and statistics of the changes to the batch (after ready()). */
  stageTerms(changes: Iterable<TermsChange>, ops: KvOperation[]): StagedLexical | undefined {
    let documents = 0;
    let length = 0;
    const touched = new Set<string>();
    const first = ops.length;
    for (const { key, before, after } of changes) {
      if (before === undefined && after === undefined) continue;
      const suffix = SEP + key;
      if (before !== undefined) {
        documents -= 1;
        length -= before.length;
        for (const term of before.terms.keys()) {
          if (after?.terms.has(term)) continue;
          ops.push({ type: 'del', key: this.#postingPrefix(term) + suffix });
          touched.add(term);
        }
      }
      if (after !== undefined) {
        documents += 1;
        length += after.length;
        for (const [term, tf] of after.terms) {
          if (before !== undefined && before.length === after.length && before.terms.get(term) === tf) continue;
          ops.push({ type: 'put', key: this.#postingPrefix(term) + suffix, value: postingValue(tf, after.length) });
          touched.add(term);
        }
      }
    }
    // A change of postings alone (same totals) still stages: its commit drops the cached terms it touched.
    if (ops.length === first) return undefined;
    // From here until commit or discard, queries cannot trust cached postings to match the documents they read.
    this.#cache.beginWrite();
    const statsChange = documents !== 0 || length !== 0;
    const deltaKey = statsChange ? this.#deltaPrefix + (this.#seq++).toString(36).padStart(8, '0') : undefined;
    if (deltaKey !== undefined) ops.push({ type: 'put', key: deltaKey, value: `${documents} ${length}` });
    const folds = deltaKey !== undefined && this.#folding === undefined && this.#deltaKeys.length >= FOLD_AFTER ? this.#deltaKeys.slice() : undefined;
    if (folds !== undefined) {
      // The base becomes the committed totals; the folded deltas go (a batch staged earlier keeps its own delta).
      const totals = this.#totals!;
      for (const key of folds) ops.push({ type: 'del', key });
      ops.push({ type: 'put', key: this.#baseKey, value: `${totals.documents} ${totals.length}` });
      this.#folding = folds;
    }
    return {
      commit: () => {
        const totals = this.#totals!;
        totals.documents += documents;
        totals.length += length;
        if (folds !== undefined) {
          const folded = new Set(folds);
          this.#deltaKeys = this.#deltaKeys.filter((key) => !folded.has(key));
          this.#folding = undefined;
        }
        if (deltaKey !== undefined) this.#deltaKeys.push(deltaKey);
        this.#cache.endWrite(true, touched);
      },
      discard: () => {
        if (folds !== undefined) this.#folding = undefined;
        this.#cache.endWrite(false, touched);
      },
    };
  }

  /** Bytes of the hot terms' postings held in memory (stats' cachedBytes). */
  get cachedBytes(): number {
    return this.#cache.bytes;
  }

  /** Now, before a query reads postings: see termPostings and unchangedSince. */
  writeMark(): WriteMark {
    return this.#cache.mark();
  }

  /** No write could have been seen by a read since `mark`: documents (rows) read since match the postings read since. */
  unchangedSince(mark: WriteMark): boolean {
    return this.#cache.unchangedSince(mark);
  }

  /** A term's postings (its document frequency is their count), from memory when hot; `mark` taken before. */
  async termPostings(term: string, mark: WriteMark): Promise<TermPostings> {
    const cached = this.#cache.get(term);
    if (cached !== undefined) return cached;
    const table = this.#cache.table;
    const prefix = this.#postingPrefix(term) + SEP;
    const ordinals: number[] = [];
    const tfs: number[] = [];
    const lengths: number[] = [];
    for await (const chunk of this.#kv.textEntryChunks({ gte: prefix, lt: prefix + HIGH })) {
      for (const [key, value] of chunk) {
        const space = value.indexOf(' ');
        ordinals.push(table.ordinal(key.slice(prefix.length)));
        tfs.push(Number(value.slice(0, space)));
        lengths.push(Number(value.slice(space + 1)));
      }
    }
    const postings = sortedPostings(table, ordinals, tfs, lengths);
    this.#cache.put(term, postings, mark);
    return postings;
  }

  /**
   * The postings of each term (at least one), in the terms' order, on one ordinal table, from memory when hot;
   * `mark` was taken before they were read (see unchangedSince).
   */
  async everyTermPostings(terms: readonly string[]): Promise<{ readonly lists: TermPostings[]; readonly mark: WriteMark }> {
    const mark = this.writeMark();
    return { lists: onOneTable(await Promise.all(terms.map((term) => this.termPostings(term, mark)))), mark };
  }

  /** Where the postings are: `<range.gte><term>\0<key>` (verify). */
  get postingRange(): { readonly gte: string; readonly lt: string } {
    const gte = `${this.#prefix}p${SEP}`;
    return { gte, lt: gte + HIGH };
  }

  /** The posting records (key, value) of one document's (row's) analyzed text. */
  postingRecords(key: string, lexical: LexicalTerms): [string, string][] {
    const records: [string, string][] = [];
    for (const [term, tf] of lexical.terms) records.push([this.#postingPrefix(term) + SEP + key, postingValue(tf, lexical.length)]);
    return records;
  }

  /** The statistics as stored in `snapshot` (base plus deltas), and whether the base is there, for verify. */
  async storedTotals(snapshot: KvSnapshot): Promise<Totals & { readonly based: boolean }> {
    const totals = { documents: 0, length: 0, based: false };
    for (const gte of [this.#baseKey, this.#deltaPrefix]) {
      const range = gte === this.#baseKey ? { gte, lte: gte } : { gte, lt: gte + HIGH };
      for await (const chunk of this.#kv.rawEntryChunks(range, 1024, snapshot)) {
        for (const [key, value] of chunk) {
          const part = parseTotals(bytesToString(value));
          totals.documents += part.documents;
          totals.length += part.length;
          if (key === this.#baseKey) totals.based = true;
        }
      }
    }
    return totals;
  }

  /**
   * Deletes every record of the index and writes it again from `texts` (each document's or row's analyzed
   * text), with exact statistics as the base and no delta; the base goes last, so an index that has one is
   * whole. Nothing else may write meanwhile. Returns the number of postings written.
   */
  rebuildFrom(texts: AsyncIterable<{ readonly key: string; readonly lexical: LexicalTerms | undefined }>): Promise<number> {
    return this.#rewriting(() => this.#rebuildFrom(texts));
  }

  async #rebuildFrom(texts: AsyncIterable<{ readonly key: string; readonly lexical: LexicalTerms | undefined }>): Promise<number> {
    await this.#clear();
    const totals: Totals = { documents: 0, length: 0 };
    let postings = 0;
    let ops: KvOperation[] = [];
    for await (const { key, lexical } of texts) {
      if (lexical === undefined) continue;
      totals.documents++;
      totals.length += lexical.length;
      for (const [postingKey, value] of this.postingRecords(key, lexical)) {
        ops.push({ type: 'put', key: postingKey, value });
        postings++;
      }
      if (ops.length >= 4096) {
        await this.#kv.batch(ops);
        ops = [];
      }
    }
    ops.push({ type: 'put', key: this.#baseKey, value: `${totals.documents} ${totals.length}` });
    await this.#kv.batch(ops);
    this.#totals = totals;
    this.#based = true;
    this.#deltaKeys = [];
    this.#folding = undefined;
    this.#loadOnce = async () => undefined;
    return postings;
  }

  /**
   * Deletes every record of the index, the statistics' base first: a clear cut short (a crash) leaves no base,
   * so the index is never taken for whole. Loads again on the next ready().
   */
  clear(): Promise<void> {
    return this.#rewriting(() => this.#clear());
  }

  async #clear(): Promise<void> {
    await this.#kv.batch([{ type: 'del', key: this.#baseKey }]);
    await this.#kv.clearRange(this.#prefix, this.#prefix + HIGH);
    this.#totals = undefined;
    this.#based = false;
    this.#deltaKeys = [];
    this.#folding = undefined;
    this.#loadOnce = onceSucceeded(() => this.#load());
  }

  /** After the data was cleared (deleteMany({})): no documents. */
  reset(): void {
    this.#cache.clear();
    this.#totals = { documents: 0, length: 0 };
    this.#deltaKeys = [];
    this.#folding = undefined;
  }

  /**
   * Runs a rewrite of the postings outside a staged batch (clear, rebuild) as a write in flight: meanwhile no
   * term read is cached and readers re-check their documents; afterwards every cached term is dropped.
   */
  async #rewriting<T>(work: () => Promise<T>): Promise<T> {
    this.#cache.beginWrite();
    try {
      return await work();
    } finally {
      this.#cache.endWrite(false, []);
      this.#cache.clear();
    }
  }

  #postingPrefix(term: string): string {
    return `${this.#prefix}p${SEP}${escapeString(term)}`;
  }
}

/** A posting's value: the term's count in the text and the text's length. */
const postingValue = (tf: number, length: number): string => `${tf} ${length}`;

function parseTotals(text: string | undefined): Totals {
  if (text === undefined) return { documents: 0, length: 0 };
  const [documents = '0', length = '0'] = text.split(' ');
  return { documents: Number(documents), length: Number(length) };
}
