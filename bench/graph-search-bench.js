/**
 * The native addon's graph search alone (issue 31): on one graph of our addon, our search
 * (native/src/graph_search.h, reading each element's row id from its compact array) against hnswlib's own
 * searchKnn over the same graph (`searchHnswlib`: the same hits, reading the row ids from hnswlib's element
 * data), and raw hnswlib-node's searchKnn over its own graph of the same vectors, in alternating bursts (same
 * machine load): medians of the per-round CPU time per query and of each system's per-round ratio to ours
 * (`overOursMedianRatio`), and the load average. `--systems ours,hnswlibOverOurRows` measures only those (no
 * raw graph to build); `--graphs <dir>` keeps the built graphs there (ours: the addon's graph file; raw:
 * hnswlib's index) and loads them in later runs of the same n, dim, efConstruction and rows (1M: minutes
 * of build each). `--also <dist>,...`: other builds (each a dist/ folder, its native/build/ beside it) whose addons
 * each load the same graph file into their own row store, searched as `ours@<folder>` in the same bursts:
 * an A/B of builds in one process, at the same load. `--raw-same-graph`: raw loads our graph instead of
 * building its own (bench/lib/raw-graph-file.js: the same links, its vectors beside them; needs --graphs):
 * the two layouts on one graph, and no raw build (at 1M, many minutes on a loaded machine). The JSON's
 * `runLength`: our graph's elements whose row follows from their id (element_rows.h: no row-id array read).
 * `--data clustered|glove`: the rows and unseen queries of bench/lib/bulk-data.js (bulk-load-bench's: glove is
 * GloVe 6B's 100 dimensions, all 331,479 rows without --n) instead of this bench's own mixture.
 *
 *   node bench/graph-search-bench.js [--n 20000] [--dim 128] [--data clustered|glove] [--ef 20]
 *     [--ef-construction 200] [--rounds 7] [--burst-ms 300] [--int8] [--systems ours,hnswlibOverOurRows,raw]
 *     [--graphs <dir>] [--also <dist>,...] [--raw-same-graph] [--dist <dir>]
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { mixture, sample } from './lib/vector-data.js';
import { bulkData } from './lib/bulk-data.js';
import { nativeGraphRows } from './lib/native-graph-rows.js';
import { freshDist } from './lib/private-dist.js';
import { option } from './lib/args.js';
import { rawIndexOnce } from './lib/raw-graph-file.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const DATA = option('--data', undefined);
const source = DATA === undefined ? undefined : bulkData(DATA, { n: optionalNumber('--n'), dim: optionalNumber('--dim') });
const N = source?.n ?? Number(option('--n', 20_000));
const DIM = source?.dim ?? Number(option('--dim', 128));
const EF = Number(option('--ef', 20));
const EF_CONSTRUCTION = Number(option('--ef-construction', 200));
const ROUNDS = Number(option('--rounds', 7));
const BURST_MS = Number(option('--burst-ms', 300));
const INT8 = args.includes('--int8');
const DIST = freshDist(option('--dist', undefined));
const SYSTEMS = option('--systems', 'ours,hnswlibOverOurRows,raw').split(',');
const GRAPHS = option('--graphs', undefined);
const RAW_SAME_GRAPH = args.includes('--raw-same-graph');
const ALSO = (option('--also', undefined)?.split(',') ?? []).map((dir) => freshDist(dir));
const K = 10;
const POOL = 20_000;

const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');

function optionalNumber(name) {
  const value = option(name, undefined);
  return value === undefined ? undefined : Number(value);
}

/** The rows and a pool of unseen queries: bulk-data's source with --data, else this bench's own mixture. */
function data() {
  if (source !== undefined) {
    const next = source.unseenStream();
    const queries = new Float32Array(POOL * DIM);
    for (let i = 0; i < POOL; i++) next(queries.subarray(i * DIM, (i + 1) * DIM));
    return { vectors: source.rows(), pool: queries };
  }
  const mix = mixture(2020, DIM, 100);
  return { vectors: sample(mix, 2021, N, 1.0), pool: sample(mix, 2022, POOL, 1.0) };
}
const { vectors, pool } = data();
const query = (i) => pool.subarray((i % POOL) * DIM, ((i % POOL) + 1) * DIM);
const log = (...parts) => console.error(new Date().toISOString().slice(11, 19), ...parts);

/** The cached graph file `name` under --graphs (undefined without it), and whether it is there. */
function cached(name) {
  if (GRAPHS === undefined) return { file: undefined, found: false };
  mkdirSync(GRAPHS, { recursive: true });
  const file = join(GRAPHS, `${name}${DATA === undefined ? '' : `-${DATA}`}-n${N}-dim${DIM}-efc${EF_CONSTRUCTION}${INT8 ? '-int8' : ''}.graph`);
  return { file, found: existsSync(file) };
}

