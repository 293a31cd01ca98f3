/**
 * The storage layer's row cache: point reads after writes, deletes and range clears see the last
 * committed value; a read that races a write never leaves the old value cached; the budget holds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { KvStore, bytesToString } from '../../src/storage/index.js';
import { RowCache } from '../../src/storage/row-cache.js';
import { tempDir } from '../support/temp.js';

const stores: KvStore[] = [];
async function open(): Promise<KvStore> {
  const kv = await KvStore.open(tempDir());
  stores.push(kv);
  return kv;
}
afterAll(async () => {
  for (const kv of stores) await kv.close();
});

const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : bytesToString(value));

describe('KvStore point reads through the row cache', () => {
  it('see every committed put, delete and range clear', async () => {
    const kv = await open();
    await kv.batch([{ type: 'put', key: 'a', value: '1' }]);
    expect(await kv.getString('a')).toBe('1');
    expect(await kv.getString('a')).toBe('1'); // now from the cache
    await kv.batch([{ type: 'put', key: 'a', value: '2' }]);
    expect(await kv.getString('a')).toBe('2');
    await kv.batch([{ type: 'del', key: 'a' }]);
    expect(await kv.getString('a')).toBeUndefined();
    await kv.batch([{ type: 'put', key: 'b1', value: 'x' }, { type: 'put', key: 'b2', value: 'y' }]);
    expect((await kv.getMany(['b1', 'b2', 'b3'])).map(text)).toEqual(['x', 'y', undefined]);
    await kv.clearRange('b', 'c');
    expect((await kv.getMany(['b1', 'b2'])).map(text)).toEqual([undefined, undefined]);
  });

  it('never keeps what a read saw before a write that committed while it was in flight', async () => {
    const kv = await open();
    const keys = Array.from({ length: 100 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    await kv.batch(keys.map((key) => ({ type: 'put', key, value: 'old' })));
    for (let round = 0; round < 20; round++) {
      // 100 keys: read through the thread pool, so the write below can commit before the read returns.
      const reading = kv.getMany(keys);
      const writing = kv.batch(keys.map((key) => ({ type: 'put', key, value: `new${round}` })));
      await Promise.all([reading, writing]);
      expect((await kv.getMany(keys.slice(0, 10))).map(text)).toEqual(Array(10).fill(`new${round}`));
      expect(text(await kv.get(keys[99]!))).toBe(`new${round}`);
    }
  });
});

describe('RowCache', () => {
  const bytes = (n: number) => new Uint8Array(n);

  it('drops the values cached first once over its budget, and skips values over the size limit', () => {
    const cache = new RowCache(3 * (200 + 64 + 2), 1000);
    for (const key of ['a', 'b', 'c', 'd']) cache.fill(key, bytes(200), cache.generation);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('d')?.byteLength).toBe(200);
    cache.fill('big', bytes(2000), cache.generation);
    expect(cache.get('big')).toBeUndefined();
  });

  it('refuses a fill from a read that started before an invalidation', () => {
    const cache = new RowCache(1 << 20, 1 << 10);
    const started = cache.generation;
    cache.invalidate([{ key: 'x' }]);
    cache.fill('x', bytes(1), started);
    expect(cache.get('x')).toBeUndefined();
    cache.fill('x', bytes(1), cache.generation);
    expect(cache.get('x')).toBeDefined();
    cache.invalidate([{ key: 'x' }]);
    expect(cache.get('x')).toBeUndefined();
  });
});
