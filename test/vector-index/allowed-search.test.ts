/**
 * A search given `allowed` labels (SearchOptions.allowed): on native-rows a byte per slot built per search
 * (hnsw-index.ts, slot-filter.ts), on wasm and hnswlib-node a callback asking the set. Each backend answers
 * only allowed live labels, by their current vectors: not deleted ones, not a replaced vector's old slot, a
 * label allowed before it was added once it is, none of a previous search's allowed labels (the bytes are
 * reused), and with `filter` too only labels it accepts. Sets with a `contentKey` (a repeated filter) keep
 * their bytes on native-rows until a slot changes label: the same answers through deletes, replaces and adds.
 * Wide ef over a few thousand seeded vectors, so the answers equal the exact filtered top k. About a second.
 */
import { describe, expect, it, vi } from 'vitest';
import { createVectorIndex, nativeBackendAvailable, type AllowedLabels, type BackendName, type VectorIndex } from '../../src/vector-index/index.js';
import { nativeRowsAvailable } from '../../src/vector-index/native-rows-backend.js';
import { HnswSlotTable } from '../../src/vector-index/hnsw-slots.js';
import { clustered, naiveTopK, row } from './data.js';

const DIM = 16;
const N = 1500;
const K = 10;
const EF = 400;
const DATA = clustered(41, N, DIM, 8, 0.3);
const QUERIES = clustered(42, 8, DIM, 8, 0.35);

const BACKENDS: { name: BackendName; available: boolean }[] = [
  { name: 'native-rows', available: nativeRowsAvailable() },
  { name: 'wasm', available: true },
  { name: 'native', available: await nativeBackendAvailable() },
];

/**
 * A sorted label array as the engine's LabelSet hands it over (`labels`; `keyed`: with the array as its
 * contentKey, as a postings entry's view), or a plain Set.
 */
function allowedOf(labels: number[], asArray = true, keyed = false): AllowedLabels {
  const sorted = Uint32Array.from([...new Set(labels)].sort((a, b) => a - b));
  if (!asArray) return new Set(sorted);
  const set = new Set(sorted);
  return { size: sorted.length, has: (label) => set.has(label), labels: sorted, ...(keyed ? { contentKey: sorted } : {}), [Symbol.iterator]: () => sorted[Symbol.iterator]() };
}

/** The exact top k of `data` (row i: label i) among `allowed`. */
function truth(query: Float32Array, data: Float32Array, allowed: (label: number) => boolean): number[] {
  return naiveTopK('euclidean', query, data, DIM, Array.from({ length: data.length / DIM }, (_, i) => i), K, allowed).map((hit) => hit.label);
}

async function indexOf(backend: BackendName): Promise<VectorIndex> {
  const index = await createVectorIndex({ dimension: DIM, metric: 'euclidean', backend, params: { M: 12, efConstruction: 100 } });
  index.add(Uint32Array.from({ length: N }, (_, i) => i), DATA);
  return index;
}

const labelsOf = (index: VectorIndex, query: Float32Array, options: Parameters<VectorIndex['search']>[2]): number[] => index.search(query, K, options).map((hit) => hit.label);

