/**
 * Growing a native-rows graph in place (native/src/graph_growth.h, issue 31): its level-0 block grows inside
 * a reserved range (nothing moves) and the per-element tables of the next capacity are made off the JS
 * thread (prepareResize) while inserts and searches go on. Every element, its links and its answers must
 * be the same after each resize, prepared or not, of a built graph and of one loaded from a file; and
 * HnswIndex.addStored growing batch after batch keeps every label. Under an address-space limit (`ulimit -v`)
 * nothing is reserved: blocks grow by realloc, and many graphs leave the rest of the process its room.
 * Skipped where the addon was not built.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVectorIndex } from '../../src/vector-index/index.js';
import type { Metric } from '../../src/vector-index/metric.js';
import { loadNativeAddon, type AddonGraph } from '../../src/vector-index/native-addon.js';
import { NativeRowStore } from '../../src/vector-index/native-rows.js';
import { clustered, row } from './data.js';

const addon = loadNativeAddon();
const DIM = 16;
const ROOT = new URL('../../', import.meta.url).pathname;

/** Whether this process's address space is unlimited (Linux: /proc/self/limits), as graphs reserve only then. */
function addressSpaceUnlimited(): boolean {
  try {
    return /^Max address space\s+unlimited/m.test(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return false;
  }
}

/**
 * A child under `ulimit -v` (8 GiB): twelve graphs of the built addon (dist/), each grown by resizes from 100
 * slots to 3,000 elements, every 7th vector searched for itself, then 400 MB of JS arrays.
 */
const UNDER_LIMIT = `
const { loadNativeAddon } = await import('./dist/vector-index/native-addon.js');
const { NativeRowStore } = await import('./dist/vector-index/native-rows.js');
const a = loadNativeAddon();
const dim = ${DIM}, n = 3000;
let seed = 7;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) - 0.5;
const data = Float32Array.from({ length: n * dim }, random);
const graphs = [];
let inPlace = 0, found = 0, asked = 0;
for (let g = 0; g < 12; g++) {
  const store = new NativeRowStore(a, dim, 'cosine');
  const rows = new Uint32Array(n);
  store.rows.writeMany(data, n, rows);
  const graph = new a.Graph(store.rows, 100, 16, 100, 100);
  let added = 0;
  for (let capacity = 100; added < n; capacity *= 2) {
    const upTo = Math.min(capacity - 1, n);
    await graph.addAsync(Uint32Array.from({ length: upTo - added }, (_, i) => added + i), rows.subarray(added, upTo), upTo - added, 2);
    added = upTo;
    if (!graph.resize(capacity * 2)) throw new Error('resize failed');
  }
  if (graph.growsInPlace()) inPlace++;
  const slots = new Uint32Array(1), distances = new Float32Array(1);
  for (let i = 0; i < n; i += 7, asked++) if (graph.search(data.subarray(i * dim, (i + 1) * dim), 1, 64, undefined, slots, distances) === 1 && slots[0] === i) found++;
  graphs.push(graph, store);
}
const arrays = [];
for (let i = 0; i < 50; i++) arrays.push(new Float64Array(1e6).fill(i));
console.log(JSON.stringify({ graphs: graphs.length / 2, inPlace, found, asked, arrays: arrays.length }));
`;

/** Everything of a graph a resize must keep: each slot's row, its level-0 and level-1 links, and searches' answers. */
function stateOf(graph: AddonGraph, n: number, queries: Float32Array): unknown {
  const links = new Uint32Array(64);
  const slots = new Uint32Array(10);
  const distances = new Float32Array(10);
  const elements = [];
  for (let s = 0; s < n; s++) {
    const at0 = graph.links(s, 0, links);
    const l0 = Array.from(links.subarray(0, Math.max(at0, 0)));
    const at1 = graph.links(s, 1, links);
    elements.push([graph.rowOf(s), l0, at1 < 0 ? -1 : Array.from(links.subarray(0, at1))]);
  }
  const answers = [];
  for (let q = 0; q * DIM < queries.length; q++) {
    const k = graph.search(row(queries, q, DIM), 10, 64, undefined, slots, distances);
    answers.push([Array.from(slots.subarray(0, k)), Array.from(distances.subarray(0, k))]);
  }
  return { count: graph.count(), elements, answers };
}

describe.skipIf(addon === null)('native-rows graph growth in place', () => {
  const a = addon!;

  /** `n` seeded vectors written to a fresh store of `metric`: the store, the vectors and their rows. */
  function stored(seed: number, n: number, metric: Metric) {
    const data = clustered(seed, n, DIM);
    const store = new NativeRowStore(a, DIM, metric);
    const rows = new Uint32Array(n);
    store.rows.writeMany(data, n, rows);
    return { data, store, rows };
  }

  it('resizes, prepared or not, keep every element, its links and the answers; inserts go on after each', async () => {
    const n = 2400;
    const { data, store, rows } = stored(21, n, 'cosine');
    const queries = clustered(22, 20, DIM);
    const graph = new a.Graph(store.rows, 100, 16, 100, 100);
    let added = 0;
    let capacity = 100;
    for (const [step, prepared] of [[400, false], [800, true], [1200, true], [2400, false]] as const) {
      // Fill up to the capacity minus one (what HnswIndex leaves), then grow and check nothing changed.
      const upTo = Math.min(capacity - 1, n);
      const slots = Uint32Array.from({ length: upTo - added }, (_, i) => added + i);
      await graph.addAsync(slots, rows.subarray(added, upTo), slots.length, 2);
      added = upTo;
      const before = stateOf(graph, added, queries);
      const target = capacity + step;
      if (prepared) {
        // Made while the searches run on this thread: they read the graph, which the preparation never touches.
        const making = graph.prepareResize(target);
        expect(stateOf(graph, added, queries)).toEqual(before);
        expect(await making).toBe(target);
      }
      expect(graph.resize(target)).toBe(true);
      capacity = target;
      expect(graph.capacity()).toBe(target);
      expect(stateOf(graph, added, queries)).toEqual(before);
    }
    await graph.addAsync(Uint32Array.from({ length: n - added }, (_, i) => added + i), rows.subarray(added), n - added, 2);
    expect(graph.count()).toBe(n);
    // Every vector finds itself: the elements added after the growths are linked in.
    const slots = new Uint32Array(1);
    const distances = new Float32Array(1);
    let found = 0;
    for (let i = 0; i < n; i += 7) if (graph.search(row(data, i, DIM), 1, 64, undefined, slots, distances) === 1 && slots[0] === i) found++;
    expect(found).toBeGreaterThanOrEqual(Math.floor((n / 7) * 0.98));
    // Tables prepared for another capacity are not taken: the resize makes its own.
    await graph.prepareResize(capacity + 1000);
    expect(graph.resize(capacity + 500)).toBe(true);
    expect(graph.capacity()).toBe(capacity + 500);
    expect(graph.resize(capacity)).toBe(true); // never shrinks
    expect(graph.capacity()).toBe(capacity + 500);
    // Tables dropped (a load ended before the growth came) are made again by the resize.
    await graph.prepareResize(capacity + 900);
    graph.dropPrepared();
    expect(graph.spareCapacity()).toBe(0);
    const before = stateOf(graph, n, queries);
    expect(graph.resize(capacity + 900)).toBe(true);
    // Tables still being made when dropped (a load ended meanwhile) are dropped once made, not kept.
    await graph.prepareResize(capacity + 1800);
    expect(graph.spareCapacity()).toBe(capacity + 1800);
    const making = graph.prepareResize(capacity + 2000);
    graph.dropPrepared();
    await making;
    expect(graph.spareCapacity()).toBe(0);
    expect(stateOf(graph, n, queries)).toEqual(before);
    graph.dispose();
  });

  it('a graph loaded from a file has the capacity it was saved with, grows in place too, and frees its block at dispose', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vdb-growth-'));
    try {
      const n = 1500;
      const { store, rows } = stored(23, n, 'euclidean');
      const queries = clustered(24, 10, DIM);
      const graph = new a.Graph(store.rows, n + 1, 16, 100, 100);
      await graph.addAsync(Uint32Array.from({ length: n }, (_, i) => i), rows, n, 2);
      expect(graph.resize(3 * n)).toBe(true);
      const file = join(dir, 'g.hnsw');
      const bytes = await graph.save(file);
      const other = new NativeRowStore(a, DIM, 'euclidean');
      const loaded = new a.Graph(other.rows, 1, 2, 1, 100);
      await loaded.load(file, n + 1, bytes);
      // Loaded with the capacity it was saved with (its tables made on the loading thread), not only what was asked.
      expect(loaded.capacity()).toBe(3 * n);
      const before = stateOf(loaded, n, queries);
      await loaded.prepareResize(4 * n);
      expect(loaded.resize(4 * n)).toBe(true);
      expect(stateOf(loaded, n, queries)).toEqual(before);
      const more = clustered(25, n, DIM);
      const moreRows = new Uint32Array(n);
      other.rows.writeMany(more, n, moreRows);
      await loaded.addAsync(Uint32Array.from({ length: n }, (_, i) => n + i), moreRows, n, 2);
      expect(loaded.count()).toBe(2 * n);
      graph.dispose();
      loaded.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a growth's tables are glibc's own mmaps (given back when freed) even after larger ones were freed", async () => {
    // glibc left to itself raises its mmap threshold to each freed mmap's size, and the next, smaller tables
    // then went into the heap of the libuv thread that made them (addon.cc fixes the threshold at 1 MiB).
    const { store } = stored(27, 10, 'cosine');
    const graph = new a.Graph(store.rows, 16, 16, 100, 100);
    const mmapped = () => a.heapStats().mmapped;
    const idle = mmapped();
    await graph.prepareResize(400_000); // its locks: 16 MB in one block
    expect(mmapped() - idle).toBeGreaterThanOrEqual(400_000 * 40);
    graph.dropPrepared(); // freed on a libuv thread: wait for it
    for (let i = 0; i < 500 && mmapped() - idle >= 400_000 * 40; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const before = mmapped();
    await graph.prepareResize(300_000); // its locks: 12 MB, under the 16 MB freed
    expect(graph.spareCapacity()).toBe(300_000);
    expect(mmapped() - before).toBeGreaterThanOrEqual(300_000 * 40);
    graph.dispose();
  });

  it('HnswIndex.addStored grows batch after batch (tables prepared while the last batch inserts) and keeps every label', async () => {
    const n = 6000;
    const data = clustered(26, n, DIM);
    const store = new NativeRowStore(a, DIM, 'cosine');
    const index = await createVectorIndex({ dimension: DIM, metric: 'cosine', backend: 'native-rows', rows: store, capacity: 64 });
    const labels = Array.from({ length: n }, (_, i) => 3 * i + 1);
    store.setRows(Uint32Array.from(labels), data);
    for (let at = 0; at < n; at += 500) await index.addStored!(labels.slice(at, at + 500), 2);
    index.releaseSpare?.(); // what the last batch prepared for a growth that does not come
    expect(index.size).toBe(n);
    expect(index.capacity).toBeGreaterThanOrEqual(n);
    let found = 0;
    for (let i = 0; i < n; i += 11) if (index.search(row(data, i, DIM), 1, { ef: 64 })[0]?.label === labels[i]) found++;
    expect(found).toBeGreaterThanOrEqual(Math.floor((n / 11) * 0.98));
    index.dispose();
  });

  it.skipIf(process.platform !== 'linux')('under an address-space limit reserves nothing: graphs grow by realloc, answer the same, and leave V8 its room', () => {
    // Unlimited, a graph reserves its range (this process, unless it runs under a limit itself).
    const store = new NativeRowStore(a, DIM, 'cosine');
    const graph = new a.Graph(store.rows, 100, 16, 100, 100);
    expect(graph.growsInPlace()).toBe(addressSpaceUnlimited());
    graph.dispose();
    // Reserved 64 GiB ranges (halved until the limit let them in) once took this much address space that V8 failed.
    const child = spawnSync('bash', ['-c', `ulimit -v ${8 * 1024 * 1024} && exec "${process.execPath}" --input-type=module -e "$SCRIPT"`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SCRIPT: UNDER_LIMIT } });
    expect(child.stderr).not.toMatch(/out of memory|FATAL/i);
    expect(child.status).toBe(0);
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ graphs: 12, inPlace: 0, arrays: 50 });
    expect(result.found).toBeGreaterThanOrEqual(Math.floor(result.asked * 0.98));
  });
});
