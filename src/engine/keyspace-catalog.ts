/**
 * A database's keyspaces and the live collections of each, kept in memory and written through to their
 * catalog records (`ks:`, `coll:`): loaded at open, created and dropped, found by name. A dropped collection's
 * catalog entry goes before its data. The database decides the rules (names, limits, tables beside
 * collections) and runs every change here under its DDL mutex.
 */
import { bytesToString, keys, type KvStore } from '../storage/index.js';
import { Collection } from './collections/collection.js';
import type { CollectionRecord } from './collections/schema.js';
import type { RecordOwner } from './integrity/record-names.js';
import type { EngineSettings } from './settings.js';
import { removeGraphHint } from './vectors/graph-prefetch.js';
import { removeGraphFiles } from './vectors/snapshot.js';

export const DEFAULT_KEYSPACE = 'default_keyspace';

export class KeyspaceCatalog {
  readonly #kv: KvStore;
  readonly #settings: EngineSettings;
  /** keyspace -> collection name -> live collection (every keyspace has its map, empty or not). */
  readonly #collections = new Map<string, Map<string, Collection>>();

  constructor(kv: KvStore, settings: EngineSettings) {
    this.#kv = kv;
    this.#settings = settings;
  }

  /** Reads the keyspaces and collections; a fresh store gets its format record and the default keyspace first. */
  async load(fresh: boolean): Promise<void> {
    if (fresh) {
      await this.#kv.batch([
        { type: 'put', key: keys.META_FORMAT, value: String(keys.FORMAT_VERSION) },
        { type: 'put', key: keys.keyspaceKey(DEFAULT_KEYSPACE), value: JSON.stringify({ name: DEFAULT_KEYSPACE }) },
      ]);
    }
    for await (const key of this.#kv.keys({ gte: keys.KEYSPACE_PREFIX, lt: keys.KEYSPACE_PREFIX + keys.HIGH })) {
      this.#collections.set(key.slice(keys.KEYSPACE_PREFIX.length), new Map());
    }
    for await (const [, value] of this.#kv.entries({ gte: keys.COLLECTION_PREFIX, lt: keys.COLLECTION_PREFIX + keys.HIGH })) {
      const record = JSON.parse(bytesToString(value)) as CollectionRecord;
      const collection = new Collection(this.#kv, record, this.#settings);
      await collection.refileLegacyIndex();
      this.#collections.get(record.keyspace)?.set(record.name, collection);
    }
  }

  /** The keyspaces' names, in the order they were loaded or created. */
  keyspaceNames(): string[] {
    return [...this.#collections.keys()];
  }

  hasKeyspace(name: string): boolean {
    return this.#collections.has(name);
  }

  /** Writes a new keyspace (the caller checked it is absent). */
  async addKeyspace(name: string): Promise<void> {
    await this.#kv.batch([{ type: 'put', key: keys.keyspaceKey(name), value: JSON.stringify({ name }) }]);
    this.#collections.set(name, new Map());
  }

  /** Deletes a keyspace's record, once its collections (and tables) are dropped. */
  async removeKeyspace(name: string): Promise<void> {
    await this.#kv.batch([{ type: 'del', key: keys.keyspaceKey(name) }]);
    this.#collections.delete(name);
  }

  /** The collections of a keyspace by name; undefined when there is no such keyspace. */
  collectionsOf(keyspace: string): ReadonlyMap<string, Collection> | undefined {
    return this.#collections.get(keyspace);
  }

  /** Every live collection, of every keyspace. */
  all(): Collection[] {
    return [...this.#collections.values()].flatMap((byName) => [...byName.values()]);
  }

  /** The number of collections, all keyspaces. */
  get count(): number {
    let count = 0;
    for (const collections of this.#collections.values()) count += collections.size;
    return count;
  }

  /** Writes a new collection's records with `counter` (the catalog's number sequence) and opens it. */
  async create(record: CollectionRecord, counter: { type: 'put'; key: string; value: string }): Promise<void> {
    await this.#kv.batch([
      counter,
      { type: 'put', key: keys.collectionKey(record.keyspace, record.name), value: JSON.stringify(record) },
      { type: 'put', key: keys.indexRuleKey(record.cid), value: keys.INDEX_RULE },
      { type: 'put', key: keys.fieldRecordKey(record.cid), value: keys.FIELD_PRESENT }, // no document yet: the empty record is complete
    ]);
    this.#collections.get(record.keyspace)?.set(record.name, new Collection(this.#kv, record, this.#settings));
  }

  /** Closes a collection and deletes it with all its data. */
  async drop(collection: Collection): Promise<void> {
    const { keyspace, name, cid } = collection.record;
    collection.markDropped();
    await collection.close();
    // The catalog entry goes first: after a crash mid-clear, the leftover data has no owner and is never read.
    await this.#kv.batch([{ type: 'del', key: keys.collectionKey(keyspace, name) }]);
    this.#collections.get(keyspace)?.delete(name);
    for (const prefix of keys.collectionDataPrefixes(cid)) await this.#kv.clearRange(prefix, prefix + keys.HIGH);
    await this.#kv.clearRange(keys.fieldRecordKey(cid), keys.fieldRecordKey(cid) + keys.HIGH);
    await this.#kv.batch([
      { type: 'del', key: keys.vectorIndexMetaKey(cid) },
      { type: 'del', key: keys.vectorScaleKey(cid) },
      { type: 'del', key: keys.indexRuleKey(cid) },
    ]);
    await removeGraphFiles(this.#kv, cid);
    await removeGraphHint(this.#kv, `${keyspace}.${name}`);
  }

  /** The collection of a number, if any (names records in errors, verify and repair). */
  ownerOf(number: number): RecordOwner | undefined {
    for (const collections of this.#collections.values()) {
      for (const { record } of collections.values()) if (record.cid === number) return { kind: 'collection', keyspace: record.keyspace, name: record.name };
    }
    return undefined;
  }
}
