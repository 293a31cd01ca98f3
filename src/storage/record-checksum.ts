/**
 * The checksum framing of truth records (keys.isTruthKey: document bodies, vector records, table rows,
 * catalog entries): the one place that seals a value before it is written and checks it when read. KvStore
 * (kv-store.ts) applies it to every value under a truth key, so no reader or writer above storage/ sees it.
 *
 * A sealed value is [SEALED 0xFF][checksum, u32 LE][payload]. The checksum is xxHash32 of the payload seeded
 * with xxHash32 of the key's UTF-8: a record moved under another key (a damaged key) fails as a damaged
 * value does. xxHash32 comes from xxhash-wasm (WebAssembly, so the same code in Node and in a browser).
 *
 * Records of format 3 and before carry no checksum and are read as they are, until rewritten: a text record
 * (JSON, a document key) starts with printable ASCII, never 0xFF (nor the 0xFE, 0x7F... a damaged mark
 * becomes); a vector values record (`vval:`) is 4 bytes a float, so an unsealed one's length is a multiple
 * of 4 and a sealed one's is not.
 */
import type { KvValue } from './kv-types.js';
import { loadXxhash, type XxHash } from './xxhash.js';
import { VECTOR_VALUES_TAG } from './keys.js';

/** The first byte of a sealed value; never the first byte of UTF-8 text. */
const SEALED = 0xff;
const HEADER_BYTES = 5;

let hasher: XxHash | undefined;

/** Compiles the WebAssembly hasher once per process (KvStore.open waits for it). */
export async function loadRecordChecksum(): Promise<void> {
  hasher = await loadXxhash();
}

function checksum(key: string, payload: Uint8Array): number {
  if (hasher === undefined) throw new Error('record checksums used before loadRecordChecksum() resolved');
  return hasher.h32Raw(payload, hasher.h32(key, 0));
}

/** The value to store under a truth key: the payload behind its header. */
export function sealRecord(key: string, value: KvValue): Uint8Array {
  let out: Buffer;
  if (typeof value === 'string') {
    out = Buffer.allocUnsafe(HEADER_BYTES + Buffer.byteLength(value, 'utf8'));
    out.write(value, HEADER_BYTES, 'utf8');
  } else {
    out = Buffer.allocUnsafe(HEADER_BYTES + value.byteLength);
    out.set(value, HEADER_BYTES);
  }
  out[0] = SEALED;
  out.writeUInt32LE(checksum(key, out.subarray(HEADER_BYTES)), 1);
  return out;
}

/** What opening a stored value found: its payload, or why it cannot be trusted. */
export type OpenedRecord = { readonly ok: true; readonly payload: Uint8Array; readonly sealed: boolean } | { readonly ok: false; readonly reason: string };

/**
 * The payload of a value stored under a truth key: checked when sealed, as it is when written before
 * checksums (see the header). Never throws: the caller decides what a bad record means.
 */
export function openRecord(key: string, value: Uint8Array): OpenedRecord {
  const floats = isVectorValuesKey(key);
  if (floats ? value.byteLength % 4 === 0 : value[0] !== SEALED) {
    // Unsealed text records start with printable ASCII ('{', '#', a document key's type tag): any other first
    // byte (a sealed record's mark, damaged) is damage.
    if (!floats && !(value[0]! >= 0x20 && value[0]! < 0x7f)) return { ok: false, reason: `it starts with byte 0x${value[0]!.toString(16)}, neither a checksum's mark nor text` };
    return { ok: true, payload: value, sealed: false };
  }
  if (value.byteLength < HEADER_BYTES || (floats && value.byteLength % 4 !== 1)) return { ok: false, reason: `its length (${value.byteLength} bytes) is not that of a sealed record` };
  const payload = value.subarray(HEADER_BYTES);
  const stored = (value[1]! | (value[2]! << 8) | (value[3]! << 16) | (value[4]! << 24)) >>> 0;
  const actual = checksum(key, payload);
  return stored === actual ? { ok: true, payload, sealed: true } : { ok: false, reason: `its checksum does not match (stored ${hex(stored)}, computed ${hex(actual)})` };
}

/** Whether a value under a truth key carries a checksum (verify counts the records still unsealed). */
export function isSealed(key: string, value: Uint8Array): boolean {
  return value[0] === SEALED && (!isVectorValuesKey(key) || value.byteLength % 4 === 1);
}

function isVectorValuesKey(key: string): boolean {
  return key.startsWith(VECTOR_VALUES_TAG);
}

const hex = (n: number): string => n.toString(16).padStart(8, '0');
