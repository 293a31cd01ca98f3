/**
 * Repair's raw pass (repair.ts), on the store below the engine once LevelDB's own repair has run: reads every
 * truth record as stored and keeps only what can be trusted and hangs together. A record that fails its
 * checksum (records from before checksums are taken as they are) or cannot be parsed, a body or row whose
 * collection or table has no catalog entry, a vector record no surviving body (or row) refers to, and half a
 * vector record (key without values or values without key) go to lost+found and are deleted. A body whose
 * vector record is gone is kept without `$vector` (its old form goes to lost+found too). Derived records are
 * left for repair.ts to drop and rebuild.
 */
import { bodyText, parseBodyText } from '../collections/body-text.js';
import { vectorRefOf } from '../collections/stored-vector.js';
import type { CollectionRecord } from '../collections/schema.js';
import type { TableRecord } from '../tables/schema.js';
import { bytesToString, keys, type KvOperation, type KvStore } from '../../storage/index.js';
import { openRecord } from '../../storage/record-checksum.js';
import type { LostAndFound } from '../../storage/repair-files.js';
import { placeOf, type OwnerLookup, type RecordOwner } from './record-names.js';

const { SEP, HIGH } = keys;

/** What the raw pass kept and lost, by owner (`keyspace.name`; NO_OWNER for records no catalog entry names). */
export interface SalvageResult {
  /** Truth records read. */
  readonly records: number;
  readonly lost: Map<string, LostCounts>;
  readonly ownerOf: OwnerLookup;
}

export interface LostCounts {
  /** Documents (rows) moved to lost+found. */
  documents: number;
  /** Vector records moved to lost+found. */
  vectors: number;
  /** Documents kept without `$vector`, their vector record being gone. */
  vectorsDropped: number;
  /** Catalog entries moved to lost+found. */
  catalog: number;
}

export const NO_OWNER = '(no catalog entry)';

export type SalvageProgress = (step: string, records: number) => void;

export async function salvage(kv: KvStore, lostAndFound: LostAndFound, onProgress?: SalvageProgress): Promise<SalvageResult> {
  const run = new Salvage(kv, lostAndFound, onProgress);
  await run.run();
  await run.flush();
  return { records: run.records, lost: run.lost, ownerOf: run.ownerOf };
}

class Salvage {
  records = 0;
  readonly lost = new Map<string, LostCounts>();
  readonly #owners = new Map<number, RecordOwner>();
  readonly ownerOf: OwnerLookup = (number) => this.#owners.get(number);
  /** A table vector index's number -> its table's number. */
  readonly #tableVectors = new Map<number, number>();
  /** Row keys of the tables that have vector indexes (their vector records name rows). */
  readonly #rowKeys = new Map<number, Set<string>>();
  /** Collection number -> label -> document key, from the surviving bodies' vector references. */
  readonly #refs = new Map<number, Map<number, string>>();
  /** Vector key records kept so far: number -> label -> value as stored. */
  readonly #vectorKeys = new Map<number, Map<number, Uint8Array>>();
  #ops: KvOperation[] = [];
  readonly #kv: KvStore;
  readonly #lostAndFound: LostAndFound;
  readonly #onProgress: SalvageProgress | undefined;

  constructor(kv: KvStore, lostAndFound: LostAndFound, onProgress?: SalvageProgress) {
    this.#kv = kv;
    this.#lostAndFound = lostAndFound;
    this.#onProgress = onProgress;
  }

