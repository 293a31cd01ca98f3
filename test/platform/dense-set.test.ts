/**
 * DenseSet (src/platform/dense-set.ts), the pending labels of a collection's vectors: against a JS Set
 * under the same seeded adds and deletes across many growths (every member kept, none invented), its
 * iteration in ascending order while members come and go, and what the engine reads of it as a ReadonlySet.
 */
import { describe, expect, it } from 'vitest';
import { DenseSet } from '../../src/platform/dense-set.js';

/** A seeded generator of 32-bit numbers (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

describe('DenseSet', () => {
  it('holds what a Set holds under seeded adds and deletes across growths, iterated in ascending order', () => {
    const next = seeded(31);
    const dense = new DenseSet();
    const set = new Set<number>();
    let top = 0;
    for (let i = 0; i < 100_000; i++) {
      const r = next();
      if (r % 3 === 0 && set.size > 0) {
        // Delete a low member, as the indexer takes the oldest pending labels.
        const victim = top - 1 - (r % Math.min(top, 5000));
        expect(dense.delete(victim)).toBe(set.delete(victim));
      } else {
        // New labels mostly in increasing order, sometimes one far ahead (a growth by several steps).
        const label = r % 97 === 0 ? top + (r % 3000) : top;
        top = Math.max(top, label + 1);
        dense.add(label);
        set.add(label);
      }
    }
    expect(dense.size).toBe(set.size);
    expect([...dense]).toEqual([...set].sort((a, b) => a - b));
    for (let v = 0; v < top + 10; v += 97) expect(dense.has(v)).toBe(set.has(v));
    expect(dense.add(5).add(5).has(5)).toBe(true);
  });

  it('iterates the members added and skips those deleted while an iteration runs; clear empties it', () => {
    const dense = new DenseSet();
    for (const v of [3, 1, 8, 2]) dense.add(v);
    const seen: number[] = [];
    for (const v of dense) {
      seen.push(v);
      if (v === 2) {
        dense.delete(3);
        dense.add(20);
      }
    }
    expect(seen).toEqual([1, 2, 8, 20]);
    expect([...dense.entries()]).toEqual([[1, 1], [2, 2], [8, 8], [20, 20]]);
    const each: number[] = [];
    dense.forEach((v, w, s) => each.push(v + w + s.size));
    expect(each).toEqual([2 + 4, 4 + 4, 16 + 4, 40 + 4]);
    // Deleting the lowest members moves where iteration starts; a member below it again is found.
    dense.delete(1);
    dense.delete(2);
    expect([...dense]).toEqual([8, 20]);
    dense.add(0);
    expect([...dense.keys()]).toEqual([0, 8, 20]);
    dense.clear();
    expect(dense.size).toBe(0);
    expect([...dense]).toEqual([]);
    expect(dense.has(8)).toBe(false);
    expect(() => dense.add(-1)).toThrow(RangeError);
    expect(() => dense.add(1.5)).toThrow(RangeError);
  });
});
