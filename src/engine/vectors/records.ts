/**
 * How a collection's vectors live in LevelDB: one record per live vector, written in the same batch as
 * its document: `vkey:<cid>\0<label>` -> the document's key (small, so that open lists every live vector
 * quickly) and `vval:<cid>\0<label>` -> its float32 values. A label is never reused, so a label's record
 * never changes; a changed vector is a new label.
 */
import { keys, type KvOperation, type KvStore } from '../../storage/index.js';

/** A live vector: its label, its document's key and its values. */
export interface VectorRecord {
  readonly label: number;
  readonly docKey: string;
  readonly vector: Float32Array;
}

/** A record's values: a new array, or a view of `into` at `offset` (values) they are copied to. */
export function decodeVectorValues(bytes: Uint8Array, dimension: number, into?: Float32Array, offset = 0): Float32Array {
  const vector = into === undefined ? new Float32Array(dimension) : into.subarray(offset, offset + dimension);
  // Copy: the value's offset need not be float-aligned.
  new Uint8Array(vector.buffer, vector.byteOffset, dimension * 4).set(bytes.subarray(0, dimension * 4));
  return vector;
}

/** Every live label (from `from` on) with its doc key, labels ascending (the small `vkey:` records only). */
export async function readVectorKeys(kv: KvStore, cid: number, from = 0): Promise<{ labels: number[]; docKeys: string[] }> {
  const prefix = keys.vectorKeyPrefix(cid);
  const labels: number[] = [];
  const docKeys: string[] = [];
  for await (const chunk of kv.textEntryChunks({ gte: from === 0 ? prefix : keys.vectorKeyKey(cid, from), lt: prefix + keys.HIGH })) {
    for (const [key, docKey] of chunk) {
      labels.push(Number.parseInt(key.slice(prefix.length), 16));
      docKeys.push(docKey);
    }
  }
  return { labels, docKeys };
}

const textDecoder = new TextDecoder();

/** A label's doc key, on the calling thread (KvStore.syncReads); undefined when the label is not live. */
export function readVectorKeySync(kv: KvStore, cid: number, label: number): string | undefined {
  const [value] = kv.getManySync([keys.vectorKeyKey(cid, label)]);
  return value === undefined ? undefined : textDecoder.decode(value);
}

/** The values of these labels (undefined where a label has none). */
export async function readVectorValues(kv: KvStore, cid: number, labels: readonly number[], dimension: number): Promise<(Float32Array | undefined)[]> {
  const out: (Float32Array | undefined)[] = [];
  for (let i = 0; i < labels.length; i += 1024) {
    const slice = labels.slice(i, i + 1024);
    const values = await kv.getMany(slice.map((label) => keys.vectorValuesKey(cid, label)), { fillCache: false });
    for (const value of values) out.push(value === undefined ? undefined : decodeVectorValues(value, dimension));
  }
  return out;
}

/**
 * As readVectorValues, on the calling thread (KvStore.syncReads): a few labels wanted by synchronous code.
 * With `into` (labels.length x dimension values), label i's values are decoded into it and answered as views.
 */
export function readVectorValuesSync(kv: KvStore, cid: number, labels: readonly number[], dimension: number, into?: Float32Array): (Float32Array | undefined)[] {
  return kv.getManySync(labels.map((label) => keys.vectorValuesKey(cid, label))).map((value, i) => (value === undefined ? undefined : decodeVectorValues(value, dimension, into, i * dimension)));
}

/**
 * Every `vval:` record of a collection in label order, a chunk of rows at a time (labels ascending,
 * their values contiguous): one range scan, for opening a collection without per-label lookups.
 */
export async function* readAllVectorValues(kv: KvStore, cid: number, dimension: number): AsyncGenerator<{ labels: Uint32Array; values: Float32Array }> {
  const prefix = keys.vectorValuesPrefix(cid);
  const rowBytes = dimension * 4;
  for await (const chunk of kv.entryChunks({ gte: prefix, lt: prefix + keys.HIGH }, 1024)) {
    const labels = new Uint32Array(chunk.length);
    const values = new Float32Array(chunk.length * dimension);
    const bytes = new Uint8Array(values.buffer);
    chunk.forEach(([key, value], i) => {
      labels[i] = Number.parseInt(key.slice(prefix.length), 16);
      // Copied: the value's offset need not be float-aligned.
      bytes.set(value.subarray(0, rowBytes), i * rowBytes);
    });
    yield { labels, values };
  }
}

export function putVectorRecord(ops: KvOperation[], cid: number, record: VectorRecord): void {
  const { label, docKey, vector } = record;
  ops.push({ type: 'put', key: keys.vectorKeyKey(cid, label), value: docKey });
  ops.push({ type: 'put', key: keys.vectorValuesKey(cid, label), value: new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength) });
}

export function deleteVectorRecord(ops: KvOperation[], cid: number, label: number): void {
  ops.push({ type: 'del', key: keys.vectorKeyKey(cid, label) });
  ops.push({ type: 'del', key: keys.vectorValuesKey(cid, label) });
}

/**
 * Rewrites format 1's vector records (`vec:` -> doc key and values in one value) as `vkey:` + `vval:`,
 * a chunk per batch; each record moves atomically, so an interrupted migration resumes where it stopped.
 */
export async function migrateLegacyVectorRecords(kv: KvStore): Promise<void> {
  const prefix = keys.LEGACY_VECTOR_PREFIX;
  for (;;) {
    const ops: KvOperation[] = [];
    for await (const [key, value] of kv.entries({ gte: prefix, lt: prefix + keys.HIGH, limit: 1024 })) {
      const [cidText, labelText] = key.slice(prefix.length).split(keys.SEP) as [string, string];
      const cid = Number.parseInt(cidText, 36);
      const label = Number.parseInt(labelText, 16);
      const buffer = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      const keyLength = buffer.readUInt32LE(0);
      ops.push({ type: 'put', key: keys.vectorKeyKey(cid, label), value: buffer.toString('utf8', 4, 4 + keyLength) });
      ops.push({ type: 'put', key: keys.vectorValuesKey(cid, label), value: buffer.subarray(4 + keyLength) });
      ops.push({ type: 'del', key });
    }
    if (ops.length === 0) return;
    await kv.batch(ops);
  }
}
