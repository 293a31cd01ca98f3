/**
 * One collection's documents in LevelDB: reading by key, scanning in key order, and writing a set of
 * changes as ONE atomic batch (document bodies, secondary index entries and vector records together).
 * Knows the key layout; knows nothing about filters or the protocol.
 */
import type { Document } from '../query/json.js';
import { bytesToString, keys, type KvOperation, type KvStore } from '../storage/index.js';
import { indexEntriesOf, type ShredContext, type ShreddedDocument } from './shredder.js';

const { SEP, HIGH } = keys;
/** Index entries carry everything in their key. */
const EMPTY = new Uint8Array(0);

export interface StoredDocument {
  readonly key: string;
  readonly doc: Document;
}

/** One document's change: insert (before null), replace, or delete (after null). */
export interface DocumentChange {
  readonly key: string;
  readonly before: Document | null;
  readonly after: ShreddedDocument | null;
}

/**
 * Adds the operations a change needs beyond the document and its index entries (vector records) to
 * the batch, and may return what to do in memory once the batch is durable.
 */
export type ChangeHook = (changes: readonly DocumentChange[], ops: KvOperation[]) => (() => void) | void;

export class DocumentStore {
  readonly #kv: KvStore;
  readonly #cid: number;
  readonly #docPrefix: string;
  readonly #indexPrefix: string;

  constructor(kv: KvStore, cid: number) {
    this.#kv = kv;
    this.#cid = cid;
    this.#docPrefix = keys.docPrefix(cid);
    this.#indexPrefix = keys.indexPrefix(cid);
  }

  get cid(): number {
    return this.#cid;
  }

  async get(key: string): Promise<Document | null> {
    const value = await this.#kv.get(this.#docPrefix + key);
    return value === undefined ? null : (JSON.parse(bytesToString(value)) as Document);
  }

  /** Documents for the keys, in the same order; missing ones are null. */
  async getMany(docKeys: readonly string[]): Promise<(Document | null)[]> {
    const values = await this.#kv.getMany(docKeys.map((k) => this.#docPrefix + k));
    return values.map((v) => (v === undefined ? null : (JSON.parse(bytesToString(v)) as Document)));
  }

  async has(key: string): Promise<boolean> {
    return (await this.#kv.get(this.#docPrefix + key)) !== undefined;
  }

  /** Every document in key order, starting after `afterKey` when given. */
  async *scan(afterKey?: string): AsyncGenerator<StoredDocument> {
    const range = afterKey === undefined ? { gte: this.#docPrefix, lt: this.#docPrefix + HIGH } : { gt: this.#docPrefix + afterKey, lt: this.#docPrefix + HIGH };
    const offset = this.#docPrefix.length;
    for await (const [key, value] of this.#kv.entries(range)) {
      yield { key: key.slice(offset), doc: JSON.parse(bytesToString(value)) as Document };
    }
  }

  /** Every document key in key order. */
  async *scanKeys(): AsyncGenerator<string> {
    const offset = this.#docPrefix.length;
    for await (const key of this.#kv.keys({ gte: this.#docPrefix, lt: this.#docPrefix + HIGH })) yield key.slice(offset);
  }

  /**
   * Document keys of the index entries in [from, to) under `path` (bounds are encoded typed values,
   * relative to the path), stopping once more than `cap` keys are collected (returns undefined then).
   */
  async indexKeys(path: string, bounds: IndexBounds, cap: number): Promise<Set<string> | undefined> {
    const found = new Set<string>();
    for await (const entry of this.indexEntries(path, bounds)) {
      found.add(entry.key);
      if (found.size > cap) return undefined;
    }
    return found;
  }

  /** Index entries under `path` within bounds, in key order (or reversed): encoded value and doc key. */
  async *indexEntries(path: string, bounds: IndexBounds, reverse = false): AsyncGenerator<{ value: string; key: string }> {
    const pathPrefix = `${this.#indexPrefix}${path}${SEP}`;
    const range: { gte?: string; gt?: string; lt: string; reverse: boolean } = { lt: pathPrefix + (bounds.lt ?? HIGH), reverse };
    if (bounds.gte !== undefined) range.gte = pathPrefix + bounds.gte;
    if (bounds.gt !== undefined) range.gt = pathPrefix + bounds.gt;
    for await (const key of this.#kv.keys(range)) {
      const valueEnd = key.indexOf(SEP, pathPrefix.length);
      yield { value: key.slice(pathPrefix.length, valueEnd), key: key.slice(valueEnd + 1) };
    }
  }

  /** Writes the changes in one atomic batch. */
  async write(changes: readonly DocumentChange[], ctx: ShredContext, hook?: ChangeHook): Promise<void> {
    const ops: KvOperation[] = [];
    for (const change of changes) {
      const oldEntries = new Set(change.before ? indexEntriesOf(change.before, ctx) : []);
      const newEntries = new Set(change.after ? change.after.indexEntries : []);
      const suffix = SEP + change.key;
      for (const entry of oldEntries) {
        if (!newEntries.has(entry)) ops.push({ type: 'del', key: this.#indexPrefix + entry + suffix });
      }
      for (const entry of newEntries) {
        if (!oldEntries.has(entry)) ops.push({ type: 'put', key: this.#indexPrefix + entry + suffix, value: EMPTY });
      }
      if (change.after) ops.push({ type: 'put', key: this.#docPrefix + change.key, value: JSON.stringify(change.after.doc) });
      else ops.push({ type: 'del', key: this.#docPrefix + change.key });
    }
    const afterCommit = hook?.(changes, ops);
    await this.#kv.batch(ops);
    afterCommit?.();
  }

  /** Removes every document, index entry and vector record of the collection. */
  async clear(): Promise<void> {
    for (const prefix of keys.collectionDataPrefixes(this.#cid)) await this.#kv.clearRange(prefix, prefix + HIGH);
  }
}

/** A range over encoded typed values of one path (see storage/keys.ts). */
export interface IndexBounds {
  readonly gte?: string;
  readonly gt?: string;
  readonly lt?: string;
}
