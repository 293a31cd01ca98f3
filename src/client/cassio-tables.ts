/**
 * The CassIO companion tables (Java SDK `MetadataVectorTable`, `ClusteredMetadataVectorTable`) over the
 * Data API table commands: CassIO's exact columns and indexes (a vector index, and an index on the
 * entries of `metadata_s`, as CassIO's `metadata_indexing: "all"`), rows put / got / deleted by key,
 * partitions, and ANN search with top K, a similarity threshold and metadata equality filters.
 */
import type { JsonObject, JsonValue } from '../query/json.js';
import { decodeBinaryVector } from '../query/vector-value.js';
import { ClusteredMetadataVectorRecord, MetadataVectorRecord, metadataString } from './cassio-records.js';
import type { SimilarityMetric } from './collection-definition.js';
import type { DatabaseChannel } from './database-channel.js';
import { rejectUnknownMembers } from './wire.js';

/** An ANN query (the Java SDK's AnnQuery). */
export interface AnnQuery {
  embeddings: readonly number[];
  /** Top K (default 4, as CassIO's DEFAULT_RECORD_COUNT). */
  recordCount?: number;
  /** Keep only results with at least this similarity (applied after the top K, as CassIO does). Default 0. */
  threshold?: number;
  /** The similarity function of the scores (default: the table's metric). */
  metric?: SimilarityMetric;
  /** Equality filters on metadata entries, values coerced to strings as stored; on a clustered table, `partition_id` scopes the search. */
  metaData?: Readonly<Record<string, unknown>>;
}

/** The members an AnnQuery takes (`topK` or `metadata` for `metaData` would otherwise be ignored). */
const ANN_QUERY_MEMBERS: ReadonlySet<string> = new Set(['embeddings', 'recordCount', 'threshold', 'metric', 'metaData']);

/** One result of an ANN search: the record and its similarity (higher is closer). */
export interface AnnResult<R> {
  embedded: R;
  similarity: number;
}

const DEFAULT_RECORD_COUNT = 4;

abstract class CassioTable<R extends MetadataVectorRecord> {
  readonly keyspace: string;
  readonly tableName: string;
  readonly dimension: number;
  readonly metric: SimilarityMetric;
  protected readonly db: DatabaseChannel;

  constructor(db: DatabaseChannel, keyspace: string, tableName: string, dimension: number, metric: SimilarityMetric) {
    if (typeof tableName !== 'string' || tableName.length === 0) throw new TypeError('CassIO table: the table name must be a non-empty string');
    if (!Number.isInteger(dimension) || dimension < 1) throw new TypeError('CassIO table: the vector dimension must be a positive integer');
    this.db = db;
    this.keyspace = keyspace;
    this.tableName = tableName;
    this.dimension = dimension;
    this.metric = metric;
  }

  /** A record's members (a plain object with a misspelt one is refused by put). */
  protected abstract readonly recordMembers: ReadonlySet<string>;
  protected abstract definition(): JsonObject;
  protected abstract toRecord(row: JsonObject): R;
  protected abstract keyOf(record: R): JsonObject;

  /** CREATE TABLE IF NOT EXISTS plus the vector and metadata-entries indexes (idempotent). */
  async create(): Promise<void> {
    await this.db.run({ createTable: { name: this.tableName, definition: this.definition(), options: { ifNotExists: true } } }, { keyspace: this.keyspace });
    await this.#command({ createVectorIndex: { name: `idx_vector_${this.tableName}`, definition: { column: 'vector', options: { metric: this.metric } }, options: { ifNotExists: true } } });
    await this.#command({ createIndex: { name: `eidx_metadata_s_${this.tableName}`, definition: { column: { metadata_s: '$entries' } }, options: { ifNotExists: true } } });
  }

  protected columns(): JsonObject {
    return { body_blob: 'text', attributes_blob: 'text', metadata_s: { type: 'map', keyType: 'text', valueType: 'text' }, vector: { type: 'vector', dimension: this.dimension } };
  }

