/**
 * The key-value contract the engine uses, over abstract-level: the runtime's persistent store
 * (persistent-level.ts: classic-level in Node, browser-level in a browser) or memory-level on request.
 * Owns opening and closing, and maps errors (level-errors.ts): nothing above storage/ sees LEVEL_* codes or
 * which store it is. Its shapes are in kv-types.ts, its snapshot and prepared batch in kv-handles.ts, its reads
 * over key ranges in kv-ranges.ts, a whole-store copy (backups) in kv-copy.ts, the filters that tell keys
 * certainly absent without a read in key-presence.ts (every put is noted in them here, at prepare).
 * Keys are UTF-8 strings (see keys.ts); values are strings (JSON) or bytes (vectors, index files).
 * Every value under a truth key (keys.isTruthKey) is sealed when written and checked when read
 * (record-checksum.ts): a damaged one is DATABASE_CORRUPTED, never returned.
 */
import { KvSnapshot, PreparedBatch } from './kv-handles.js';
import { bytesToString, toBytes, type Durability, type KvOperation, type KvRange, type LevelDb, type WriteOptions } from './kv-types.js';
import { GroupSync } from './group-sync.js';
import { levelCall, mapLevelError } from './level-errors.js';
import { KvRanges } from './kv-ranges.js';
import { HIGH, isTruthKey, META_SYNC } from './keys.js';
import { loadRecordChecksum, openRecord, sealRecord } from './record-checksum.js';
import { VectorDbError } from '../errors/index.js';
import { openPersistentLevel, type PersistentLevel } from './persistent-level.js';
import { ReadGate } from './read-gate.js';
import type { StorageKind } from './storage-kind.js';

export type { StorageKind } from './storage-kind.js';
import { RowCache } from './row-cache.js';
import { KeyPresences, type KeyPresence } from './key-presence.js';
import { xxhashNow } from './xxhash.js';

/**
 * Up to this many keys, getMany reads synchronously where the store can (classic-level, memory-level):
 * each is a LevelDB point read (usually from its cache), far cheaper than a trip through the thread pool
 * and back (a page of vector hits: 10-20 keys).
 */
const SYNC_READS = 32;

/** classic-level's read option for one-off bulk reads; the other stores ignore it. */
const NO_FILL_CACHE = { fillCache: false } as object;

/**
 * The row cache's default budget (KvStoreOptions.rowCacheBytes), and the largest value it keeps (bigger
 * ones are index snapshot chunks).
 */
export const DEFAULT_ROW_CACHE_BYTES = 32 * 1024 * 1024;
const ROW_CACHE_MAX_VALUE = 64 * 1024;

/** A prepared batch that leaves its sync to syncWrites, and the value of the record a group sync writes. */
const NO_SYNC: WriteOptions = { sync: false };
const EMPTY_VALUE = new Uint8Array(0);

export interface KvStoreOptions {
  /** The row cache's budget in bytes of keys and values (0: no row cache). Default DEFAULT_ROW_CACHE_BYTES. */
  readonly rowCacheBytes?: number;
  /** When a write is acknowledged (see Durability): 'full' (default) once on disk, 'relaxed' once handed to the OS. */
  readonly durability?: Durability;
}


export class KvStore {
  readonly location: string;
  readonly storage: StorageKind;
  readonly #db: LevelDb;
  readonly #persistent: PersistentLevel | undefined;
  readonly #rows: RowCache;
  readonly #ranges: KvRanges;
  /** Holds writes while an emulated snapshot is open (stores without explicit snapshots). */
  readonly #gate = new ReadGate();
  /** LevelDB's write options: a sync write where durability is full and a sync reaches a disk (see Durability). */
  readonly #writeOptions: WriteOptions;
  /** Writers that deferred their sync share one (see syncWrites). */
  readonly #groupSync: GroupSync;
  /** The key-presence filters made so far (keyPresence), in which every put is noted, and the writes not yet settled. */
  readonly #presences = new KeyPresences();
  /**
   * Names the record under a key in a DATABASE_CORRUPTED message: the database sets one that says which
   * collection and `_id` (or table and primary key); by default the key itself.
   */
  describeKey: (key: string) => string = (key) => `the record ${JSON.stringify(key)}`;

