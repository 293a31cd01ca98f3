// What `vector.index.quantization: 'int8'` saves and costs through the whole database (issue 31): for each
// mode, a child process loads N x D seeded clustered unit vectors (bench/lib/vector-data.js) through insertMany
// of 1,000 (bodyCacheBytes 0, native backend), waits for the graph (the longest event-loop stall meanwhile),
// drops its copy of the data, and reports RSS after two full GCs and the collection's flat-store figure (stats:
// rows held as float32 or int8, their bytes); then recall@10 against the exact float32 top 10 (computed here, once) and QPS, through
// `findVector` (projection _id), unfiltered (the graph) and filtered to 1 % and 10 % of the documents (the
// exact scan of the candidates: int8 codes, then a shortlist rescored from the stored vectors). Mode `raw`:
// hnswlib-node alone (the same M and efConstruction, efSearch 128, filters as its filter callback), for scale.
// The modes run one after another in one run, the load average printed beside each. `--backend` is the
// database's vectorBackend (native: hnswlib-node; native-rows: our addon, whose int8 rows the graph reads);
// after the close, the database directory's bytes (records, graph file) are reported as disk.
// Run: node bench/quantization-memory.js [--n 100000] [--dim 384] [--queries 100] [--modes none,int8,raw] [--backend native|native-rows] [--ef-construction 100] [--dist dist/]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { diskBytes } from './lib/disk.js';
import { exactTopK, recallOf } from './lib/exact.js';
import { buckets, insertBucketed, mixture, sample, row } from './lib/vector-data.js';
import { freshDist, privateDist } from './lib/private-dist.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const N = Number(arg('--n', 100_000));
const DIM = Number(arg('--dim', 384));
const Q = Number(arg('--queries', 100));
const EF_CONSTRUCTION = Number(arg('--ef-construction', 100));
const MODES = arg('--modes', 'none,int8,raw').split(',');
const BACKEND = arg('--backend', 'native');
const MB = 2 ** 20;
const SEED = 7;
const SPREAD = 0.35;
const CLUSTERS = 50;
/** Filters: bucket < bound keeps bound / 1000 of the documents. */
const FILTERS = [
  { name: 'unfiltered', bound: 1000 },
  { name: '10 %', bound: 100 },
  { name: '1 %', bound: 10 },
];

const data = () => sample(mixture(SEED, DIM, CLUSTERS), SEED + 1, N, SPREAD);
const queriesOf = () => sample(mixture(SEED, DIM, CLUSTERS), SEED + 2, Q, SPREAD);

if (args.includes('--child') && arg('--mode') === 'raw') await rawChild(arg('--truth'));
else if (args.includes('--child')) await child(arg('--mode'), arg('--dist'), arg('--truth'));
else await parent();

