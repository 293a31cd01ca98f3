/**
 * The backend bytes of a wasm graph in several segments (index-format.ts holds them after our head),
 * written and read one segment at a time: a save never holds more than one segment's bytes (a 1.5M x
 * 384 graph is ~2.5 GB, past what one ArrayBuffer may be), nor does a load. A graph in one segment is
 * plain hnswlib bytes, as before segments existed (format 1).
 *
 * Format 3 (written): each segment framed as it comes, with a checksum hnswlib's bytes are checked
 * against before hnswlib reads them (hnswlib trusts what it reads; garbage can abort the module).
 *
 *   0  8 bytes   magic "VDBSEG3\0"
 *   8  u32 LE    segment count S
 *      S times:  u32 first slot, u32 hnswlib max elements, u32 slots it spans, u32 length L,
 *                u32 xxHash32 of the L bytes (seed 0), then the L bytes
 *
 * Format 2 (read only, written before saves streamed): a table of every segment first, then their bytes.
 *
 *   0  8 bytes   magic "VDBSEGS\0"
 *   8  u32 LE    segment count S
 *  12  S x 12    per segment: u32 first slot, u32 hnswlib max elements, u32 length of its bytes
 *      ...       the segments' hnswlib bytes, in order
 */
import xxhash from 'xxhash-wasm';
import { IndexFormatError, joinPieces, type BackendBytes, type IndexHeader } from './index-format.js';

const TABLE_MAGIC = [0x56, 0x44, 0x42, 0x53, 0x45, 0x47, 0x53, 0x00]; // "VDBSEGS\0" (format 2)
const FRAMED_MAGIC = [0x56, 0x44, 0x42, 0x53, 0x45, 0x47, 0x33, 0x00]; // "VDBSEG3\0" (format 3)
const FRAME_BYTES = 20;
/** The checksum is fed this much at a time: xxhash-wasm copies its input into its own heap, which never shrinks. */
const HASH_SLICE = 1 << 20;

export interface SegmentEntry {
  /** The segment's first slot (its local label 0). */
  base: number;
  /** hnswlib's max elements when saved. */
  maxElements: number;
  /** The slots it spans: up to the next segment's first slot (the last: the elements it holds). */
  holds: number;
}

export interface StoredSegment {
  base: number;
  /** 0 when not recorded (format 1). */
  maxElements: number;
  /** The slots it holds: up to the next segment's first slot (the last: up to the header's slot count). */
  holds: number | undefined;
  bytes: Uint8Array;
  last: boolean;
}

type Hasher = Awaited<ReturnType<typeof xxhash>>;
let hasher: Promise<Hasher> | undefined;

async function checksum(bytes: Uint8Array): Promise<number> {
  hasher ??= xxhash();
  const state = (await hasher).create32(0);
  for (let at = 0; at < bytes.length; at += HASH_SLICE) state.update(bytes.subarray(at, Math.min(bytes.length, at + HASH_SLICE)));
  return Number(state.digest()) >>> 0;
}

/** What goes before the first segment of a framed graph of `count` segments. */
export function framedStart(count: number): Uint8Array {
  const out = new Uint8Array(12);
  out.set(FRAMED_MAGIC, 0);
  new DataView(out.buffer).setUint32(8, count, true);
  return out;
}

/** What goes right before one segment's bytes in a framed graph. */
export async function frameOf(entry: SegmentEntry, bytes: Uint8Array): Promise<Uint8Array> {
  const out = new Uint8Array(FRAME_BYTES);
  const view = new DataView(out.buffer);
  [entry.base, entry.maxElements, entry.holds, bytes.length, await checksum(bytes)].forEach((v, i) => view.setUint32(4 * i, v, true));
  return out;
}

/**
 * Takes exact byte counts from a stream of pieces, `limit` bytes long: views where one piece holds them,
 * else one copy (never more than the stream holds, whatever a damaged length says).
 */
class ByteReader {
  private piece: Uint8Array = new Uint8Array(0);
  private at = 0;
  private taken = 0;
  private readonly iterator: AsyncIterator<Uint8Array>;

