/**
 * rank.ts with a graph that ranks on quantized vectors (VectorIndex.quantized, as the native int8 graph will):
 * more hits than asked are taken from it (shortlistSize(k)) and ranked again exactly from the stored values
 * (FlatVectorStore.exactTopOf), so a graph whose own order is off still answers the exact top k. A float32
 * graph's hits are taken as they are. The graph here is a stand-in that returns every vector in a scrambled
 * order with noisy scores; the store and labels are the real ones. A search asking for every vector is
 * ranked exactly, without the graph (which may have left some unreachable).
 */
import { describe, expect, it } from 'vitest';
import { rankLabels, type RankSource } from '../../src/engine/vectors/rank.js';
import { VectorLabels } from '../../src/engine/vectors/labels.js';
import { FlatVectorStore, shortlistSize, type ScoredLabel, type VectorIndex } from '../../src/vector-index/index.js';
import { clustered, naiveTopK, rng, row } from '../vector-index/data.js';

const DIM = 16;
const N = 400;
const DATA = clustered(9, N, DIM, 6, 0.4, true);
const LABELS = Array.from({ length: N }, (_, i) => i);

/** A graph answering with the true order disturbed: its hits' scores carry noise, and it counts the k asked. */
function noisyGraph(quantized: boolean, asked: number[]): VectorIndex {
  const rand = rng(1);
  return {
    size: N,
    quantized,
    params: { M: 16, efConstruction: 200, efSearch: 64 },
    has: () => true,
    search(query: Float32Array, k: number): ScoredLabel[] {
      asked.push(k);
      const exact = naiveTopK('dot_product', query, DATA, DIM, LABELS, N);
      // Noise of about the gap between neighbours: the graph's own top k is not the exact one.
      return exact
        .map((hit) => ({ label: hit.label, score: hit.score + (rand() - 0.5) * 0.02 }))
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    },
  } as unknown as VectorIndex;
}

function source(graph: VectorIndex): RankSource {
  const flat = new FlatVectorStore({ dimension: DIM, metric: 'dot_product' });
  flat.setRows(Uint32Array.from(LABELS), DATA);
  const labels = new VectorLabels();
  for (const label of LABELS) labels.set(label, `k${label}`);
  return { size: N, graph, labels, pendingAdds: new Set(), pendingRemoves: 0, flat, ensureValues: () => undefined };
}

describe('rankLabels with a quantized graph', () => {
  it('takes shortlistSize(k) hits and ranks them exactly: the exact scan\'s top 10', () => {
    const asked: number[] = [];
    const from = source(noisyGraph(true, asked));
    for (let q = 0; q < 20; q++) {
      const query = row(DATA, q * 7, DIM).map((v) => v * 0.9);
      const got = rankLabels(from, query, 10, undefined, undefined);
      const want = from.flat.exactSearch(query, 10);
      expect(got.map((hit) => hit.label)).toEqual(want.map((hit) => hit.label));
      // float64 sums in another order (JS here, the SIMD kernel there): equal to the last bits or so
      got.forEach((hit, i) => expect(hit.score).toBeCloseTo(want[i]!.score, 12));
    }
    expect(new Set(asked)).toEqual(new Set([shortlistSize(10)]));
  });

  it('takes a float32 graph\'s k hits as they are', () => {
    const asked: number[] = [];
    const from = source(noisyGraph(false, asked));
    const query = row(DATA, 3, DIM);
    expect(rankLabels(from, query, 10, undefined, undefined)).toHaveLength(10);
    expect(asked).toEqual([10]);
  });
});

describe('rankLabels asked for every vector', () => {
  it('scans them all exactly, not the graph: a vector the graph cannot reach is still found', () => {
    const asked: number[] = [];
    const graph = noisyGraph(false, asked);
    // This graph cannot reach the last 40 vectors.
    const missing = { ...graph, search: (query: Float32Array, k: number) => graph.search(query, k).filter((hit) => hit.label < N - 40) } as VectorIndex;
    const from = source(missing);
    const query = row(DATA, 5, DIM);
    const got = rankLabels(from, query, N, undefined, undefined);
    expect(got.map((hit) => hit.label)).toEqual(from.flat.exactSearch(query, N).map((hit) => hit.label));
    expect(got).toHaveLength(N);
    expect(asked).toEqual([]);
    // Fewer than all: the graph answers.
    expect(rankLabels(from, query, N - 1, undefined, undefined).length).toBeLessThan(N - 1);
    expect(asked).toEqual([N - 1]);
  });
});
