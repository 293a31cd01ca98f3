/**
 * One collection's documents in LevelDB: reading by key, scanning in key order, and writing a set of
 * changes as ONE atomic batch (document bodies, secondary index entries and vector records together; the
 * index entries' reads and writes are index-reads.ts and index-writes.ts). Knows the key layout; knows
 * nothing about filters or the protocol.
 */
import { VectorDbError } from '../../errors/index.js';
import { copyJson, type Document } from '../../query/json.js';
import { keys, type KvOperation, type KvSnapshot, type KvStore, type PreparedBatch } from '../../storage/index.js';
import { HitCache, WrittenHits } from './hit-cache.js';
import { bodyText, hasVectorOf, parseBody, parseBodyText, storedBody } from './body-text.js';
import type { StoredDocument } from './types.js';
import type { ShredContext } from './shredder.js';
import { allIndexEntries, indexEntries, indexKeys, indexRunKeys } from './index-reads.js';
import { refileIndexEntries, stageIndexEntries } from './index-writes.js';
import type { ChangeHook, DocumentChange, IndexBounds, IndexRun } from '../changes.js';
import { vectorJson, vectorRefOf } from './stored-vector.js';
import { decodeVectorValues } from '../vectors/records.js';
import type { LexicalIndex, StagedLexical } from './lexical-index.js';
import { FieldKinds, type StagedFields } from './field-kinds.js';

const { HIGH } = keys;

/**
 * The parsed-body cache of search hits (per collection): its default budget in bytes of heap (the
 * database's bodyCacheBytes option sets it), and the largest body it keeps (copying a big body costs nearly
 * what parsing it does). 16 MiB holds the hits of about 125k small documents (`{_id, cat}`, 22 bytes of JSON):
 * with 4 MiB then (counted at 256 bytes an entry), searches with new query vectors on 20k documents read ~10
 * bodies from LevelDB each (about 115 us of CPU a query, against 25 us from the cache; bench/duel-bench.js --layers).
 */
export const DEFAULT_HIT_CACHE_BYTES = 16 * 1024 * 1024;
const HIT_CACHE_MAX_BODY_BYTES = 16 * 1024;

export type { ChangeHook, DocumentChange, IndexBounds, IndexRun, StagedVectors } from '../changes.js';

export type { StoredDocument } from './types.js';

/** One atomic batch built by DocumentStore.stage, handed to LevelDB but not yet written. */
export interface StagedWrite {
  readonly batch: PreparedBatch;
  readonly afterCommit?: (() => void) | undefined;
  /** Documents added minus documents removed. */
  readonly countDelta: number;
  /** What the hit cache learns once the write commits (vector collections). */
  readonly hits?: WrittenHits | undefined;
  /** The BM25 statistics' change, applied once the write commits (lexical collections). */
  readonly lexical?: StagedLexical | undefined;
  /** The field record's new (path, kind) pairs, learnt once the write commits. */
  readonly fields?: StagedFields | undefined;
}

/** A search hit whose body is not cached: its position among the hits, its label and document key. */
interface MissedHit {
  readonly at: number;
  readonly label: number;
  readonly key: string;
}

/** The document key of each live vector label (the collection's vectors), for reading search hits. */
export interface LabelKeys {
  keyOf(label: number): string | undefined;
}

/** Where a read finds the values of a vector label without going to LevelDB (the collection's memory). */
export type VectorLookup = (label: number) => Float32Array | undefined;

export interface ReadOptions {
  /**
   * Whether documents come back with their `$vector` values (default true). False leaves the stored
   * reference in its place (it still answers `$exists`), for callers that do not return `$vector`.
   */
  readonly withVector?: boolean;
}

export class DocumentStore {
  readonly #kv: KvStore;
  readonly #cid: number;
  readonly #docPrefix: string;
  readonly #indexPrefix: string;
  readonly #dimension: number;
  #vectorLookup: VectorLookup = () => undefined;
  #lexical: LexicalIndex | undefined;
  /** The record of top-level paths and their kinds, kept by every write (field-kinds.ts). */
  readonly fieldKinds: FieldKinds;
  #generation = 0;
  /** The number of documents, once counted, kept by every commit since (undefined: not counted). */
  #count: number | undefined;
  /** Parsed bodies of recent vector search hits and writes, by label. */
  readonly #hitCache: HitCache;

