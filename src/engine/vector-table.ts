/**
 * The vector table: every live label's doc key and values in one blob, saved with the graph snapshot, so
 * that opening a collection reads a few large values instead of decoding one record per vector. A label
 * never changes meaning (a changed vector gets a new one), so a table entry stays right for as long as
 * its label lives; which labels live is always read from the records' keys, the truth.
 *
 * Layout (little-endian): [u32 count][u32 dimension][u32 label x count][f32 values x count x dimension]
 * then per entry [u32 key byte length][key UTF-8].
 */
export interface VectorTable {
  readonly dimension: number;
  /** Labels ascending; entry i has values [i * dimension, (i + 1) * dimension). */
  readonly labels: Uint32Array;
  readonly values: Float32Array;
  readonly docKeys: readonly string[];
}

export function encodeVectorTable(table: VectorTable): Uint8Array {
  const { dimension, labels, values, docKeys } = table;
  const keyBytes = docKeys.map((key) => Buffer.from(key, 'utf8'));
  const head = 8 + labels.byteLength + values.byteLength;
  const out = Buffer.allocUnsafe(head + keyBytes.reduce((sum, k) => sum + 4 + k.length, 0));
  out.writeUInt32LE(labels.length, 0);
  out.writeUInt32LE(dimension, 4);
  out.set(new Uint8Array(labels.buffer, labels.byteOffset, labels.byteLength), 8);
  out.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), 8 + labels.byteLength);
  let at = head;
  for (const key of keyBytes) {
    out.writeUInt32LE(key.length, at);
    key.copy(out, at + 4);
    at += 4 + key.length;
  }
  return out;
}

/** The table, or undefined when the bytes are not a table of this dimension (damaged: records are used). */
export function decodeVectorTable(bytes: Uint8Array, dimension: number): VectorTable | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 8 || buffer.readUInt32LE(4) !== dimension) return undefined;
  const count = buffer.readUInt32LE(0);
  const valuesAt = 8 + count * 4;
  const keysAt = valuesAt + count * dimension * 4;
  if (buffer.length < keysAt) return undefined;
  // Copies: the blob's offset need not be 4-aligned.
  const labels = new Uint32Array(count);
  new Uint8Array(labels.buffer).set(buffer.subarray(8, valuesAt));
  const values = new Float32Array(count * dimension);
  new Uint8Array(values.buffer).set(buffer.subarray(valuesAt, keysAt));
  const docKeys: string[] = new Array(count);
  let at = keysAt;
  for (let i = 0; i < count; i++) {
    if (at + 4 > buffer.length) return undefined;
    const length = buffer.readUInt32LE(at);
    if (at + 4 + length > buffer.length) return undefined;
    docKeys[i] = buffer.toString('utf8', at + 4, at + 4 + length);
    at += 4 + length;
  }
  return at === buffer.length ? { dimension, labels, values, docKeys } : undefined;
}
