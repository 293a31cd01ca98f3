/**
 * DenseSet: a set of small non-negative integers (labels, rows) in a byte array by number, iterated in
 * ascending order. A JS Set of a bulk load's pending labels rehashed itself on the event loop as it grew
 * (34 ms of CPU past 524,288 entries, 84 ms past 1,048,576: issue 31) and kept ~20 bytes an entry on the
 * heap; this one grows by grownLength (a copy of one byte a number) and holds one byte a number below the
 * largest. Portable, below every layer.
 */
import { grownLength, grownTo } from './typed-arrays.js';

export class DenseSet implements ReadonlySet<number> {
  #member = new Uint8Array(0);
  #size = 0;
  /** No member is below this (kept loosely: iteration moves it up). */
  #low = 0;
  /** No member is at or above this. */
  #high = 0;

  get size(): number {
    return this.#size;
  }

  has(value: number): boolean {
    return this.#member[value] === 1;
  }

  add(value: number): this {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`a DenseSet holds non-negative integers, not ${value}`);
    if (value >= this.#member.length) this.#member = grownTo(this.#member, grownLength(this.#member.length, Math.max(value + 1, 1024)));
    if (this.#member[value] === 1) return this;
    this.#member[value] = 1;
    if (this.#size === 0 || value < this.#low) this.#low = value;
    if (value >= this.#high) this.#high = value + 1;
    this.#size++;
    return this;
  }

  delete(value: number): boolean {
    if (this.#member[value] !== 1) return false;
    this.#member[value] = 0;
    if (--this.#size === 0) this.#low = this.#high = 0;
    return true;
  }

  clear(): void {
    this.#member = new Uint8Array(0);
    this.#size = this.#low = this.#high = 0;
  }

  /** Members in ascending order; members added above the one reached meanwhile are visited too. */
  *#ascending(): Generator<number, undefined, unknown> {
    // Skip the deleted run below the first member once, for every later iteration too.
    while (this.#low < this.#high && this.#member[this.#low] !== 1) this.#low++;
    for (let v = this.#low; v < this.#high; v++) if (this.#member[v] === 1) yield v;
    return undefined;
  }

  // A generator is what a Set's iterator is, bar the name the types give it (SetIterator).
  values(): SetIterator<number> {
    return this.#ascending() as unknown as SetIterator<number>;
  }

  keys(): SetIterator<number> {
    return this.values();
  }

  entries(): SetIterator<[number, number]> {
    const pairs = function* (of: Iterable<number>): Generator<[number, number], undefined, unknown> {
      for (const v of of) yield [v, v];
      return undefined;
    };
    return pairs(this.#ascending()) as unknown as SetIterator<[number, number]>;
  }

  [Symbol.iterator](): SetIterator<number> {
    return this.values();
  }

  forEach(callback: (value: number, value2: number, set: ReadonlySet<number>) => void, thisArg?: unknown): void {
    for (const v of this.#ascending()) callback.call(thisArg, v, v, this);
  }
}
