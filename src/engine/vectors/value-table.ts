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

/**
 * A table as read back: the labels, and the values in segments of consecutive rows (segment values
 * are views into the stored chunks wherever rows lie within one chunk, so a large table is never
 * joined into one copy; a row cut by a chunk boundary is copied into a segment of its own).
 */
export interface DecodedVectorTable {
  readonly dimension: number;
  /** Labels ascending; row i is labels[i]'s vector. */
  readonly labels: Uint32Array;
  readonly segments: readonly TableSegment[];
}

export interface TableSegment {
  /** The table row of the segment's first vector. */
  readonly firstRow: number;
  /** Its rows' values, contiguous. */
  readonly values: Float32Array;
}

/**
 * The table from its bytes, whole or as the chunks it was stored in; undefined when they are not a table
 * of this dimension (damaged: the records are used instead).
 */
export function decodeVectorTable(stored: Uint8Array | readonly Uint8Array[], dimension: number): DecodedVectorTable | undefined {
  const bytes = new ChunkedBytes(stored instanceof Uint8Array ? [stored] : stored);
  if (bytes.length < 8) return undefined;
  const head = new DataView(bytes.copy(0, 8).buffer);
  const count = head.getUint32(0, true);
  if (head.getUint32(4, true) !== dimension) return undefined;
  const valuesAt = 8 + count * 4;
  const rowBytes = dimension * 4;
  if (bytes.length !== valuesAt + count * rowBytes) return undefined;
  const labels = new Uint32Array(bytes.copy(8, valuesAt).buffer);
  const segments: TableSegment[] = [];
  for (let row = 0; row < count; ) {
    const at = valuesAt + row * rowBytes;
    const rows = Math.min(count - row, Math.floor(bytes.contiguousFrom(at) / rowBytes));
    if (rows === 0) {
      segments.push({ firstRow: row, values: new Float32Array(bytes.copy(at, at + rowBytes).buffer) });
      row++;
    } else {
      segments.push({ firstRow: row, values: bytes.floats(at, rows * dimension) });
      row += rows;
    }
  }
  return { dimension, labels, segments };
}

/**
 * The given rows of a decoded table (ascending), in that order, as one array: copied from the segments
 * they lie in, without joining the table first.
 */
export function tableRows(table: DecodedVectorTable, rows: readonly number[]): Float32Array {
  const { dimension, segments } = table;
  const out = new Float32Array(rows.length * dimension);
  let s = 0;
  rows.forEach((row, i) => {
    while (segments[s]!.firstRow + segments[s]!.values.length / dimension <= row) s++;
    const at = (row - segments[s]!.firstRow) * dimension;
    out.set(segments[s]!.values.subarray(at, at + dimension), i * dimension);
  });
  return out;
}

/** All of a decoded table's values in one array (a copy). */
export function tableValues(table: DecodedVectorTable): Float32Array {
  const out = new Float32Array(table.labels.length * table.dimension);
  for (const segment of table.segments) out.set(segment.values, segment.firstRow * table.dimension);
  return out;
}

/** Byte ranges of a sequence of chunks read as one. */
class ChunkedBytes {
  readonly length: number;
  readonly #chunks: readonly Uint8Array[];
  /** Where each chunk starts in the whole. */
  readonly #starts: number[] = [];

  constructor(chunks: readonly Uint8Array[]) {
    this.#chunks = chunks;
    let at = 0;
    for (const chunk of chunks) {
      this.#starts.push(at);
      at += chunk.length;
    }
    this.length = at;
  }

  /** How many bytes from `at` lie in the same chunk. */
  contiguousFrom(at: number): number {
    const i = this.#chunkAt(at);
    return this.#starts[i]! + this.#chunks[i]!.length - at;
  }

  /** A copy of [from, to) (aligned, whatever the chunks' offsets). */
  copy(from: number, to: number): Uint8Array {
    const out = new Uint8Array(to - from);
    for (let at = from; at < to; ) {
      const i = this.#chunkAt(at);
      const chunk = this.#chunks[i]!;
      const offset = at - this.#starts[i]!;
      const take = Math.min(chunk.length - offset, to - at);
      out.set(chunk.subarray(offset, offset + take), at - from);
      at += take;
    }
    return out;
  }

  /** `count` floats at `at`, within one chunk: a view when aligned, else a copy. */
  floats(at: number, count: number): Float32Array {
    const i = this.#chunkAt(at);
    const chunk = this.#chunks[i]!;
    const offset = chunk.byteOffset + at - this.#starts[i]!;
    if (offset % 4 === 0) return new Float32Array(chunk.buffer, offset, count);
    return new Float32Array(this.copy(at, at + count * 4).buffer);
  }

  #chunkAt(at: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
