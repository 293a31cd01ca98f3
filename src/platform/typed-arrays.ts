/**
 * Growing the typed arrays that keep per-label and per-row state (labels and rows are dense numbers, so
 * such state lives in typed arrays by number, not in JS objects). Portable, below every layer.
 */

type NumberArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;

/** A copy of `array` with room for `length` items (the new ones 0), of the same kind. */
export function grownTo<T extends NumberArray>(array: T, length: number): T {
  const grown = new (array.constructor as new (length: number) => T)(length);
  grown.set(array);
  return grown;
}