const ourFile = cached('ours');
// A cached graph brings its rows: the store starts empty (an int8 file gives it its scale).
const { addon, rows, ids } = await nativeGraphRows(DIST, ourFile.found ? new Float32Array(0) : vectors, DIM, INT8 && !ourFile.found);
const graph = new addon.Graph(rows, N, 16, EF_CONSTRUCTION, 100);
let started = performance.now();
if (ourFile.found) {
  await graph.load(ourFile.file, N, statSync(ourFile.file).size);
  log(`addon graph loaded in ${(performance.now() - started).toFixed(0)} ms`);
} else {
  await graph.addAsync(Uint32Array.from({ length: N }, (_, i) => i), ids, N, 2);
  log(`addon graph built in ${(performance.now() - started).toFixed(0)} ms`);
}
// Elements whose row follows from their id (element_rows.h): the walk reads no row-id array for them.
const runLength = graph.elementRowsRun()[1];
log(`run of rows in element order: ${runLength} of ${N} elements`);
if (!ourFile.found && ourFile.file !== undefined) {
  await graph.save(`${ourFile.file}.tmp`);
  renameSync(`${ourFile.file}.tmp`, ourFile.file);
}
const others = {};
for (const dist of ALSO) {
  if (ourFile.file === undefined) throw new Error('--also needs --graphs: the other builds load the same graph file');
  const other = await nativeGraphRows(dist, new Float32Array(0), DIM, false);
  const otherGraph = new other.addon.Graph(other.rows, N, 16, EF_CONSTRUCTION, 100);
  await otherGraph.load(ourFile.file, N, statSync(ourFile.file).size);
  others[`ours@${basename(dirname(resolve(new URL(dist).pathname)))}`] = otherGraph;
}
let raw;
if (SYSTEMS.includes('raw')) {
  const rawFile = cached(RAW_SAME_GRAPH ? 'raw-same' : 'raw');
  raw = new HierarchicalNSW('cosine', DIM);
  started = performance.now();
  if (RAW_SAME_GRAPH) {
    if (ourFile.file === undefined || INT8) throw new Error('--raw-same-graph needs --graphs and float32 rows');
    raw.readIndexSync(rawIndexOnce(ourFile.file, rawFile.file));
    log(`raw loaded our graph in ${(performance.now() - started).toFixed(0)} ms`);
  } else if (rawFile.found) {
    raw.readIndexSync(rawFile.file);
    log(`raw graph loaded in ${(performance.now() - started).toFixed(0)} ms`);
  } else {
    raw.initIndex(N, 16, EF_CONSTRUCTION, 100);
    for (let i = 0; i < N; i++) raw.addPoint(Array.from(vectors.subarray(i * DIM, (i + 1) * DIM)), i);
    log(`raw graph built in ${(performance.now() - started).toFixed(0)} ms`);
    if (rawFile.file !== undefined) {
      raw.writeIndexSync(`${rawFile.file}.tmp`);
      renameSync(`${rawFile.file}.tmp`, rawFile.file);
    }
  }
  raw.setEf(EF);
}

const slots = new Uint32Array(K);
const dist = new Float32Array(K);
const allSystems = {
  ours: (q) => graph.search(query(q), K, EF, undefined, slots, dist),
  hnswlibOverOurRows: (q) => graph.searchHnswlib(query(q), K, EF, undefined, slots, dist),
  raw: (q) => raw.searchKnn(Array.from(query(q)), K),
};
for (const [name, other] of Object.entries(others)) allSystems[name] = (q) => other.search(query(q), K, EF, undefined, slots, dist);
const systems = Object.fromEntries([...SYSTEMS, ...Object.keys(others)].map((name) => [name, allSystems[name]]));
if (Object.values(systems).some((search) => search === undefined)) throw new Error(`--systems: some of ${SYSTEMS} are not ${Object.keys(allSystems)}`);
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
for (const search of Object.values(systems)) burst(search);
const us = Object.fromEntries(Object.keys(systems).map((name) => [name, []]));
/** Each system's CPU time over ours, per round (the same load): their medians. */
const ratios = Object.fromEntries(Object.keys(systems).filter((name) => name !== 'ours').map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? Object.keys(systems) : Object.keys(systems).reverse();
  const got = {};
  for (const name of order) got[name] = burst(systems[name]);
  for (const name of order) us[name].push(got[name]);
  if (got.ours !== undefined) for (const name of Object.keys(ratios)) ratios[name].push(got[name] / got.ours);
}
const summary = Object.fromEntries(Object.entries(us).map(([name, xs]) => [name, Number(median(xs).toFixed(1))]));
const overOurs = Object.fromEntries(Object.entries(ratios).filter(([, xs]) => xs.length > 0).map(([name, xs]) => [name, Number(median(xs).toFixed(3))]));
console.log(JSON.stringify({ data: DATA ?? 'mixture', n: N, dim: DIM, ef: EF, efConstruction: EF_CONSTRUCTION, rows: INT8 ? 'int8' : 'float32', runLength, cpuUsPerQuery: summary, overOursMedianRatio: overOurs, rawOverOurs: summary.raw !== undefined && summary.ours !== undefined ? Number((summary.raw / summary.ours).toFixed(3)) : undefined, loadAverage: loadavg().map((l) => Number(l.toFixed(1))) }));
