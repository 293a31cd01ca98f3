/**
 * The key-presence filters (storage/key-presence.ts over storage/bloom-filter.ts): a growing Bloom filter never
 * forgets a key and keeps its false positives near 1 % as it grows; a store's filter for a prefix holds every
 * key stored or put under it, whether put before it was made (its scan, which waits for writes prepared
 * before), while it scans, or after, through a prepared batch or a raw one; on LevelDB and on memory-level.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GrowingBloomFilter } from '../../src/storage/bloom-filter.js';
import { KvStore } from '../../src/storage/kv-store.js';
import { loadXxhash, type XxHash } from '../../src/storage/xxhash.js';
import { tempDir } from '../support/temp.js';

let hash: XxHash;
const open: KvStore[] = [];

beforeAll(async () => {
  hash = await loadXxhash();
});

afterEach(async () => {
  for (const kv of open.splice(0)) await kv.close();
});

async function store(kind: 'persistent' | 'memory'): Promise<KvStore> {
  const kv = await KvStore.open(kind === 'memory' ? `mem-${Math.random()}` : tempDir(), kind);
  open.push(kv);
  return kv;
}

describe('GrowingBloomFilter', () => {
  it('holds every key added as it grows; about 1 % of absent keys answer "maybe"; a key added again is not counted', () => {
    const filter = new GrowingBloomFilter(hash);
    const N = 60_000;
    for (let i = 0; i < N; i++) filter.add(`doc:000001\u0000s${i}`);
    let missing = 0;
    for (let i = 0; i < N; i++) if (!filter.mayHold(`doc:000001\u0000s${i}`)) missing++;
    expect(missing).toBe(0);
    let maybe = 0;
    for (let i = 0; i < N; i++) if (filter.mayHold(`doc:000001\u0000t${i}`)) maybe++;
    expect(maybe / N).toBeLessThan(0.012);
    const count = filter.count;
    expect(count).toBeGreaterThan(0.99 * N);
    for (let i = 0; i < 1000; i++) filter.add(`doc:000001\u0000s${i}`);
    expect(filter.count).toBe(count);
    // Its memory: a few bytes a key, far under the 100.
    expect(filter.bytes / N).toBeLessThan(4.5);
  });

  it('an empty filter holds nothing', () => {
    expect(new GrowingBloomFilter(hash).mayHold('anything')).toBe(false);
  });
});

describe.each(['persistent', 'memory'] as const)('KvStore.keyPresence (%s)', (kind) => {
  it('holds the keys stored before it, those put while it scans and after, by prepared and raw batches', async () => {
    const kv = await store(kind);
    await kv.batch(Array.from({ length: 5000 }, (_, i) => ({ type: 'put' as const, key: `p:${i}`, value: 'v' })));
    // Prepared before the filter is made, written after: its scan waits for the write.
    const early = kv.prepare([{ type: 'put', key: 'p:early', value: 'v' }]);
    const presence = kv.keyPresence('p:');
    expect(kv.keyPresence('p:')).toBe(presence);
    expect(presence.mayHold('p:absent')).toBe(true); // scanning: everything may exist
    await kv.batch([{ type: 'put', key: 'p:during', value: 'v' }]);
    await early.write();
    await kv.rawBatch([{ type: 'put', key: 'p:raw', value: 'v' }]);
    expect(await presence.scanned).toBe(true);
    expect(presence.state).toBe('complete');
    await kv.batch([
      { type: 'put', key: 'p:after', value: 'v' },
      { type: 'put', key: 'q:other', value: 'v' },
    ]);
    for (const key of ['p:early', 'p:during', 'p:raw', 'p:after']) expect(presence.mayHold(key), key).toBe(true);
    let missing = 0;
    for (let i = 0; i < 5000; i++) if (!presence.mayHold(`p:${i}`)) missing++;
    expect(missing).toBe(0);
    // Another prefix's keys are not noted in it.
    expect(presence.count).toBeLessThanOrEqual(5004);
    let maybe = 0;
    for (let i = 0; i < 2000; i++) if (presence.mayHold(`p:new${i}`)) maybe++;
    expect(maybe).toBeLessThan(60);
  });

  it('a discarded batch and a deleted key leave false positives, never a missing key', async () => {
    const kv = await store(kind);
    const presence = kv.keyPresence('p:');
    expect(await presence.scanned).toBe(true);
    expect(presence.mayHold('p:x')).toBe(false);
    await kv.prepare([{ type: 'put', key: 'p:x', value: 'v' }]).discard();
    await kv.batch([{ type: 'put', key: 'p:y', value: 'v' }]);
    await kv.batch([{ type: 'del', key: 'p:y' }]);
    expect(presence.mayHold('p:x')).toBe(true);
    expect(presence.mayHold('p:y')).toBe(true);
  });
});
