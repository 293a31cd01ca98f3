/**
 * A Bloom filter that grows with its keys (a scalable Bloom filter, Almeida et al. 2007): a chain of bit
 * arrays, each made for twice the keys of the one before and at a lower false-positive rate, so that the
 * chain's rate stays under FALSE_POSITIVES however many keys come, without the keys (a rebuild would need
 * them). It answers "certainly never added" or "maybe"; it never forgets a key. A key is hashed once, by
 * xxHash64 of its UTF-8, whose two halves make each bit array's probes by double hashing.
 */
import type { XxHash } from './xxhash.js';

/** The chain's bound on false positives: an absent key answers "maybe" at most this often. */
export const FALSE_POSITIVES = 0.01;
/** Each bit array's rate is this times the one before's: the rates sum to FIRST_RATE / (1 - TIGHTENING). */
const TIGHTENING = 0.8;
const FIRST_RATE = FALSE_POSITIVES * (1 - TIGHTENING);
/**
 * Keys the first bit array is made for (26 KB); each next one is made for twice the one before. An absent key
 * is looked up in every bit array (a cache miss or two each), so fewer, larger ones are faster: 1M keys take 6.
 */
const FIRST_CAPACITY = 16384;
const LOW_32 = 0xffffffffn;

/** One bit array of the chain, made for `capacity` keys at `rate` false positives. */
class BitArray {
  readonly capacity: number;
  readonly #words: Uint32Array;
  readonly #bits: number;
  readonly #probes: number;
  added = 0;

  constructor(capacity: number, rate: number) {
    const bitsPerKey = -Math.log(rate) / (Math.LN2 * Math.LN2);
    this.capacity = capacity;
    this.#words = new Uint32Array(Math.ceil((capacity * bitsPerKey) / 32));
    this.#bits = this.#words.length * 32;
    this.#probes = Math.max(1, Math.round(bitsPerKey * Math.LN2));
  }

  get bytes(): number {
    return this.#words.byteLength;
  }

  has(a: number, b: number): boolean {
    const bits = this.#bits;
    let at = a % bits;
    const step = b % bits || 1;
    for (let i = 0; i < this.#probes; i++) {
      if ((this.#words[at >>> 5]! & (1 << (at & 31))) === 0) return false;
      at += step;
      if (at >= bits) at -= bits;
    }
    return true;
  }

  set(a: number, b: number): void {
    const bits = this.#bits;
    let at = a % bits;
    const step = b % bits || 1;
    for (let i = 0; i < this.#probes; i++) {
      this.#words[at >>> 5]! |= 1 << (at & 31);
      at += step;
      if (at >= bits) at -= bits;
    }
  }
}

export class GrowingBloomFilter {
  readonly #hash: XxHash;
  readonly #chain: BitArray[] = [];

  constructor(hash: XxHash) {
    this.#hash = hash;
  }

  /** False only when `key` was certainly never added. */
  mayHold(key: string): boolean {
    const hash = this.#hash.h64(key);
    return this.#holds(Number(hash & LOW_32), Number(hash >> 32n));
  }

  /** Adds `key` (a key it may already hold is not added again: rewrites of a key do not grow the chain). */
  add(key: string): void {
    const hash = this.#hash.h64(key);
    const a = Number(hash & LOW_32);
    const b = Number(hash >> 32n);
    if (this.#holds(a, b)) return;
    let last = this.#chain[this.#chain.length - 1];
    if (last === undefined || last.added >= last.capacity) {
      const n = this.#chain.length;
      last = new BitArray(FIRST_CAPACITY * 2 ** n, FIRST_RATE * TIGHTENING ** n);
      this.#chain.push(last);
    }
    last.set(a, b);
    last.added++;
  }

  /** The keys added (those it took for ones it held are not counted). */
  get count(): number {
    return this.#chain.reduce((sum, bits) => sum + bits.added, 0);
  }

  /** The bytes of its bit arrays. */
  get bytes(): number {
    return this.#chain.reduce((sum, bits) => sum + bits.bytes, 0);
  }

  #holds(a: number, b: number): boolean {
    for (const bits of this.#chain) if (bits.has(a, b)) return true;
    return false;
  }
}
