/**
 * The duel of issue 20: our full API against raw hnswlib-node on one workload, in one process, in
 * alternating bursts (so both see the same machine load), medians of the per-round ratios.
 *
 *   node bench/duel-bench.js [--n 20000] [--dim 128] [--rounds 7] [--burst-ms 500] [--backend native|native-rows] [--dist <dir>] [--profile] [--layers]
 *
 * Data: a seeded Gaussian mixture (unit vectors, cosine), `cat = i % 100` on every document; k = 10;
 * M 16 / efConstruction 200 on both sides. Queries are drawn fresh for every burst (40k held-out vectors,
 * never repeated within a run unless it wraps), so neither side is helped by caches. Reported:
 * - load: raw build time; ours until insertMany (20 per request) is acknowledged and until waitForIndex;
 * - the ef where raw first reaches recall@10 >= 0.95 (sweep), then at that ef, through `efSearch`, the
 *   QPS of `find` (`$vector` sort, `_id` projection, limit 10, through `db.command`) vs raw searchKnn;
 * - filtered 1 % (`{cat: c}`, c varying per query): ours vs raw searchKnn with a filter callback.
 * Writes bench/results/duel-bench.json (and prints a markdown table). `--profile` also prints where our
 * side's query time goes (self time per function, sampled while only our queries run). `--layers` then
 * reopens the data directory with the engine alone (reopen to first answer, to caught up) and times one
 * unfiltered query at each layer: raw searchKnn, the collection's vectors, Collection.select,
 * executeCommand, and the client's db.command (each in interleaved bursts, medians, us per query).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProfile } from './lib/cpu-profile.js';
import { exactTopK, recallOf } from './lib/exact.js';
import { mixture, sample } from './lib/vector-data.js';
import { freshDist } from './lib/private-dist.js';
import { option } from './lib/args.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const N = Number(option('--n', 20_000));
const DIM = Number(option('--dim', 128));
const ROUNDS = Number(option('--rounds', 7));
const BURST_MS = Number(option('--burst-ms', 500));
/** Our side's vector backend: 'native' (hnswlib-node) or 'native-rows' (our addon over the collection's rows). */
const BACKEND = option('--backend', 'native');
const DIST = freshDist(option('--dist', undefined));
const K = 10;
const CATS = 100;
const TRUTH_QUERIES = 300;
const POOL = 40_000;

const { VectorDB } = await import(new URL('index.js', DIST));
const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');

const mix = mixture(2020, DIM, 100);
const vectors = sample(mix, 2021, N, 1.0);
const pool = sample(mix, 2022, POOL, 1.0);
const query = (i) => pool.subarray((i % POOL) * DIM, ((i % POOL) + 1) * DIM);
const catOf = (i) => i % CATS;
const rowsOfCat = Array.from({ length: CATS }, (_, c) => Uint32Array.from({ length: Math.ceil((N - c) / CATS) }, (_, j) => c + j * CATS));
const truth = Array.from({ length: TRUTH_QUERIES }, (_, q) => exactTopK(query(q), vectors, DIM, N, K));
const truthFiltered = Array.from({ length: TRUTH_QUERIES }, (_, q) => exactTopK(query(q), vectors, DIM, N, K, rowsOfCat[catOf(q)]));
const log = (...parts) => console.error(new Date().toISOString().slice(11, 19), ...parts);

// ---- raw hnswlib-node ----------------------------------------------------------------------------
let started = performance.now();
const raw = new HierarchicalNSW('cosine', DIM);
raw.initIndex(N, 16, 200, 100);
for (let i = 0; i < N; i++) raw.addPoint(Array.from(vectors.subarray(i * DIM, (i + 1) * DIM)), i);
const rawBuildMs = performance.now() - started;
log(`raw build ${rawBuildMs.toFixed(0)} ms`);
const rawSearch = (q) => raw.searchKnn(Array.from(query(q)), K).neighbors;
const rawFiltered = (q) => {
  const c = catOf(q);
  return raw.searchKnn(Array.from(query(q)), K, (label) => label % CATS === c).neighbors;
};

// ---- ours -----------------------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'vdb-duel-'));
const db = new VectorDB('duel', dir, undefined, { vectorBackend: BACKEND });
const collection = await db.createCollection({ name: 'duel', options: { vector: { dimension: DIM, metric: 'cosine', index: { m: 16, efConstruction: 200 } } } });
started = performance.now();
for (let i = 0; i < N; i += 20) {
  const docs = [];
  for (let j = i; j < Math.min(N, i + 20); j++) docs.push({ _id: j, cat: catOf(j), $vector: Array.from(vectors.subarray(j * DIM, (j + 1) * DIM)) });
  await collection.insertMany(docs);
}
const ackMs = performance.now() - started;
await collection.waitForIndex();
const searchableMs = performance.now() - started;
log(`ours: acknowledged ${ackMs.toFixed(0)} ms, searchable ${searchableMs.toFixed(0)} ms`);
const target = { collection: 'duel' };
let ef = 16;
const ours = async (q, filter) => {
  const options = { limit: K, efSearch: ef };
  const response = await db.command({ find: { ...(filter ? { filter } : {}), sort: { $vector: Array.from(query(q)) }, projection: { _id: 1 }, options } }, target);
  if (response.errors) throw new Error(JSON.stringify(response.errors));
  return response.data.documents.map((d) => d._id);
};
const oursFiltered = (q) => ours(q, { cat: catOf(q) });

