/**
 * The native driver's dispose (vector/native-backend.ts) frees hnswlib's graph at once instead of when V8
 * collects the wrapper, but never under a write of the graph in flight: a save that began before dispose
 * still writes the whole graph, which hnswlib-node reads back as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from '../../src/vector-index/index-backend.js';
import { nativeDriverFactory } from '../../src/vector-index/native-backend.js';
import { nativeLoads } from '../support/native.js';
import { clustered, row } from './data.js';

const DIM = 16;
const dir = mkdtempSync(join(tmpdir(), 'native-dispose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!nativeLoads)('native driver dispose', () => {
  it('waits for a write in flight, then frees the graph; the driver refuses use after', async () => {
    const identity = { backend: 'native' as const, dimension: DIM, metric: 'cosine' as const, params: DEFAULT_PARAMS, name: 'ks.docs' };
    const driver = await nativeDriverFactory.create(identity, 10000);
    const data = clustered(5, 10000, DIM, 16, 0.25, true);
    driver.addFresh(data, Array.from({ length: 10000 }, (_, i) => i), Array.from({ length: 10000 }, (_, i) => i));
    const want = driver.search(row(data, 11, DIM), 5, 64, undefined);
    const file = join(dir, 'graph.bin');
    let written = false;
    const saving = driver.saveFile!(file, () => (written = true));
    driver.dispose();
    driver.dispose(); // twice is harmless
    await saving;
    expect(written).toBe(true);
    expect(() => driver.search(row(data, 11, DIM), 5, 64, undefined)).toThrow(/disposed/);

    const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node') as {
      HierarchicalNSW: new (space: string, dim: number) => { readIndexSync(file: string): void; getCurrentCount(): number; setEf(ef: number): void; searchKnn(q: number[], k: number): { neighbors: number[] } };
    };
    const back = new HierarchicalNSW('cosine', DIM);
    back.readIndexSync(file);
    back.setEf(64);
    expect(back.getCurrentCount()).toBe(10000);
    expect(back.searchKnn(Array.from(row(data, 11, DIM)), 5).neighbors).toEqual(Array.from(want.slots));
  });

  it('a disposed driver without a write frees at once and refuses use', async () => {
    const identity = { backend: 'native' as const, dimension: DIM, metric: 'euclidean' as const, params: DEFAULT_PARAMS, name: 'ks.docs' };
    const driver = await nativeDriverFactory.create(identity, 100);
    driver.addFresh(clustered(6, 100, DIM), Array.from({ length: 100 }, (_, i) => i), Array.from({ length: 100 }, (_, i) => i));
    driver.dispose();
    expect(() => driver.count()).toThrow(/disposed/);
  });
});
