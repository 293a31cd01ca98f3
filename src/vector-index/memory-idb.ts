/**
 * The slice of IndexedDB that emscripten's IDBFS uses (hnswlib-wasm moves index files in and out of
 * its memory file system only through it), kept in memory and by reference. A real IndexedDB, or
 * fake-indexeddb, structured-clones every record on put and on get: two copies of a 66 MB graph per
 * saved snapshot (100k x 128), each holding the event loop for hundreds of ms, and two more per load.
 * The records never leave this process, so nothing needs the clone. Private to vector/.
 *
 * Supported: open (with an upgrade when the version rises), object stores keyed out of line, an index
 * on a property with openKeyCursor, get/put/delete, and transactions that complete once their last
 * request's callbacks ran. Requests complete in order, each in its own macrotask, like IndexedDB.
 */

import { macrotask } from '../platform/macrotask.js';

interface MemoryEvent {
  readonly target: unknown;
  preventDefault(): void;
}

type Handler = ((event: MemoryEvent) => void) | null;

const event = (target: unknown): MemoryEvent => ({ target, preventDefault: () => undefined });

export class MemoryRequest<T> {
  result!: T;
  error: unknown = null;
  /** The upgrade transaction, during onupgradeneeded only. */
  transaction: MemoryTransaction | null = null;
  onsuccess: Handler = null;
  onerror: Handler = null;
  onupgradeneeded: Handler = null;
}

interface StoreData {
  readonly records: Map<string, unknown>;
  /** Index name -> the record property it indexes. */
  readonly indexes: Map<string, string>;
}

/** One key of an index cursor: the record's key and the indexed property's value. */
interface KeyCursor {
  readonly primaryKey: string;
  readonly key: unknown;
  continue(): void;
}

class MemoryIndex {
  constructor(
    private readonly tx: MemoryTransaction,
    private readonly data: StoreData,
    private readonly keyPath: string,
  ) {}

  /** The records that have the property, ordered by it (dates and numbers compare by value). */
  openKeyCursor(): MemoryRequest<KeyCursor | null> {
    const entries: { primaryKey: string; key: unknown }[] = [];
    for (const [primaryKey, value] of this.data.records) {
      const key = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[this.keyPath] : undefined;
      if (key !== undefined) entries.push({ primaryKey, key });
    }
    entries.sort((a, b) => Number(a.key) - Number(b.key) || (a.primaryKey < b.primaryKey ? -1 : 1));
    const request = new MemoryRequest<KeyCursor | null>();
    let at = 0;
    const step = (): void => {
      this.tx.run(request, () => {
        const entry = entries[at];
        return entry === undefined ? null : { ...entry, continue: () => (at++, step()) };
      });
    };
    step();
    return request;
  }
}

export class MemoryObjectStore {
  readonly indexNames: { contains(name: string): boolean };

  constructor(
    private readonly tx: MemoryTransaction,
    private readonly data: StoreData,
  ) {
    this.indexNames = { contains: (name) => data.indexes.has(name) };
  }

  get(key: string): MemoryRequest<unknown> {
    return this.tx.run(new MemoryRequest<unknown>(), () => this.data.records.get(key));
  }

  put(value: unknown, key: string): MemoryRequest<string> {
    return this.tx.run(new MemoryRequest<string>(), () => {
      this.data.records.set(key, value);
      return key;
    });
  }

  delete(key: string): MemoryRequest<undefined> {
    return this.tx.run(new MemoryRequest<undefined>(), () => {
      this.data.records.delete(key);
      return undefined;
    });
  }

  createIndex(name: string, keyPath: string): MemoryIndex {
    this.data.indexes.set(name, keyPath);
    return this.index(name);
  }

  index(name: string): MemoryIndex {
    const keyPath = this.data.indexes.get(name);
    if (keyPath === undefined) throw new Error(`no index '${name}'`);
    return new MemoryIndex(this.tx, this.data, keyPath);
  }
}

export class MemoryTransaction {
  oncomplete: Handler = null;
  onerror: Handler = null;
  onabort: Handler = null;
  error: unknown = null;
  #pending = 0;
  #finished = false;

  constructor(private readonly db: MemoryDatabase) {
    this.#completeWhenIdle(); // a transaction without requests completes too
  }

  objectStore(name: string): MemoryObjectStore {
    const data = this.db.stores.get(name);
    if (data === undefined) throw new Error(`no object store '${name}'`);
    return new MemoryObjectStore(this, data);
  }

  /** Queues `operation`; its result (or error) is delivered to `request` in a later macrotask. */
  run<T>(request: MemoryRequest<T>, operation: () => T): MemoryRequest<T> {
    this.#pending++;
    macrotask(() => {
      try {
        request.result = operation();
        request.error = null;
        request.onsuccess?.(event(request));
      } catch (error) {
        request.error = error;
        this.error = error;
        request.onerror?.(event(request));
        this.onerror?.(event(this));
      } finally {
        this.#pending--;
        this.#completeWhenIdle();
      }
    });
    return request;
  }

  /** Completes once no request is pending after the callbacks of the last one (they may queue more). */
  #completeWhenIdle(): void {
    if (this.#pending > 0) return;
    macrotask(() => {
      if (this.#pending > 0 || this.#finished) return;
      this.#finished = true;
      if (this.error === null) this.oncomplete?.(event(this));
    });
  }
}

export class MemoryDatabase {
  readonly stores = new Map<string, StoreData>();
  version = 0;
  readonly objectStoreNames = { contains: (name: string): boolean => this.stores.has(name) };

  /** During an upgrade only (as in IndexedDB; not enforced). */
  createObjectStore(name: string): MemoryObjectStore {
    const data: StoreData = { records: new Map(), indexes: new Map() };
    this.stores.set(name, data);
    return new MemoryObjectStore(new MemoryTransaction(this), data);
  }

  transaction(_stores: string[], _mode: 'readonly' | 'readwrite' = 'readonly'): MemoryTransaction {
    return new MemoryTransaction(this);
  }

  close(): void {
    // nothing to release
  }
}

export class MemoryIndexedDb {
  readonly #databases = new Map<string, MemoryDatabase>();

  open(name: string, version?: number): MemoryRequest<MemoryDatabase> {
    const request = new MemoryRequest<MemoryDatabase>();
    macrotask(() => {
      let db = this.#databases.get(name);
      if (db === undefined) {
        db = new MemoryDatabase();
        this.#databases.set(name, db);
      }
      request.result = db;
      if (version !== undefined && version > db.version) {
        db.version = version;
        request.transaction = new MemoryTransaction(db);
        request.onupgradeneeded?.(event(request));
        request.transaction = null;
      }
      request.onsuccess?.(event(request));
    });
    return request;
  }
}
