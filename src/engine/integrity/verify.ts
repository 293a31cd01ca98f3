/**
 * db.verify(), as SQLite's PRAGMA integrity_check: reads every truth record as stored and checks its
 * checksum, recomputes every secondary index entry from the bodies (rows) and compares both ways, checks
 * every vector record against the bodies that refer to it, the flat store and the graph, recomputes a
 * lexical collection's postings and BM25 statistics from the bodies' `$lexical` and compares them both ways,
 * and counts per collection and table. Reads from one snapshot per collection; reports, never changes anything.
 */
import { parseBodyText } from '../collections/body-text.js';
import type { Collection } from '../collections/collection.js';
import type { LexicalStore, Totals } from '../lexical-store.js';
import { indexEntriesOf } from '../collections/shredder.js';
import { vectorRefOf } from '../collections/stored-vector.js';
import { forEachField } from '../collections/field-kinds.js';
import type { Table } from '../tables/table.js';
import type { JsonObject } from '../../query/json.js';
import { bytesToString, keys, type KvSnapshot, type KvStore } from '../../storage/index.js';
import { openRecord } from '../../storage/record-checksum.js';
import { describeRecord, type OwnerLookup } from './record-names.js';
import { MAX_LISTED_PROBLEMS, type ProblemKind, type VerifiedObject, type VerifyProblem, type VerifyProgress, type VerifyReport } from './verify-report.js';

const { SEP, HIGH } = keys;

/** What verify reads: the store, the live catalog, and who owns a number (for names). */
export interface VerifySource {
  readonly kv: KvStore;
  readonly collections: readonly Collection[];
  readonly tables: readonly Table[];
  readonly ownerOf: OwnerLookup;
}

export async function verifyDatabase(source: VerifySource, onProgress?: (progress: VerifyProgress) => void): Promise<VerifyReport> {
  const started = Date.now();
  const run = new VerifyRun(source, onProgress);
  await run.catalog();
  const objects: VerifiedObject[] = [];
  for (const collection of source.collections) objects.push(await run.collection(collection));
  for (const table of source.tables) objects.push(await run.table(table));
  return { ok: run.total === 0, records: run.records, unsealed: run.unsealed, objects, problems: run.problems, problemCounts: run.counts, elapsedMs: Date.now() - started };
}

class VerifyRun {
  readonly problems: VerifyProblem[] = [];
  readonly counts: Partial<Record<ProblemKind, number>> = {};
  total = 0;
  records = 0;
  unsealed = 0;
  readonly #source: VerifySource;
  readonly #onProgress: ((progress: VerifyProgress) => void) | undefined;

  constructor(source: VerifySource, onProgress?: (progress: VerifyProgress) => void) {
    this.#source = source;
    this.#onProgress = onProgress;
  }

