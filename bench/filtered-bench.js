/**
 * Filtered vector search at 1 % selectivity (`--cats 10`: 10 %; issue 20): our public API (`findVector`
 * with `{cat}`, a new category and an unseen query vector each time, `_id` projection, k = 10) against the
 * plain JS loop over the category's vectors (bench/lib/exact.js), in one process, alternating bursts,
 * medians of CPU time per query. With `--base <dist>` a second build of ours runs on a copy of the same data (A/B).
 *
 *   node bench/filtered-bench.js [--n 20000] [--dim 384] [--rounds 5] [--burst-ms 500] [--dist <dir>]
 *                                [--base <dir>] [--backend native|wasm] [--data <dir>] [--profile <file>] [--cats 100]
 *
 * `--data <dir>` keeps the loaded database there and reuses it on later runs (loading takes a while).
 * `--profile <file>` writes a .cpuprofile of our side's filtered queries (first dist) to open in a viewer,
 * and prints the top functions by self time.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProfile } from './lib/cpu-profile.js';
import { exactTopK, recallOf } from './lib/exact.js';
import { mixture, sample } from './lib/vector-data.js';
import { freshDist } from './lib/private-dist.js';
import { option } from './lib/args.js';
import { median } from './lib/stats.js';

const N = Number(option('--n', 20_000));
const DIM = Number(option('--dim', 384));
const ROUNDS = Number(option('--rounds', 5));
const BURST_MS = Number(option('--burst-ms', 500));
const BACKEND = option('--backend', 'native');
const distUrl = (dir) => freshDist(resolve(dir));
const DISTS = [['ours', option('--dist') ?? fileURLToPath(freshDist())]];
if (option('--base')) DISTS.push(['base', option('--base')]);
const K = 10;
/** `--cats`: how many categories (`cat = i % cats`); a filter then selects 1 / cats of the documents (10: 10 %). */
const CATS = Number(option('--cats', 100));
const log = (...parts) => console.error(new Date().toISOString().slice(11, 19), ...parts);

const mix = mixture(2020, DIM, 100);
const vectors = sample(mix, 2021, N, 1.0);
const rowsOfCat = Array.from({ length: CATS }, (_, c) => Uint32Array.from({ length: Math.ceil((N - c) / CATS) }, (_, j) => c + j * CATS));

// Unseen queries: a pool drawn once (not timed); each system walks it from the start with its own cursor,
// so all see the same queries and none repeats one unless a run outlasts the pool.
const POOL = 40_000;
const pool = sample(mix, 1_000_000, POOL, 1.0);
const queryAt = (i) => ({ vector: pool.subarray((i % POOL) * DIM, ((i % POOL) + 1) * DIM), cat: i % CATS });
const cursors = new Map();
function nextQuery(name) {
  const i = cursors.get(name) ?? 0;
  cursors.set(name, i + 1);
  return queryAt(i);
}

const dataDir = option('--data') ?? mkdtempSync(join(tmpdir(), 'vdb-filtered-'));
const { VectorDB: FirstDB } = await import(new URL('index.js', distUrl(DISTS[0][1])));
if (!existsSync(join(dataDir, 'CURRENT'))) {
  const started = performance.now();
  const db = new FirstDB('bench', dataDir, undefined, { vectorBackend: BACKEND });
  const collection = await db.createCollection({ name: 'filtered', options: { vector: { dimension: DIM, metric: 'cosine', index: { m: 16, efConstruction: 200 } } } });
  for (let from = 0; from < N; from += 1000) {
    const documents = [];
    for (let i = from; i < Math.min(N, from + 1000); i++) documents.push({ _id: i, cat: i % CATS, $vector: Array.from(vectors.subarray(i * DIM, (i + 1) * DIM)) });
    await collection.insertMany(documents);
  }
  await collection.waitForIndex();
  await db.close();
  log(`loaded ${N} x ${DIM} in ${(performance.now() - started).toFixed(0)} ms`);
}

const systems = {};
const opened = [];
for (const [name, dist] of DISTS) {
  const dir = join(tmpdir(), `vdb-filtered-${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(dataDir, dir, { recursive: true });
  const { VectorDB } = await import(new URL('index.js', distUrl(dist)));
  const db = new VectorDB('bench', dir, undefined, { vectorBackend: BACKEND });
  const collection = await db.collection('filtered');
  await collection.waitForIndex();
  opened.push({ db, dir });
  systems[name] = async (query) => (await collection.findVector(query.vector, { limit: K, projection: { _id: 1 }, filter: { cat: query.cat } })).map((d) => d._id);
}
systems['js-loop'] = async (query) => exactTopK(query.vector, vectors, DIM, N, K, rowsOfCat[query.cat]);

// Exactness first: every system's results are the true top k of the category.
for (const [name, search] of Object.entries(systems)) {
  let sum = 0;
  for (let q = 0; q < 200; q++) {
    const query = nextQuery(name);
    sum += recallOf(await search(query), exactTopK(query.vector, vectors, DIM, N, K, rowsOfCat[query.cat]));
  }
  log(`${name}: recall ${(sum / 200).toFixed(3)}`);
}

/** One burst: CPU us per query and wall QPS. */
async function burst(name) {
  const search = systems[name];
  let done = 0;
  const cpuFrom = process.cpuUsage();
  const from = performance.now();
  const end = from + BURST_MS;
  for (; performance.now() < end; done++) await search(nextQuery(name));
  const wall = performance.now() - from;
  const cpu = process.cpuUsage(cpuFrom);
  return { cpuUs: (cpu.user + cpu.system) / done, qps: (done * 1000) / wall };
}

const samples = Object.fromEntries(Object.keys(systems).map((name) => [name, []]));
for (const [name, search] of Object.entries(systems)) for (let i = 0; i < 300; i++) await search(nextQuery(name));
for (let r = 0; r < ROUNDS; r++) {
  const names = Object.keys(systems);
  if (r % 2 === 1) names.reverse();
  for (const name of names) samples[name].push(await burst(name));
}
const result = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, { cpuUs: median(list.map((s) => s.cpuUs)), qps: median(list.map((s) => s.qps)) }]));
console.log(`filtered ${100 / CATS} %, ${N} x ${DIM}, ${BACKEND}, ${ROUNDS} rounds of ${BURST_MS} ms (medians):`);
for (const [name, { cpuUs, qps }] of Object.entries(result)) {
  console.log(`  ${name.padEnd(8)} ${cpuUs.toFixed(1).padStart(7)} CPU us/query  ${qps.toFixed(0).padStart(6)} QPS  (${(result['js-loop'].cpuUs / cpuUs).toFixed(2)}x js-loop by CPU)`);
}

const profileFile = option('--profile');
if (profileFile) {
  const profiler = await startProfile(50);
  await burst('ours');
  const profile = await profiler.stop();
  writeFileSync(profileFile, JSON.stringify(profile));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));
  const byName = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    byName.set(key, (byName.get(key) ?? 0) + us);
  }
  console.log(`profile (${profileFile}), self time, % of samples:`);
  for (const [key, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
}

for (const { db, dir } of opened) {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
if (!option('--data')) rmSync(dataDir, { recursive: true, force: true });
