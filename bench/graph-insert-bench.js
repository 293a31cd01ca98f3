/**
 * The native addon's graph build alone (issue 31): our insert (native/src/graph_insert.h, prefetching the
 * rows it reads) against hnswlib's own addPoint (`addHnswlib`) over the same rows, one thread each, a fresh
 * graph per build, the two taking turns (order alternating) for `--rounds` rounds: CPU seconds per build,
 * medians and the median per-round ratio hnswlib's / ours; then recall@10 of each last graph at `--ef`
 * against the exact top 10. Float32 rows: the two build the same graph (the first round checks it link for
 * link on a sample of slots). `--int8`: the rows are int8 codes (scale from the data), and a third build,
 * ours given the float32 values (asymmetric candidate searches), is timed too; recall is also given as the
 * share of the exact top 10 within the graph's best 30 (what the engine ranks exactly), and beside them that
 * of a graph of the same vectors as float32 rows (not timed). Data: bench/lib/vector-data.js's unit vectors
 * around `--clusters` centres with `--spread` (quantization-memory.js's are 50 and 0.35). `--threads 2`: ours
 * builds by addAsync on that many threads (as a bulk load does; hnswlib's stays on one), wall seconds beside
 * the CPU seconds (all threads'), and no link-for-link check.
 *
 *   node bench/graph-insert-bench.js [--n 100000] [--dim 128] [--rounds 3] [--m 16] [--ef-construction 200]
 *     [--ef 128] [--queries 200] [--clusters 100] [--spread 1.0] [--int8] [--threads 1] [--dist <dir>]
 */
import { exactTopK, recallOf } from './lib/exact.js';
import { nativeGraphRows } from './lib/native-graph-rows.js';
import { freshDist } from './lib/private-dist.js';
import { mixture, row, sample } from './lib/vector-data.js';
import { option } from './lib/args.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const N = Number(option('--n', 100_000));
const DIM = Number(option('--dim', 128));
const ROUNDS = Number(option('--rounds', 3));
const M = Number(option('--m', 16));
const EF_CONSTRUCTION = Number(option('--ef-construction', 200));
const EF = Number(option('--ef', 128));
const Q = Number(option('--queries', 200));
const INT8 = args.includes('--int8');
const CLUSTERS = Number(option('--clusters', 100));
const SPREAD = Number(option('--spread', 1.0));
const THREADS = Number(option('--threads', 1));
const DIST = freshDist(option('--dist', undefined));
const K = 10;
const SHORTLIST = 3 * K;

const log = (...parts) => console.error(new Date().toISOString().slice(11, 19), ...parts);
const mix = mixture(2030, DIM, CLUSTERS);
const vectors = sample(mix, 2031, N, SPREAD);
const queries = sample(mix, 2032, Q, SPREAD);
const { addon, rows, ids } = await nativeGraphRows(DIST, vectors, DIM, INT8);
const slots = Uint32Array.from({ length: N }, (_, i) => i);

const builds = {
  ours: THREADS > 1 ? (g) => g.addAsync(slots, ids, N, THREADS) : (g) => g.add(slots, ids, N),
  hnswlib: (g) => g.addHnswlib(slots, ids, N),
  ...(INT8 ? { oursWithValues: THREADS > 1 ? (g) => g.addAsync(slots, ids, N, THREADS, vectors) : (g) => g.add(slots, ids, N, vectors) } : {}),
};
/** A fresh graph built by `build`, the CPU seconds of the build (the process's: every thread's) and its wall seconds. */
async function timed(build) {
  const graph = new addon.Graph(rows, N, M, EF_CONSTRUCTION, 100);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await build(graph);
  const wall = (performance.now() - started) / 1e3;
  const used = process.cpuUsage(cpu);
  return { graph, seconds: (used.user + used.system) / 1e6, wall };
}

/** Every 97th slot's links at every level, joined: equal strings are equal graphs on the sample. */
function sampleLinks(graph) {
  const out = new Uint32Array(2 * M);
  const parts = [];
  for (let slot = 0; slot < N; slot += 97) {
    for (let level = 0; ; level++) {
      const n = graph.links(slot, level, out);
      if (n < 0) break;
      parts.push(`${slot}/${level}:${out.subarray(0, n).join(',')}`);
    }
  }
  return parts.join(' ');
}

const truth = Array.from({ length: Q }, (_, q) => exactTopK(row(queries, q, DIM), vectors, DIM, N, K));
function recall(graph) {
  const outSlots = new Uint32Array(SHORTLIST);
  const outDist = new Float32Array(SHORTLIST);
  let top = 0;
  let shortlist = 0;
  for (let q = 0; q < Q; q++) {
    const n = graph.search(row(queries, q, DIM), SHORTLIST, Math.max(EF, SHORTLIST), undefined, outSlots, outDist);
    top += recallOf(Array.from(outSlots.subarray(0, Math.min(n, K))), truth[q]);
    shortlist += recallOf(Array.from(outSlots.subarray(0, n)), truth[q]);
  }
  return { top10: Number((top / Q).toFixed(4)), best30: Number((shortlist / Q).toFixed(4)) };
}

const seconds = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
const wallSeconds = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
const ratios = [];
const last = {};
let sameGraph;
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? Object.keys(builds) : Object.keys(builds).reverse();
  const got = {};
  for (const name of order) {
    const { graph, seconds: s, wall } = await timed(builds[name]);
    got[name] = s;
    seconds[name].push(s);
    wallSeconds[name].push(wall);
    log(`round ${round + 1}: ${name} ${s.toFixed(2)} s CPU, ${wall.toFixed(2)} s wall`);
    last[name]?.dispose();
    last[name] = graph;
  }
  if (round === 0 && !INT8 && THREADS === 1) sameGraph = sampleLinks(last.ours) === sampleLinks(last.hnswlib);
  ratios.push(got.hnswlib / got.ours);
}
const recalls = Object.fromEntries(Object.entries(last).map(([name, graph]) => [name, recall(graph)]));
if (INT8) {
  // The same vectors as float32 rows, built by our insert once: what the int8 graphs would reach without codes.
  const float32 = await nativeGraphRows(DIST, vectors, DIM, false);
  const graph = new addon.Graph(float32.rows, N, M, EF_CONSTRUCTION, 100);
  graph.add(slots, float32.ids, N);
  recalls.float32Rows = recall(graph);
  graph.dispose();
}
console.log(
  JSON.stringify({
    n: N,
    dim: DIM,
    rows: INT8 ? 'int8' : 'float32',
    M,
    efConstruction: EF_CONSTRUCTION,
    rounds: ROUNDS,
    threads: THREADS,
    cpuSecondsPerBuild: Object.fromEntries(Object.entries(seconds).map(([name, xs]) => [name, { median: Number(median(xs).toFixed(2)), runs: xs.map((x) => Number(x.toFixed(2))) }])),
    wallSecondsPerBuild: Object.fromEntries(Object.entries(wallSeconds).map(([name, xs]) => [name, Number(median(xs).toFixed(2))])),
    hnswlibOverOursMedianRatio: Number(median(ratios).toFixed(3)),
    ...(sameGraph === undefined ? {} : { sameGraphOnSample: sameGraph }),
    [`recallAtEf${EF}`]: recalls,
  }),
);
