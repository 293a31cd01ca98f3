/**
 * A table's operations: row inserts (CQL upsert: the given columns replace, the others stay), reads by
 * primary key, partition, index or scan (planned in tables/plan.ts), sorts, vector sorts on indexed vector
 * columns, updates and deletes by full primary key. Writes run under the table's mutex and land as one
 * atomic batch each. Inputs are parsed JSON; outputs are stored rows (the command layer shapes the wire form).
 * Its vector indexes (opening them, the vector sort) are table-vectors.ts's.
 */
import { VectorDbError } from '../../errors/index.js';
import type { JsonObject, JsonValue } from '../../query/json.js';
import { keys, type KvStore } from '../../storage/index.js';
import type { CollectionVectors } from '../vectors/collection-vectors.js';
import type { EngineSettings } from '../settings.js';
import { Mutex } from '../mutex.js';
import { decodePageState, encodePageState } from '../page-state.js';
import { matchesRow, storedKey, type TableFilter } from './filter.js';
import { planRows, type RowPlan } from './plan.js';
import { WITHOUT_ROW_MARKER, coerceRow, columnProblem, rowIsLive } from './rows.js';
import { primaryKeyColumns, type TableIndex, type TableRecord, type TypeLookup } from './schema.js';
import { TableStore, type RowChange, type StoredRow } from './store.js';
import { ValueProblem, coerceValue } from './values.js';
import { lexicalSort } from './lexical-sort.js';
import type { TextIndex } from './text-postings.js';
import { TableVectors } from './table-vectors.js';
import { pullFromCollection, pushToCollection, type CollectionColumn } from './list-set-map-edit.js';
import type { FoundRow, RowOutcome, RowPage, RowSelect, RowUpdate } from './types.js';

export type { FoundRow, RowOutcome, RowPage, RowSelect, RowSort, RowUpdate } from './types.js';

export class Table {
  #record: TableRecord;
  readonly types: TypeLookup;
  readonly #store: TableStore;
  readonly #settings: EngineSettings;
  readonly #mutex = new Mutex();
  readonly #vectors: TableVectors;
  #dropped = false;

  constructor(kv: KvStore, record: TableRecord, settings: EngineSettings, types: TypeLookup) {
    this.#record = record;
    this.#settings = settings;
    this.types = types;
    this.#store = new TableStore(kv, record.tid, () => this.#record);
    this.#vectors = new TableVectors(kv, settings, this.#store, () => this.#record);
  }

  /** @internal The rows underneath (verify and repair read them as stored). */
  get store(): TableStore {
    return this.#store;
  }

  /** Bytes of the hot postings its text indexes hold in memory (stats' cachedBytes). */
  get cachedBytes(): number {
    return this.#store.text.cachedBytes;
  }

  get record(): TableRecord {
    return this.#record;
  }

  get limits(): EngineSettings['limits'] {
    return this.#settings.limits;
  }

