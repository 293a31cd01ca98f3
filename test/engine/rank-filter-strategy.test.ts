/**
 * How rank.ts ranks a filtered search (filterStrategy): by an exact scan of the allowed rows while that costs
 * less than the graph's walk with the filter, which checks fewer elements the larger the filter; in a large
 * collection a 10 % filter means 100,000 rows read from anywhere in memory per query, which the walk beats
 * (1M x 128: 28 queries a second scanned). The graph is asked at the query's efSearch, filter or not, and a graph
 * that filters by bytes gets the allowed labels (their liveness checked while it still holds deleted ones) when
 * marking them costs less than the calls back. The store and labels are real; the graph is a stand-in over its
 * own copy of the vectors that answers the exact filtered top k and records how it was asked.
 */
import { describe, expect, it } from 'vitest';
import { filterStrategy, rankLabels, type RankSource } from '../../src/engine/vectors/rank.js';
import { VectorLabels } from '../../src/engine/vectors/labels.js';
import type { LabelFilter } from '../../src/engine/vectors/settings.js';
import type { LateKeys } from '../../src/engine/vectors/late-keys.js';
import { FlatVectorStore, type ScoredLabel, type SearchOptions, type VectorIndex } from '../../src/vector-index/index.js';
import { clustered, row } from '../vector-index/data.js';

const DIM = 4;
const N = 80_000;
const DATA = clustered(3, N, DIM, 8, 0.3, true);

interface Asked {
  k: number;
  filtered: boolean;
}

/** How the graph was asked besides k and filtered: its ef, and whether the labels came as `allowed` (bytes). */
interface AskedHow extends Asked {
  ef: number | undefined;
  bytes: boolean;
}

