/**
 * The backend bytes of a wasm graph in several segments (index-format.ts holds them after our head):
 * a table of the segments, then each segment's hnswlib bytes. A graph in one segment is saved as plain
 * hnswlib bytes, as before segments existed (hnswlib's files start with a zero offset, never our magic).
 *
 *   0  8 bytes   magic "VDBSEGS\0"
 *   8  u32 LE    segment count S
 *  12  S x 12    per segment: u32 first slot, u32 hnswlib max elements, u32 length of its bytes
 *      ...       the segments' hnswlib bytes, in order
 */
import { IndexFormatError, joinPieces, type BackendBytes } from './index-format.js';

const MAGIC = [0x56, 0x44, 0x42, 0x53, 0x45, 0x47, 0x53, 0x00]; // "VDBSEGS\0"

export interface SegmentEntry {
  /** The segment's first slot (its local label 0). */
  base: number;
  /** hnswlib's max elements when saved. */
  maxElements: number;
}

export interface StoredSegment extends SegmentEntry {
  bytes: Uint8Array;
}

/** The segment table; the segments' bytes follow it. */
export function encodeSegmentTable(segments: readonly SegmentEntry[], lengths: readonly number[]): Uint8Array {
  const out = new Uint8Array(12 + 12 * segments.length);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, segments.length, true);
  segments.forEach((s, i) => {
    view.setUint32(12 + 12 * i, s.base, true);
    view.setUint32(16 + 12 * i, s.maxElements, true);
    view.setUint32(20 + 12 * i, lengths[i] as number, true);
  });
  return out;
}

const isSegmented = (bytes: Uint8Array): boolean => bytes.length >= 8 && MAGIC.every((b, i) => bytes[i] === b);

/**
 * The segments in stored bytes: several from a segment table, or one (first slot 0, max elements 0: not
 * recorded) from plain hnswlib bytes. Streamed bytes are joined first (hnswlib reads whole files); the
 * segments are views of them. Throws IndexFormatError when damaged.
 */
export async function readSegments(stored: BackendBytes): Promise<StoredSegment[]> {
  const whole = stored instanceof Uint8Array ? stored : await joinPieces(stored);
  if (!isSegmented(whole)) return [{ base: 0, maxElements: 0, bytes: whole }];
  const view = new DataView(whole.buffer, whole.byteOffset, whole.byteLength);
  const count = view.getUint32(8, true);
  let at = 12 + 12 * count;
  if (count === 0 || at > whole.length) throw new IndexFormatError(`the graph's segment table is damaged (${count} segments)`);
  const out: StoredSegment[] = [];
  for (let i = 0; i < count; i++) {
    const base = view.getUint32(12 + 12 * i, true);
    const maxElements = view.getUint32(16 + 12 * i, true);
    const length = view.getUint32(20 + 12 * i, true);
    if (at + length > whole.length) throw new IndexFormatError(`segment ${i} of the graph runs past its bytes`);
    out.push({ base, maxElements, bytes: whole.subarray(at, at + length) });
    at += length;
  }
  if (at !== whole.length) throw new IndexFormatError(`the graph's segments end at byte ${at} of ${whole.length}`);
  return out;
}