  /**
   * A complete field record (engine/collections/field-kinds.ts) holds every top-level field and kind of the
   * bodies; it may hold more (widen-only: fields of deleted documents stay). An incomplete one is built at first use.
   */
  async #fieldRecord(cid: number, pairs: Map<string, string>, snapshot: KvSnapshot): Promise<void> {
    const prefix = keys.fieldKindPrefix(cid); // the marker is the one key below it
    if ((await this.#source.kv.countKeys(keys.fieldRecordKey(cid), prefix, snapshot)) === 0) return;
    for await (const key of this.#keys(prefix, snapshot)) pairs.delete(key.slice(prefix.length));
    for (const [pair, docKey] of pairs) this.#problem('field-kind-missing', keys.docKey(cid, docKey), `field ${JSON.stringify(pair.slice(0, pair.lastIndexOf(SEP)))} of kind ${pair.slice(pair.lastIndexOf(SEP) + 1)}`);
  }

  #problem(kind: ProblemKind, key: string, detail?: string): void {
    this.total++;
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    if (this.problems.length < MAX_LISTED_PROBLEMS) this.problems.push({ kind, where: describeRecord(key, this.#source.ownerOf), ...(detail === undefined ? {} : { detail }) });
  }

  /**
   * Every truth record under `prefix` as stored, opened: calls `each` with the payloads that pass and
   * `damaged` with the keys of those that fail (their checksum, or `each`).
   */
  async #truth(prefix: string, step: string, snapshot: KvSnapshot, each: (key: string, payload: Uint8Array) => void, damaged?: (key: string) => void): Promise<void> {
    let read = 0;
    for await (const chunk of this.#source.kv.rawEntryChunks({ gte: prefix, lt: prefix + HIGH }, 1024, snapshot)) {
      for (const [key, value] of chunk) {
        this.records++;
        const opened = openRecord(key, value);
        if (!opened.ok) {
          this.#problem('damaged-record', key, opened.reason);
          damaged?.(key);
          continue;
        }
        if (!opened.sealed) this.unsealed++;
        try {
          each(key, opened.payload);
        } catch (error) {
          this.#problem('unreadable-record', key, error instanceof Error ? error.message : String(error));
          damaged?.(key);
        }
      }
      read += chunk.length;
      this.#onProgress?.({ step, records: read });
    }
  }

  /** Keys under `prefix` (derived records: index entries), from the snapshot. */
  async *#keys(prefix: string, snapshot: KvSnapshot): AsyncGenerator<string> {
    yield* this.#source.kv.keys({ gte: prefix, lt: prefix + HIGH }, 4096, snapshot);
  }

  async catalog(): Promise<void> {
    const snapshot = this.#source.kv.snapshot();
    try {
      for (const prefix of [keys.KEYSPACE_PREFIX, keys.COLLECTION_PREFIX, keys.TABLE_PREFIX, keys.TYPE_PREFIX]) {
        await this.#truth(prefix, 'catalog', snapshot, (_key, payload) => JSON.parse(bytesToString(payload)));
      }
    } finally {
      await snapshot.close();
    }
  }

  async collection(collection: Collection): Promise<VerifiedObject> {
    const { record } = collection;
    const { shred, lexical } = collection.integrity;
    const step = `collection ${record.keyspace}.${record.name}`;
    const before = this.total;
    const docPrefix = keys.docPrefix(record.cid);
    const expected = new Set<string>();
    const damagedDocs = new Set<string>();
    /** label -> document key, from the bodies' vector references. */
    const refs = new Map<number, string>();
    let documents = 0;
    let indexEntries = 0;
    let vectorCount: number | undefined;
    /** Posting key -> value, and the statistics, from the bodies' `$lexical` (lexical collections). */
    const postings = new Map<string, string>();
    const totals: Totals = { documents: 0, length: 0 };
    /** `path\0kind` -> a document key holding it, from the bodies' top-level fields (the field record). */
    const fieldPairs = new Map<string, string>();
    let postingCount: number | undefined;
    // Loaded before the snapshot, so that memory and the snapshot agree on a quiet database.
    const vectors = await collection.vectors()?.catch((error: unknown) => {
      this.#problem('vectors-unloadable', docPrefix, error instanceof Error ? error.message : String(error));
      return undefined;
    });
    await vectors?.waitForIndex().catch(() => undefined);
    const snapshot = this.#source.kv.snapshot();
    try {
      await this.#truth(
        docPrefix,
        step,
        snapshot,
        (key, payload) => {
          const docKey = key.slice(docPrefix.length);
          const doc = parseBodyText(bytesToString(payload));
          documents++;
          for (const entry of new Set(indexEntriesOf(doc, shred))) expected.add(entry + SEP + docKey);
          const ref = vectorRefOf(doc);
          if (ref !== undefined) refs.set(ref.label, docKey);
          forEachField(doc, (path, kind) => fieldPairs.set(path + SEP + kind, docKey));
          const given = lexical?.postingsOf(docKey, doc, shred);
          if (given === undefined) return;
          totals.documents++;
          totals.length += given.length;
          for (const [key, value] of given.records) postings.set(key, value);
        },
        // A damaged body's index entries and vector record are neither missing nor orphans: the body is the problem.
        (key) => damagedDocs.add(key.slice(docPrefix.length)),
      );
      const indexPrefix = keys.indexPrefix(record.cid);
      for await (const key of this.#keys(indexPrefix, snapshot)) {
        indexEntries++;
        const rest = key.slice(indexPrefix.length);
        if (expected.delete(rest)) continue;
        const docKey = rest.slice(rest.indexOf(SEP, rest.indexOf(SEP) + 1) + 1);
        if (!damagedDocs.has(docKey)) this.#problem('index-entry-orphaned', keys.docKey(record.cid, docKey), `entry ${JSON.stringify(rest.slice(0, rest.length - docKey.length - 1))}`);
      }
      for (const entry of expected) {
        const docKey = entry.slice(entry.indexOf(SEP, entry.indexOf(SEP) + 1) + 1);
        this.#problem('index-entry-missing', keys.docKey(record.cid, docKey), `entry ${JSON.stringify(entry.slice(0, entry.length - docKey.length - 1))}`);
      }
      if (record.options.vector !== undefined) vectorCount = await this.#vectors(collection, refs, damagedDocs, vectors, snapshot);
      if (lexical !== undefined) {
        const cid = record.cid;
        postingCount = await this.#lexical(lexical, { postings, totals }, damagedDocs, (docKey) => keys.docKey(cid, docKey), keys.lexicalPrefix(cid), snapshot);
      }
      await this.#fieldRecord(record.cid, fieldPairs, snapshot);
    } finally {
      await snapshot.close();
    }
    return {
      kind: 'collection',
      keyspace: record.keyspace,
      name: record.name,
      documents,
      indexEntries,
      ...(vectorCount === undefined ? {} : { vectors: vectorCount }),
      ...(postingCount === undefined ? {} : { lexicalPostings: postingCount }),
      problems: this.total - before,
    };
  }

  /**
   * Compares the stored postings with `expected.postings` (deleting what it finds) and the statistics with
   * `expected.totals`; returns the postings read. `placeOf` names a document's (row's) record by its key.
   */
  async #lexical(index: LexicalStore, expected: TextTruth, damagedDocs: Set<string>, placeOf: (key: string) => string, statsPlace: string, snapshot: KvSnapshot): Promise<number> {
    const { postings: wantedPostings, totals } = expected;
    const range = index.postingRange;
    let read = 0;
    for await (const chunk of this.#source.kv.rawEntryChunks(range, 4096, snapshot)) {
      for (const [key, raw] of chunk) {
        read++;
        const rest = key.slice(range.gte.length);
        const docKey = rest.slice(rest.indexOf(SEP) + 1);
        const term = JSON.stringify(rest.slice(0, rest.indexOf(SEP)));
        const wanted = wantedPostings.get(key);
        const value = bytesToString(raw);
        if (wanted === undefined) {
          if (!damagedDocs.has(docKey)) this.#problem('lexical-posting-orphaned', placeOf(docKey), `term ${term}`);
          continue;
        }
        wantedPostings.delete(key);
        if (wanted !== value) this.#problem('lexical-posting-mismatch', placeOf(docKey), `term ${term}: stored "${value}", the body gives "${wanted}" (count, length)`);
      }
    }
    for (const key of wantedPostings.keys()) {
      const rest = key.slice(range.gte.length);
      this.#problem('lexical-posting-missing', placeOf(rest.slice(rest.indexOf(SEP) + 1)), `term ${JSON.stringify(rest.slice(0, rest.indexOf(SEP)))}`);
    }
    // With a damaged body, what the bodies give is unknown: the body is the problem.
    const stored = await index.storedTotals(snapshot);
    if (damagedDocs.size === 0 && (stored.documents !== totals.documents || stored.length !== totals.length)) {
      this.#problem('lexical-stats-mismatch', statsPlace, `stored ${stored.documents} documents of ${stored.length} tokens in all, the bodies give ${totals.documents} of ${totals.length}`);
    }
    return read;
  }