  /**
   * `dimension`: of the collection's vectors (0 without vectors). `hitCacheBytes`: the budget of the
   * search-hit cache (0: none).
   */
  constructor(kv: KvStore, cid: number, dimension = 0, hitCacheBytes = DEFAULT_HIT_CACHE_BYTES) {
    this.#hitCache = new HitCache(hitCacheBytes, HIT_CACHE_MAX_BODY_BYTES, parseBodyText);
    this.#kv = kv;
    this.#cid = cid;
    this.#docPrefix = keys.docPrefix(cid);
    this.#indexPrefix = keys.indexPrefix(cid);
    this.#dimension = dimension;
    this.fieldKinds = new FieldKinds(kv, cid);
  }

  /** Reads take vector values from memory when it has them (else from the vector record). */
  useVectorLookup(lookup: VectorLookup): void {
    this.#vectorLookup = lookup;
  }

  /** Writes keep the lexical collection's inverted index in their batches (its ready() resolved first). */
  useLexical(index: LexicalIndex): void {
    this.#lexical = index;
  }

  get cid(): number {
    return this.#cid;
  }

  /** About how many bytes the search-hit cache holds now (stats). */
  get cachedBytes(): number {
    return this.#hitCache.bytes;
  }

  /** Counts committed writes: what was derived from the documents at one generation holds until the next. */
  get generation(): number {
    return this.#generation;
  }

  async get(key: string, options?: ReadOptions): Promise<Document | null> {
    const [doc] = await this.getMany([key], options);
    return doc ?? null;
  }