async function parent() {
  const distDir = path.resolve(arg('--dist', fileURLToPath(new URL('../dist/', import.meta.url))));
  // The addon is found beside the build (native/build, one level up): native-rows runs the build in place.
  const dist = BACKEND === 'native-rows' ? { dir: fileURLToPath(freshDist(distDir)), remove: () => undefined } : privateDist(distDir, 'quantization-memory');
  const work = mkdtempSync(path.join(tmpdir(), 'quantization-memory-'));
  try {
    // The exact float32 top 10 of every query and filter (cosine on unit vectors: dot products).
    const vectors = data();
    const queries = queriesOf();
    const bucket = buckets(SEED + 3, N);
    const truth = {};
    for (const { name, bound } of FILTERS) {
      const rows = bound === 1000 ? undefined : Uint32Array.from({ length: N }, (_, i) => i).filter((i) => bucket[i] < bound);
      truth[name] = Array.from({ length: Q }, (_, q) => exactTopK(row(queries, q, DIM), vectors, DIM, N, 10, rows));
    }
    const truthFile = path.join(work, 'truth.json');
    writeFileSync(truthFile, JSON.stringify(truth));
    console.log(`${N} x ${DIM} clustered unit vectors (cosine), ${BACKEND} backend, M 16, efConstruction ${EF_CONSTRUCTION}, ${Q} queries, recall@10 against the exact float32 top 10`);
    const results = [];
    for (const mode of MODES) {
      const before = loadavg();
      const run = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', '--mode', mode, '--dist', dist.dir, '--truth', truthFile, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * MB });
      if (run.status !== 0) throw new Error(`${mode}: child failed (${run.status})`);
      const result = JSON.parse(run.stdout.trim().split('\n').at(-1));
      results.push({ mode, ...result, loadBefore: before, loadAfter: loadavg() });
      console.log(`${mode}: ${JSON.stringify(result)}`);
    }
    console.log(`\n| | ${results.map((r) => `'${r.mode}'`).join(' | ')} |\n|---|${results.map(() => '---|').join('')}`);
    const line = (label, cell) => console.log(`| ${label} | ${results.map(cell).join(' | ')} |`);
    line('load average (1 min) before / after', (r) => `${r.loadBefore[0].toFixed(2)} / ${r.loadAfter[0].toFixed(2)}`);
    line('load to searchable by the graph', (r) => `${(r.loadMs / 1000).toFixed(1)} s`);
    line('longest event-loop stall during the load (p99)', (r) => (r.stallMs === undefined ? '-' : `${r.stallMs.max.toFixed(0)} ms (${r.stallMs.p99.toFixed(0)} ms)`));
    line('RSS after the load and a GC', (r) => `${r.rssMb.toFixed(0)} MB`);
    line('disk after the close', (r) => (r.diskBytes === undefined ? '-' : `${(r.diskBytes / MB).toFixed(0)} MB`));
    line('exact-scan rows held as / bytes', (r) => (r.flatRowsAs === undefined ? '-' : `${r.flatRowsAs} / ${(r.flatBytes / MB).toFixed(1)} MB`));
    for (const { name } of FILTERS) {
      line(`recall@10 ${name}`, (r) => r.queries[name].recall.toFixed(3));
      line(`QPS ${name}`, (r) => r.queries[name].qps.toFixed(0));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    dist.remove();
  }
}

async function rssMb() {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  return process.memoryUsage().rss / MB;
}

async function child(mode, distDir, truthFile) {
  const { VectorDB } = await import(pathToFileURL(path.join(distDir, 'index.js')).href);
  const dir = mkdtempSync(path.join(tmpdir(), `quantization-memory-${mode}-`));
  try {
    const db = new VectorDB('token', dir, undefined, { vectorBackend: BACKEND, bodyCacheBytes: 0, limits: { maxInsertManyDocuments: 1000 } });
    const index = { m: 16, efConstruction: EF_CONSTRUCTION, ...(mode === 'none' ? {} : { quantization: mode }) };
    const collection = await db.createCollection({ name: 'vectors', options: { vector: { dimension: DIM, metric: 'cosine', index } } });
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const started = performance.now();
    loop.enable();
    await insertBucketed(collection, data(), buckets(SEED + 3, N), N, DIM); // the data is not kept: the GC below frees it
    await collection.waitForIndex();
    const loadMs = performance.now() - started;
    loop.disable();
    const stallMs = { max: loop.max / 1e6, p99: loop.percentile(99) / 1e6 };
    const rss = await rssMb();
    const { vector } = await collection.stats();
    const truth = JSON.parse(readFileSync(truthFile, 'utf8'));
    const queries = queriesOf();
    const results = await measureAll(truth, (bound) => {
      const filter = bound === 1000 ? {} : { bucket: { $lt: bound } };
      return async (q) => (await collection.findVector(Array.from(row(queries, q, DIM)), { filter, limit: 10, projection: { _id: 1 } })).map((doc) => doc._id);
    });
    await db.close();
    console.log(JSON.stringify({ loadMs, stallMs, rssMb: rss, flatRowsAs: vector.flatRowsAs, flatBytes: vector.flatBytes, backend: vector.backend, diskBytes: diskBytes(dir), queries: results }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Recall@10 against `truth` and QPS of each filter's search (`searchOf(bound)(q)` answers query q's labels). */
async function measureAll(truth, searchOf) {
  const results = {};
  for (const { name, bound } of FILTERS) {
    const search = searchOf(bound);
    for (let q = 0; q < Math.min(5, Q); q++) await search(q); // warm-up
    let recall = 0;
    for (let q = 0; q < Q; q++) recall += recallOf(await search(q), truth[name][q]);
    // Timed: passes over the queries for at least 2 s (a shared machine's noise averages out somewhat).
    let timed = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 2000) for (let q = 0; q < Q; q++, timed++) await search(q);
    results[name] = { recall: recall / Q, qps: (timed / (performance.now() - t0)) * 1000 };
  }
  return results;
}

/** hnswlib-node alone: the same graph parameters, its filter callback for the filters. */
async function rawChild(truthFile) {
  const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');
  const index = new HierarchicalNSW('cosine', DIM);
  index.initIndex(N, 16, EF_CONSTRUCTION, 100);
  const bucket = buckets(SEED + 3, N);
  const started = performance.now();
  {
    const vectors = data();
    for (let i = 0; i < N; i++) index.addPoint(Array.from(row(vectors, i, DIM)), i);
  }
  const loadMs = performance.now() - started;
  const rss = await rssMb();
  index.setEf(128);
  const truth = JSON.parse(readFileSync(truthFile, 'utf8'));
  const queries = queriesOf();
  const results = await measureAll(truth, (bound) => {
    const filter = bound === 1000 ? undefined : (label) => bucket[label] < bound;
    return (q) => index.searchKnn(Array.from(row(queries, q, DIM)), 10, filter).neighbors;
  });
  console.log(JSON.stringify({ loadMs, rssMb: rss, queries: results }));
}
