/**
 * The native addon's graph search alone (issue 31): on one graph of our addon, our search
 * (native/src/graph_search.h, prefetching the rows) against hnswlib's own searchKnn over the same graph
 * (`searchHnswlib`: the same hits, one cache miss more per distance), and raw hnswlib-node's searchKnn
 * over its own graph of the same vectors, in alternating bursts (same machine load), medians of the
 * per-round CPU time per query. One process, one graph: the two addon searches do the same work but for
 * the prefetch.
 *
 *   node bench/graph-search-bench.js [--n 20000] [--dim 128] [--ef 20] [--rounds 7] [--burst-ms 300] [--int8] [--dist <dir>]
 */
import { createRequire } from 'node:module';
import { mixture, sample } from './lib/vector-data.js';
import { nativeGraphRows } from './lib/native-graph-rows.js';
import { freshDist } from './lib/private-dist.js';
import { option } from './lib/args.js';

const args = process.argv.slice(2);
const N = Number(option('--n', 20_000));
const DIM = Number(option('--dim', 128));
const EF = Number(option('--ef', 20));
const ROUNDS = Number(option('--rounds', 7));
const BURST_MS = Number(option('--burst-ms', 300));
const INT8 = args.includes('--int8');
const DIST = freshDist(option('--dist', undefined));
const K = 10;
const POOL = 20_000;

const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');

const mix = mixture(2020, DIM, 100);
const vectors = sample(mix, 2021, N, 1.0);
const pool = sample(mix, 2022, POOL, 1.0);
const query = (i) => pool.subarray((i % POOL) * DIM, ((i % POOL) + 1) * DIM);
const log = (...parts) => console.error(new Date().toISOString().slice(11, 19), ...parts);

const { addon, rows, ids } = await nativeGraphRows(DIST, vectors, DIM, INT8);
const graph = new addon.Graph(rows, N, 16, 200, 100);
let started = performance.now();
await graph.addAsync(Uint32Array.from({ length: N }, (_, i) => i), ids, N, 2);
log(`addon graph built in ${(performance.now() - started).toFixed(0)} ms`);
const raw = new HierarchicalNSW('cosine', DIM);
raw.initIndex(N, 16, 200, 100);
started = performance.now();
for (let i = 0; i < N; i++) raw.addPoint(Array.from(vectors.subarray(i * DIM, (i + 1) * DIM)), i);
raw.setEf(EF);
log(`raw graph built in ${(performance.now() - started).toFixed(0)} ms`);

const slots = new Uint32Array(K);
const dist = new Float32Array(K);
const systems = {
  ours: (q) => graph.search(query(q), K, EF, undefined, slots, dist),
  hnswlibOverOurRows: (q) => graph.searchHnswlib(query(q), K, EF, undefined, slots, dist),
  raw: (q) => raw.searchKnn(Array.from(query(q)), K),
};
let next = 0;
/** CPU microseconds per query over one burst. */
function burst(search) {
  const cpu = process.cpuUsage();
  const until = performance.now() + BURST_MS;
  let n = 0;
  while (performance.now() < until) for (let i = 0; i < 50; i++, n++) search(next++);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const search of Object.values(systems)) burst(search);
const us = Object.fromEntries(Object.keys(systems).map((name) => [name, []]));
const ratios = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? Object.keys(systems) : Object.keys(systems).reverse();
  const got = {};
  for (const name of order) got[name] = burst(systems[name]);
  for (const name of order) us[name].push(got[name]);
  ratios.push(got.hnswlibOverOurRows / got.ours);
}
const summary = Object.fromEntries(Object.entries(us).map(([name, xs]) => [name, Number(median(xs).toFixed(1))]));
console.log(JSON.stringify({ n: N, dim: DIM, ef: EF, rows: INT8 ? 'int8' : 'float32', cpuUsPerQuery: summary, hnswlibOverOursMedianRatio: Number(median(ratios).toFixed(3)), rawOverOurs: Number((summary.raw / summary.ours).toFixed(3)) }));
