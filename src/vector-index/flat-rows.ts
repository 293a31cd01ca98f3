/**
 * The size limits of FlatVectorStore's row arrays (flat-store.ts): how many rows of a dimension stay
 * below 4 GiB, allocating a plain array of rows within that, and the capacity error when it cannot.
 */
import { VectorDbError } from '../errors/vectordb-error.js';

/** Typed arrays above 4 GiB are refused by some engines, and wasm32 memory stops there: stay below. */
const MAX_BYTES = 2 ** 32 - 1;

export function checkSlots(slots: number, dimension: number): void {
  if (slots > maxSlots(dimension)) {
    throw capacityError(dimension, `${slots} rows are beyond the largest typed array (4 GiB)`);
  }
}

export function allocate(slots: number, dimension: number): Float32Array {
  checkSlots(slots, dimension);
  try {
    return new Float32Array(slots * dimension);
  } catch (cause) {
    throw capacityError(dimension, `allocating ${slots} rows failed (${String(cause)})`);
  }
}

function maxSlots(dimension: number): number {
  return Math.floor(MAX_BYTES / (4 * dimension));
}

function capacityError(dimension: number, reason: string): VectorDbError {
  return VectorDbError.of('VECTOR_INDEX_CAPACITY', {
    backend: 'exact-scan',
    collection: '',
    max: maxSlots(dimension),
    dimension,
    reason,
  });
}
