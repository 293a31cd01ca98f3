/**
 * The per-collection cache of filters' candidate label sets (engine/collections/vector-select.ts CandidateCache):
 * an entry holds for the store generation it was read at, at most 64 sets are kept, and the labels
 * kept in all stay within a million (large sets evict more of the oldest).
 */
import { describe, expect, it } from 'vitest';
import { CandidateCache } from '../../src/engine/collections/vector-select.js';
import { LabelSet } from '../../src/engine/vectors/postings.js';
import { parseFilter } from '../../src/query/filter.js';

const filterOf = (n: number) => parseFilter({ n }, { isIndexed: () => true });
const labels = (size: number) => ({ allowed: new LabelSet(new Uint32Array(size)), verified: false });

describe('CandidateCache', () => {
  it('answers at the generation it was filled at only', () => {
    const cache = new CandidateCache();
    const filter = filterOf(1);
    const candidates = labels(3);
    cache.set(filter, 5, candidates);
    expect(cache.get(filter, 5)?.allowed).toBe(candidates.allowed);
    expect(cache.get(filter, 6)).toBeUndefined();
    expect(cache.get(filter, 5)).toBeUndefined();
  });

  it('keeps the newest 64 small sets, and fewer when sets are large', () => {
    const cache = new CandidateCache();
    const filters = Array.from({ length: 100 }, (_, i) => filterOf(i));
    filters.forEach((filter) => cache.set(filter, 0, labels(10)));
    expect(filters.map((filter) => cache.get(filter, 0) !== undefined).lastIndexOf(false)).toBe(35);
    cache.set(filterOf(1000), 0, labels(600_000));
    const kept = filters.filter((filter) => cache.get(filter, 0) !== undefined).length;
    expect(kept).toBeLessThanOrEqual(26); // (1,000,000 - 600,000) / 15,625 - 1
    expect(kept).toBeGreaterThan(20);
    const huge = filterOf(1001);
    cache.set(huge, 0, labels(1_000_001));
    expect(cache.get(huge, 0)).toBeUndefined();
    const small = filterOf(1002);
    cache.set(small, 0, labels(1));
    expect(cache.get(small, 0)).toBeDefined();
  });
});
