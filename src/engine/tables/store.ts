/**
 * One table's rows in LevelDB: row keys from the primary key (tables/key-codec.ts), reads by key, by
 * partition and by index, and writing row changes as ONE atomic batch with their secondary index entries
 * and vector records (the collections' vector machinery, one CollectionVectors per vector index) and the
 * postings and BM25 statistics of its text indexes (text-postings.ts).
 */
import type { JsonObject } from '../../query/json.js';
import { decodeBinaryVector } from '../../query/vector-value.js';
import { bytesToString, keys, type KvOperation, type KvStore } from '../../storage/index.js';
import type { CollectionVectors } from '../vectors/collection-vectors.js';
import type { DocumentChange, ShreddedDocument } from '../changes.js';
import { encodeKeyPart, invertPart, joinKeyParts } from './key-codec.js';
import { storedKey, targetKeys } from './filter.js';
import { primaryKeyColumns, type TableIndex, type TableRecord } from './schema.js';
import { partitionTokenPart } from './partition-token.js';
import { tokenize } from '../../query/analyzers.js';
import { analyzeStored, analyzesText, indexAnalysis, textIndexAnalyzer } from './text-analysis.js';
import { TextPostings } from './text-postings.js';

const { SEP, HIGH } = keys;

export interface StoredRow {
  readonly key: string;
  readonly row: JsonObject;
}

/** One row's change: insert (before null), replace, or delete (after null). */
export interface RowChange {
  readonly key: string;
  readonly before: JsonObject | null;
  readonly after: JsonObject | null;
}

export class TableStore {
  readonly #kv: KvStore;
  readonly #record: () => TableRecord;
  readonly #rowPrefix: string;
  /** The text indexes' postings and BM25 statistics. */
  readonly text: TextPostings;

  /** `record` is read on every use: alterTable and createIndex replace it. */
  constructor(kv: KvStore, tid: number, record: () => TableRecord) {
    this.#kv = kv;
    this.#record = record;
    this.#rowPrefix = keys.rowPrefix(tid);
    this.text = new TextPostings(kv, record, () => this.scan());
  }

  /** A primary key column's part of a row key, from the value's key encoding (inverted for a descending clustering column). */
  keyPart(column: string, valueKey: string): string {
    const record = this.#record();
    return record.primaryKey.partitionSort.some(([c, order]) => c === column && order === -1) ? invertPart(valueKey) : valueKey;
  }

  /** The row key of a row's primary key values (stored forms, all present). */
  rowKeyOf(row: JsonObject): string {
    return joinKeyParts(this.#keyParts(row, primaryKeyColumns(this.#record()).length));
  }

  /**
   * The key range of the rows whose leading primary key columns (every partition column, then clustering
   * columns in order) have these stored values: a partition, or part of one.
   */
  prefixRange(leading: JsonObject, count: number): { gte: string; lt: string } {
    const prefix = this.#rowPrefix + joinKeyParts(this.#keyParts(leading, count)) + SEP;
    return { gte: prefix, lt: prefix + HIGH };
  }

  /** The key parts of the first `count` primary key columns, after the partition's token (key format 2). */
  #keyParts(row: JsonObject, count: number): string[] {
    const record = this.#record();
    const parts = primaryKeyColumns(record)
      .slice(0, count)
      .map((column) => this.keyPart(column, storedKey(row[column]!, record.columns[column]!)));
    return record.keyFormat === 2 ? [partitionTokenPart(row, record), ...parts] : parts;
  }

  async get(key: string): Promise<JsonObject | null> {
    const value = await this.#kv.get(this.#rowPrefix + key);
    return value === undefined ? null : (JSON.parse(bytesToString(value)) as JsonObject);
  }

  async getMany(rowKeys: readonly string[]): Promise<(JsonObject | null)[]> {
    const values = await this.#kv.getMany(rowKeys.map((k) => this.#rowPrefix + k));
    return values.map((v) => (v === undefined ? null : (JSON.parse(bytesToString(v)) as JsonObject)));
  }

