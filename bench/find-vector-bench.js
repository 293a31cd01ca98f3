/**
 * The unfiltered vector query's own cost, for A/B work on it: builds of vectordb-local (each a dist/
 * directory) and raw hnswlib-node in one process, on one workload, each of ours loaded through its client
 * as the peers bench does, then queried with vectors none of them has seen, in interleaved bursts.
 *
 *   node bench/find-vector-bench.js [--dist dist/,../base/dist/] [--n 20000] [--dim 384] [--ef 24]
 *                                   [--rounds 7] [--burst-ms 400] [--api findVector|command] [--same-graph]
 *                                   [--backend native|native-rows] [--keep <dir>] [--raw-same-graph]
 *
 * `findVector`: `collection.findVector(vector, { limit: 10, efSearch, projection: { _id: 1 } })` (as
 * bench/peers/systems/ours.js); `command`: `db.command({ find: ... })` with the vector as a plain array (as
 * bench/duel-bench.js). Raw: `searchKnn(Array.from(vector), 10)` at the same ef. Prints the medians of CPU
 * us per query (this process's, all threads: on a shared machine wall time mostly measures the others) and
 * each build's ratio to raw, of the medians and the median of each round's ratio (steadier under a load that
 * changes between rounds). A dist outside this repository must see its node_modules (e.g. a symlink).
 * `--same-graph`: the first build loads the data once and every build (the first too) opens its own copy
 * of that directory, so that all search one graph (two loads build graphs whose search costs differ by a
 * few per cent, more than most A/B changes); each then searches with every document's own vector once, so
 * that its hit cache holds every body as after a load. `--backend`: our side's vector backend (default
 * `native`, hnswlib-node; `native-rows`, our addon). `--keep <dir>`: as `--same-graph`, with the load kept
 * under <dir> and reused by later runs of the same n, dim and backend (1M: many minutes of load); above
 * 100,000 documents the copies warm their hit caches with the first 100,000 only (the cache holds about
 * 125,000 small bodies). `--raw-same-graph` (needs `--keep` and `--backend native-rows`): raw loads the kept
 * load's own graph (bench/lib/raw-graph-file.js: the same links and entry point) instead of building one,
 * so that the two differ only in the path around the search.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mixture, sample } from './lib/vector-data.js';
import { freshDist } from './lib/private-dist.js';
import { rawIndexOnce } from './lib/raw-graph-file.js';
import { median } from './lib/stats.js';

const { values: flags } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist/' },
    n: { type: 'string', default: '20000' },
    dim: { type: 'string', default: '384' },
    ef: { type: 'string', default: '24' },
    rounds: { type: 'string', default: '7' },
    'burst-ms': { type: 'string', default: '400' },
    api: { type: 'string', default: 'findVector' },
    'same-graph': { type: 'boolean', default: false },
    backend: { type: 'string', default: 'native' },
    keep: { type: 'string' },
    'raw-same-graph': { type: 'boolean', default: false },
  },
});
const N = Number(flags.n);
const DIM = Number(flags.dim);
const EF = Number(flags.ef);
const K = 10;
/** The copies' hit-cache warm-up: every document's own vector up to this many. */
const WARM = Math.min(N, 100_000);
const log = (...parts) => console.error(new Date().toISOString().slice(11, 19), ...parts);

const mix = mixture(2020, DIM, 100);
const vectors = sample(mix, 2021, N, 1.0);
const row = (i) => vectors.subarray(i * DIM, (i + 1) * DIM);
/** Unseen queries: seeded chunks of the mixture, never repeated. */
let chunk = 0;
let pool;
let at = 256;
const nextQuery = () => {
  if (at === 256) {
    pool = sample(mix, 1_000_000 + chunk++, 256, 1.0);
    at = 0;
  }
  const i = at++;
  return pool.subarray(i * DIM, (i + 1) * DIM);
};

const dists = flags.dist.split(',');
const opened = [];
const vectorDbOf = async (dist) => (await import(new URL('index.js', freshDist(resolve(dist))).href)).VectorDB;

