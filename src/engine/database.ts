/**
 * A database: one store (a LevelDB directory, an IndexedDB database, or memory) holding keyspaces and their
 * collections and tables. Owns the lifecycle (open -> closing -> closed; use after close is DATABASE_NOT_OPEN),
 * the rules of DDL (names, the collection limit, a collection and a table never of one name) over the catalogs
 * (keyspace-catalog.ts, tables/catalog.ts: in memory, written through), stats, backup and verify. DDL runs
 * under one mutex; document writes under each collection's. What is done to a directory not open (restore,
 * repair) is database-files.ts's.
 */
import { VectorDbError } from '../errors/index.js';
import { KvStore, backupStore, keys } from '../storage/index.js';
import type { StorageKind } from '../storage/storage-kind.js';
import type { Collection } from './collections/collection.js';
import type { EngineSettings } from './settings.js';
import { collectionStats, tableStats, type CollectionStats, type DatabaseStats, type TableStats } from './stats.js';
import { describeOptions, parseCollectionOptions, sameOptions, type CollectionOptions, type CollectionRecord } from './collections/schema.js';
import { isValidSchemaName, presetOf, type Limits, type LimitsPreset } from './limits.js';
import { Mutex } from './mutex.js';
import type { DatabaseOptions } from './database-options.js';
import { abandonStore, openStore, type CollectionName } from './database-store.js';
import type { GraphPrefetch } from './vectors/graph-prefetch.js';
import { TableCatalog } from './tables/catalog.js';
import type { Table } from './tables/table.js';
import { describeRecord, type RecordOwner } from './integrity/record-names.js';
import { verifyDatabase } from './integrity/verify.js';
import type { VerifyProgress, VerifyReport } from './integrity/verify-report.js';
import { KeyspaceCatalog } from './keyspace-catalog.js';

export { DEFAULT_KEYSPACE } from './keyspace-catalog.js';

export { DEFAULT_BODY_CACHE_BYTES, type DatabaseOptions } from './database-options.js';

type State = 'open' | 'closing' | 'closed';

export type { CollectionName } from './database-store.js';

export class Database {
  readonly location: string;
  readonly storage: StorageKind;
  readonly limits: Limits;
  /** The preset the limits start from (overrides may change some values). */
  readonly limitsPreset: LimitsPreset;
  readonly #settings: EngineSettings;
  readonly #kv: KvStore;
  readonly #ddl = new Mutex();
  /** Keyspaces and their live collections. */
  readonly #catalog: KeyspaceCatalog;
  #nextCid: number;
  /** Tables and user-defined types (their DDL runs under #ddl too). */
  readonly #tables: TableCatalog;
  #state: State = 'open';
  #closing: Promise<void> | undefined;

