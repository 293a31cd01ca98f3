/**
 * The byte format of a serialized vector index: our header (backend, dimension, metric, params),
 * the slot -> label table, then the backend's own hnswlib bytes. The layout is persisted by the
 * engine: never change a field's meaning; add fields to the JSON header, bump FORMAT_VERSION to break.
 * A wasm graph in several segments (wasm-segment-file.ts) is written as format 3 (SEGMENTED_FORMAT: its
 * segments framed one by one, so that saves stream), so that a version before it refuses it as
 * incompatible (and rebuilds) rather than hand hnswlib a segment table it cannot read; format 2 (the
 * segments' table first) is still read. Everything else is still written, and read, as format 1.
 *
 *   0  8 bytes  magic "VDBHNSW\0"
 *   8  u32 LE   length H of the JSON header (padded with spaces to a multiple of 4)
 *  12  H bytes  JSON header (IndexHeader)
 *      slots x u32 LE   label of each hnswlib slot (slot = the label hnswlib knows)
 *      ceil(slots / 8) bytes, padded to 4: bitmap of live slots (bit s % 8 of byte s >> 3)
 *      backendBytes bytes: what hnswlib's writeIndex produced
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { isMetric, type Metric } from './metric.js';

export const FORMAT_VERSION = 1;
/** The format of an index whose backend bytes hold several segments (`segments` > 1 in the header). */
export const SEGMENTED_FORMAT = 3;
/** Formats read: 2 is SEGMENTED_FORMAT as written before saves streamed. */
const READ_FORMATS: readonly number[] = [FORMAT_VERSION, 2, SEGMENTED_FORMAT];
const MAGIC = [0x56, 0x44, 0x42, 0x48, 0x4e, 0x53, 0x57, 0x00]; // "VDBHNSW\0"

/** 'native': hnswlib-node; 'native-rows': our addon (native/), an hnswlib graph over the engine's rows. */
export type BackendName = 'wasm' | 'native' | 'native-rows';

/** What a serialized index records about itself (readable without loading it: `readIndexHeader`). */
export interface IndexHeader {
  format: number;
  backend: BackendName;
  /** The library that wrote the backend bytes, e.g. "hnswlib-wasm 0.8.2". */
  library: string;
  dimension: number;
  metric: Metric;
  M: number;
  efConstruction: number;
  efSearch: number;
  seed: number;
  /** hnswlib elements, live and deleted. */
  slots: number;
  /** Live vectors. */
  live: number;
  /** hnswlib's max elements when written. */
  capacity: number;
  /** Length of the backend's bytes at the end. */
  backendBytes: number;
  /** Segments the backend's bytes hold, when more than one (formats 2 and 3 only). */
  segments?: number;
}

export interface DecodedIndex {
  header: IndexHeader;
  slotLabels: Uint32Array;
  live: Uint8Array;
  backendBytes: Uint8Array;
}

export function incompatible(reason: string, backend = 'requested', collection = ''): VectorDbError {
  return VectorDbError.of('VECTOR_INDEX_INCOMPATIBLE', { reason, backend, collection });
}

/** Damaged or foreign bytes; callers turn it into VECTOR_INDEX_INCOMPATIBLE with their names. */
export class IndexFormatError extends Error {
  override readonly name = 'IndexFormatError';
}
const bad = (reason: string): IndexFormatError => new IndexFormatError(reason);

const pad4 = (n: number): number => (n + 3) & ~3;
/** The slot table is little-endian: on such a machine (all usual ones) it is copied as is. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The index's bytes before the backend's own: the whole encoding is this head followed by hnswlib's
 * bytes, kept as two pieces so that a snapshot never copies tens of MB into one buffer.
 */
export function encodeIndexHead(
  header: Omit<IndexHeader, 'format' | 'backendBytes'>,
  slotLabels: Uint32Array,
  live: Uint8Array,
  backendLength: number,
): Uint8Array {
  const slots = header.slots;
  const segmented = (header.segments ?? 1) > 1;
  const { segments, ...rest } = header;
  const full: IndexHeader = { format: segmented ? SEGMENTED_FORMAT : FORMAT_VERSION, ...rest, backendBytes: backendLength, ...(segmented ? { segments } : {}) };
  const json = new TextEncoder().encode(JSON.stringify(full));
  const jsonLen = pad4(json.length);
  const bitmapLen = pad4(Math.ceil(slots / 8));
  const out = new Uint8Array(12 + jsonLen + 4 * slots + bitmapLen);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(8, jsonLen, true);
  out.fill(0x20, 12, 12 + jsonLen);
  out.set(json, 12);
  let at = 12 + jsonLen;
  for (let s = 0; s < slots; s++, at += 4) view.setUint32(at, slotLabels[s] as number, true);
  for (let s = 0; s < slots; s++) if (live[s] === 1) out[at + (s >> 3)] = (out[at + (s >> 3)] as number) | (1 << (s & 7));
  return out;
}

/** Reads only the header. Throws VECTOR_INDEX_INCOMPATIBLE when the bytes are not ours or damaged. */
export function readIndexHeader(bytes: Uint8Array): IndexHeader {
  try {
    return parseHeader(bytes);
  } catch (e) {
    throw e instanceof IndexFormatError ? incompatible(e.message) : e;
  }
}

