/**
 * `$vector` values on the wire: an array of numbers or `{"$binary": base64 of big-endian float32}`.
 * Decoding validates the shape with the Data API's error codes; encoding keeps the form the caller sent.
 */
import { VectorDbError, describeValue } from '../errors/index.js';
import { isObject, type JsonValue } from './json.js';
import { approximate, isExactNumber } from './exact-number.js';

export type VectorForm = 'array' | 'binary';

/** The largest finite float32: a larger component would be stored as Infinity. */
const FLOAT32_MAX = 3.4028234663852886e38;

export interface DecodedVector {
  readonly values: Float32Array;
  readonly form: VectorForm;
}

/** Decodes a `$vector` value (document or sort). `null` means "no vector". `allocate` gives the float32s (see queryVectorArray). */
export function decodeVector(value: JsonValue | undefined, allocate: (length: number) => Float32Array = newFloat32Array): DecodedVector | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) {
    if (value.length === 0) throw VectorDbError.of('SHRED_BAD_VECTOR_SIZE', { reason: 'cannot be empty Array' });
    // Numbers go straight into the float32s and are checked there, after the loop: a loop that tested each
    // element read from an array with holes (`new Array(n)` then filled) boxed every one (~6 KB a
    // 384-dimension query). Any other element is looked at on its own.
    const values = allocate(value.length);
    for (let i = 0; i < value.length; i++) {
      const n = value[i];
      if (typeof n === 'number') values[i] = n;
      else values[i] = otherComponent(value, values, i);
    }
    checkComponents(value, values, value.length);
    return { values, form: 'array' };
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length !== 1 || keys[0] !== '$binary') {
      throw VectorDbError.of('SHRED_BAD_DOCUMENT_VECTOR_TYPE', {
        reason: `the key for the $vector Object must be '$binary', got ${describeValue(keys)}`,
      });
    }
    return { values: decodeBinaryVector(value.$binary, allocate), form: 'binary' };
  }
  throw VectorDbError.of('SHRED_BAD_VECTOR_VALUE', { reason: `got ${describeValue(value)}` });
}

function newFloat32Array(length: number): Float32Array {
  return new Float32Array(length);
}

/** Query vectors are cut from buffers of this size; larger ones get their own. */
const SLAB_BYTES = 64 * 1024;
const MAX_SLAB_VECTOR_BYTES = SLAB_BYTES / 8;
let slab: ArrayBuffer | undefined;
let slabUsed = 0;

/**
 * Float32s for a query vector (a sort's), cut from a shared 64 KiB buffer. A typed array of more than 64
 * bytes with a buffer of its own takes its memory from malloc, freed later by V8's array buffer sweeper:
 * ~0.3 us a 128-dimension query, per search. A query vector lives for one request, so a buffer stays
 * alive only while one of its vectors does; vectors kept in memory (documents') get their own.
 */
export function queryVectorArray(length: number): Float32Array {
  const bytes = length * 4;
  if (bytes > MAX_SLAB_VECTOR_BYTES) return new Float32Array(length);
  if (slab === undefined || slabUsed + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const values = new Float32Array(slab, slabUsed, length);
  slabUsed += bytes;
  return values;
}

/**
 * An element that is not a double: an exact number (components are float32 anyway: one with more digits
 * than a double holds is rounded like any other), else an error, after those of the elements before it.
 */
function otherComponent(value: readonly JsonValue[], values: Float32Array, i: number): number {
  const n = value[i];
  if (isExactNumber(n)) return approximate(n);
  checkComponents(value, values, i);
  throw VectorDbError.of('SHRED_BAD_VECTOR_VALUE', { reason: `element ${i} is ${describeValue(n)}` });
}

/** Refuses the first of the first `count` components that is NaN or beyond float32's range. */
function checkComponents(value: readonly JsonValue[], values: Float32Array, count: number): void {
  for (let i = 0; i < count; i++) {
    const f = values[i]!;
    // NaN, or at float32's limit: the element may have been past it (rounded down to it, or to Infinity).
    if (f !== f || f >= FLOAT32_MAX || f <= -FLOAT32_MAX) checkComponent(value[i], i);
  }
}

function checkComponent(element: JsonValue | undefined, i: number): void {
  const n = typeof element === 'number' ? element : approximate(element as never);
  if (Number.isNaN(n)) throw VectorDbError.of('SHRED_BAD_VECTOR_VALUE', { reason: `element ${i} is ${describeValue(n)}` });
  if (Math.abs(n) > FLOAT32_MAX) {
    // JSON.parse turns 1e400 into Infinity: say what the caller sent was too big, not "null".
    throw VectorDbError.of('SHRED_BAD_VECTOR_VALUE', { reason: `element ${i} is out of range: components are float32, at most ±${FLOAT32_MAX.toPrecision(8)} in magnitude` });
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function decodeBinaryVector(encoded: JsonValue | undefined, allocate: (length: number) => Float32Array = newFloat32Array): Float32Array {
  if (typeof encoded !== 'string' || !BASE64.test(encoded) || encoded.length % 4 !== 0) {
    throw VectorDbError.of('SHRED_BAD_BINARY_VECTOR_VALUE', { reason: `invalid base64 string ${describeValue(encoded)}` });
  }
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) {
    throw VectorDbError.of('SHRED_BAD_BINARY_VECTOR_VALUE', {
      reason: `decoded length ${bytes.length} bytes is not a positive multiple of 4 (float32)`,
    });
  }
  const values = allocate(bytes.length / 4);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatBE(i * 4);
  return values;
}

export function encodeBinaryVector(values: Float32Array | readonly number[]): string {
  const bytes = Buffer.allocUnsafe(values.length * 4);
  for (let i = 0; i < values.length; i++) bytes.writeFloatBE(values[i]!, i * 4);
  return bytes.toString('base64');
}

/** True when every component is zero: such a vector has no direction (cosine is undefined). */
export function isZeroVector(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] !== 0) return false;
  return true;
}
