/**
 * A collection's field record: every top-level path its documents have shown, with each kind of value it held
 * (query/field-kind.ts). The write path stages a (path, kind) pair into the same atomic batch as the first write
 * that shows it (DocumentStore.stage), so the record always covers the stored documents. Widen-only: a delete
 * never removes a pair (a field whose last document is gone stays). The generation is the number of pairs: it
 * changes exactly when the record does, costs no read, and is the same after a restart. A collection written by
 * a build before the record existed has none: `describe` builds it from the documents once, then marks it
 * complete (`fld:<cid>`). Knows the key layout; nothing about GraphQL.
 */
import { onceSucceeded } from '../../platform/once.js';
import { keys, type KvOperation, type KvStore } from '../../storage/index.js';
import { FIELD_KINDS, fieldKindOf, isFieldKind, type FieldKind } from '../../query/field-kind.js';
import type { Document } from '../../query/json.js';
import type { DocumentChange } from '../changes.js';

const { SEP, HIGH } = keys;
const PRESENT = keys.FIELD_PRESENT;

/** The record as `describe` returns it: its generation, and its fields (paths sorted, kinds in FIELD_KINDS order) on demand. */
export interface FieldRecord {
  readonly generation: number;
  fields(): Record<string, FieldKind[]>;
}

/** (path, kind) pairs a staged batch writes, learnt once it commits. */
export type StagedFields = readonly (readonly [string, FieldKind])[];

export class FieldKinds {
  readonly #kv: KvStore;
  readonly #cid: number;
  readonly #known = new Map<string, Set<FieldKind>>();
  #pairs = 0;
  #complete = false;
  /** Reads the record once (a few keys: one per path and kind); writes wait for it. */
  readonly ready: () => Promise<void> = onceSucceeded(() => this.#load());
  #building: Promise<void> | undefined;

  constructor(kv: KvStore, cid: number) {
    this.#kv = kv;
    this.#cid = cid;
  }

  async #load(): Promise<void> {
    this.#complete = (await this.#kv.getString(keys.fieldRecordKey(this.#cid))) !== undefined;
    const prefix = keys.fieldKindPrefix(this.#cid);
    for await (const key of this.#kv.keys({ gte: prefix, lt: prefix + HIGH })) {
      const cut = key.lastIndexOf(SEP);
      const kind = key.slice(cut + 1);
      if (cut > prefix.length && isFieldKind(kind)) this.#learn(key.slice(prefix.length, cut), kind);
    }
  }

  /** Adds to `ops` the pairs the changes show that the record lacks (after ready()); commit() learns them. */
  stage(changes: readonly DocumentChange[], ops: KvOperation[]): StagedFields | undefined {
    let fresh: [string, FieldKind][] | undefined;
    for (const change of changes) {
      const doc = change.after?.doc;
      if (doc === undefined) continue;
      // The hot path of every insert: a kind per top-level value and a lookup, nothing written when all are known.
      this.#forEachUnknown(doc, (path, kind) => {
        fresh ??= [];
        if (fresh.some(([p, k]) => p === path && k === kind)) return;
        fresh.push([path, kind]);
        ops.push({ type: 'put', key: keys.fieldKindKey(this.#cid, path, kind), value: PRESENT });
      });
    }
    return fresh;
  }

  /** Learns the pairs of a batch once it is written (a discarded batch's are simply never learnt). */
  commit(staged: StagedFields | undefined): void {
    for (const [path, kind] of staged ?? []) this.#learn(path, kind);
  }

  /**
   * The whole record. The first call on a collection without a complete record reads every document once
   * (`documents`), writes the pairs it lacks and marks it complete, through `write` (the caller's guard
   * against a drop meanwhile); writes going on meanwhile record their own pairs.
   */
  async describe(documents: () => AsyncIterable<{ readonly doc: Document }>, write: (ops: KvOperation[]) => Promise<void>): Promise<FieldRecord> {
    await this.ready();
    while (!this.#complete) {
      this.#building ??= this.#build(documents, write).finally(() => (this.#building = undefined));
      await this.#building;
    }
    return { generation: this.#pairs, fields: () => this.#fields() };
  }

  #fields(): Record<string, FieldKind[]> {
    const fields: Record<string, FieldKind[]> = {};
    for (const path of [...this.#known.keys()].sort()) fields[path] = [...this.#known.get(path)!].sort(byKindOrder);
    return fields;
  }

  async #build(documents: () => AsyncIterable<{ readonly doc: Document }>, write: (ops: KvOperation[]) => Promise<void>): Promise<void> {
    const found = new Map<string, Set<FieldKind>>();
    for await (const { doc } of documents()) {
      this.#forEachUnknown(doc, (path, kind) => {
        let kinds = found.get(path);
        if (kinds === undefined) found.set(path, (kinds = new Set()));
        kinds.add(kind);
      });
    }
    const ops: KvOperation[] = [];
    for (const [path, kinds] of found) for (const kind of kinds) ops.push({ type: 'put', key: keys.fieldKindKey(this.#cid, path, kind), value: PRESENT });
    ops.push({ type: 'put', key: keys.fieldRecordKey(this.#cid), value: PRESENT });
    await write(ops);
    for (const [path, kinds] of found) for (const kind of kinds) this.#learn(path, kind);
    this.#complete = true;
  }

  #forEachUnknown(doc: Document, fn: (path: string, kind: FieldKind) => void): void {
    forEachField(doc, (path, kind) => {
      if (this.#known.get(path)?.has(kind) !== true) fn(path, kind);
    });
  }

  #learn(path: string, kind: FieldKind): void {
    let kinds = this.#known.get(path);
    if (kinds === undefined) this.#known.set(path, (kinds = new Set()));
    if (kinds.has(kind)) return;
    kinds.add(kind);
    this.#pairs++;
  }
}

/** Each top-level field of a document the record covers (`_id` and null values are not), with its kind. */
export function forEachField(doc: Document, fn: (path: string, kind: FieldKind) => void): void {
  for (const path in doc) {
    const value = doc[path];
    if (path !== '_id' && value !== null && value !== undefined) fn(path, fieldKindOf(path, value));
  }
}

const byKindOrder = (a: FieldKind, b: FieldKind): number => FIELD_KINDS.indexOf(a) - FIELD_KINDS.indexOf(b);