/** Loads the workload into a new directory through the build's client; returns the database and collection. */
async function load(dist, dir) {
  const db = new (await vectorDbOf(dist))('find', dir, undefined, { vectorBackend: flags.backend });
  const collection = await db.createCollection({ name: 'find', options: { vector: { dimension: DIM, metric: 'cosine', index: { m: 16, efConstruction: 200 } } } });
  const started = performance.now();
  for (let from = 0; from < N; from += 1000) {
    const documents = [];
    for (let j = from; j < Math.min(N, from + 1000); j++) documents.push({ _id: j, cat: j % 100, $vector: Array.from(row(j)) });
    await collection.insertMany(documents);
  }
  await collection.waitForIndex();
  log(`${dist}: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { db, collection };
}

/** Opens a copy of the loaded directory with the build, its graph caught up and its hit cache warm. */
async function openCopy(dist, source) {
  const dir = mkdtempSync(join(tmpdir(), 'vdb-find-'));
  cpSync(source, dir, { recursive: true });
  const db = new (await vectorDbOf(dist))('find', dir, undefined, { vectorBackend: flags.backend });
  const collection = await db.collection('find');
  await collection.waitForIndex();
  for (let j = 0; j < WARM; j++) await collection.findVector(row(j), { limit: K, projection: { _id: 1 } });
  log(`${dist}: opened a copy of the loaded data`);
  return { db, collection, dir };
}

/** The directory every build opens a copy of (undefined: each loads its own), loaded if not kept from before. */
async function sharedLoad() {
  if (flags.keep === undefined) {
    if (!flags['same-graph']) return undefined;
    const dir = mkdtempSync(join(tmpdir(), 'vdb-find-'));
    await (await load(dists[0], dir)).db.close();
    return dir;
  }
  const dir = join(resolve(flags.keep), `n${N}-dim${DIM}-${flags.backend}`);
  if (existsSync(join(dir, 'loaded'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await (await load(dists[0], dir)).db.close();
  writeFileSync(join(dir, 'loaded'), '');
  return dir;
}

/** Raw hnswlib-node at EF: its own graph of the workload, or (`--raw-same-graph`) the kept load's graph. */
function rawIndex(shared) {
  const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');
  const raw = new HierarchicalNSW('cosine', DIM);
  if (flags['raw-same-graph']) {
    if (flags.keep === undefined || flags.backend !== 'native-rows') throw new Error('--raw-same-graph needs --keep and --backend native-rows');
    const graphs = readdirSync(join(shared, 'side')).filter((name) => name.endsWith('.hnsw'));
    if (graphs.length !== 1) throw new Error(`expected one graph file in ${shared}/side, found ${graphs.length}`);
    raw.readIndexSync(rawIndexOnce(join(shared, 'side', graphs[0]), `${shared}.raw-same.index`));
    log('raw loaded the kept graph');
  } else {
    raw.initIndex(N, 16, 200, 100);
    for (let i = 0; i < N; i++) raw.addPoint(Array.from(row(i)), i);
  }
  raw.setEf(EF);
  return raw;
}

const shared = await sharedLoad();
const raw = rawIndex(shared);
const systems = { raw: (v) => raw.searchKnn(Array.from(v), K).neighbors };
for (const [i, dist] of dists.entries()) {
  let db;
  let collection;
  if (shared === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'vdb-find-'));
    ({ db, collection } = await load(dist, dir));
    opened.push({ db, dir });
  } else {
    const copy = await openCopy(dist, shared);
    ({ db, collection } = copy);
    opened.push(copy);
  }
  const target = { collection: 'find' };
  systems[`${i}:${dist}`] =
    flags.api === 'command'
      ? async (v) => (await db.command({ find: { sort: { $vector: Array.from(v) }, projection: { _id: 1 }, options: { limit: K, efSearch: EF } } }, target)).data.documents.map((d) => d._id)
      : async (v) => (await collection.findVector(v, { limit: K, efSearch: EF, projection: { _id: 1 } })).map((d) => d._id);
}

/** CPU us per query over a burst (queries drawn before the clock starts, 64 at a time). */
async function burst(search) {
  let cpu = 0;
  let count = 0;
  let elapsed = 0;
  while (elapsed < Number(flags['burst-ms'])) {
    const batch = Array.from({ length: 64 }, nextQuery);
    const from = performance.now();
    const cpuFrom = process.cpuUsage();
    for (const v of batch) await search(v);
    const used = process.cpuUsage(cpuFrom);
    elapsed += performance.now() - from;
    cpu += used.user + used.system;
    count += batch.length;
  }
  return cpu / count;
}

for (const search of Object.values(systems)) for (let i = 0; i < 500; i++) await search(nextQuery());
const samples = Object.fromEntries(Object.keys(systems).map((name) => [name, []]));
/** Each round's raw / build: a round's bursts run close together, so the machine's load swings cancel out. */
const ratios = Object.fromEntries(Object.keys(systems).map((name) => [name, []]));
for (let r = 0; r < Number(flags.rounds); r++) {
  const order = Object.entries(systems);
  if (r % 2 === 1) order.reverse();
  const round = {};
  for (const [name, search] of order) samples[name].push((round[name] = await burst(search)));
  for (const name of Object.keys(round)) ratios[name].push(round.raw / round[name]);
}
const rawUs = median(samples.raw);
console.log(`${N / 1000}k x ${DIM}, ef ${EF}, ${flags.api}, unseen queries: CPU us per query (median of ${flags.rounds} rounds), ratio to raw of the medians and median of the rounds' ratios`);
for (const [name, list] of Object.entries(samples)) {
  const us = median(list);
  console.log(`  ${name.padEnd(40)} ${us.toFixed(1).padStart(7)}${name === 'raw' ? '' : `  ${(rawUs / us).toFixed(2)}x raw  (rounds ${median(ratios[name]).toFixed(2)}x)`}`);
}
for (const { db, dir } of opened) {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
if (shared !== undefined && flags.keep === undefined) rmSync(shared, { recursive: true, force: true });