  async run(): Promise<void> {
    for (const prefix of [keys.KEYSPACE_PREFIX, keys.COLLECTION_PREFIX, keys.TABLE_PREFIX, keys.TYPE_PREFIX]) {
      await this.#each(prefix, 'catalog', (key, payload) => this.#catalogEntry(key, payload));
    }
    await this.#each('doc:', 'documents', (key, payload) => this.#body(key, payload));
    await this.#each('row:', 'rows', (key, payload) => this.#row(key, payload));
    await this.#each('vkey:', 'vector records', (key, payload) => this.#vectorKey(key, payload));
    const withValues = new Map<number, Set<number>>();
    await this.#each(keys.VECTOR_VALUES_TAG, 'vector records', (key) => {
      const [number, rest] = numbered(key, keys.VECTOR_VALUES_TAG);
      const label = Number.parseInt(rest, 16);
      if (!this.#vectorKeys.get(number)?.has(label)) return 'no vector key record names these values';
      setOf(withValues, number).add(label);
      return undefined;
    });
    // A key without its values is no vector (the two are written and deleted in one batch).
    for (const [number, labels] of this.#vectorKeys) {
      for (const [label, value] of labels) {
        if (withValues.get(number)?.has(label)) continue;
        labels.delete(label);
        await this.#lose(keys.vectorKeyKey(number, label), 'its vector values record is gone', value);
      }
    }
    await this.#dropDanglingRefs();
  }

  /**
   * Calls `judge` with every truth record under `prefix` that passes its checksum; a record that fails it,
   * or that `judge` refuses (returns why, or throws), goes to lost+found.
   */
  async #each(prefix: string, step: string, judge: (key: string, payload: Uint8Array) => string | undefined): Promise<void> {
    let read = 0;
    for await (const chunk of this.#kv.rawEntryChunks({ gte: prefix, lt: prefix + HIGH }, 1024)) {
      for (const [key, value] of chunk) {
        this.records++;
        const opened = openRecord(key, value);
        let why: string | undefined;
        if (!opened.ok) why = `damaged: ${opened.reason}`;
        else {
          try {
            why = judge(key, opened.payload);
          } catch (error) {
            why = `unreadable: ${error instanceof Error ? error.message : String(error)}`;
          }
        }
        if (why !== undefined) await this.#lose(key, why, value);
      }
      read += chunk.length;
      this.#onProgress?.(step, read);
    }
  }

  #catalogEntry(key: string, payload: Uint8Array): string | undefined {
    const record = JSON.parse(bytesToString(payload)) as Partial<CollectionRecord & TableRecord>;
    if (key.startsWith(keys.COLLECTION_PREFIX) && typeof record.cid === 'number') {
      this.#owners.set(record.cid, { kind: 'collection', keyspace: record.keyspace!, name: record.name! });
    } else if (key.startsWith(keys.TABLE_PREFIX) && typeof record.tid === 'number') {
      this.#owners.set(record.tid, { kind: 'table', keyspace: record.keyspace!, name: record.name! });
      for (const index of record.indexes ?? []) {
        if (index.kind !== 'vector' || index.vid === undefined) continue;
        this.#tableVectors.set(index.vid, record.tid);
        this.#rowKeys.set(record.tid, new Set());
      }
    }
    return undefined;
  }

  #body(key: string, payload: Uint8Array): string | undefined {
    const [cid, docKey] = numbered(key, 'doc:');
    if (this.#owners.get(cid)?.kind !== 'collection') return 'no collection has this number (its catalog entry is gone)';
    const ref = vectorRefOf(parseBodyText(bytesToString(payload)));
    if (ref !== undefined) mapOf(this.#refs, cid).set(ref.label, docKey);
    return undefined;
  }

  #row(key: string, payload: Uint8Array): string | undefined {
    const [tid, rowKey] = numbered(key, 'row:');
    if (this.#owners.get(tid)?.kind !== 'table') return 'no table has this number (its catalog entry is gone)';
    JSON.parse(bytesToString(payload));
    this.#rowKeys.get(tid)?.add(rowKey);
    return undefined;
  }

  #vectorKey(key: string, payload: Uint8Array): string | undefined {
    const [number, rest] = numbered(key, 'vkey:');
    const label = Number.parseInt(rest, 16);
    const named = bytesToString(payload);
    const tid = this.#tableVectors.get(number);
    if (tid !== undefined) {
      if (!this.#rowKeys.get(tid)!.has(named)) return `its row (${JSON.stringify(named)}) is gone`;
    } else if (this.#owners.get(number)?.kind === 'collection') {
      const referrer = this.#refs.get(number)?.get(label);
      if (referrer !== named) return referrer === undefined ? `its document (${JSON.stringify(named)}) is gone or refers to another vector` : `it names ${JSON.stringify(named)}, but ${JSON.stringify(referrer)} refers to it`;
    } else {
      return 'no collection or table vector index has this number';
    }
    mapOf(this.#vectorKeys, number).set(label, payload);
    return undefined;
  }

  /** Bodies that refer to a vector record no longer there: kept without `$vector` (their old form to lost+found). */
  async #dropDanglingRefs(): Promise<void> {
    await this.flush();
    for (const [cid, refs] of this.#refs) {
      for (const [label, docKey] of refs) {
        if (this.#vectorKeys.get(cid)?.has(label)) continue;
        const key = keys.docKey(cid, docKey);
        const stored = await this.#kv.get(key);
        if (stored === undefined) continue;
        const body = parseBodyText(bytesToString(stored));
        delete body.$vector;
        this.#ops.push({ type: 'put', key, value: bodyText(body) });
        this.#count(key).vectorsDropped++;
        await this.#lostAndFound.add(key, `its vector record (label ${label}) is gone: the document is kept without $vector; this is its body as it was`, stored);
        if (this.#ops.length >= 1024) await this.flush();
      }
    }
  }

  async #lose(key: string, why: string, value: Uint8Array): Promise<void> {
    await this.#lostAndFound.add(key, why, value);
    const counts = this.#count(key);
    const what = placeOf(key, this.ownerOf).what;
    if (what === 'document' || what === 'row') counts.documents++;
    else if (what === 'vector') counts.vectors++;
    else counts.catalog++;
    this.#ops.push({ type: 'del', key });
    if (this.#ops.length >= 1024) await this.flush();
  }

  #count(key: string): LostCounts {
    const owner = placeOf(key, this.ownerOf).owner ?? NO_OWNER;
    let counts = this.lost.get(owner);
    if (counts === undefined) this.lost.set(owner, (counts = { documents: 0, vectors: 0, vectorsDropped: 0, catalog: 0 }));
    return counts;
  }

  async flush(): Promise<void> {
    const ops = this.#ops;
    this.#ops = [];
    await this.#kv.batch(ops);
  }
}

/** The number (base 36) and the rest of a key `<prefix><number>\0<rest>`. */
function numbered(key: string, prefix: string): [number, string] {
  const sep = key.indexOf(SEP, prefix.length);
  return [Number.parseInt(key.slice(prefix.length, sep), 36), key.slice(sep + 1)];
}

function mapOf<V>(map: Map<number, Map<number, V>>, number: number): Map<number, V> {
  let inner = map.get(number);
  if (inner === undefined) map.set(number, (inner = new Map()));
  return inner;
}

function setOf(map: Map<number, Set<number>>, number: number): Set<number> {
  let inner = map.get(number);
  if (inner === undefined) map.set(number, (inner = new Set()));
  return inner;
}
