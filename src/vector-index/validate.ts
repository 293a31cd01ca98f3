/**
 * Argument checks shared by the vector layer: labels are uint32, vectors have the index's dimension,
 * finite values, and a non-zero norm under cosine. Failures are INVALID_ARGUMENT VectorDbErrors.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { type Metric } from './metric.js';

/** Largest dimension accepted (hnswlib has no limit; this keeps one vector well under a wasm page). */
export const MAX_DIMENSION = 16_384;

export function invalid(reason: string): VectorDbError {
  return VectorDbError.of('INVALID_ARGUMENT', { reason });
}

export function checkDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > MAX_DIMENSION) {
    throw invalid(`vector dimension must be an integer from 1 to ${MAX_DIMENSION}, got ${dimension}`);
  }
}

/** Labels are uint32: hnswlib would silently truncate anything else. */
export function checkLabel(label: number): void {
  if (!Number.isInteger(label) || label < 0 || label > 0xffff_ffff) {
    throw invalid(`vector label must be an integer from 0 to 4294967295, got ${label}`);
  }
}

/**
 * Checks `dim` values of `v` from `offset`; returns their squared norm.
 * A zero vector has no direction, so cosine cannot rank against it (the Data API refuses it too).
 */
export function checkVector(
  v: ArrayLike<number>,
  dim: number,
  metric: Metric,
  what = 'vector',
  offset = 0,
  checkLength = true,
): number {
  if (checkLength && v.length !== dim) throw invalid(`${what} has ${v.length} values, the index has dimension ${dim}`);
  let sq = 0;
  for (let i = offset, end = offset + dim; i < end; i++) {
    const x = v[i] as number;
    sq += x * x;
  }
  if (!Number.isFinite(sq)) {
    for (let i = offset, end = offset + dim; i < end; i++) {
      const x = v[i] as number;
      if (!Number.isFinite(x)) throw invalid(`${what} value at position ${i - offset} is ${x}: values must be finite numbers`);
    }
    throw invalid(`${what} is too large: its squared norm overflows`);
  }
  if (metric === 'cosine' && sq === 0) throw invalid(`${what} is all zeros: a zero vector cannot be used with the cosine metric`);
  return sq;
}