  #command(command: JsonObject) {
    return this.db.run(command, { keyspace: this.keyspace, collection: this.tableName });
  }

  /**
   * Writes a record (CQL INSERT: a row with the same key is overwritten, absent body or attributes deleted).
   * @example await table.put(new MetadataVectorRecord({ vector: [1, 0, 0], body: 'hello' }));
   */
  async put(record: R): Promise<void> {
    rejectUnknownMembers(record, this.recordMembers, 'put record');
    if (!record.vector || record.vector.length !== this.dimension) throw new TypeError(`CassIO table: the record needs a vector of ${this.dimension} numbers`);
    const row: JsonObject = {
      ...this.keyOf(record),
      vector: [...record.vector],
      body_blob: record.body,
      attributes_blob: record.attributes,
      metadata_s: { ...record.metadata },
    };
    await this.#command({ insertOne: { document: row } });
  }

  protected async findOne(filter: JsonObject): Promise<R | undefined> {
    const response = await this.#command({ findOne: { filter } });
    const row = (response.data as { document?: JsonObject | null } | undefined)?.document;
    return row ? this.toRecord(row) : undefined;
  }

  protected async deleteOne(filter: JsonObject): Promise<void> {
    await this.#command({ deleteOne: { filter } });
  }

  /** Every row of a filter, page after page (up to `limit` rows). */
  protected async findAll(filter: JsonObject, limit?: number): Promise<R[]> {
    const records: R[] = [];
    let pageState: string | null | undefined;
    do {
      const options: JsonObject = {};
      if (pageState) options.pageState = pageState;
      if (limit !== undefined) options.limit = limit;
      const response = await this.#command({ find: { filter, options } });
      const data = response.data as { documents: JsonObject[]; nextPageState: string | null };
      for (const row of data.documents) records.push(this.toRecord(row));
      pageState = data.nextPageState;
    } while (pageState && (limit === undefined || records.length < limit));
    return records;
  }

  protected async removeAll(filter: JsonObject): Promise<void> {
    for (let more = true; more; ) {
      const response = await this.#command({ deleteMany: { filter } });
      more = response.status?.moreData === true;
    }
  }

  /** Empties the table (CQL TRUNCATE). @example await table.clear(); */
  async clear(): Promise<void> {
    await this.removeAll({});
  }

  /** Drops the table (what the Java SDK's `delete()` does). @example await table.drop(); */
  async drop(): Promise<void> {
    await this.db.run({ dropTable: { name: this.tableName, options: { ifExists: true } } }, { keyspace: this.keyspace });
  }

  /**
   * ANN search: the top `recordCount` rows by similarity to `embeddings` among those matching the metadata
   * filters, then only those at or above `threshold`; best first.
   * @example const hits = await table.similaritySearch({ embeddings: [1, 0, 0], recordCount: 3, threshold: 0.8, metaData: { lang: 'en' } });
   */
  async similaritySearch(query: AnnQuery): Promise<AnnResult<R>[]> {
    rejectUnknownMembers(query, ANN_QUERY_MEMBERS, 'similaritySearch query');
    if (!query.embeddings || query.embeddings.length !== this.dimension) throw new TypeError(`CassIO table: the query needs embeddings of ${this.dimension} numbers`);
    const filter = this.searchFilter({ ...(query.metaData ?? {}) });
    const limit = query.recordCount !== undefined && query.recordCount > 0 ? query.recordCount : DEFAULT_RECORD_COUNT;
    const response = await this.#command({ find: { filter, sort: { vector: [...query.embeddings] }, options: { limit, includeSimilarity: true } } });
    const rows = (response.data as { documents: JsonObject[] }).documents;
    const metric = query.metric ?? this.metric;
    const threshold = query.threshold ?? 0;
    return rows
      .map((row) => {
        const embedded = this.toRecord(row);
        const similarity = metric === this.metric ? Number(row.$similarity) : similarity01(metric, query.embeddings, embedded.vector);
        return { embedded, similarity };
      })
      .filter((result) => result.similarity >= threshold)
      .sort((a, b) => b.similarity - a.similarity);
  }

  /** The filter of a search: each metadata entry must be present (as CassIO's `metadata_s['k'] = 'v'`). */
  protected searchFilter(metadata: Record<string, unknown>): JsonObject {
    const entries = Object.entries(metadata).map(([key, value]) => [key, metadataString(value)]);
    return entries.length === 0 ? {} : { metadata_s: { $all: entries } };
  }

  protected recordFields(row: JsonObject): { vector: number[]; body: string | null; attributes: string | null; metadata: Record<string, string> } {
    return {
      vector: vectorOf(row.vector),
      body: typeof row.body_blob === 'string' ? row.body_blob : null,
      attributes: typeof row.attributes_blob === 'string' ? row.attributes_blob : null,
      metadata: metadataOf(row.metadata_s),
    };
  }
}

/**
 * A `metadata_vector` table: `row_id text` primary key, `attributes_blob`, `body_blob`, `metadata_s
 * map<text,text>`, `vector vector<float, N>`. Get one with `db.metadataVectorTable(name, dimension)`.
 * @example
 * const table = await db.metadataVectorTable('vector_store', 3);
 * await table.put(new MetadataVectorRecord({ rowId: 'a', vector: [1, 0, 0], body: 'hello', metadata: { lang: 'en' } }));
 * const [best] = await table.similaritySearch({ embeddings: [1, 0, 0], recordCount: 1 });
 */
