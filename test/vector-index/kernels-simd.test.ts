/**
 * The WebAssembly SIMD scan kernel against the JS kernels: the committed wasm matches a fresh build,
 * both FlatVectorStore paths give the same top-k (odd dims, every metric, candidate subsets) and the
 * same rescored $similarity (bit for bit), and rows
 * stay readable across memory growth. Tests src/vector-index/simd/ and the store's use of it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScoredLabel } from '../../src/vector-index/exact-rescore.js';
import { FlatVectorStore } from '../../src/vector-index/flat-store.js';
import type { FlatRowTable } from '../../src/vector-index/flat-row-table.js';
import { dotRows, selectTopK, squaredNorm } from '../../src/vector-index/kernels.js';
import { METRICS, float32Similarity, shortestFloat32, type Metric } from '../../src/vector-index/metric.js';
import { NO_SIMD_ENV, simdAvailable, WasmRowMemory } from '../../src/vector-index/simd/wasm-kernels.js';
import { clustered, naiveTopK, rng, row } from './data.js';

/**
 * Both paths multiply the same float32 values as float64 and sum in float64; only the order of the
 * additions differs (the kernel keeps four lanes), which moves a dot product by at most dim * 2^-53 of
 * sum |a_i b_i| (measured: ~3e-16). Scores then agree to ~1e-14 relative: 1e-12 leaves a margin and is
 * far tighter than float32 (1e-7). Near a score of 0 (opposite vectors) a relative bound means nothing:
 * there the bound is absolute, dim * 2^-53 for unit-scale vectors, about 1e-13.
 */
const REL_TOL = 1e-12;
const ABS_TOL = 1e-13;

const DIMS = [1, 2, 3, 4, 5, 7, 9, 13, 31, 127, 768];

/** Runs fn with VECTORDB_NO_SIMD set to `value` (unset when undefined): each path whatever the suite's env. */
function withEnv<T>(value: string | undefined, fn: () => T): T {
  const before = process.env[NO_SIMD_ENV];
  if (value === undefined) delete process.env[NO_SIMD_ENV];
  else process.env[NO_SIMD_ENV] = value;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env[NO_SIMD_ENV];
    else process.env[NO_SIMD_ENV] = before;
  }
}
const withNoSimd = <T>(fn: () => T): T => withEnv('1', fn);
const withSimd = <T>(fn: () => T): T => withEnv(undefined, fn);
const suiteEnv = process.env[NO_SIMD_ENV];

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= REL_TOL * Math.max(Math.abs(a), Math.abs(b)) + ABS_TOL;
}

function expectSame(simd: ScoredLabel[], js: ScoredLabel[]): void {
  expect(simd.map((r) => r.label)).toEqual(js.map((r) => r.label));
  const far = simd.filter((r, i) => !close(r.score, (js[i] as ScoredLabel).score));
  expect(far).toEqual([]);
}

/** The same data in a SIMD store and a JS store. */
function pair(
  metric: Metric,
  dim: number,
  data: Float32Array,
  labels: number[],
  capacity?: number,
): [FlatVectorStore, FlatVectorStore] {
  const options = capacity === undefined ? { dimension: dim, metric } : { dimension: dim, metric, capacity };
  const simd = withSimd(() => new FlatVectorStore(options));
  const js = withNoSimd(() => new FlatVectorStore(options));
  expect(simd.kernel).toBe('wasm-simd');
  expect(js.kernel).toBe('js');
  labels.forEach((label, i) => {
    simd.set(label, row(data, i, dim));
    js.set(label, row(data, i, dim));
  });
  return [simd, js];
}

afterEach(() => {
  expect(process.env[NO_SIMD_ENV]).toBe(suiteEnv);
});

