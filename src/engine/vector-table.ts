/**
 * The vector table: every live label's values in one blob, saved with the graph snapshot, so that opening
 * a collection reads a few large values instead of one record per vector. A label never changes meaning (a
 * changed vector gets a new one), so a table entry stays right for as long as its label lives; which labels
 * live, and their documents, is always read from the records, the truth.
 *
 * Layout (little-endian): [u32 count][u32 dimension][u32 label x count][f32 values x count x dimension].
 */
export interface VectorTable {
  readonly dimension: number;
  /** Labels ascending; entry i has values [i * dimension, (i + 1) * dimension). */
  readonly labels: Uint32Array;
  readonly values: Float32Array;
}

export function encodeVectorTable(table: VectorTable): Uint8Array {
  return Buffer.concat(encodeVectorTableParts(table));
}

/**
 * The encoding as pieces whose concatenation is encodeVectorTable's bytes: the values are viewed, not
 * copied (tens of MB for a large collection; the snapshot writer chunks the pieces as they are).
 */
export function encodeVectorTableParts(table: VectorTable): Uint8Array[] {
  const { dimension, labels, values } = table;
  const head = Buffer.allocUnsafe(8 + labels.byteLength);
  head.writeUInt32LE(labels.length, 0);
  head.writeUInt32LE(dimension, 4);
  head.set(new Uint8Array(labels.buffer, labels.byteOffset, labels.byteLength), 8);
  return [head, new Uint8Array(values.buffer, values.byteOffset, values.byteLength)];
}

/** The table, or undefined when the bytes are not a table of this dimension (damaged: records are used). */
export function decodeVectorTable(bytes: Uint8Array, dimension: number): VectorTable | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 8 || buffer.readUInt32LE(4) !== dimension) return undefined;
  const count = buffer.readUInt32LE(0);
  const valuesAt = 8 + count * 4;
  if (buffer.length !== valuesAt + count * dimension * 4) return undefined;
  return { dimension, labels: words(Uint32Array, buffer, 8, count), values: words(Float32Array, buffer, valuesAt, count * dimension) };
}

type Words = typeof Uint32Array | typeof Float32Array;

/** `count` 4-byte words at `at`: a view when aligned (a fresh blob is), else a copy. */
function words<T extends Words>(Type: T, buffer: Buffer, at: number, count: number): InstanceType<T> {
  const offset = buffer.byteOffset + at;
  if (offset % 4 === 0) return new Type(buffer.buffer as ArrayBuffer, offset, count) as InstanceType<T>;
  const out = new Type(count);
  new Uint8Array(out.buffer).set(buffer.subarray(at, at + count * 4));
  return out as InstanceType<T>;
}