export class MetadataVectorTable extends CassioTable<MetadataVectorRecord> {
  protected readonly recordMembers = MetadataVectorRecord.initMembers;
  protected definition(): JsonObject {
    return { columns: { row_id: 'text', ...this.columns() }, primaryKey: 'row_id' };
  }

  protected toRecord(row: JsonObject): MetadataVectorRecord {
    return Object.assign(new MetadataVectorRecord({ rowId: String(row.row_id), vector: [] }), this.recordFields(row));
  }

  protected keyOf(record: MetadataVectorRecord): JsonObject {
    return { row_id: record.rowId };
  }

  /** The record of a row id, or undefined. @example const record = await table.get('a'); */
  async get(rowId: string): Promise<MetadataVectorRecord | undefined> {
    return this.findOne({ row_id: rowId });
  }

  /** Deletes the row of a row id (no error when absent). @example await table.delete('a'); */
  async delete(rowId: string): Promise<void> {
    await this.deleteOne({ row_id: rowId });
  }
}

/**
 * A `clustered_metadata_vector` table: `partition_id text` partition, `row_id timeuuid` clustered newest
 * first (CLUSTERING ORDER BY row_id DESC), then the columns of {@link MetadataVectorTable}.
 * @example
 * const chat = await db.clusteredMetadataVectorTable('chat_memory', 3);
 * await chat.put(new ClusteredMetadataVectorRecord({ partitionId: 'session-1', vector: [1, 0, 0], body: 'hi' }));
 * const history = await chat.getPartition('session-1');
 */
export class ClusteredMetadataVectorTable extends CassioTable<ClusteredMetadataVectorRecord> {
  protected readonly recordMembers = ClusteredMetadataVectorRecord.initMembers;
  protected definition(): JsonObject {
    return {
      columns: { partition_id: 'text', row_id: 'timeuuid', ...this.columns() },
      primaryKey: { partitionBy: ['partition_id'], partitionSort: { row_id: -1 } },
    };
  }

  protected toRecord(row: JsonObject): ClusteredMetadataVectorRecord {
    const record = new ClusteredMetadataVectorRecord({ partitionId: String(row.partition_id), rowId: String(row.row_id), vector: [] });
    return Object.assign(record, this.recordFields(row));
  }

  protected keyOf(record: ClusteredMetadataVectorRecord): JsonObject {
    return { partition_id: record.partitionId, row_id: record.rowId };
  }

  /** A partition's `partition_id` entry becomes the partition the search is scoped to (the caller's object is left as it is). */
  protected override searchFilter(metadata: Record<string, unknown>): JsonObject {
    const partition = metadata.partition_id;
    delete metadata.partition_id;
    const filter = super.searchFilter(metadata);
    return partition === undefined ? filter : { partition_id: metadataString(partition), ...filter };
  }

  /** The record of a partition and row id, or undefined. @example await chat.get('session-1', rowId); */
  async get(partitionId: string, rowId: string): Promise<ClusteredMetadataVectorRecord | undefined> {
    return this.findOne({ partition_id: partitionId, row_id: rowId });
  }

  /** Deletes one row (no error when absent). @example await chat.delete('session-1', rowId); */
  async delete(partitionId: string, rowId: string): Promise<void> {
    await this.deleteOne({ partition_id: partitionId, row_id: rowId });
  }

  /** A partition's records, newest first (at most `limit`). @example const last10 = await chat.getPartition('session-1', 10); */
  async getPartition(partitionId: string, limit?: number): Promise<ClusteredMetadataVectorRecord[]> {
    return this.findAll({ partition_id: partitionId }, limit);
  }

  /** Deletes every row of a partition. @example await chat.deletePartition('session-1'); */
  async deletePartition(partitionId: string): Promise<void> {
    await this.removeAll({ partition_id: partitionId });
  }
}

function vectorOf(value: JsonValue | undefined): number[] {
  if (Array.isArray(value)) return value as number[];
  if (value && typeof value === 'object' && '$binary' in value) return Array.from(decodeBinaryVector(value.$binary as string));
  return [];
}

function metadataOf(value: JsonValue | undefined): Record<string, string> {
  if (Array.isArray(value)) return Object.fromEntries(value as [string, string][]);
  return value && typeof value === 'object' ? { ...(value as Record<string, string>) } : {};
}

/** The Data API's similarity in [0, 1] for a metric (cosine and dot: (1 + x) / 2; euclidean: 1 / (1 + d²)). */
function similarity01(metric: SimilarityMetric, a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let d2 = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
    d2 += (x - y) * (x - y);
  }
  if (metric === 'euclidean') return 1 / (1 + d2);
  if (metric === 'dot_product') return (1 + dot) / 2;
  return (1 + dot / Math.sqrt(na * nb || 1)) / 2;
}