  async #vectors(collection: Collection, refs: Map<number, string>, damagedDocs: Set<string>, vectors: Awaited<ReturnType<Collection['vectors']>>, snapshot: KvSnapshot): Promise<number> {
    const { cid, options } = collection.record;
    const dimension = options.vector!.dimension;
    const step = `vectors of ${collection.record.keyspace}.${collection.record.name}`;
    const keyPrefix = keys.vectorKeyPrefix(cid);
    const valuesPrefix = keys.vectorValuesPrefix(cid);
    const docOf = new Map<number, string>();
    await this.#truth(keyPrefix, step, snapshot, (key, payload) => docOf.set(Number.parseInt(key.slice(keyPrefix.length), 16), bytesToString(payload)));
    const withValues = new Set<number>();
    await this.#truth(valuesPrefix, step, snapshot, (key, payload) => {
      const label = Number.parseInt(key.slice(valuesPrefix.length), 16);
      if (payload.byteLength !== dimension * 4) throw new Error(`${payload.byteLength} bytes of values, not ${dimension * 4}`);
      withValues.add(label);
      const flat = vectors?.vectorOf(label);
      if (vectors !== undefined && (flat === undefined || !sameBytes(flat, payload))) this.#problem('vector-mismatch', key, flat === undefined ? 'not in the flat store' : 'the flat store holds other values');
    });
    for (const [label, docKey] of refs) {
      if (docOf.get(label) !== docKey || !withValues.has(label)) this.#problem('vector-record-missing', keys.docKey(cid, docKey), `label ${label}`);
    }
    for (const [label, docKey] of docOf) {
      if (refs.get(label) !== docKey && !damagedDocs.has(docKey)) this.#problem('vector-record-orphaned', keys.vectorKeyKey(cid, label), `names ${JSON.stringify(docKey)}`);
      else if (vectors !== undefined && vectors.labelOf(docKey) !== label) this.#problem('vector-mismatch', keys.vectorKeyKey(cid, label), 'the in-memory label map disagrees');
    }
    if (vectors !== undefined) {
      const { graphElements, graphDeleted } = vectors.footprint();
      if (graphElements - graphDeleted !== vectors.size || vectors.size !== docOf.size) {
        this.#problem('vector-mismatch', keyPrefix, `graph holds ${graphElements - graphDeleted} live vectors, flat store ${vectors.size}, records ${docOf.size}`);
      }
    }
    return docOf.size;
  }

  async table(table: Table): Promise<VerifiedObject> {
    const { record, store } = table;
    const rowPrefix = keys.rowPrefix(record.tid);
    const before = this.total;
    const expected = new Set<string>();
    const damagedRows = new Set<string>();
    let rows = 0;
    let indexEntries = 0;
    let postingCount: number | undefined;
    // Each text index's postings and statistics, from the rows.
    const texts = record.indexes.filter((index) => index.kind === 'text').map((index) => ({ text: store.text.of(index), postings: new Map<string, string>(), totals: { documents: 0, length: 0 } }));
    const snapshot = this.#source.kv.snapshot();
    try {
      await this.#truth(
        rowPrefix,
        `table ${record.keyspace}.${record.name}`,
        snapshot,
        (key, payload) => {
          const row = JSON.parse(bytesToString(payload)) as JsonObject;
          rows++;
          const rowKey = key.slice(rowPrefix.length);
          for (const entry of store.indexEntriesOf(row)) expected.add(entry + rowKey);
          for (const { text, postings, totals } of texts) {
            const lexical = store.text.termsOf(text, row);
            if (lexical === undefined) continue;
            totals.documents++;
            totals.length += lexical.length;
            for (const [postingKey, value] of text.store.postingRecords(rowKey, lexical)) postings.set(postingKey, value);
          }
        },
        (key) => damagedRows.add(key.slice(rowPrefix.length)),
      );
      const indexPrefix = keys.rowIndexRange(record.tid);
      for await (const key of this.#keys(indexPrefix, snapshot)) {
        indexEntries++;
        if (expected.delete(key)) continue;
        const rowKey = rowKeyOf(key, indexPrefix);
        if (!damagedRows.has(rowKey)) this.#problem('index-entry-orphaned', key);
      }
      for (const entry of expected) this.#problem('index-entry-missing', entry);
      for (const truth of texts) {
        // An index written before its statistics were kept gets them on first use: nothing to compare yet.
        if (!(await truth.text.store.storedTotals(snapshot)).based) continue;
        const read = await this.#lexical(truth.text.store, truth, damagedRows, (rowKey) => rowPrefix + rowKey, keys.tableLexicalPrefix(record.tid, truth.text.index.name), snapshot);
        postingCount = (postingCount ?? 0) + read;
      }
    } finally {
      await snapshot.close();
    }
    return { kind: 'table', keyspace: record.keyspace, name: record.name, documents: rows, indexEntries, ...(postingCount === undefined ? {} : { lexicalPostings: postingCount }), problems: this.total - before };
  }
}

/** A text's postings (key -> value) and statistics as the documents or rows give them. */
interface TextTruth {
  readonly postings: Map<string, string>;
  readonly totals: Totals;
}

/** The row key at the end of a table index entry: after `<index>\0<value key>\0` (a value key may hold one \0: a map entry). */
function rowKeyOf(key: string, indexPrefix: string): string {
  const afterIndex = key.indexOf(SEP, indexPrefix.length) + 1;
  return key.slice(key.indexOf(SEP, afterIndex) + 1);
}

function sameBytes(values: Float32Array, payload: Uint8Array): boolean {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (bytes.byteLength !== payload.byteLength) return false;
  for (let i = 0; i < bytes.byteLength; i++) if (bytes[i] !== payload[i]) return false;
  return true;
}