  /**
   * Takes a changed definition (alterTable, an index added or dropped) under the write mutex; `work` runs
   * with it in place, and the old one is back if work fails.
   */
  async redefine(record: TableRecord, work?: (store: TableStore) => Promise<void>): Promise<void> {
    await this.#write(async () => {
      const previous = this.#record;
      this.#record = record;
      try {
        await work?.(this.#store);
      } catch (error) {
        this.#record = previous;
        throw error;
      }
    });
  }

  /** Deletes a dropped regular index's entries (no longer in the definition, so no write adds more). */
  async clearIndex(name: string): Promise<void> {
    await this.#write(() => this.#store.clearIndex(name));
  }

  markDropped(): void {
    this.#dropped = true;
  }

  // ---- writes -------------------------------------------------------------------------------

  /** Inserts (upserts) rows: ordered stops at the first failure (the rest SKIPPED); unordered tries each. */
  async insertRows(raws: readonly unknown[], ordered: boolean): Promise<RowOutcome[]> {
    return this.#write(async () => {
      const outcomes: RowOutcome[] = [];
      const changes: RowChange[] = [];
      const byKey = new Map<string, RowChange>();
      let failed = false;
      for (const raw of raws) {
        if (failed) {
          outcomes.push({ status: 'SKIPPED' });
          continue;
        }
        try {
          const given = coerceRow(raw, this.#record, this.types);
          const key = this.#store.rowKeyOf(given);
          const before = byKey.get(key)?.after ?? (await this.#store.get(key));
          const change = { key, before, after: mergeRow(before, given) };
          byKey.set(key, change);
          changes.push(change);
          outcomes.push({ status: 'OK', row: given });
        } catch (error) {
          if (!(error instanceof VectorDbError)) throw error;
          outcomes.push({ status: 'ERROR', error });
          failed = ordered;
        }
      }
      // One batch: a later insert of the same key overwrote the earlier change's result already.
      await this.#store.write(collapse(changes), await this.#vectors.all());
      return outcomes;
    });
  }

  /** updateOne: `$set` / `$unset` / `$push` / `$pullAll` on one row named by its full primary key; a `$set` or `$push` creates a missing row (CQL). */
  async updateRow(keyRow: JsonObject, update: RowUpdate): Promise<{ matched: boolean; modified: boolean; created: boolean }> {
    const record = this.#record;
    let unset = update.unset;
    const values: JsonObject = {};
    const problem = (column: string, error: unknown): never => {
      if (!(error instanceof ValueProblem)) throw error;
      throw columnProblem('INVALID_UPDATE_COLUMN_VALUES', record, column, error);
    };
    for (const [column, raw] of Object.entries(update.set)) {
      try {
        const stored = coerceValue(raw, record.columns[column]!, this.types);
        if (stored !== null) values[column] = stored;
        else unset = [...unset, column];
      } catch (error) {
        problem(column, error);
      }
    }
    const edits = [...Object.entries(update.push ?? {}).map(([c, items]) => [c, items, pushToCollection] as const), ...Object.entries(update.pull ?? {}).map(([c, items]) => [c, items, pullFromCollection] as const)];
    return this.#write(async () => {
      const key = this.#store.rowKeyOf(keyRow);
      const before = await this.#store.get(key);
      // A row an update creates has no row marker: it lives only while a non-key column has a value (rows.ts).
      const after: JsonObject = { ...(before ?? { ...keyRow, [WITHOUT_ROW_MARKER]: true }), ...values };
      for (const column of unset) delete after[column];
      let written = Object.keys(values).length > 0 || Object.values(update.push ?? {}).some((items) => items.length > 0);
      for (const [column, items, edit] of edits) {
        let edited: JsonValue | null = null;
        try {
          edited = edit(before?.[column], record.columns[column] as CollectionColumn, items, this.types);
        } catch (error) {
          problem(column, error);
        }
        if (edited === null) delete after[column];
        else after[column] = edited;
      }
      // A missing row is created by a write of values (CQL's UPDATE upserts), not by unsets or pulls alone.
      if (before === null && !written) return { matched: false, modified: false, created: false };
      written = before === null || JSON.stringify(before) !== JSON.stringify(after);
      const live = rowIsLive(after, record);
      if (before === null && !live) return { matched: false, modified: false, created: false };
      if (written) await this.#store.write([{ key, before, after: live ? after : null }], await this.#vectors.all());
      return { matched: before !== null, modified: written, created: before === null };
    });
  }

  /** Deletes the row a full primary key names (nothing when there is none). */
  async deleteRow(keyRow: JsonObject): Promise<boolean> {
    return this.#write(async () => {
      const key = this.#store.rowKeyOf(keyRow);
      const before = await this.#store.get(key);
      if (before === null) return false;
      await this.#store.write([{ key, before, after: null }], await this.#vectors.all());
      return true;
    });
  }

  /** Deletes every matching row (an empty filter truncates); like Cassandra, it does not count them. */
  async deleteRows(filter: TableFilter): Promise<void> {
    return this.#write(async () => {
      if (filter.kind === 'all' && filter.parts.length === 0) {
        await this.#store.clear();
        await this.#vectors.reset();
        return;
      }
      const victims: RowChange[] = [];
      // (The write mutex is held: a text index a $match plan needs is made ready here, not queued behind it.)
      for await (const { key, row } of this.#matching(filter, this.#plan(filter, true))) victims.push({ key, before: row, after: null });
      for (let i = 0; i < victims.length; i += 256) await this.#store.write(victims.slice(i, i + 256), await this.#vectors.all());
    });
  }

  // ---- reads --------------------------------------------------------------------------------

  /** Why a filter reads every row (the Data API's warnings), for the command layer to report. */
  warningsFor(filter: TableFilter): VectorDbError[] {
    return this.#plan(filter).warnings;
  }

  async select(request: RowSelect): Promise<RowPage> {
    this.#checkLive();
    const plan = this.#plan(request.filter);
    const { sort } = request;
    if (sort.kind === 'vector') return { rows: await this.#vectors.select(request, sort, (filter) => this.#matching(filter)), nextPageState: null, warnings: plan.warnings };
    if (sort.kind === 'lexical') {
      const index = this.#record.indexes.find((i) => i.kind === 'text' && i.column === sort.column)!;
      const text = await this.#textIndex(index);
      const k = Math.min(request.limit ?? this.limits.pageSize, this.limits.maxVectorSearchLimit);
      const rows = await lexicalSort({ text, store: this.#store, record: this.#record, filter: request.filter, query: sort.query, k, plan, matching: (filter, plan) => this.#matching(filter, plan) });
      return { rows, nextPageState: null, warnings: plan.warnings };
    }
    const pageSize = this.limits.pageSize;
    if (sort.kind === 'columns') {
      // An in-memory sort (as the Data API's): every match read and sorted; one page, after `skip`.
      const all: FoundRow[] = [];
      for await (const found of this.#matching(request.filter, plan)) {
        all.push(found);
        if (all.length >= this.limits.maxSortCandidates) throw VectorDbError.of('OVERLOADED_SORT_ROW_LIMIT', { max: this.limits.maxSortCandidates });
      }
      all.sort((a, b) => compareRows(a.row, b.row, sort.columns, this.#record));
      const skip = request.skip ?? 0;
      return { rows: all.slice(skip, skip + Math.min(request.limit ?? pageSize, pageSize)), nextPageState: null, warnings: plan.warnings };
    }
    const state = request.pageState ? decodePageState(request.pageState) : undefined;
    const remaining = (request.limit ?? Number.POSITIVE_INFINITY) - (state?.returned ?? 0);
    const size = Math.min(pageSize, remaining);
    const rows: FoundRow[] = [];
    let more = false;
    if (size > 0) {
      for await (const found of this.#matching(request.filter, plan, state?.after)) {
        if (rows.length === size) {
          more = true;
          break;
        }
        rows.push(found);
      }
    }
    const returned = (state?.returned ?? 0) + rows.length;
    const nextPageState = more && returned < (request.limit ?? Number.POSITIVE_INFINITY) ? encodePageState({ after: rows.at(-1)!.key, returned }) : null;
    return { rows, nextPageState, warnings: plan.warnings };
  }

  /** How a filter's candidate rows are read; `locked`: the caller holds the write mutex. */
  #plan(filter: TableFilter, locked = false): RowPlan {
    return planRows(filter, this.#record, this.#store, (index) => this.#textIndex(index, locked));
  }

  /** A text index's postings, statistics loaded (built from the rows first when none are stored, under the write mutex). */
  async #textIndex(index: TableIndex, locked = false): Promise<TextIndex> {
    const loaded = this.#store.text.loaded(index);
    if (loaded !== undefined) return loaded;
    return locked ? this.#store.text.ready(index) : this.#write(() => this.#store.text.ready(index));
  }

  /** Matching rows in row key order, after `afterKey`. */
  async *#matching(filter: TableFilter, plan: RowPlan = this.#plan(filter), afterKey?: string): AsyncGenerator<StoredRow> {
    this.#checkLive();
    for await (const found of plan.rows(afterKey)) if (matchesRow(filter, found.row, this.#record)) yield found;
  }

  // ---- vectors ------------------------------------------------------------------------------

  /** Each vector index with its vectors, loaded (stats). */
  vectorIndexes(): Promise<{ index: TableIndex; vectors: CollectionVectors }[]> {
    return this.#vectors.indexes();
  }

  /** Builds a new vector index from the stored rows (createVectorIndex on a table with rows). */
  async fileVectorIndex(index: TableIndex): Promise<void> {
    await this.#vectors.file(index);
  }

  /** Stops a dropped vector index (its records are cleared by the catalog). */
  async closeVectorIndex(name: string): Promise<void> {
    await this.#vectors.closeIndex(name);
  }

  /** Waits until every vector is in its graph (tests, benchmarks). */
  async waitForIndexes(): Promise<void> {
    for (const vectors of (await this.#vectors.all()).values()) await vectors.waitForIndex();
  }

  async #write<T>(fn: () => Promise<T>): Promise<T> {
    this.#checkLive();
    return this.#mutex.run(async () => {
      this.#checkLive();
      return fn();
    });
  }

  #checkLive(): void {
    if (this.#dropped) throw VectorDbError.of('UNKNOWN_COLLECTION_OR_TABLE', { collection: this.#record.name, keyspace: this.#record.keyspace, known: '' });
  }

  /** Finishes writes, then saves the vector snapshots (unless dropped). */
  async close(): Promise<void> {
    await this.#mutex.run(async () => undefined);
    await this.#vectors.closeAll(!this.#dropped);
  }

  /** The primary key values of a stored row, in key order. */
  primaryKeyOf(row: JsonObject): JsonValue[] {
    return primaryKeyColumns(this.#record).map((column) => row[column] ?? null);
  }
}

/** CQL's INSERT: the given columns replace the stored ones (a null deletes), the others stay; it writes the row marker. */
function mergeRow(before: JsonObject | null, given: JsonObject): JsonObject {
  const after: JsonObject = { ...(before ?? {}) };
  delete after[WITHOUT_ROW_MARKER];
  for (const [column, value] of Object.entries(given)) {
    if (value === null) delete after[column];
    else after[column] = value;
  }
  return after;
}

/** Changes to the same key within one batch become one change: the first `before`, the last `after`. */
function collapse(changes: readonly RowChange[]): RowChange[] {
  const byKey = new Map<string, RowChange>();
  for (const change of changes) {
    const first = byKey.get(change.key);
    byKey.set(change.key, first ? { key: change.key, before: first.before, after: change.after } : change);
  }
  return [...byKey.values()];
}

function compareRows(a: JsonObject, b: JsonObject, columns: readonly (readonly [string, 1 | -1])[], record: TableRecord): number {
  for (const [column, order] of columns) {
    const x = a[column];
    const y = b[column];
    if (x === undefined || y === undefined) {
      if (x !== y) return (x === undefined ? -1 : 1) * order;
      continue;
    }
    const type = record.columns[column]!;
    const kx = storedKey(x, type);
    const ky = storedKey(y, type);
    if (kx !== ky) return keys.compareKeys(kx, ky) * order;
  }
  return 0;
}