  /** Documents for the keys, in the same order; missing ones are null. */
  async getMany(docKeys: readonly string[], options?: ReadOptions): Promise<(Document | null)[]> {
    const values = await this.#kv.getMany(docKeys.map((k) => this.#docPrefix + k));
    const withVector = options?.withVector ?? true;
    const docs: (Document | null)[] = [];
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value === undefined) {
        docs.push(null);
        continue;
      }
      const doc = parseBody(value);
      docs.push(withVector && vectorRefOf(doc) !== undefined ? await this.#finish(docKeys[i]!, doc) : doc);
    }
    return docs;
  }

  /**
   * The documents of vector search hits (with their keys) as `withVector: false` reads them: null where
   * the document is gone or no longer has the vector the hit found (it changed after the search).
   * Recent hits come from the hit cache; `labelKeys` names the documents of the others. `shared`: the
   * bodies may be the cache's own (no copy): the caller must not change them, and copies what it keeps.
   * The answer comes at once, not as a promise (no turn of the microtask queue), when every hit is cached or the
   * store reads the others at once (LevelDB in Node, a page of hits): in a collection larger than the hit cache
   * most searches read some.
   */
  getHits(hits: readonly { readonly label: number }[], labelKeys: LabelKeys, shared = false): (StoredDocument | null)[] | Promise<(StoredDocument | null)[]> {
    const generation = this.#generation;
    const found = new Array<StoredDocument | null>(hits.length).fill(null);
    this.#hitCache.lookUp(hits, found, shared);
    const missed: MissedHit[] = [];
    for (let i = 0; i < hits.length; i++) {
      if (found[i] !== null) continue;
      const label = hits[i]!.label;
      const key = labelKeys.keyOf(label);
      if (key !== undefined) missed.push({ at: i, label, key });
    }
    if (missed.length === 0) return found;
    const docKeys = missed.map((miss) => this.#docPrefix + miss.key);
    // Read at once where the store can (LevelDB in Node): the search then answers without an await.
    const values = this.#kv.getManyNow(docKeys);
    if (values !== undefined) return this.#keepHits(found, missed, values, generation, shared);
    return this.#kv.getMany(docKeys).then((read) => this.#keepHits(found, missed, read, generation, shared));
  }

  /** Puts the bodies read for the missed hits into `found`, and keeps them in the hit cache. */
  #keepHits(found: (StoredDocument | null)[], missed: readonly MissedHit[], values: readonly (Uint8Array | undefined)[], generation: number, shared: boolean): (StoredDocument | null)[] {
    for (let j = 0; j < missed.length; j++) {
      const { at, label, key } = missed[j]!;
      const value = values[j];
      if (value === undefined) continue;
      const body = parseBody(value);
      if (!hasVectorOf(body, label)) continue;
      // A write committed during the read may have changed the document since: not kept.
      if (this.#generation === generation) this.#hitCache.fill(label, key, body, value.byteLength);
      found[at] = { key, doc: shared ? body : copyJson(body) };
    }
    return found;
  }

  /** A document read with `withVector: false`, with its `$vector` values (null: it was deleted since). */
  async restoreVector(key: string, doc: Document): Promise<Document | null> {
    return this.#finish(key, doc);
  }

  /**
   * Puts the vector values back into a stored body that refers to them. Memory has a label's values
   * while it is live; a label deleted since the body was read is looked up in its record, and when that
   * is gone too the body itself is stale: it is read again. A body read again that still names the same
   * label has lost its vector record (a damaged or partial copy): that is an error, never a retry, since
   * nothing would change between two tries. (Callers skip bodies without a reference, so plain documents
   * cost no extra await.)
   */
  async #finish(key: string, doc: Document): Promise<Document | null> {
    for (let current: Document | null = doc; ; ) {
      const ref: ReturnType<typeof vectorRefOf> = current === null ? undefined : vectorRefOf(current);
      if (current === null || ref === undefined) return current;
      const values = this.#vectorLookup(ref.label) ?? (await this.#readVectorValues(ref.label));
      if (values !== undefined) {
        current.$vector = vectorJson(values, ref.form);
        return current;
      }
      const value = await this.#kv.get(this.#docPrefix + key);
      current = value === undefined ? null : parseBody(value);
      // Labels are never reused: only a write committed meanwhile gives the body another label.
      if (current !== null && vectorRefOf(current)?.label === ref.label) throw this.#missingVector(current);
    }
  }

  #missingVector(body: Document): VectorDbError {
    const id = JSON.stringify(body['_id'] ?? null);
    return VectorDbError.of('DATABASE_CORRUPTED', {
      location: this.#kv.location,
      reason: `the vector record of document ${id} (collection #${this.#cid}) is missing. Run \`vectordb-local repair ${this.#kv.location}\` to rebuild what the stored documents still hold`,
    });
  }

  async #readVectorValues(label: number): Promise<Float32Array | undefined> {
    const value = await this.#kv.get(keys.vectorValuesKey(this.#cid, label));
    return value === undefined ? undefined : decodeVectorValues(value, this.#dimension);
  }

  async has(key: string): Promise<boolean> {
    const [held] = await this.holdMany([key]);
    return held!;
  }

  /**
   * Which of the keys hold a document (the existence check of inserts and upserts). The collection's
   * key-presence filter (storage/key-presence.ts; its first use here starts its scan) says which keys certainly
   * hold none: those are not read, so a bulk load of new ids reads nothing from LevelDB for the check (issue
   * 31). The others (stored keys, the filter's false positives, every key until its scan is complete) are read.
   */
  async holdMany(docKeys: readonly string[]): Promise<boolean[]> {
    const presence = this.#kv.keyPresence(this.#docPrefix);
    const held = new Array<boolean>(docKeys.length).fill(false);
    const toRead: number[] = [];
    for (let i = 0; i < docKeys.length; i++) if (presence.mayHold(this.#docPrefix + docKeys[i]!)) toRead.push(i);
    if (toRead.length === 0) return held;
    const values = await this.#kv.getMany(toRead.map((i) => this.#docPrefix + docKeys[i]!));
    for (let j = 0; j < toRead.length; j++) held[toRead[j]!] = values[j] !== undefined;
    return held;
  }

  /** Every document in key order, starting after `afterKey` when given. */
  async *scan(afterKey?: string, options?: ReadOptions): AsyncGenerator<StoredDocument> {
    const range = afterKey === undefined ? { gte: this.#docPrefix, lt: this.#docPrefix + HIGH } : { gt: this.#docPrefix + afterKey, lt: this.#docPrefix + HIGH };
    const offset = this.#docPrefix.length;
    const withVector = options?.withVector ?? true;
    for await (const [prefixed, value] of this.#kv.entries(range)) {
      const key = prefixed.slice(offset);
      const body = parseBody(value);
      const doc = withVector && vectorRefOf(body) !== undefined ? await this.#finish(key, body) : body;
      if (doc !== null) yield { key, doc };
    }
  }

  /**
   * The number of documents: counted once, then kept by each commit. A count that a commit overlapped is
   * returned but not kept (the commit may or may not be in it).
   */
  async count(): Promise<number> {
    if (this.#count !== undefined) return this.#count;
    const generation = this.#generation;
    let count = 0;
    for await (const _ of this.scanKeys()) count++;
    if (this.#generation === generation) this.#count = count;
    return count;
  }

  /** Every document key in key order. */
  async *scanKeys(): AsyncGenerator<string> {
    const offset = this.#docPrefix.length;
    for await (const key of this.#kv.keys({ gte: this.#docPrefix, lt: this.#docPrefix + HIGH })) yield key.slice(offset);
  }

  /** Document keys of the index entries under `path` within bounds, or undefined past `cap` (index-reads.ts). */
  indexKeys(path: string, bounds: IndexBounds, cap: number): Promise<Set<string> | undefined> {
    return indexKeys(this.#kv, this.#indexPrefix, path, bounds, cap);
  }

  /** A view of the store as of now, for a long read while writes go on (close it after). */
  snapshot(): KvSnapshot {
    return this.#kv.snapshot();
  }

  /** Every index entry of the collection with its document key, in key order (index-reads.ts). */
  allIndexEntries(snapshot?: KvSnapshot): AsyncGenerator<{ entry: string; key: string }> {
    return allIndexEntries(this.#kv, this.#indexPrefix, snapshot);
  }

  /** Index entries under `path` within bounds, in key order or reversed (index-reads.ts). */
  indexEntries(path: string, bounds: IndexBounds, reverse = false): AsyncGenerator<{ value: string; key: string }> {
    return indexEntries(this.#kv, this.#indexPrefix, path, bounds, reverse);
  }

  /** Document keys of index runs, merged in key order without repeats, after `afterKey` (index-reads.ts). */
  indexRunKeys(runs: readonly IndexRun[], afterKey?: string): AsyncGenerator<string> {
    return indexRunKeys(this.#kv, this.#indexPrefix, runs, afterKey);
  }

  /** Writes the changes in one atomic batch. */
  async write(changes: readonly DocumentChange[], ctx: ShredContext, hook?: ChangeHook): Promise<void> {
    await this.commit(this.stage(changes, ctx, hook));
  }

  /**
   * Builds the one atomic batch of the changes and hands it to LevelDB without writing it (the hook runs
   * now: it assigns vector labels). `commit` writes it; staged writes are committed one at a time, in the
   * order staged, or discarded (a discarded one's labels are never used). A batch may be staged while an
   * earlier one is being committed only when the two change different documents (insertMany's
   * sub-batches).
   */
  stage(changes: readonly DocumentChange[], ctx: ShredContext, hook?: ChangeHook): StagedWrite {
    const ops: KvOperation[] = [];
    const staged = hook?.(changes, ops);
    const hits = staged && new WrittenHits(staged.retired ?? []);
    let countDelta = 0;
    for (const change of changes) {
      if ((change.before === null) !== (change.after === null)) countDelta += change.after === null ? -1 : 1;
      stageIndexEntries(this.#indexPrefix, change, ctx, ops);
      if (change.after) {
        const text = bodyText(storedBody(change.after, staged));
        ops.push({ type: 'put', key: this.#docPrefix + change.key, value: text });
        const label = change.after.vector === null ? undefined : staged?.labels.get(change.key);
        if (hits && label !== undefined) hits.add(label, change.key, text);
      } else {
        ops.push({ type: 'del', key: this.#docPrefix + change.key });
      }
    }
    const lexical = this.#lexical?.stage(changes, ctx, ops);
    const fields = this.fieldKinds.stage(changes, ops);
    // The sync is left to syncWrites, after the collection's mutex: concurrent writers then share one fsync.
    return { batch: this.#kv.prepare(ops, { deferSync: true }), afterCommit: staged?.afterCommit, countDelta, hits, lexical, fields };
  }

  /** Writes a staged batch atomically, then applies its in-memory effects (vectors) once it is durable. */
  async commit(staged: StagedWrite): Promise<void> {
    try {
      await staged.batch.write();
    } catch (error) {
      staged.lexical?.discard();
      throw error;
    }
    staged.lexical?.commit();
    this.fieldKinds.commit(staged.fields);
    this.#generation++;
    if (this.#count !== undefined) this.#count += staged.countDelta;
    if (staged.hits) this.#hitCache.remember(staged.hits);
    staged.afterCommit?.();
  }

  /** Resolves once every write committed so far is on disk (group commit; at once when durability is relaxed). */
  syncWrites(): Promise<void> {
    return this.#kv.syncWrites();
  }

  /** Drops a staged batch that will not be committed (its vector labels are never used). */
  async discard(staged: StagedWrite): Promise<void> {
    staged.lexical?.discard();
    await staged.batch.discard();
  }

  /** Writes every document's index entries again unless they follow the current rule (index-writes.ts). */
  refileIndex(ctx: ShredContext): Promise<void> {
    return refileIndexEntries(this.#kv, this.#cid, () => this.scan(undefined, { withVector: false }), ctx);
  }

  /** Removes every document, index entry and vector record of the collection. */
  async clear(): Promise<void> {
    try {
      for (const prefix of keys.collectionDataPrefixes(this.#cid)) await this.#kv.clearRange(prefix, prefix + HIGH);
    } finally {
      this.#generation++;
      this.#count = undefined;
      this.#hitCache.clear();
      this.#lexical?.reset();
    }
  }
}
