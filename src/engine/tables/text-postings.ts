/**
 * The BM25 side of a table's text indexes: per index, the engine's LexicalStore (engine/lexical-store.ts, the
 * layout of a collection's lexical index) under `tlex:<tid>\0<index>\0`, holding each row's postings (the term's
 * count, the text's token count) and exact statistics, staged into the row's own batch by TableStore.write, so a
 * lexical sort reads only its terms' postings and the rows it returns, and a `$match` filter takes its candidates
 * from them (tables/plan.ts). An index without a statistics base
 * (written by a build before these, or emptied by a truncation or a repair) gets them from the rows on first
 * use. Everything here that writes runs under the table's write mutex.
 */
import { analyzedTerms } from '../../query/bm25.js';
import type { Analyzer } from '../../query/analyzers.js';
import type { JsonObject } from '../../query/json.js';
import { keys, type KvOperation, type KvStore } from '../../storage/index.js';
import type { LexicalTerms } from '../changes.js';
import { LexicalStore, type StagedLexical } from '../lexical-store.js';
import type { TableIndex, TableRecord } from './schema.js';
import { textIndexAnalyzer } from './text-analysis.js';

/** One text index's postings and statistics, and the analyzer of its column. */
export interface TextIndex {
  readonly index: TableIndex;
  readonly analyzer: Analyzer;
  readonly store: LexicalStore;
}

interface Entry extends TextIndex {
  /** Its statistics are loaded and whole (a base is stored). */
  loaded: boolean;
}

/** A row change as its text indexes see it. */
interface RowTexts {
  readonly key: string;
  readonly before: JsonObject | null;
  readonly after: JsonObject | null;
}

type RowScan = () => AsyncIterable<{ readonly key: string; readonly row: JsonObject }>;

export class TextPostings {
  readonly #kv: KvStore;
  readonly #record: () => TableRecord;
  readonly #rows: RowScan;
  /** By index name. */
  readonly #entries = new Map<string, Entry>();

  /** `record` is read on every use (indexes come and go); `rows` scans the table's rows as stored. */
  constructor(kv: KvStore, record: () => TableRecord, rows: RowScan) {
    this.#kv = kv;
    this.#record = record;
    this.#rows = rows;
  }

  /** Bytes of the hot terms' postings every text index holds in memory (stats' cachedBytes). */
  get cachedBytes(): number {
    let bytes = 0;
    for (const entry of this.#entries.values()) bytes += entry.store.cachedBytes;
    return bytes;
  }

  /** The index's postings once their statistics are loaded and whole (undefined: ready() must run first). */
  loaded(index: TableIndex): TextIndex | undefined {
    const entry = this.#entries.get(index.name);
    return entry?.loaded === true ? entry : undefined;
  }

  /** The index's postings with their statistics loaded, computed from the rows first when none are stored (under the write mutex). */
  async ready(index: TableIndex): Promise<TextIndex> {
    const entry = this.#entryOf(index);
    if (entry.loaded) return entry;
    await entry.store.ready();
    if (!entry.store.based) await this.#build(entry);
    entry.loaded = true;
    return entry;
  }

  /** The analyzed text of a row in the index's column (undefined: it has none). */
  termsOf(text: TextIndex, row: JsonObject | null): LexicalTerms | undefined {
    const value = row?.[text.index.column];
    return typeof value === 'string' ? analyzedTerms(value, text.analyzer) : undefined;
  }

  /** Adds every text index's postings and statistics for the row changes to their batch (under the write mutex). */
  async stage(changes: readonly RowTexts[], ops: KvOperation[]): Promise<StagedLexical[]> {
    const staged: StagedLexical[] = [];
    try {
      for (const index of this.#record().indexes) {
        if (index.kind !== 'text') continue;
        const touched = changes.filter((change) => change.before?.[index.column] !== change.after?.[index.column]);
        if (touched.length === 0) continue;
        const text = await this.ready(index);
        const one = text.store.stageTerms(
          touched.map((change) => ({ key: change.key, before: this.termsOf(text, change.before), after: this.termsOf(text, change.after) })),
          ops,
        );
        if (one !== undefined) staged.push(one);
      }
    } catch (error) {
      for (const one of staged) one.discard();
      throw error;
    }
    return staged;
  }

  /** Writes the index's postings and statistics anew from the rows (a new index, repair); returns the postings written. */
  async build(index: TableIndex): Promise<number> {
    const entry = this.#entryOf(index);
    const postings = await this.#build(entry);
    entry.loaded = true;
    return postings;
  }

  async #build(entry: Entry): Promise<number> {
    const rows = this.#rows;
    const termsOf = (row: JsonObject) => this.termsOf(entry, row);
    return entry.store.rebuildFrom(
      (async function* () {
        for await (const { key, row } of rows()) yield { key, lexical: termsOf(row) };
      })(),
    );
  }

  /** Deletes one index's postings and statistics (dropIndex, or before an index of that name is filed). */
  async clear(name: string): Promise<void> {
    this.#entries.delete(name);
    await new LexicalStore(this.#kv, keys.tableLexicalPrefix(this.#record().tid, name)).clear();
  }

  /** Deletes every text index's postings and statistics (a truncation: the next use builds them from the rows left). */
  async clearAll(): Promise<void> {
    for (const index of this.#record().indexes) if (index.kind === 'text') await this.clear(index.name);
    const prefix = keys.tableLexicalIndexesPrefix(this.#record().tid);
    await this.#kv.clearRange(prefix, prefix + keys.HIGH);
  }

  /** The index's postings and analyzer, not loaded (verify reads them from a snapshot). */
  of(index: TableIndex): TextIndex {
    return this.#entryOf(index);
  }

  #entryOf(index: TableIndex): Entry {
    let entry = this.#entries.get(index.name);
    if (entry === undefined) {
      const store = new LexicalStore(this.#kv, keys.tableLexicalPrefix(this.#record().tid, index.name));
      entry = { index, analyzer: textIndexAnalyzer(index.analyzer), store, loaded: false };
      this.#entries.set(index.name, entry);
    }
    return entry;
  }
}