function parseHeader(bytes: Uint8Array): IndexHeader {
  if (bytes.length < 12 || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw bad('the bytes do not start with a vectordb-local index header');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLen = view.getUint32(8, true);
  if (12 + jsonLen > bytes.length) throw bad('the index header is truncated');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + jsonLen)));
  } catch {
    throw bad('the index header is not valid JSON');
  }
  const h = parsed as Partial<IndexHeader> | null;
  if (h === null || typeof h !== 'object') throw bad('the index header is not an object');
  if (!READ_FORMATS.includes(h.format as number)) throw bad(`index format ${String(h.format)} is not supported (expected one of ${READ_FORMATS.join(', ')})`);
  if (h.format !== FORMAT_VERSION && !(Number.isInteger(h.segments) && (h.segments as number) > 1)) throw bad("index header field 'segments' is invalid");
  const ints = ['dimension', 'M', 'efConstruction', 'efSearch', 'seed', 'slots', 'live', 'capacity', 'backendBytes'] as const;
  for (const key of ints) {
    const v = h[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw bad(`index header field '${key}' is invalid`);
  }
  if (h.backend !== 'wasm' && h.backend !== 'native' && h.backend !== 'native-rows') throw bad(`unknown index backend '${String(h.backend)}'`);
  if (!isMetric(h.metric)) throw bad(`unknown index metric '${String(h.metric)}'`);
  return h as IndexHeader;
}

/** hnswlib's bytes, whole or as pieces that arrive one at a time (read from storage as needed). */
export type BackendBytes = Uint8Array | AsyncIterable<Uint8Array>;

/**
 * Reads the head (everything before hnswlib's bytes) from the start of a stream of pieces: the decoded
 * head, and hnswlib's bytes as the rest of the stream, never held whole. Throws IndexFormatError.
 */
export async function decodeIndexStream(pieces: AsyncIterable<Uint8Array>): Promise<{ head: DecodedIndex; rest: AsyncIterable<Uint8Array> }> {
  const iterator = pieces[Symbol.asyncIterator]();
  let prefix: Uint8Array = new Uint8Array(0);
  let headLength: number | undefined;
  while (headLength === undefined || prefix.length < headLength) {
    const next = await iterator.next();
    if (next.done) throw bad('the index bytes end inside the header');
    prefix = prefix.length === 0 ? next.value : concatBytes([prefix, next.value]);
    const jsonLen = prefix.length >= 12 ? new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength).getUint32(8, true) : Infinity;
    if (headLength === undefined && prefix.length >= 12 + jsonLen) {
      const { slots } = parseHeader(prefix);
      headLength = 12 + jsonLen + 4 * slots + pad4(Math.ceil(slots / 8));
    }
  }
  const headBytes = prefix.subarray(0, headLength);
  const first = prefix.subarray(headLength);
  const head = decodeIndex([headBytes, new Uint8Array(0)], true);
  async function* rest(): AsyncGenerator<Uint8Array> {
    let length = first.length;
    if (first.length > 0) yield first;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      length += next.value.length;
      yield next.value;
    }
    if (length !== head.header.backendBytes) throw bad(`hnswlib's bytes are ${length} long, the header says ${head.header.backendBytes}`);
  }
  return { head, rest: rest() };
}

/** Streamed pieces joined into one array (for a backend that needs its bytes whole). */
export async function joinPieces(pieces: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const all: Uint8Array[] = [];
  for await (const piece of pieces) all.push(piece);
  return concatBytes(all);
}

/** `pieces` joined into one array. */
export function concatBytes(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/**
 * Splits serialized bytes into their parts; throws IndexFormatError when they are not ours or damaged.
 * Also takes the two pieces serializeParts gave (head, hnswlib's bytes), so they are never joined.
 */
export function decodeIndex(serialized: Uint8Array | readonly Uint8Array[], headOnly = false): DecodedIndex {
  const pieces = serialized instanceof Uint8Array ? [serialized] : serialized;
  if (pieces.length === 0 || pieces.length > 2) throw bad(`an index is one or two pieces of bytes, got ${pieces.length}`);
  const bytes = pieces[0]!;
  const backendPiece = pieces[1];
  const header = parseHeader(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLen = view.getUint32(8, true);
  const slots = header.slots;
  const bitmapLen = pad4(Math.ceil(slots / 8));
  let at = 12 + jsonLen;
  const expected = at + 4 * slots + bitmapLen + header.backendBytes;
  const length = bytes.length + (backendPiece?.length ?? 0);
  if (!headOnly && (length !== expected || (backendPiece !== undefined && backendPiece.length !== header.backendBytes))) {
    throw bad(`the index bytes are ${length} long, the header says ${expected}`);
  }
  const slotLabels = LITTLE_ENDIAN ? new Uint32Array(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + 4 * slots)) : new Uint32Array(slots);
  if (!LITTLE_ENDIAN) for (let s = 0; s < slots; s++) slotLabels[s] = view.getUint32(at + 4 * s, true);
  at += 4 * slots;
  const live = new Uint8Array(slots);
  let liveCount = 0;
  for (let s = 0; s < slots; s++) {
    if (((bytes[at + (s >> 3)] as number) >> (s & 7)) & 1) {
      live[s] = 1;
      liveCount++;
    }
  }
  if (liveCount !== header.live) throw bad(`the live-slot bitmap counts ${liveCount}, the header says ${header.live}`);
  at += bitmapLen;
  return { header, slotLabels, live, backendBytes: backendPiece ?? bytes.subarray(at, at + header.backendBytes) };
}