  private constructor(kv: KvStore, settings: EngineSettings, nextCid: number, limitsPreset: LimitsPreset) {
    this.location = kv.location;
    this.storage = kv.storage;
    this.#kv = kv;
    this.limits = settings.limits;
    this.limitsPreset = limitsPreset;
    this.#settings = settings;
    this.#nextCid = nextCid;
    this.#catalog = new KeyspaceCatalog(kv, settings);
    this.#tables = new TableCatalog(kv, settings, {
      allocate: () => {
        const number = this.#nextCid++;
        return { number, op: { type: 'put', key: keys.META_SEQ, value: String(number) } };
      },
      schemaObjectCount: () => this.#collectionCount(),
      hasCollection: (keyspace, name) => this.#catalog.collectionsOf(keyspace)?.has(name) ?? false,
    });
  }

  /**
   * Opens (creating if needed) the database in `location`. Fails at once with DATABASE_LOCKED if another
   * process has it. `first`: the collection the caller will use first (VectorDB.collection names it): its
   * vectors start loading as soon as the catalog is read, and hnswlib reads its graph file while LevelDB
   * opens (graph-prefetch.ts).
   */
  static async open(location: string, options: DatabaseOptions = {}, first?: CollectionName): Promise<Database> {
    const store = await openStore(location, options, first);
    try {
      const db = new Database(store.kv, store.settings, store.nextNumber, presetOf(options.limits));
      await db.#catalog.load(store.unformatted);
      await db.#tables.load();
      store.kv.describeKey = (key) => describeRecord(key, (number) => db.ownerOf(number));
      db.#warm(first);
      return db;
    } catch (error) {
      await abandonStore(store);
      throw error;
    }
  }

  /**
   * Starts loading the vectors of the collection named first at open, if it has any, without waiting: its
   * first command then finds them loaded or on their way. The read of its graph file started at open is
   * taken or freed by then.
   */
  #warm(first: CollectionName | undefined): void {
    const collection = first && this.#catalog.collectionsOf(first.keyspace)?.get(first.collection);
    const loading = collection?.vectors()?.catch(() => undefined); // its commands report what failed
    const prefetch = this.#settings.graphPrefetch;
    if (prefetch !== undefined) void (loading ?? Promise.resolve()).finally(() => prefetch.discard());
  }

  /** @internal For tests: what became of the graph file read started at open (graph-prefetch.ts), if any. */
  get graphPrefetchState(): GraphPrefetch['state'] | undefined {
    return this.#settings.graphPrefetch?.state;
  }

  /** @internal The key-value store underneath (diagnostics and benchmarks only). */
  get kvStore(): KvStore {
    return this.#kv;
  }

  // ---- keyspaces ----------------------------------------------------------------------------

  listKeyspaces(): string[] {
    this.#checkOpen();
    return this.#catalog.keyspaceNames().sort();
  }

  hasKeyspace(name: string): boolean {
    this.#checkOpen();
    return this.#catalog.hasKeyspace(name);
  }

  /** Creates a keyspace; returns false when it already existed. */
  async createKeyspace(name: unknown): Promise<boolean> {
    this.#checkOpen();
    if (!isValidSchemaName(name, this.limits)) throw badName('Keyspace', name, this.limits);
    return this.#ddl.run(async () => {
      if (this.#catalog.hasKeyspace(name)) return false;
      await this.#catalog.addKeyspace(name);
      return true;
    });
  }

  /** Drops a keyspace and all its collections; returns false when it did not exist. */
  async dropKeyspace(name: string): Promise<boolean> {
    this.#checkOpen();
    return this.#ddl.run(async () => {
      if (!this.#catalog.hasKeyspace(name)) return false;
      for (const collection of [...(this.#catalog.collectionsOf(name)?.values() ?? [])]) await this.#catalog.drop(collection);
      await this.#tables.dropKeyspace(name);
      await this.#catalog.removeKeyspace(name);
      return true;
    });
  }

  // ---- collections --------------------------------------------------------------------------

  listCollections(keyspace: string): CollectionRecord[] {
    return [...this.#keyspaceCollections(keyspace).values()].map((c) => c.record).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Creates a collection. Idempotent for an identical definition; a different one is
   * EXISTING_COLLECTION_DIFFERENT_SETTINGS. Returns false when it already existed.
   */
  async createCollection(keyspace: string, name: unknown, rawOptions: unknown): Promise<boolean> {
    this.#checkOpen();
    this.#keyspaceCollections(keyspace);
    if (!isValidSchemaName(name, this.limits)) throw badName('Collection', name, this.limits);
    const options: CollectionOptions = parseCollectionOptions(rawOptions, this.limits);
    return this.#ddl.run(async () => {
      const collections = this.#keyspaceCollections(keyspace);
      const existing = collections.get(name);
      if (this.#tables.table(keyspace, name)) throw VectorDbError.of('EXISTING_TABLE_NOT_DATA_API_COLLECTION', { table: name });
      if (existing) {
        if (!(await sameOptions(existing.record.options, options))) throw VectorDbError.of('EXISTING_COLLECTION_DIFFERENT_SETTINGS', { collection: name });
        return false;
      }
      const count = this.#collectionCount();
      if (count >= this.limits.maxCollections) {
        throw VectorDbError.of('TOO_MANY_COLLECTIONS', { collection: name, max: this.limits.maxCollections, count });
      }
      const record: CollectionRecord = { cid: this.#nextCid, keyspace, name, options };
      await this.#catalog.create(record, { type: 'put', key: keys.META_SEQ, value: String(record.cid) });
      this.#nextCid++;
      return true;
    });
  }

  /** Deletes a collection and its data; returns false when it did not exist. */
  async deleteCollection(keyspace: string, name: string): Promise<boolean> {
    this.#checkOpen();
    this.#keyspaceCollections(keyspace);
    return this.#ddl.run(async () => {
      const collection = this.#catalog.collectionsOf(keyspace)?.get(name);
      if (!collection) return false;
      await this.#catalog.drop(collection);
      return true;
    });
  }

  /** The live collection, or UNKNOWN_KEYSPACE / UNKNOWN_COLLECTION_OR_TABLE. */
  collection(keyspace: string, name: string): Collection {
    const collections = this.#keyspaceCollections(keyspace);
    const collection = collections.get(name);
    if (!collection) throw this.#unknown(keyspace, name);
    return collection;
  }

  #unknown(keyspace: string, name: string): VectorDbError {
    const known = [...(this.#catalog.collectionsOf(keyspace)?.keys() ?? []), ...this.#tables.tableNames(keyspace)].sort();
    return VectorDbError.of('UNKNOWN_COLLECTION_OR_TABLE', { collection: name, keyspace, known: known.join(', ') });
  }

  /** @internal The collection or table of a number (names records in errors, verify and repair). */
  ownerOf(number: number): RecordOwner | undefined {
    const collection = this.#catalog.ownerOf(number);
    if (collection !== undefined) return collection;
    for (const keyspace of this.#catalog.keyspaceNames()) {
      for (const table of this.#tables.listTables(keyspace)) if (table.record.tid === number) return { kind: 'table', keyspace, name: table.record.name };
    }
    return undefined;
  }

  // ---- tables -------------------------------------------------------------------------------

  /** The live table, or undefined when `name` is not a table of the (existing) keyspace. */
  findTable(keyspace: string, name: string): Table | undefined {
    this.#keyspaceCollections(keyspace);
    return this.#tables.table(keyspace, name);
  }

  /** The live table, or UNKNOWN_KEYSPACE / UNKNOWN_COLLECTION_OR_TABLE. */
  table(keyspace: string, name: string): Table {
    const table = this.findTable(keyspace, name);
    if (!table) throw this.#unknown(keyspace, name);
    return table;
  }

  listTables(keyspace: string): Table[] {
    this.#keyspaceCollections(keyspace);
    return this.#tables.listTables(keyspace);
  }

  /** The table DDL (createTable, createIndex, createType, ...): run under the database's DDL mutex. */
  tableDdl<T>(keyspace: string, fn: (catalog: TableCatalog) => Promise<T>): Promise<T> {
    this.#keyspaceCollections(keyspace);
    return this.#ddl.run(async () => {
      this.#keyspaceCollections(keyspace);
      return fn(this.#tables);
    });
  }

  /** The table catalog for reads (listTypes, type lookups). */
  get tableCatalog(): TableCatalog {
    this.#checkOpen();
    return this.#tables;
  }

  describeCollection(record: CollectionRecord): { name: string; options: ReturnType<typeof describeOptions> } {
    return { name: record.name, options: describeOptions(record.options) };
  }

  #collectionCount(): number {
    return this.#catalog.count + this.#tables.count;
  }

  #keyspaceCollections(keyspace: string): ReadonlyMap<string, Collection> {
    this.#checkOpen();
    const collections = this.#catalog.collectionsOf(keyspace);
    if (!collections) {
      throw VectorDbError.of('UNKNOWN_KEYSPACE', { keyspace, known: this.#catalog.keyspaceNames().sort().join(', ') });
    }
    return collections;
  }

  #checkOpen(): void {
    if (this.#state !== 'open') throw VectorDbError.of('DATABASE_NOT_OPEN', { location: this.location, state: this.#state });
  }

  // ---- settings -----------------------------------------------------------------------------

  /** A database-wide setting (e.g. the server's token hash), or undefined when never written. */
  async readSetting(name: string): Promise<string | undefined> {
    this.#checkOpen();
    return this.#kv.getString(keys.settingKey(name));
  }

  /** Stores a database-wide setting durably, replacing any previous value. */
  async writeSetting(name: string, value: string): Promise<void> {
    this.#checkOpen();
    await this.#kv.batch([{ type: 'put', key: keys.settingKey(name), value }]);
  }

  // ---- stats and backup ---------------------------------------------------------------------

  /**
   * Every collection's stats (of one keyspace when given) and the directory's size. Stats write buffered writes
   * out to LevelDB's table files first: its size estimates count only those (recent writes would count 0).
   */
  async stats(keyspace?: string): Promise<DatabaseStats> {
    this.#checkOpen();
    const keyspaces = keyspace === undefined ? this.listKeyspaces() : (this.#keyspaceCollections(keyspace), [keyspace]);
    await this.#kv.flushWrites();
    const collections: CollectionStats[] = [];
    const tables: TableStats[] = [];
    for (const name of keyspaces) {
      for (const record of this.listCollections(name)) collections.push(await collectionStats(this.#kv, this.collection(name, record.name)));
      for (const table of this.listTables(name)) tables.push(await tableStats(this.#kv, table));
    }
    return { bytesOnDisk: await this.#kv.diskBytes(), cachedBytes: this.cachedBytes, keyspaces, collections, tables };
  }

  /**
   * About how many bytes the caches hold now: the row cache, every open collection's search-hit cache
   * (estimates from the bytes cached: parsed bodies take more of the heap), and the hot postings every
   * lexical index and table text index keeps in memory.
   */
  get cachedBytes(): number {
    let bytes = this.#kv.cachedBytes;
    for (const collection of this.#catalog.all()) bytes += collection.cachedBytes;
    for (const table of this.#tables.all()) bytes += table.cachedBytes;
    return bytes;
  }

  async collectionStats(keyspace: string, name: string): Promise<CollectionStats> {
    const collection = this.collection(keyspace, name);
    await this.#kv.flushWrites();
    return collectionStats(this.#kv, collection);
  }

  async tableStats(keyspace: string, name: string): Promise<TableStats> {
    const table = this.table(keyspace, name);
    await this.#kv.flushWrites();
    return tableStats(this.#kv, table);
  }

  /**
   * Copies the database as of one moment into `target` (a new directory), while writers go on: what was
   * acknowledged before the copy's snapshot is in it, nothing after. `new VectorDB(token, target)` opens it.
   */
  async backup(target: string, onProgress?: (copiedKeys: number) => void): Promise<{ keys: number }> {
    this.#checkOpen();
    return { keys: await backupStore(this.#kv, target, onProgress) };
  }

  /**
   * Checks the whole database (as SQLite's PRAGMA integrity_check): every truth record's checksum, every
   * index entry against its body (both ways), every vector record against the bodies, the flat store and
   * the graph, with counts per collection and table. Changes nothing; run it while writes are quiet.
   */
  async verify(onProgress?: (progress: VerifyProgress) => void): Promise<VerifyReport> {
    this.#checkOpen();
    const { collections, tables } = this.objects();
    return verifyDatabase({ kv: this.#kv, collections, tables, ownerOf: (number) => this.ownerOf(number) }, onProgress);
  }

  /** @internal Every live collection and table (verify checks them, repair rebuilds their derived records). */
  objects(): { collections: Collection[]; tables: Table[] } {
    this.#checkOpen();
    const collections = this.#catalog.all();
    const tables = this.#catalog.keyspaceNames().flatMap((keyspace) => this.#tables.listTables(keyspace));
    return { collections, tables };
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  /** Finishes queued writes and closes the LevelDB. Idempotent. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#state = 'closing';
    this.#closing = (async () => {
      await this.#ddl.run(async () => undefined);
      for (const collection of this.#catalog.all()) await collection.close();
      await this.#tables.close();
      this.#settings.graphPrefetch?.discard();
      await this.#kv.close();
      this.#state = 'closed';
    })();
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

function badName(kind: 'Keyspace' | 'Collection', name: unknown, limits: Limits): VectorDbError {
  return VectorDbError.of('UNSUPPORTED_SCHEMA_NAME', { kind, name: typeof name === 'string' ? name : JSON.stringify(name), max: limits.maxNameLength });
}
