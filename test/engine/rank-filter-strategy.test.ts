/**
 * How rank.ts ranks a filtered search: a filter letting few vectors through is scanned exactly, a larger one
 * goes through the graph with the filter. "Few" is a fraction of the collection, but never more than a fixed
 * number of rows: in a large collection a 10 % filter means 100,000 rows read from anywhere in memory per
 * query, which the graph's walk beats (1M x 128: 28 queries a second scanned). The store and labels are real;
 * the graph is a stand-in that answers the exact filtered top k and records how it was asked.
 */
import { describe, expect, it } from 'vitest';
import { filterScansExactly, rankLabels, type RankSource } from '../../src/engine/vectors/rank.js';
import { VectorLabels } from '../../src/engine/vectors/labels.js';
import type { LabelFilter } from '../../src/engine/vectors/settings.js';
import { FlatVectorStore, type ScoredLabel, type VectorIndex } from '../../src/vector-index/index.js';
import { clustered, row } from '../vector-index/data.js';

const DIM = 4;
const N = 80_000;
const DATA = clustered(3, N, DIM, 8, 0.3, true);

interface Asked {
  k: number;
  filtered: boolean;
}

function source(asked: Asked[]): RankSource {
  const flat = new FlatVectorStore({ dimension: DIM, metric: 'dot_product' });
  flat.setRows(Uint32Array.from({ length: N }, (_, i) => i), DATA);
  const labels = new VectorLabels();
  for (let label = 0; label < N; label++) labels.set(label, `k${label}`);
  const graph = {
    size: N,
    quantized: false,
    params: { M: 16, efConstruction: 200, efSearch: 64 },
    has: () => true,
    search(query: Float32Array, k: number, options: { filter?: (label: number) => boolean } = {}): ScoredLabel[] {
      asked.push({ k, filtered: options.filter !== undefined });
      const allowed = Array.from({ length: N }, (_, i) => i).filter((label) => options.filter?.(label) ?? true);
      return flat.exactSearch(query, k, allowed);
    },
  } as unknown as VectorIndex;
  return { size: N, graph, labels, pendingAdds: new Set(), pendingRemoves: 0, flat, ensureValues: () => undefined };
}

/** Every `step`-th label from `first`, as the engine's filters hand them over. */
function everyNth(step: number, first = 0): LabelFilter {
  const list = Uint32Array.from({ length: Math.ceil((N - first) / step) }, (_, i) => first + i * step);
  const set = new Set(list);
  return { size: list.length, has: (label) => set.has(label), labels: list, [Symbol.iterator]: () => list[Symbol.iterator]() };
}

describe('rank.ts: exact scan or graph for a filtered search', () => {
  it('scans a filter exactly up to 15 % of the collection, capped at 10,000 rows, and always below 2,000', () => {
    expect(filterScansExactly(1_500, 1_000_000)).toBe(true);
    expect(filterScansExactly(10_000, 1_000_000)).toBe(true);
    expect(filterScansExactly(10_001, 1_000_000)).toBe(false);
    expect(filterScansExactly(100_000, 1_000_000)).toBe(false);
    expect(filterScansExactly(9_000, 100_000)).toBe(true);
    expect(filterScansExactly(12_000, 100_000)).toBe(false);
    expect(filterScansExactly(1_400, 10_000)).toBe(true);
    expect(filterScansExactly(1_900, 10_000)).toBe(true);
    expect(filterScansExactly(3_000, 10_000)).toBe(false);
  });

  it('a 12.5 % filter of 80,000 vectors goes through the graph with the filter, and answers its exact top 10', () => {
    const asked: Asked[] = [];
    const from = source(asked);
    const allowed = everyNth(8, 3); // 10,000 labels: 12.5 %, under the fraction, at the cap
    const wider = everyNth(7, 1); // 11,429 labels: 14.3 %, under the fraction, past the cap
    const query = row(DATA, 17, DIM);

    const scanned = rankLabels(from, query, 10, allowed, undefined);
    expect(asked).toEqual([]);
    expect(scanned.map((hit) => hit.label)).toEqual(from.flat.exactSearch(query, 10, allowed.labels).map((hit) => hit.label));

    const walked = rankLabels(from, query, 10, wider, undefined);
    expect(asked).toEqual([{ k: 10, filtered: true }]);
    expect(walked.map((hit) => hit.label)).toEqual(from.flat.exactSearch(query, 10, wider.labels).map((hit) => hit.label));
    expect(walked.every((hit) => hit.label % 7 === 1)).toBe(true);
  });
});