  private constructor(location: string, storage: StorageKind, db: LevelDb, persistent: PersistentLevel | undefined, rowCacheBytes: number, durability: Durability) {
    this.#writeOptions = { sync: persistent?.syncs === true && durability === 'full' };
    this.#groupSync = new GroupSync(async () => {
      try {
        await db.put(META_SYNC, EMPTY_VALUE, { sync: true } as object); // classic-level's put takes sync; abstract-level's types do not say so
      } catch (error) {
        throw mapLevelError(error, location, 'write');
      }
    });
    this.#rows = new RowCache(rowCacheBytes, ROW_CACHE_MAX_VALUE);
    this.location = location;
    this.storage = storage;
    this.#db = db;
    this.#persistent = persistent;
    this.#ranges = new KvRanges(db, location, (key, value) => this.#open(key, value)!);
  }

  /**
   * Opens the store at `location`: a directory in Node, an IndexedDB database name in a browser, a name
   * within this process for 'memory'. Creates it only where there is none. Fails at once with DATABASE_LOCKED
   * if another process (or tab) holds it, DATABASE_CORRUPTED if it cannot be opened as it is.
   */
  static async open(location: string, storage: StorageKind = 'persistent', options: KvStoreOptions = {}): Promise<KvStore> {
    const rowCacheBytes = options.rowCacheBytes ?? DEFAULT_ROW_CACHE_BYTES;
    const durability = options.durability ?? 'full';
    await loadRecordChecksum();
    try {
      if (storage === 'memory') {
        // Loaded here, not at import: most apps never open an in-memory database (memory-level: ~10 ms).
        const { MemoryLevel } = await import('memory-level');
        const db = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' });
        await db.open();
        return new KvStore(location, storage, db, undefined, rowCacheBytes, durability);
      }
      const persistent = await openPersistentLevel(location);
      return new KvStore(location, storage, persistent.db, persistent, rowCacheBytes, durability);
    } catch (error) {
      throw mapLevelError(error, location, 'open');
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const [value] = await this.getMany([key]);
    return value;
  }

  async getString(key: string): Promise<string | undefined> {
    const value = await this.get(key);
    return value === undefined ? undefined : bytesToString(value);
  }

  /**
   * Point reads; `fillCache: false` for one-off bulk reads that should not displace hot values, and
   * `large: true` for values of megabytes (snapshot chunks): read on LevelDB's threads even when few,
   * so the event loop is not held while they are read, and never kept in the row cache.
   */
  async getMany(keys: readonly string[], options?: { readonly fillCache?: boolean; readonly large?: boolean }): Promise<(Uint8Array | undefined)[]> {
    if (options?.large === true) {
      // One read per key, so that LevelDB's threads read (and checksum) several at once.
      const read = await this.#call(() => Promise.all(keys.map((key) => this.#db.get(key, NO_FILL_CACHE))));
      return read.map((value, i) => this.#open(keys[i]!, value));
    }
    const values: (Uint8Array | undefined)[] = new Array(keys.length);
    const missed = this.#fromRows(keys, values);
    if (missed.length === 0) return values;
    const generation = this.#rows.generation;
    const missedKeys = missed.map((i) => keys[i]!);
    const read = missed.length <= SYNC_READS && this.syncReads ? this.#readSync(missedKeys) : await this.#call(() => this.#db.getMany(missedKeys));
    this.#keep(keys, values, missed, read, generation, options?.fillCache !== false);
    return values;
  }

  /**
   * getMany's answer at once, not as a promise, where the store reads synchronously and the keys are few (a
   * page of vector search hits: their reader then needs no await, no microtask turn); undefined otherwise.
   */
  getManyNow(keys: readonly string[], options?: { readonly fillCache?: boolean }): (Uint8Array | undefined)[] | undefined {
    if (keys.length > SYNC_READS || !this.syncReads) return undefined;
    const values: (Uint8Array | undefined)[] = new Array(keys.length);
    const missed = this.#fromRows(keys, values);
    if (missed.length === 0) return values;
    const generation = this.#rows.generation;
    this.#keep(keys, values, missed, this.#readSync(missed.map((i) => keys[i]!)), generation, options?.fillCache !== false);
    return values;
  }

  /** Puts the row cache's values of `keys` into `values`; returns the positions it does not have. */
  #fromRows(keys: readonly string[], values: (Uint8Array | undefined)[]): number[] {
    const missed: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      values[i] = this.#rows.get(keys[i]!);
      if (values[i] === undefined) missed.push(i);
    }
    return missed;
  }

  /**
   * Opens the values read for the `missed` positions into `values` (the one place getMany's and getManyNow's
   * reads are checked), and (with `fill`) keeps them in the row cache.
   */
  #keep(keys: readonly string[], values: (Uint8Array | undefined)[], missed: readonly number[], read: readonly (Uint8Array | undefined)[], generation: number, fill: boolean): void {
    for (let j = 0; j < missed.length; j++) {
      const i = missed[j]!;
      const value = this.#open(keys[i]!, read[j]);
      values[i] = value;
      if (value !== undefined && fill) this.#rows.fill(keys[i]!, value, generation);
    }
  }

  /** About how many bytes the row cache holds now (stats). */
  get cachedBytes(): number {
    return this.#rows.bytes;
  }

  /** Whether getManySync works here (classic-level: LevelDB in Node). */
  get syncReads(): boolean {
    return (this.#db.supports as { getSync?: boolean }).getSync === true;
  }

  /**
   * Point reads on the calling thread, bypassing the row cache (values wanted at once by synchronous code,
   * e.g. a vector search while the vectors are still being loaded). Only where syncReads is true.
   */
  getManySync(keys: readonly string[]): (Uint8Array | undefined)[] {
    return this.#readSync(keys).map((value, i) => this.#open(keys[i]!, value));
  }

  /**
   * A few point reads are cheaper done synchronously than through the thread pool and back. The values as
   * stored: the caller opens them (#keep, getManySync).
   */
  #readSync(keys: readonly string[]): (Uint8Array | undefined)[] {
    try {
      return keys.map((key) => this.#db.getSync(key));
    } catch (error) {
      throw mapLevelError(error, this.location);
    }
  }

  /** A value as read from the store: a truth record's payload once its checksum holds. */
  #open(key: string, value: Uint8Array | undefined): Uint8Array | undefined {
    if (value === undefined || !isTruthKey(key)) return value;
    const opened = openRecord(key, value);
    if (opened.ok) return opened.payload;
    throw VectorDbError.of('DATABASE_CORRUPTED', {
      location: this.location,
      reason: `${this.describeKey(key)} cannot be trusted: ${opened.reason}. \`vectordb-local verify\` reports all the damage; \`vectordb-local repair\` keeps what can be kept`,
    });
  }

  /**
   * Resolves once every write handed to LevelDB so far is on disk (at once when durability is relaxed or there
   * is no disk): for writes prepared with `deferSync`, whose writers wait here together, after their mutex.
   */
  async syncWrites(): Promise<void> {
    if (this.#writeOptions.sync) await this.#groupSync.wait();
  }

  /**
   * The filter of the keys under `prefix` (key-presence.ts), made at the first call: from then on every put
   * under the prefix is noted in it, and it scans the keys stored there once the writes prepared before the
   * call have settled (so the scan sees each of them). Until that scan is complete it answers "may exist".
   */
  keyPresence(prefix: string): KeyPresence {
    return this.#presences.presence(prefix, xxhashNow(), () => this.keys({ gte: prefix, lt: prefix + HIGH }, 4096));
  }

  /** Writes all operations atomically: after a crash either all are there or none. */
  async batch(operations: readonly KvOperation[]): Promise<void> {
    if (operations.length === 0) return;
    await this.prepare(operations).write();
  }

  /**
   * Hands the operations to a LevelDB write batch now, to be written later: a writer that prepares its
   * next batch while the previous one is written on the thread pool overlaps the two (insertMany).
   * The prepared batch must be written or discarded.
   */
  prepare(operations: readonly KvOperation[], options: { readonly deferSync?: boolean } = {}): PreparedBatch {
    // A chained batch hands each operation to LevelDB's WriteBatch as call arguments; the array form
    // reads type/key/value as named properties in native code, which cost 3-4x more per operation
    // (measured: 1.4M index entries, 4.6 s vs 1.3 s of main-thread time). Both commit atomically.
    const batch = this.#db.batch();
    const settled = this.#presences.unsettledWrite();
    // About what the batch adds to LevelDB's memtable (keys are mostly ASCII): counts toward an idle flush.
    let bytes = 0;
    try {
      for (const op of operations) {
        if (op.type === 'put') {
          this.#presences.note(op.key); // before it is written: a check made during the write finds it
          const value = isTruthKey(op.key) ? sealRecord(op.key, op.value) : toBytes(op.value);
          batch.put(op.key, value);
          bytes += op.key.length + value.byteLength;
        } else {
          batch.del(op.key);
          bytes += op.key.length;
        }
      }
    } catch (error) {
      void batch.close();
      settled();
      throw mapLevelError(error, this.location); // a DATABASE_CORRUPTED from #open passes through as it is
    }
    const persistent = this.#persistent;
    const written = persistent === undefined ? undefined : () => persistent.wrote(bytes);
    const writeOptions = options.deferSync === true ? NO_SYNC : this.#writeOptions;
    return new PreparedBatch(operations, batch, writeOptions, this.#rows, this.location, this.#gate, { written, settled });
  }

  /** Iterates [key, value] pairs in key order over a range. */
  async *entries(range: KvRange): AsyncGenerator<[string, Uint8Array]> {
    for await (const chunk of this.#ranges.entryChunks(range, 256)) yield* chunk;
  }

  /**
   * The same pairs, `size` at a time: for bulk reads of many small values, where one async step per
   * pair would cost more than reading it.
   */
  entryChunks(range: KvRange, size = 1024): AsyncGenerator<[string, Uint8Array][]> {
    return this.#ranges.entryChunks(range, size);
  }

  /**
   * Pairs as stored, sealed truth records included, `size` at a time, from `snapshot` when given: for
   * verify and repair, which judge each record themselves (record-checksum.ts openRecord).
   */
  rawEntryChunks(range: KvRange, size = 1024, snapshot?: KvSnapshot): AsyncGenerator<[string, Uint8Array][]> {
    return this.#ranges.rawEntryChunks(range, size, snapshot);
  }

  /** Writes values as they are, sealed or not (repair's copies of records it has judged). */
  async rawBatch(operations: readonly KvOperation[]): Promise<void> {
    if (operations.length === 0) return;
    const settled = this.#presences.unsettledWrite();
    for (const op of operations) if (op.type === 'put') this.#presences.note(op.key);
    try {
      await this.#gate.writable();
      await this.#db.batch(operations.map((op) => (op.type === 'put' ? { type: 'put' as const, key: op.key, value: toBytes(op.value) } : op)));
      this.#persistent?.wrote(0);
    } catch (error) {
      throw mapLevelError(error, this.location);
    } finally {
      this.#rows.invalidate(operations);
      settled();
    }
  }

  /**
   * Pairs whose values are UTF-8 text, decoded by LevelDB's binding (no byte view per value), `size` at
   * a time: listing many small text records (a collection's vector keys at open).
   */
  textEntryChunks(range: KvRange, size = 8192): AsyncGenerator<[string, string][]> {
    return this.#ranges.textEntryChunks(range, size);
  }

  /**
   * A view of the store as it is now, for reads that must agree with each other; close it when done.
   * A store without snapshots (IndexedDB across transactions) holds this store's writes until then.
   */
  snapshot(): KvSnapshot {
    if (!this.#db.supports.explicitSnapshots) return new KvSnapshot(undefined, this.#gate.hold());
    try {
      return new KvSnapshot(this.#db.snapshot(), () => undefined);
    } catch (error) {
      throw mapLevelError(error, this.location);
    }
  }

  /** Iterates keys only (cheaper than entries), reading `chunk` at a time, from `snapshot` when given. */
  keys(range: KvRange, chunk = 1024, snapshot?: KvSnapshot): AsyncGenerator<string> {
    return this.#ranges.keys(range, chunk, snapshot);
  }

  /** How many keys [gte, lt) holds, counted from `snapshot` when given (stats: index entries). */
  countKeys(gte: string, lt: string, snapshot?: KvSnapshot): Promise<number> {
    return this.#ranges.countKeys(gte, lt, snapshot);
  }

  /**
   * The store's estimate of the bytes [gte, lt) takes on disk: LevelDB's, compressed, with what is still only
   * in the write-ahead log counting 0; 0 where the store cannot tell (memory-level, IndexedDB).
   */
  async approximateSize(gte: string, lt: string): Promise<number> {
    const db = this.#db as LevelDb & { approximateSize?: (gte: string, lt: string) => Promise<number> };
    if (!this.estimatesSizes) return 0;
    return this.#call(() => db.approximateSize!(gte, lt));
  }

  /** Whether approximateSize tells (LevelDB), rather than answering 0 (memory-level, IndexedDB). */
  get estimatesSizes(): boolean {
    return typeof (this.#db as { approximateSize?: unknown }).approximateSize === 'function';
  }

  /** Writes buffered writes out to the store's files, so that approximateSize counts them (PersistentLevel.flushWrites). */
  async flushWrites(): Promise<void> {
    await this.#persistent?.flushWrites();
  }

  /** The bytes of the whole store on disk (0 for memory; see PersistentLevel.diskBytes). */
  async diskBytes(): Promise<number> {
    return this.#persistent === undefined ? 0 : this.#persistent.diskBytes();
  }

  /** Whether the store holds no key at all (a copy's target must be empty). */
  async isEmpty(): Promise<boolean> {
    const [first] = await this.#call(() => this.#db.keys({ limit: 1 }).all());
    return first === undefined;
  }

  /** Deletes every key in [gte, lt) in batches (used to drop a collection or empty it). */
  async clearRange(gte: string, lt: string): Promise<void> {
    await this.#gate.writable();
    try {
      await this.#call(() => this.#db.clear({ gte, lt }));
      this.#persistent?.wrote(0);
    } finally {
      this.#rows.clear();
    }
  }

  /** Closes the store (after the persistent store's own last step, and before it releases its lock). */
  async close(): Promise<void> {
    await this.#persistent?.beforeClose();
    try {
      await this.#call(() => this.#db.close());
    } finally {
      await this.#persistent?.afterClose();
    }
  }

  #call<T>(fn: () => Promise<T>): Promise<T> {
    return levelCall(fn, this.location);
  }
}