// ---- measurement --------------------------------------------------------------------------------
async function recall(search, truthOf) {
  let sum = 0;
  for (let q = 0; q < TRUTH_QUERIES; q++) sum += recallOf(await search(q), truthOf[q]);
  return sum / TRUTH_QUERIES;
}

let next = TRUTH_QUERIES;
/** Wall-clock QPS of a burst; `cpu`: per second of this process's CPU time (steadier on a shared machine). */
async function burst(search) {
  const end = performance.now() + BURST_MS;
  let done = 0;
  const from = performance.now();
  const cpuFrom = process.cpuUsage();
  while (performance.now() < end) {
    await search(next++);
    done++;
  }
  const cpu = process.cpuUsage(cpuFrom);
  lastCpuQps = (done * 1e6) / (cpu.user + cpu.system);
  return (done * 1000) / (performance.now() - from);
}
let lastCpuQps = 0;

/** Our queries alone under the sampling profiler: the top functions by self time. */
async function profileOurs(name, search) {
  const profiler = await startProfile(100);
  const qps = await burst(search);
  const profile = await profiler.stop();
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i + 1] ?? 0)));
  const byName = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    byName.set(key, (byName.get(key) ?? 0) + us);
  }
  const perQuery = (us) => (us / ((qps * BURST_MS) / 1000)).toFixed(1);
  log(`profile of ${name} (${qps.toFixed(0)} QPS; us per query, self time):`);
  for (const [key, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.error(`  ${perQuery(us).padStart(7)}  ${key}`);
  // Inclusive time per function (its own and its callees'), counted once per sample.
  const children = new Map(profile.nodes.map((node) => [node.id, node.children ?? []]));
  const nodeOf = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusive = new Map();
  const walk = (id, onStack) => {
    const node = nodeOf.get(id);
    const name = node.callFrame.functionName || '(anonymous)';
    const fresh = !onStack.has(name);
    if (fresh) onStack.add(name);
    let total = self.get(id) ?? 0;
    for (const child of children.get(id)) total += walk(child, onStack);
    if (fresh) {
      onStack.delete(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + total);
    }
    return total;
  };
  walk(profile.nodes[0].id, new Set());
  log(`inclusive (us per query):`);
  for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.error(`  ${perQuery(us).padStart(7)}  ${key}`);
}

/** Alternating bursts, who goes first alternating; medians of QPS and of the per-round ratios. */
async function duel(name, oursSearch, rawSearchFn) {
  for (let i = 0; i < 200; i++) {
    await oursSearch(next++);
    await rawSearchFn(next++);
  }
  const rounds = [];
  const run = async (search) => ({ qps: await burst(search), cpuQps: lastCpuQps });
  for (let r = 0; r < ROUNDS; r++) {
    let o;
    let w;
    if (r % 2 === 0) {
      o = await run(oursSearch);
      w = await run(rawSearchFn);
    } else {
      w = await run(rawSearchFn);
      o = await run(oursSearch);
    }
    rounds.push({ ours: o.qps, raw: w.qps, ratio: o.qps / w.qps, oursCpuQps: o.cpuQps, rawCpuQps: w.cpuQps, cpuRatio: o.cpuQps / w.cpuQps });
  }
  const med = (field) => median(rounds.map((x) => x[field]));
  const result = { ours: med('ours'), raw: med('raw'), ratio: med('ratio'), oursCpuQps: med('oursCpuQps'), rawCpuQps: med('rawCpuQps'), cpuRatio: med('cpuRatio'), rounds };
  log(`${name}: ours ${result.ours.toFixed(0)} QPS, raw ${result.raw.toFixed(0)} QPS, ratio ${result.ratio.toFixed(2)}x (CPU time: ${result.cpuRatio.toFixed(2)}x)`);
  return result;
}


const sweep = [];
for (const candidate of [10, 12, 14, 16, 20, 24, 32, 48, 64, 96, 128]) {
  raw.setEf(candidate);
  const r = await recall(rawSearch, truth);
  sweep.push({ ef: candidate, recall: r });
  if (r >= 0.95) {
    ef = candidate;
    break;
  }
}
log(`raw reaches recall 0.95 at ef ${ef}`);
raw.setEf(ef);
const unfilteredRecall = { ours: await recall((q) => ours(q), truth), raw: await recall(rawSearch, truth) };
const unfiltered = await duel('unfiltered', (q) => ours(q), rawSearch);
const filteredRecall = { ours: await recall(oursFiltered, truthFiltered), raw: await recall(rawFiltered, truthFiltered) };
const filtered = await duel('filtered 1 %', oursFiltered, rawFiltered);
if (args.includes('--profile')) {
  await profileOurs('unfiltered', (q) => ours(q));
  await profileOurs('filtered 1 %', oursFiltered);
}

await db.close();
const layers = args.includes('--layers') ? await measureLayers() : undefined;
rmSync(dir, { recursive: true, force: true });

/** Reopens the directory with the engine and times one query at each layer (us per query, medians). */
async function measureLayers() {
  const { Database } = await import(new URL('engine/database.js', DIST));
  const { executeCommand } = await import(new URL('commands/index.js', DIST));
  const { parseFilter } = await import(new URL('query/filter.js', DIST));
  let from = performance.now();
  const engine = await Database.open(dir, { vectorBackend: BACKEND });
  const collection = engine.collection('default_keyspace', 'duel');
  const command = (q) => ({ find: { sort: { $vector: Array.from(query(q)) }, projection: { _id: 1 }, options: { limit: K, efSearch: ef } } });
  await executeCommand(engine, command(0), { keyspace: 'default_keyspace', collection: 'duel' });
  const reopenMs = performance.now() - from;
  await collection.waitForIndex(600_000);
  const caughtUpMs = performance.now() - from;
  log(`reopen: first answer ${reopenMs.toFixed(0)} ms, graph caught up ${caughtUpMs.toFixed(0)} ms`);
  const vectors = await collection.vectors();
  const empty = parseFilter({}, { isIndexed: () => true });
  const systems = {
    raw: async (q) => rawSearch(q),
    vectors: async (q) => vectors.search(query(q), K, undefined, ef),
    select: (q) => collection.select({ filter: empty, sort: { kind: 'vector', vector: query(q) }, limit: K, withVector: false, efSearch: ef }),
    executeCommand: (q) => executeCommand(engine, command(q), { keyspace: 'default_keyspace', collection: 'duel' }),
  };
  const samples = Object.fromEntries(Object.keys(systems).map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, search] of Object.entries(systems)) {
      await burst(search);
      samples[name].push(1e6 / lastCpuQps);
    }
  }
  // CPU time per query (the process's, all threads): wall time on a loaded machine mostly measures the others.
  const us = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list)]));
  if (args.includes('--profile')) {
    await profileOurs('Collection.select', systems.select);
    await profileOurs('executeCommand', systems.executeCommand);
  }
  log(`CPU us per query: ${Object.entries(us).map(([name, v]) => `${name} ${v.toFixed(1)}`).join(', ')}`);
  await engine.close();
  return { reopenMs, caughtUpMs, usPerQuery: us };
}

