/**
 * Growing the typed arrays that keep per-label and per-row state (labels and rows are dense numbers, so
 * such state lives in typed arrays by number, not in JS objects), and the one rule for how much room a
 * grown array (or an hnswlib graph's capacity) gets. Portable, below every layer.
 */

type NumberArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;

/** Below this many items an array grows by half; past it by an eighth. */
export const LARGE_LENGTH = 65_536;

/**
 * The length to grow an array of `length` items to when `need` items must fit: by half while small (few
 * copies), by an eighth once large, so that at most a ninth of a large array is slack (its unused tail is
 * often memory in use: filled with a marker, or hnswlib's lock and level per unused slot); a large array's
 * copies then add up to about eight of each item over its life, cheap beside what fills the items.
 */
export function grownLength(length: number, need: number): number {
  const step = length < LARGE_LENGTH ? Math.ceil(length / 2) : Math.ceil(length / 8);
  return Math.max(need, length + step);
}

/** A copy of `array` with room for `length` items (the new ones 0), of the same kind. */
export function grownTo<T extends NumberArray>(array: T, length: number): T {
  const grown = new (array.constructor as new (length: number) => T)(length);
  grown.set(array);
  return grown;
}
