/**
 * The budgeted first-in-first-out map under the row cache and the hit cache (storage/fifo-cache.ts):
 * the oldest entries go first, a replaced or deleted entry's cost is returned once, and long runs of
 * evictions (past its queue compaction) keep exactly the newest entries that fit.
 */
import { describe, expect, it } from 'vitest';
import { FifoCache } from '../../src/storage/fifo-cache.js';

describe('FifoCache', () => {
  it('drops the oldest entries once over budget; a hit does not move an entry', () => {
    const cache = new FifoCache<string, number>(30);
    cache.set('a', 1, 10);
    cache.set('b', 2, 10);
    cache.set('c', 3, 10);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4, 10);
    expect([cache.get('a'), cache.get('b'), cache.get('d'), cache.size]).toEqual([undefined, 2, 4, 3]);
  });

  it('counts a replaced or deleted entry once, and forgets everything on clear', () => {
    const cache = new FifoCache<string, number>(30);
    cache.set('a', 1, 10);
    cache.set('a', 2, 10);
    cache.set('b', 3, 10);
    cache.delete('b');
    cache.delete('b');
    cache.set('c', 4, 10);
    cache.set('d', 5, 10);
    // a (replaced, cost 10 once), c, d: exactly the budget, nothing evicted.
    expect([cache.get('a'), cache.get('c'), cache.get('d'), cache.size]).toEqual([2, 4, 5, 3]);
    cache.set('e', 6, 15);
    expect([cache.get('a'), cache.get('c'), cache.get('e')]).toEqual([undefined, undefined, 6]);
    cache.clear();
    expect(cache.size).toBe(0);
    cache.set('f', 7, 30);
    expect(cache.get('f')).toBe(7);
  });

  it('keeps the newest entries that fit over many evictions, replacements and deletions', () => {
    const cache = new FifoCache<number, number>(100);
    for (let i = 0; i < 20_000; i++) {
      cache.set(i, i, 1);
      if (i % 7 === 0) cache.set(i - 3, -i, 1); // a replacement: it becomes the newest
      if (i % 11 === 0) cache.delete(i - 1);
    }
    expect(cache.size).toBeLessThanOrEqual(100);
    expect(cache.get(19_999)).toBe(19_999);
    expect(cache.get(19_000)).toBeUndefined();
    // Of the last 60 ids set, all are present but those deleted or replaced since.
    for (let i = 19_940; i < 20_000; i++) {
      const deleted = (i + 1) % 11 === 0;
      const replaced = (i + 3) % 7 === 0 && i + 3 < 20_000;
      if (!deleted) expect(cache.get(i)).toBe(replaced ? -(i + 3) : i);
    }
  });

  it('keeps its queue bounded when entries are replaced or deleted while under budget (read, write, read ...)', () => {
    const cache = new FifoCache<string, number>(1_000_000);
    for (let i = 0; i < 100_000; i++) {
      cache.set(`k${i % 50}`, i, 1);
      if (i % 2 === 0) cache.delete(`k${i % 50}`);
    }
    expect(cache.size).toBe(25);
    expect(cache.queued).toBeLessThanOrEqual(2 * cache.size + 1025);
    expect(cache.get('k49')).toBe(99_999);
    // The oldest live entry still goes first once the budget is reached.
    const small = new FifoCache<string, number>(3);
    for (let i = 0; i < 5_000; i++) small.set('x', i, 1);
    small.set('y', 1, 1);
    small.set('z', 1, 1);
    small.set('w', 1, 1);
    expect([small.get('x'), small.get('y'), small.get('z'), small.get('w')]).toEqual([undefined, 1, 1, 1]);
  });
});