  constructor(
    stored: BackendBytes,
    private readonly limit: number,
  ) {
    const pieces = stored instanceof Uint8Array ? (async function* () { yield stored; })() : stored;
    this.iterator = pieces[Symbol.asyncIterator]();
  }

  async take(n: number, what: string): Promise<Uint8Array> {
    if (this.taken + n > this.limit) throw new IndexFormatError(`${what} runs past the graph's ${this.limit} bytes`);
    this.taken += n;
    if (this.piece.length - this.at >= n) return this.piece.subarray(this.at, (this.at += n));
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      if (this.at === this.piece.length) {
        const next = await this.iterator.next();
        if (next.done === true) throw new IndexFormatError(`the graph's bytes end inside ${what}`);
        this.piece = next.value;
        this.at = 0;
      }
      const count = Math.min(n - filled, this.piece.length - this.at);
      out.set(this.piece.subarray(this.at, this.at + count), filled);
      filled += count;
      this.at += count;
    }
    return out;
  }

  /** Reads on to the end (so a stream's own length check runs); throws when bytes are left. */
  async end(): Promise<void> {
    let left = this.piece.length - this.at;
    for (let next = await this.iterator.next(); next.done !== true; next = await this.iterator.next()) left += next.value.length;
    if (left > 0) throw new IndexFormatError(`${left} bytes follow the graph's last segment`);
  }
}

const u32s = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const hasMagic = (bytes: Uint8Array, magic: readonly number[]): boolean => magic.every((b, i) => bytes[i] === b);

/**
 * The segments in stored bytes of an index with `header`, one at a time (each segment's bytes are a
 * view of `stored` or their own copy, never the whole graph's): several from format 2 or 3, or one
 * from plain hnswlib bytes (format 1, joined: hnswlib reads whole files). Throws IndexFormatError when
 * damaged.
 */
export async function* readSegments(stored: BackendBytes, header: Pick<IndexHeader, 'format' | 'segments' | 'backendBytes'>): AsyncGenerator<StoredSegment> {
  const { format } = header;
  if (format === 1) {
    yield { base: 0, maxElements: 0, holds: undefined, bytes: stored instanceof Uint8Array ? stored : await joinPieces(stored), last: true };
    return;
  }
  const reader = new ByteReader(stored, header.backendBytes);
  const start = await reader.take(12, 'the segment count');
  const framed = format === 3;
  if (!hasMagic(start, framed ? FRAMED_MAGIC : TABLE_MAGIC)) throw new IndexFormatError(`the graph's bytes are not in segments of format ${format}`);
  const count = u32s(start).getUint32(8, true);
  if (count !== header.segments) throw new IndexFormatError(`the graph's bytes hold ${count} segments, its header says ${String(header.segments)}`);
  const table = framed ? undefined : u32s(await reader.take(12 * count, 'the segment table'));
  for (let i = 0; i < count; i++) {
    const last = i === count - 1;
    if (table !== undefined) {
      const base = table.getUint32(12 * i, true);
      const bytes = await reader.take(table.getUint32(12 * i + 8, true), `segment ${i}`);
      yield { base, maxElements: table.getUint32(12 * i + 4, true), holds: last ? undefined : table.getUint32(12 * i + 12, true) - base, bytes, last };
      continue;
    }
    const frame = u32s(await reader.take(FRAME_BYTES, `segment ${i}'s frame`));
    const bytes = await reader.take(frame.getUint32(12, true), `segment ${i}`);
    const sum = await checksum(bytes);
    if (sum !== frame.getUint32(16, true)) throw new IndexFormatError(`segment ${i} of the graph is damaged (checksum ${sum.toString(16)}, saved ${frame.getUint32(16, true).toString(16)})`);
    yield { base: frame.getUint32(0, true), maxElements: frame.getUint32(4, true), holds: last ? undefined : frame.getUint32(8, true), bytes, last };
  }
  await reader.end();
}