describe('WebAssembly SIMD kernel', () => {
  it('is available on this Node and the committed module matches a fresh build of asm/kernels.ts', () => {
    expect(withSimd(simdAvailable)).toBe(true);
    const root = fileURLToPath(new URL('../..', import.meta.url));
    // Exits 1 (and execFileSync throws) when src/vector-index/simd/kernels-wasm.ts is stale.
    execFileSync(process.execPath, ['asm/build.js', '--check'], { cwd: root, stdio: 'pipe' });
  }, 120_000);

  it('is switched off by VECTORDB_NO_SIMD=1', () => {
    withNoSimd(() => {
      expect(simdAvailable()).toBe(false);
      expect(WasmRowMemory.create(8, 4)).toBeUndefined();
      expect(new FlatVectorStore({ dimension: 8, metric: 'cosine' }).kernel).toBe('js');
    });
    expect(withSimd(() => new FlatVectorStore({ dimension: 8, metric: 'cosine' })).kernel).toBe('wasm-simd');
  });

  it.each(DIMS)('dotRows equals the JS dotRows at dim %i for any row order, repeats and count', (dim) => {
    const rand = rng(500 + dim);
    const slots = 13;
    const mem = withSimd(() => WasmRowMemory.create(dim, slots));
    expect(mem).toBeDefined();
    if (mem === undefined) return;
    const rows = mem.rows;
    for (let i = 0; i < rows.length; i++) rows[i] = rand() * 2 - 1;
    const q = Float64Array.from({ length: dim }, () => rand() * 2 - 1);
    // A dot product's rounding scales with sum |q_i r_i| (not with the dot, which may cancel to ~0).
    const absSum = (r: number): number => {
      const now = mem.rows; // a fresh view: the scratch may have grown the memory
      let s = 0;
      for (let j = 0; j < dim; j++) s += Math.abs((q[j] as number) * (now[r * dim + j] as number));
      return s;
    };
    for (const count of [0, 1, 3, 4, 5, 8, 9, 26]) {
      const list = Uint32Array.from({ length: count }, (_, i) => (i * 5 + 3) % slots);
      const want = new Float64Array(count);
      dotRows(q, mem.rows, dim, list, count, want);
      const got = mem.dotRows(q, list, count);
      expect(got).toBeDefined();
      for (let i = 0; i < count; i++) {
        expect(Math.abs((got?.[i] as number) - (want[i] as number))).toBeLessThanOrEqual(REL_TOL * absSum(list[i] as number));
      }
      // A row's dot product does not depend on its place in the list (4-row block or leftover).
      for (let i = 0; i < count; i++) {
        const first = list.indexOf(list[i] as number);
        expect(got?.[i]).toBe(got?.[first]);
      }
    }
  });
});

describe('FlatVectorStore.rescore: the WebAssembly float32 sums give the JS path\'s $similarity bit for bit', () => {
  it.each(METRICS.flatMap((m) => DIMS.map((d) => [m, d] as const)))('%s at dim %i', (metric, dim) => {
    const n = 120;
    const data = clustered(dim * 17 + metric.length, n, dim, 5, 0.5, metric === 'dot_product');
    const labels = Array.from({ length: n }, (_, i) => i * 2 + 1);
    const [simd, js] = pair(metric, dim, data, labels, 8);
    const queries = clustered(dim * 17 + 3, 8, dim, 5, 0.5, metric === 'dot_product');
    const rand = rng(dim + 900);
    for (let qi = 0; qi < 8; qi++) {
      const query = row(queries, qi, dim);
      // Stored labels, absent ones (kept with their score), a repeat; any order.
      const hits: ScoredLabel[] = Array.from({ length: 12 }, () => ({ label: Math.floor(rand() * (2 * n + 6)), score: rand() }));
      hits.push({ ...hits[0]! });
      const got = simd.rescore(query, hits);
      const want = js.rescore(query, hits);
      expect(got).toEqual(want);
      // And each stored hit's score is the reference float32 similarity's shortest decimal.
      for (const hit of got) {
        const at = labels.indexOf(hit.label);
        if (at >= 0) expect(hit.score).toBe(shortestFloat32(float32Similarity(metric, query, data, at * dim)));
      }
    }
  });
});