const report = {
  n: N,
  dim: DIM,
  k: K,
  ef,
  sweep,
  load: { rawBuildMs, oursAcknowledgedMs: ackMs, oursSearchableMs: searchableMs },
  unfiltered: { ...unfiltered, recall: unfilteredRecall },
  filtered: { ...filtered, recall: filteredRecall },
  ...(layers ? { layers } : {}),
};
const results = new URL('results/', import.meta.url);
mkdirSync(results, { recursive: true });
writeFileSync(new URL('duel-bench.json', results), JSON.stringify(report, null, 2));
const fmt = (x) => x.toFixed(0);
console.log(`| ${N / 1000}k x ${DIM}, ef ${ef} | ours QPS | raw hnswlib-node QPS | ratio (median of rounds) | ratio of CPU-time QPS | recall ours / raw |
|---|---|---|---|---|---|
| unfiltered | ${fmt(unfiltered.ours)} | ${fmt(unfiltered.raw)} | ${unfiltered.ratio.toFixed(2)}x | ${unfiltered.cpuRatio.toFixed(2)}x | ${unfilteredRecall.ours.toFixed(3)} / ${unfilteredRecall.raw.toFixed(3)} |
| filtered 1 % | ${fmt(filtered.ours)} | ${fmt(filtered.raw)} | ${filtered.ratio.toFixed(1)}x | ${filtered.cpuRatio.toFixed(1)}x | ${filteredRecall.ours.toFixed(3)} / ${filteredRecall.raw.toFixed(3)} |

Load: raw build ${fmt(rawBuildMs)} ms; ours acknowledged ${fmt(ackMs)} ms, searchable (waitForIndex) ${fmt(searchableMs)} ms.`);