function source(asked: Asked[], filtersByBytes = false): RankSource {
  const flat = new FlatVectorStore({ dimension: DIM, metric: 'dot_product' });
  flat.setRows(Uint32Array.from({ length: N }, (_, i) => i), DATA);
  // The graph's own vectors: a label deleted from `flat` stays there until the graph catches up (pendingRemoves).
  const held = new FlatVectorStore({ dimension: DIM, metric: 'dot_product' });
  held.setRows(Uint32Array.from({ length: N }, (_, i) => i), DATA);
  const labels = new VectorLabels();
  for (let label = 0; label < N; label++) labels.set(label, `k${label}`);
  const graph = {
    size: N,
    quantized: false,
    params: { M: 16, efConstruction: 200, efSearch: 64 },
    has: () => true,
    filtersByBytes,
    search(query: Float32Array, k: number, options: SearchOptions = {}): ScoredLabel[] {
      const how = filtersByBytes ? { ef: options.ef, bytes: options.allowed !== undefined } : {};
      asked.push({ k, filtered: options.filter !== undefined || options.allowed !== undefined, ...how });
      // As the index: the allowed labels (its bytes) that `filter` accepts, or those `filter` accepts.
      const allowed = Array.from({ length: N }, (_, i) => i).filter((label) => (options.allowed?.has(label) ?? true) && (options.filter?.(label) ?? true));
      return held.exactSearch(query, k, allowed);
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
  it('scans a filter exactly while reading its rows costs less than the walk, and always below 2,000 rows', () => {
    // 1M at the default ef 128, a graph filtering by bytes: 1 % and 2 % scanned, 3 % and 10 % walked.
    expect(filterStrategy(10_000, 1_000_000, 128, true)).toBe('exact');
    expect(filterStrategy(20_000, 1_000_000, 128, true)).toBe('exact');
    expect(filterStrategy(30_000, 1_000_000, 128, true)).toBe('bytes');
    expect(filterStrategy(100_000, 1_000_000, 128, true)).toBe('bytes');
    // A narrower walk costs less, so fewer rows are scanned; a wider one, or one calling back, the other way.
    expect(filterStrategy(20_000, 1_000_000, 16, true)).toBe('bytes');
    expect(filterStrategy(30_000, 1_000_000, 512, true)).toBe('exact');
    expect(filterStrategy(25_000, 1_000_000, 128, false)).toBe('exact');
    expect(filterStrategy(25_000, 1_000_000, 128, true)).toBe('bytes');
    // 200k: the crossover measured near 10,000 rows (5 %) at ef 128.
    expect(filterStrategy(8_000, 200_000, 128, true)).toBe('exact');
    expect(filterStrategy(15_000, 200_000, 128, true)).toBe('bytes');
    // Small collections: under 2,000 rows always scanned; a fifth of 10,000 walked at a narrow ef.
    expect(filterStrategy(1_900, 10_000, 16, true)).toBe('exact');
    expect(filterStrategy(1_900, 1_000_000, 16, true)).toBe('exact');
    expect(filterStrategy(2_500, 10_000, 16, true)).toBe('bytes');
  });

  it('a 5 % filter of 80,000 vectors is scanned exactly, a 10 % one goes through the graph with the filter, and both answer their exact top 10', () => {
    const asked: Asked[] = [];
    const from = source(asked);
    const allowed = everyNth(16, 3); // 5,000 labels: 6.3 %
    const wider = everyNth(10, 1); // 8,000 labels: 10 %, past the crossover (6,720 at ef 64 by callback)
    expect(filterStrategy(allowed.size, N, 64, false)).toBe('exact');
    expect(filterStrategy(wider.size, N, 64, false)).toBe('callback');
    const query = row(DATA, 17, DIM);

    const scanned = rankLabels(from, query, 10, allowed, undefined);
    expect(asked).toEqual([]);
    expect(scanned.map((hit) => hit.label)).toEqual(from.flat.exactSearch(query, 10, allowed.labels).map((hit) => hit.label));

    const walked = rankLabels(from, query, 10, wider, undefined);
    expect(asked).toEqual([{ k: 10, filtered: true }]);
    expect(walked.map((hit) => hit.label)).toEqual(from.flat.exactSearch(query, 10, wider.labels).map((hit) => hit.label));
    expect(walked.every((hit) => hit.label % 10 === 1)).toBe(true);
  });

  it('hands a graph that filters by bytes the allowed labels when their marking costs less than the calls back', () => {
    // 1M x 128 at the default ef 128: a 10 % filter as bytes; half the collection, or a 10 % filter
    // at ef 16 (few checks), through the callback.
    expect(filterStrategy(100_000, 1_000_000, 128, true)).toBe('bytes');
    expect(filterStrategy(500_000, 1_000_000, 128, true)).toBe('callback');
    expect(filterStrategy(100_000, 1_000_000, 16, true)).toBe('callback');
    expect(filterStrategy(20_000, 200_000, 16, true)).toBe('bytes');

    const asked: AskedHow[] = [];
    const from = source(asked, true);
    const allowed = everyNth(5, 2); // 16,000 labels: 20 %, the graph's
    const query = row(DATA, 23, DIM);
    const exact = from.flat.exactSearch(query, 10, allowed.labels).map((hit) => hit.label);
    // Not widened: the graph asked at the collection's efSearch (64), as unfiltered.
    expect(rankLabels(from, query, 10, allowed, undefined).map((hit) => hit.label)).toEqual(exact);
    expect(rankLabels(from, query, 10, everyNth(1), undefined).map((hit) => hit.label)).toEqual(from.flat.exactSearch(query, 10).map((hit) => hit.label));
    expect(rankLabels(from, query, 10, undefined, 40).map((hit) => hit.label)).toEqual(from.flat.exactSearch(query, 10).map((hit) => hit.label));
    expect(asked).toEqual([
      { k: 10, filtered: true, ef: 64, bytes: true },
      { k: 10, filtered: true, ef: 64, bytes: false },
      { k: 10, filtered: false, ef: 40, bytes: false },
    ]);
  });

  it('checks the liveness of a byte filter\'s labels while the graph still holds deleted ones, and calls back while keys are read late', () => {
    const asked: AskedHow[] = [];
    const base = source(asked, true);
    const allowed = everyNth(5, 2);
    const query = row(DATA, 23, DIM);
    const nearest = base.flat.exactSearch(query, 10, allowed.labels).map((hit) => hit.label);
    // The nearest three are gone from the labels and the flat store, not yet from the graph (pendingRemoves).
    for (const label of nearest.slice(0, 3)) {
      base.labels.delete(label);
      (base.flat as FlatVectorStore).delete(label);
    }
    const pending = { ...base, pendingRemoves: 3 };
    const answer = rankLabels(pending, query, 10, allowed, undefined).map((hit) => hit.label);
    expect(answer).toEqual(base.flat.exactSearch(query, 10, allowed.labels).map((hit) => hit.label));
    expect(answer.some((label) => nearest.slice(0, 3).includes(label))).toBe(false);
    expect(asked.at(-1)).toEqual({ k: 10, filtered: true, ef: 64, bytes: true });

    base.labels.readLate({ keyOf: () => undefined } as unknown as LateKeys);
    expect(rankLabels(pending, query, 10, allowed, undefined).map((hit) => hit.label)).toEqual(answer);
    expect(asked.at(-1)).toEqual({ k: 10, filtered: true, ef: 64, bytes: false });
  });
});
