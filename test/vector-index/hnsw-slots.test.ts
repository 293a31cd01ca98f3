/**
 * HnswSlotTable's capacity plan against real drivers: a driver that resizes in place (native-rows) grows
 * by grownLength's step (an eighth past LARGE_LENGTH slots), a copying one (wasm) by half; the slots'
 * labels and live flags, and the graph's elements, stay as they were. Small vectors (dimension 4).
 */
import { describe, expect, it } from 'vitest';
import { grownLength, LARGE_LENGTH } from '../../src/platform/typed-arrays.js';
import type { BackendName } from '../../src/vector-index/index-backend.js';
import type { HnswDriverFactory, IndexIdentity } from '../../src/vector-index/backend-types.js';
import { HnswSlotTable } from '../../src/vector-index/hnsw-slots.js';
import { nativeRowsAvailable, nativeRowsDriverFactory } from '../../src/vector-index/native-rows-backend.js';
import { wasmDriverFactory } from '../../src/vector-index/wasm-backend.js';

const DIM = 4;

function identity(backend: BackendName): IndexIdentity {
  return { backend, dimension: DIM, metric: 'euclidean', params: { M: 4, efConstruction: 10, efSearch: 10 }, name: 'slots' };
}

const drivers: [BackendName, () => HnswDriverFactory][] = [
  ...(nativeRowsAvailable() ? [['native-rows', () => nativeRowsDriverFactory()] as [BackendName, () => HnswDriverFactory]] : []),
  ['wasm', () => wasmDriverFactory],
];

describe('HnswSlotTable growth', () => {
  it.each(drivers)('%s: past LARGE_LENGTH slots, grows by its driver\'s step and keeps what it holds', async (backend, factory) => {
    const start = LARGE_LENGTH + 1000;
    const driver = await factory().create(identity(backend), start);
    try {
      expect(driver.resizesInPlace === true).toBe(backend === 'native-rows');
      const table = HnswSlotTable.empty(driver.capacity());
      const labels = [70, 71, 72];
      expect(table.fitFresh(driver, labels.length)).toBe(true);
      const first = table.claim(labels.length);
      const slots = labels.map((_, i) => first + i);
      driver.addFresh(Float32Array.from({ length: labels.length * DIM }, (_, i) => i), [0, 1, 2], slots);
      slots.forEach((slot, i) => table.setLive(slot, labels[i]!));
      // One more slot than there is room for: the table grows.
      const cap = driver.capacity();
      const m = cap - table.used;
      expect(table.plan(driver, m, 0)).toEqual({ recycle: 0, fresh: m });
      const grown = driver.capacity();
      expect(grown).toBe(driver.resizesInPlace === true ? grownLength(cap, cap + 1) : Math.ceil(cap * 1.5));
      expect(table.labels.length).toBe(grown);
      expect(Array.from(table.labels.subarray(0, 3))).toEqual(labels);
      expect(Array.from(table.live.subarray(0, 4))).toEqual([1, 1, 1, 0]);
      expect(labels.map((label) => table.slotOf(label))).toEqual(slots);
      expect(driver.count()).toBe(3);
      const hits = driver.search(Float32Array.from([4, 5, 6, 7]), 1, 10, undefined);
      expect(hits.slots[0]).toBe(slots[1]);
    } finally {
      driver.dispose();
    }
  });
});