describe('FlatVectorStore: SIMD and JS paths give the same top-k', () => {
  it.each(METRICS.flatMap((m) => DIMS.map((d) => [m, d] as const)))('%s at dim %i', (metric, dim) => {
    const n = dim >= 127 ? 300 : 700;
    const normalize = metric === 'dot_product';
    const data = clustered(dim * 31 + metric.length, n, dim, 6, 0.4, normalize);
    const labels = Array.from({ length: n }, (_, i) => i * 3 + 2); // sparse labels
    const [simd, js] = pair(metric, dim, data, labels, 8); // small capacity: growth on both paths
    const queries = clustered(dim * 31 + 7, 6, dim, 6, 0.4, normalize);
    const rand = rng(dim);
    for (let qi = 0; qi < 6; qi++) {
      const query = row(queries, qi, dim);
      for (const k of [1, 10, n + 5]) expectSame(simd.exactSearch(query, k), js.exactSearch(query, k));
      // Candidate subsets of every size class, with absent, repeated and out-of-range labels.
      for (const size of [1, 3, 4, 5, 9, 60]) {
        const cand = Array.from({ length: size }, () => Math.floor(rand() * (3 * n + 10)) - 2);
        cand.push(cand[0] as number);
        expectSame(simd.exactSearch(query, 7, cand), js.exactSearch(query, 7, cand));
      }
      const want = naiveTopK(metric, query, data, dim, labels, 10);
      expect(simd.exactSearch(query, 10).map((r) => r.label)).toEqual(want.map((r) => r.label));
    }
  });

  it('breaks exact ties (equal vectors) by the smaller label on both paths', () => {
    for (const metric of METRICS) {
      const dim = 11;
      const base = clustered(3, 5, dim, 2, 0.3, metric === 'dot_product');
      const data = new Float32Array(20 * dim);
      for (let i = 0; i < 20; i++) data.set(row(base, i % 5, dim), i * dim); // each vector four times
      const labels = Array.from({ length: 20 }, (_, i) => 40 - i); // larger labels inserted first
      const [simd, js] = pair(metric, dim, data, labels);
      const query = row(base, 2, dim);
      const a = simd.exactSearch(query, 20);
      expectSame(a, js.exactSearch(query, 20));
      for (let i = 1; i < a.length; i++) {
        const [p, c] = [a[i - 1] as ScoredLabel, a[i] as ScoredLabel];
        if (p.score === c.score) expect(p.label).toBeLessThan(c.label);
      }
      expect(a.slice(0, 4).map((r) => r.label)).toEqual([23, 28, 33, 38]);
    }
  });

  it('keeps rows readable across memory growth by set() and by a search scratch', () => {
    const dim = 5;
    const s = withSimd(() => new FlatVectorStore({ dimension: dim, metric: 'euclidean', capacity: 1 }));
    expect(s.kernel).toBe('wasm-simd');
    const big = 20_000; // past the first 64 KiB page several times over
    for (let label = 0; label < big; label++) s.set(label, [label, 1, 2, 3, 4]);
    expect(s.capacity).toBeGreaterThanOrEqual(big);
    expect(Array.from(s.get(12_345) ?? [])).toEqual([12_345, 1, 2, 3, 4]);
    // A scan of every row grows the scratch after the rows; writes and reads after it see the new buffer.
    expect(s.exactSearch([7, 1, 2, 3, 4], 2).map((r) => r.label)).toEqual([7, 6]);
    s.set(big, [-1, 1, 2, 3, 4]);
    expect(Array.from(s.get(big) ?? [])).toEqual([-1, 1, 2, 3, 4]);
    expect(Array.from(s.get(0) ?? [])).toEqual([0, 1, 2, 3, 4]);
    expect(s.exactSearch([-1, 1, 2, 3, 4], 1)[0]).toEqual({ label: big, score: 1 });
  });

  it('falls back to the JS kernels with the same results when the wasm memory refuses to grow', () => {
    const dim = 9;
    const data = clustered(11, 200, dim, 4, 0.3);
    const labels = Array.from({ length: 200 }, (_, i) => i);
    const [simd, js] = pair('cosine', dim, data, labels.slice(0, 100), 100);
    const inner = simd as unknown as { wasm: { reserve(slots: number): void } };
    inner.wasm.reserve = () => {
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    };
    for (let i = 100; i < 200; i++) {
      simd.set(i, row(data, i, dim));
      js.set(i, row(data, i, dim));
    }
    expect(simd.kernel).toBe('js');
    expect(Array.from(simd.get(5) ?? [])).toEqual(Array.from(row(data, 5, dim)));
    const query = row(clustered(12, 1, dim, 4, 0.3), 0, dim);
    expect(simd.exactSearch(query, 10)).toEqual(js.exactSearch(query, 10));
  });

  /** The SIMD store's top k by its float64 kernel over all of `labels` (distinct, stored) and selectTopK. */
  function float64TopK(store: FlatVectorStore, query: Float32Array, k: number, labels: readonly number[]): ScoredLabel[] {
    const inner = store as unknown as { wasm: WasmRowMemory; metric: Metric; table: FlatRowTable };
    const rows = Uint32Array.from(labels, (label) => inner.table.rowOf(label)!);
    const q = Float64Array.from(query);
    const dots = inner.wasm.dotRows(q, rows, rows.length)!.slice();
    return selectTopK(inner.metric, squaredNorm(q, 0, q.length), dots, inner.table.sqNorms, rows, rows.length, k, inner.table.labelOfRow).map((r) => ({ label: r.row, score: r.score }));
  }

  /** Rows that differ from `base` by one float32 ulp in one component each: their float32 dots tie. */
  function nearTies(base: Float32Array, n: number, scale: number): Float32Array {
    const dim = base.length;
    const data = new Float32Array(n * dim);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < dim; j++) data[i * dim + j] = (base[j] as number) * scale;
      const at = i * dim + (i % dim);
      const x = data[at] as number;
      // One ulp up or down (the next float32 in either direction), and a few rows left equal.
      if (i % 7 !== 0) data[at] = Math.fround(x + (i % 2 === 0 ? 1 : -1) * Math.abs(x) * 2 ** -23);
    }
    return data;
  }

  it.each(METRICS)('%s: the float32 first pass never changes the top k (near-ties, tiny and huge magnitudes)', (metric) => {
    const dim = 384;
    const base = row(clustered(77, 1, dim, 1, 0.5, true), 0, dim);
    // 1e-20: products fall into float32 subnormals; 1e17: float32 dots of |q||v| ~ 1e34 * dim stay finite;
    // 3e18: |q| |row| near float32's range; 1e19: past the bound that rules out a float32 overflow, so
    // cosine takes the per-row path (shortlistTopK) instead of one bound for the scan (shortlistCosine).
    for (const scale of [1, 1e-20, 1e17, 3e18, 1e19]) {
      if (metric !== 'cosine' && scale > 1) continue; // euclidean/dot_product: |q|^2 overflows the float64 check at 1e17+
      const n = 300;
      const data = nearTies(base, n, scale);
      const labels = Array.from({ length: n }, (_, i) => 2 * i + 1);
      const [simd] = pair(metric, dim, data, labels);
      const rand = rng(scale === 1 ? 5 : 6);
      for (let qi = 0; qi < 4; qi++) {
        const query = Float32Array.from(base, (x) => Math.fround((x + (rand() - 0.5) * 1e-3) * scale));
        for (const k of [1, 10, 50]) {
          const cand = labels.filter((_, i) => i % 3 !== qi % 3);
          // Identical to the float64 kernel over every candidate (the ranking before the first pass existed),
          // not merely close. (The JS path sums in another order: at ties this close it may rank otherwise.)
          expect(simd.exactSearch(query, k, cand)).toEqual(float64TopK(simd, query, k, cand));
          expect(simd.exactSearch(query, k)).toEqual(float64TopK(simd, query, k, labels));
        }
      }
    }
  });
});