  /** Rows in key order after `afterKey`, optionally within one key range (a partition). */
  async *scan(afterKey?: string, range?: { gte: string; lt: string }): AsyncGenerator<StoredRow> {
    const lower = range?.gte ?? this.#rowPrefix;
    const after = afterKey === undefined ? undefined : this.#rowPrefix + afterKey;
    const bounds = after !== undefined && after >= lower ? { gt: after, lt: range?.lt ?? this.#rowPrefix + HIGH } : { gte: lower, lt: range?.lt ?? this.#rowPrefix + HIGH };
    for await (const [key, value] of this.#kv.entries(bounds)) {
      yield { key: key.slice(this.#rowPrefix.length), row: JSON.parse(bytesToString(value)) as JsonObject };
    }
  }

  /** Row keys an index holds for one encoded value (or value prefix: a map key's entries), in row key order. */
  async indexLookup(index: TableIndex, valueKey: string): Promise<string[]> {
    const prefix = keys.rowIndexPrefix(this.#tidOf(), index.name) + valueKey + SEP;
    const found: string[] = [];
    for await (const [, value] of this.#kv.entries({ gte: prefix, lt: prefix + HIGH })) found.push(bytesToString(value));
    return keys.sortKeys(found);
  }

  #tidOf(): number {
    return this.#record().tid;
  }

  /** The index entry keys of a row (without the row key) for every regular index (verify checks them too). */
  indexEntriesOf(row: JsonObject | null): string[] {
    if (row === null) return [];
    const record = this.#record();
    const entries: string[] = [];
    for (const index of record.indexes) {
      if (index.kind === 'vector') continue;
      const stored = row[index.column];
      if (stored === undefined) continue;
      if (index.kind === 'text') {
        for (const token of new Set(tokenize(stored as string, textIndexAnalyzer(index.analyzer)))) entries.push(keys.rowIndexPrefix(record.tid, index.name) + encodeKeyPart(token, 'text') + SEP);
        continue;
      }
      const type = record.columns[index.column]!;
      const target = index.target ?? 'value';
      const analysis = indexAnalysis(index);
      const indexed = analysis && analyzesText(type, target) ? analyzeStored(stored, type, target, analysis) : stored;
      for (const valueKey of new Set(targetKeys(indexed, type, target))) {
        entries.push(keys.rowIndexPrefix(record.tid, index.name) + valueKey + SEP);
      }
    }
    return entries;
  }

  /** Index entries of every row, written for a new index (in batches), and a text index's postings. */
  async fileIndex(index: TableIndex): Promise<void> {
    const record = this.#record();
    let ops: KvOperation[] = [];
    for await (const { key, row } of this.scan()) {
      for (const entry of this.indexEntriesOf(row)) if (entry.startsWith(keys.rowIndexPrefix(record.tid, index.name))) ops.push({ type: 'put', key: entry + key, value: key });
      if (ops.length >= 4096) {
        await this.#kv.batch(ops);
        ops = [];
      }
    }
    if (ops.length > 0) await this.#kv.batch(ops);
    if (index.kind === 'text') await this.text.build(index);
  }

  /**
   * Index entries of every row for every regular index, and text index postings (repair, after every one was
   * deleted), in batches. Returns the postings written (undefined: no text index).
   */
  async refileIndexes(): Promise<number | undefined> {
    let ops: KvOperation[] = [];
    for await (const { key, row } of this.scan()) {
      for (const entry of this.indexEntriesOf(row)) ops.push({ type: 'put', key: entry + key, value: key });
      if (ops.length >= 4096) {
        await this.#kv.batch(ops);
        ops = [];
      }
    }
    if (ops.length > 0) await this.#kv.batch(ops);
    let postings: number | undefined;
    for (const index of this.#record().indexes) if (index.kind === 'text') postings = (postings ?? 0) + (await this.text.build(index));
    return postings;
  }

  /**
   * Writes row changes, their index entries, text postings and BM25 statistics and the vector records of each
   * vector index as one atomic batch; memory (statistics, vector indexes) follows once the batch is durable.
   */
  async write(changes: readonly RowChange[], vectors: ReadonlyMap<string, CollectionVectors>): Promise<void> {
    if (changes.length === 0) return;
    const ops: KvOperation[] = [];
    for (const change of changes) {
      const old = new Set(this.indexEntriesOf(change.before));
      const next = new Set(this.indexEntriesOf(change.after));
      for (const entry of old) if (!next.has(entry)) ops.push({ type: 'del', key: entry + change.key });
      for (const entry of next) if (!old.has(entry)) ops.push({ type: 'put', key: entry + change.key, value: change.key });
      if (change.after === null) ops.push({ type: 'del', key: this.#rowPrefix + change.key });
      else ops.push({ type: 'put', key: this.#rowPrefix + change.key, value: JSON.stringify(change.after) });
    }
    const lexical = await this.text.stage(changes, ops);
    const afterCommit: (() => void)[] = [];
    try {
      for (const [column, columnVectors] of vectors) {
        const staged = columnVectors.hook(changes.map((change) => vectorChange(change, column)), ops);
        if (staged.afterCommit) afterCommit.push(staged.afterCommit);
      }
      await this.#kv.batch(ops);
    } catch (error) {
      // (A staged text index that is neither committed nor discarded would keep its postings out of memory.)
      for (const staged of lexical) staged.discard();
      throw error;
    }
    for (const staged of lexical) staged.commit();
    for (const apply of afterCommit) apply();
  }

  /** Deletes the values of unindexed columns from every row that has them (a dropped column added back). */
  async forgetColumns(columns: readonly string[]): Promise<void> {
    if (columns.length === 0) return;
    let changes: RowChange[] = [];
    for await (const { key, row } of this.scan()) {
      if (!columns.some((column) => row[column] !== undefined)) continue;
      const after = { ...row };
      for (const column of columns) delete after[column];
      changes.push({ key, before: row, after });
      if (changes.length >= 256) {
        await this.write(changes, new Map());
        changes = [];
      }
    }
    await this.write(changes, new Map());
  }

  /** Deletes every row and index entry of the table (its vector records are reset by the caller). */
  async clear(): Promise<void> {
    // The text statistics first: after a crash part way, they are built again from the rows left.
    await this.text.clearAll();
    const indexes = keys.rowIndexesPrefix(this.#tidOf());
    await this.#kv.clearRange(this.#rowPrefix, this.#rowPrefix + HIGH);
    await this.#kv.clearRange(indexes, indexes + HIGH);
  }

  /** Deletes the entries of one index (dropIndex), and its postings and statistics if it is a text index. */
  async clearIndex(name: string): Promise<void> {
    const prefix = keys.rowIndexPrefix(this.#tidOf(), name);
    await this.#kv.clearRange(prefix, prefix + HIGH);
    await this.text.clear(name);
  }
}

/**
 * A row change as the vector machinery sees a document change: only the key and the new vector are
 * read (CollectionVectors.hook), so the rest of the shredded form is left out.
 */
function vectorChange(change: RowChange, column: string): DocumentChange {
  const values = change.after?.[column];
  const vector = typeof values === 'string' ? decodeBinaryVector(values) : null;
  return { key: change.key, before: null, after: change.after === null ? null : ({ vector } as unknown as ShreddedDocument) };
}
