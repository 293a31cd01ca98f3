/**
 * A table's vector indexes (for table.ts): each index's vectors, opened once when first needed, and the
 * vector sort on an indexed vector column (its filter's rows allowed, its hits read back as rows). The
 * table's mutex and liveness stay with Table; these are the vectors' side of its writes, reads and close.
 */
import { VectorDbError } from '../../errors/index.js';
import type { KvStore } from '../../storage/index.js';
import { CollectionVectors } from '../vectors/collection-vectors.js';
import type { EngineSettings } from '../settings.js';
import type { TableFilter } from './filter.js';
import type { TableIndex, TableRecord } from './schema.js';
import type { RowChange, StoredRow, TableStore } from './store.js';
import type { FoundRow, RowSelect, RowSort } from './types.js';

export class TableVectors {
  /** Vector index name -> its loaded vectors. */
  readonly #byIndex = new Map<string, Promise<CollectionVectors>>();

  readonly #kv: KvStore;
  readonly #settings: EngineSettings;
  readonly #store: TableStore;
  /** The table's definition as it is now (alterTable replaces it). */
  readonly #record: () => TableRecord;

  constructor(kv: KvStore, settings: EngineSettings, store: TableStore, record: () => TableRecord) {
    this.#kv = kv;
    this.#settings = settings;
    this.#store = store;
    this.#record = record;
  }

  /** An index's vectors, opened on first use. */
  of(index: TableIndex): Promise<CollectionVectors> {
    let pending = this.#byIndex.get(index.name);
    if (!pending) {
      const record = this.#record();
      const type = record.columns[index.column];
      if (type?.type !== 'vector' || index.vid === undefined) throw new Error(`index ${index.name} is not a vector index`);
      const metric = index.metric ?? 'cosine';
      pending = CollectionVectors.open(this.#kv, {
        name: `${record.keyspace}.${record.name}.${index.column}`,
        cid: index.vid,
        dimension: type.dimension,
        metric,
        options: { vector: { dimension: type.dimension, metric, sourceModel: index.sourceModel ?? 'other' } },
        backend: this.#settings.vectorBackend,
        onProgress: this.#settings.onProgress,
      });
      pending.catch(() => this.#byIndex.delete(index.name));
      this.#byIndex.set(index.name, pending);
    }
    return pending;
  }

  /** Each vector index with its vectors, loaded (stats). */
  async indexes(): Promise<{ index: TableIndex; vectors: CollectionVectors }[]> {
    const indexes = this.#record().indexes.filter((index) => index.kind === 'vector');
    return Promise.all(indexes.map(async (index) => ({ index, vectors: await this.of(index) })));
  }

  /** Every vector index's vectors by column, loaded (a write must stage records for each). */
  async all(): Promise<Map<string, CollectionVectors>> {
    const out = new Map<string, CollectionVectors>();
    for (const index of this.#record().indexes) if (index.kind === 'vector') out.set(index.column, await this.of(index));
    return out;
  }

  /** Empties the opened indexes (a truncate). */
  async reset(): Promise<void> {
    for (const vectors of this.#byIndex.values()) await (await vectors).reset();
  }

  /** Builds a new vector index from the stored rows (createVectorIndex on a table with rows). */
  async file(index: TableIndex): Promise<void> {
    const vectors = await this.of(index);
    const changes: RowChange[] = [];
    for await (const { key, row } of this.#store.scan()) if (row[index.column] !== undefined) changes.push({ key, before: row, after: row });
    for (let i = 0; i < changes.length; i += 256) await this.#store.write(changes.slice(i, i + 256), new Map([[index.column, vectors]]));
  }

  /** The rows a vector sort finds, best first: of the rows `matching` yields when the request is filtered. */
  async select(request: RowSelect, sort: Extract<RowSort, { kind: 'vector' }>, matching: (filter: TableFilter) => AsyncIterable<StoredRow>): Promise<FoundRow[]> {
    const record = this.#record();
    const index = record.indexes.find((i) => i.kind === 'vector' && i.column === sort.column);
    if (!index) throw VectorDbError.of('VECTOR_SORT_NOT_INDEXED', { keyspace: record.keyspace, table: record.name, column: sort.column });
    const vectors = await this.of(index);
    const limits = this.#settings.limits;
    const k = Math.min(request.limit ?? limits.pageSize, limits.maxVectorSearchLimit);
    const unfiltered = request.filter.kind === 'all' && request.filter.parts.length === 0;
    let allowed: Set<number> | undefined;
    if (!unfiltered) {
      allowed = new Set();
      for await (const { key } of matching(request.filter)) {
        const label = vectors.labelOf(key);
        if (label !== undefined) allowed.add(label);
      }
    }
    const turn = vectors.turnDue();
    if (turn !== undefined) await turn;
    const hits = vectors.search(sort.vector, k, allowed, undefined, request.withSimilarity ?? true);
    const rows = await this.#store.getMany(hits.map((hit) => vectors.keyOf(hit.label) ?? ''));
    const found: FoundRow[] = [];
    hits.forEach((hit, i) => {
      const row = rows[i];
      if (row) found.push({ key: vectors.keyOf(hit.label)!, row, similarity: hit.score });
    });
    return found;
  }

  /** Stops a dropped vector index (its records are cleared by the catalog). */
  async closeIndex(name: string): Promise<void> {
    const pending = this.#byIndex.get(name);
    this.#byIndex.delete(name);
    if (pending) await (await pending.catch(() => undefined))?.close(false);
  }

  /** Closes every opened index, saving its snapshot when `save`. */
  async closeAll(save: boolean): Promise<void> {
    for (const [name, pending] of [...this.#byIndex]) {
      this.#byIndex.delete(name);
      await (await pending.catch(() => undefined))?.close(save);
    }
  }
}
