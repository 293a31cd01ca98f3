/**
 * ef in a wasm graph in segments (issue 31): a search asks every segment with the query's ef and merges,
 * so that a graph split over S heaps answers at least as well as one graph of the same vectors at the
 * same ef (each segment is a smaller graph searched as widely; the cost is S searches). Here 3,000
 * vectors in one segment, and the same vectors with each heap's room lowered (VECTORDB_WASM_HEAP_BYTES)
 * to 1,000 so that they span 3+ segments (5): recall@10 against an exact scan at ef 10, 20 and 40. Measured
 * (efConstruction 40): one graph 0.493, 0.609, 0.757; five segments 0.696, 0.812, 0.926. Scaling each
 * segment's ef down by S would make the split graph worse than one graph at the same ef (five segments at
 * ef 10 each, 0.696, against one at 40, 0.757): ef stays per segment.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createVectorIndex, readIndexHeader, type VectorIndex } from '../../src/vector-index/index-backend.js';
import { WASM_HEAP_ENV, wasmBytesPerElement } from '../../src/vector-index/wasm-capacity.js';
import { clustered, naiveTopK, row } from './data.js';

const DIM = 32;
const N = 3000;
const Q = 100;
const data = clustered(31, N, DIM);
const queries = clustered(32, Q, DIM);
const labels = Array.from({ length: N }, (_, i) => i);
const exact = Array.from({ length: Q }, (_, q) => new Set(naiveTopK('cosine', row(queries, q, DIM), data, DIM, labels, 10).map((h) => h.label)));
const made: VectorIndex[] = [];

async function build(): Promise<VectorIndex> {
  const index = await createVectorIndex({ dimension: DIM, metric: 'cosine', backend: 'wasm', capacity: 64, params: { efConstruction: 40 } });
  made.push(index);
  for (let i = 0; i < N; i += 500) index.add(labels.slice(i, i + 500), data.slice(i * DIM, (i + 500) * DIM));
  return index;
}

function recall(index: VectorIndex, ef: number): number {
  let hits = 0;
  for (let q = 0; q < Q; q++) for (const h of index.search(row(queries, q, DIM), 10, { ef })) if (exact[q]!.has(h.label)) hits++;
  return hits / (10 * Q);
}

const segments = async (index: VectorIndex): Promise<number> => readIndexHeader((await index.serializeParts())[0]!).segments ?? 1;

afterAll(() => {
  for (const index of made) index.dispose();
  delete process.env[WASM_HEAP_ENV];
});

describe('ef in a graph in segments', () => {
  it('answers at least as well at the same ef as one graph of the same vectors', async () => {
    const one = await build();
    process.env[WASM_HEAP_ENV] = String(96 * 2 ** 20 + 1000 * wasmBytesPerElement(DIM, 16));
    const split = await build();
    expect(await segments(one)).toBe(1);
    expect(await segments(split)).toBeGreaterThanOrEqual(3);
    const figures = [10, 20, 40].map((ef) => ({ ef, one: recall(one, ef), split: recall(split, ef) }));
    for (const { one: single, split: several } of figures) expect(several).toBeGreaterThanOrEqual(single);
    expect(figures[0]!.one).toBeLessThan(1); // else the comparison says nothing
  });
});