describe.each(BACKENDS)('search with allowed labels, $name backend', ({ name, available }) => {
  it.skipIf(!available)('answers the exact allowed top k, as a sorted array or a Set, and says whether it reads bytes', async () => {
    const index = await indexOf(name);
    expect(index.filtersByBytes).toBe(name === 'native-rows');
    const every7th = Array.from({ length: N / 7 }, (_, i) => i * 7 + 3);
    for (const asArray of [true, false]) {
      const allowed = allowedOf(every7th, asArray);
      for (let q = 0; q < 8; q++) {
        const query = row(QUERIES, q, DIM);
        expect(labelsOf(index, query, { ef: EF, allowed })).toEqual(truth(query, DATA, (label) => allowed.has(label)));
      }
    }
    index.dispose();
  });

  it.skipIf(!available).each([false, true])('never answers deleted labels, old vectors of replaced ones, or the previous search\'s labels (keyed: %s)', async (keyed) => {
    const index = await indexOf(name);
    const query = row(QUERIES, 0, DIM);
    const nearest = truth(query, DATA, () => true);
    // The query's 10 nearest, and a wide set: the bytes a narrow search reuses must not keep the wide one's.
    const wide = allowedOf(Array.from({ length: N }, (_, i) => i), true, keyed);
    expect(labelsOf(index, query, { ef: EF, allowed: wide })).toEqual(nearest);
    const far = allowedOf(Array.from({ length: 50 }, (_, i) => N - 1 - i * 3), true, keyed);
    const farTop = labelsOf(index, query, { ef: EF, allowed: far });
    expect(farTop).toEqual(truth(query, DATA, (label) => far.has(label)));
    expect(farTop.some((label) => nearest.includes(label))).toBe(false);

    // Deleted: the nearest five go; allowed still names them.
    index.remove(nearest.slice(0, 5));
    const data = DATA.slice();
    const gone = new Set(nearest.slice(0, 5));
    expect(labelsOf(index, query, { ef: EF, allowed: wide })).toEqual(truth(query, data, (label) => !gone.has(label)));

    // Replaced: the sixth nearest moves far away (its old slot is dead), a far label moves onto the query.
    const [moved, comes] = [nearest[5] as number, farTop[9] as number];
    const away = new Float32Array(DIM).fill(50);
    index.add([moved, comes], Float32Array.from([...away, ...query]));
    data.set(away, moved * DIM);
    data.set(query, comes * DIM);
    const after = labelsOf(index, query, { ef: EF, allowed: wide });
    expect(after[0]).toBe(comes);
    expect(after).not.toContain(moved);
    expect(after).toEqual(truth(query, data, (label) => !gone.has(label)));
    expect(labelsOf(index, query, { ef: EF, allowed: allowedOf([moved, comes]) })).toEqual([comes, moved]);
    index.dispose();
  });

  it.skipIf(!available).each([false, true])('answers a label allowed before it was added once it is, and applies `filter` besides `allowed` (keyed: %s)', async (keyed) => {
    const index = await indexOf(name);
    const query = row(QUERIES, 3, DIM);
    const allowed = allowedOf([1, 2, 3, N, N + 1], true, keyed);
    expect(labelsOf(index, query, { ef: EF, allowed })).toEqual(truth(query, DATA, (label) => allowed.has(label)));
    index.add([N + 1], query.slice());
    const data = new Float32Array([...DATA, ...new Float32Array(DIM).fill(40), ...query]);
    expect(labelsOf(index, query, { ef: EF, allowed })[0]).toBe(N + 1);
    expect(labelsOf(index, query, { ef: EF, allowed })).toEqual(truth(query, data, (label) => allowed.has(label) && label !== N));

    const even = (label: number): boolean => label % 2 === 0;
    const some = allowedOf(Array.from({ length: 600 }, (_, i) => i * 3));
    expect(labelsOf(index, query, { ef: EF, allowed: some, filter: even })).toEqual(truth(query, DATA, (label) => some.has(label) && even(label)));
    const boom = new Error('filter failed');
    expect(() => index.search(query, K, { ef: EF, allowed: some, filter: () => { throw boom; } })).toThrow(boom);
    // The index still searches after the throw.
    expect(labelsOf(index, query, { ef: EF, allowed: some })).toEqual(truth(query, DATA, (label) => some.has(label)));
    index.dispose();
  });

  it.skipIf(name !== 'native-rows' || !available)('marks a keyed filter\'s labels once while no slot changes label, and again after one does', async () => {
    const index = await indexOf(name);
    const marks = vi.spyOn(HnswSlotTable.prototype, 'markSlots');
    try {
      const labels = Array.from({ length: N / 3 }, (_, i) => i * 3);
      const keyed = allowedOf(labels, true, true);
      const plain = allowedOf(labels);
      for (let q = 0; q < 4; q++) labelsOf(index, row(QUERIES, q, DIM), { ef: EF, allowed: keyed });
      expect(marks).toHaveBeenCalledTimes(1);
      for (let q = 0; q < 4; q++) labelsOf(index, row(QUERIES, q, DIM), { ef: EF, allowed: plain });
      expect(marks).toHaveBeenCalledTimes(5);
      // Another keyed set in between, or a check besides the labels: marked anew.
      labelsOf(index, row(QUERIES, 0, DIM), { ef: EF, allowed: keyed });
      labelsOf(index, row(QUERIES, 0, DIM), { ef: EF, allowed: keyed, filter: () => true });
      expect(marks).toHaveBeenCalledTimes(7);
      const query = row(QUERIES, 5, DIM);
      const top = labelsOf(index, query, { ef: EF, allowed: keyed });
      expect(marks).toHaveBeenCalledTimes(8);
      index.remove([top[0] as number]);
      const after = labelsOf(index, query, { ef: EF, allowed: keyed });
      expect(marks).toHaveBeenCalledTimes(9);
      expect(after).not.toContain(top[0]);
      expect(after.slice(0, K - 1)).toEqual(top.slice(1));
    } finally {
      marks.mockRestore();
      index.dispose();
    }
  });
});
