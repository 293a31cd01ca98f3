// Where an int8 collection's unfiltered search spends its time, and what its shortlist keeps (issue 31): a
// native-rows int8 collection of N x D seeded clustered unit vectors (quantization-memory.js's data) is loaded
// once into `--db <dir>` (kept: later runs reopen it), then each build of `--dist` (comma-separated, each run
// `--rounds` times, alternating: the machine is shared) reopens it in a child process and reports, per efSearch
// of `--ef`: recall@10 against the exact float32 top 10 and QPS through `findVector` (projection _id); the
// vector records read per query (KvStore.getManySync's keys); the time in the graph search and in the exact
// rescore (VectorRows.exactTopOf) of a profiled pass; and what shortlists of 2k + 10, 4k, 8k and ef would give:
// recall@10 of the graph's best s candidates (by their codes) ranked exactly, which is the share of the true
// top 10 among them, and of all the ef candidates (what the graph itself found).
// Run: node bench/int8-rescore.js --db /tmp/int8-200k [--n 200000] [--dim 384] [--queries 100] [--ef 128,256]
//      [--ef-construction 100] [--dist dist/,/tmp/base/dist/] [--rounds 3]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exactTopK, recallOf } from './lib/exact.js';
import { buckets, insertBucketed, mixture, row, sample } from './lib/vector-data.js';
import { freshDist } from './lib/private-dist.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const N = Number(arg('--n', 200_000));
const DIM = Number(arg('--dim', 384));
const Q = Number(arg('--queries', 100));
const EFS = arg('--ef', '128').split(',').map(Number);
/** Shortlists to time besides the build's own (0): the graph's best s hits handed to the rescore instead. */
const SHORTLISTS = arg('--shortlist', '0').split(',').map(Number);
const EF_CONSTRUCTION = Number(arg('--ef-construction', 100));
const ROUNDS = Number(arg('--rounds', 1));
const DB = arg('--db');
const K = 10;
const SEED = 7;
const SPREAD = 0.35;
const CLUSTERS = 50;
const data = () => sample(mixture(SEED, DIM, CLUSTERS), SEED + 1, N, SPREAD);
const queriesOf = () => sample(mixture(SEED, DIM, CLUSTERS), SEED + 2, Q, SPREAD);

if (DB === undefined) throw new Error('--db <dir> is required (the collection is loaded there once, then reopened)');
if (args.includes('--child')) await child(arg('--child'));
else await parent();

async function parent() {
  const dists = arg('--dist', fileURLToPath(new URL('../dist/', import.meta.url))).split(',');
  const dirs = dists.map((dist) => fileURLToPath(freshDist(path.resolve(dist))));
  const truthFile = `${path.resolve(DB)}.truth-${Q}.json`;
  if (!existsSync(truthFile)) {
    const vectors = data();
    const queries = queriesOf();
    writeFileSync(truthFile, JSON.stringify(Array.from({ length: Q }, (_, q) => exactTopK(row(queries, q, DIM), vectors, DIM, N, K))));
  }
  if (!existsSync(DB)) {
    console.log(`loading ${N} x ${DIM} into ${DB} with ${dirs[0]}`);
    runChild(dirs[0], 'load', truthFile);
  }
  console.log(`${N} x ${DIM} clustered unit vectors (cosine), int8 native-rows, M 16, efConstruction ${EF_CONSTRUCTION}, ${Q} queries, k ${K}`);
  const runs = dirs.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    dirs.forEach((dir, d) => {
      const load = loadavg()[0];
      const result = runChild(dir, 'measure', truthFile);
      runs[d].push(result);
      console.log(`${dists[d]} (load ${load.toFixed(2)}): ${JSON.stringify(result)}`);
    });
  }
  console.log(`\nmedians of ${ROUNDS} run(s) each (shortlist 0: the build's own)\n\n| build | efSearch | shortlist | recall@10 | QPS | CPU us / query | records read / query | graph search us / query | rescore us / query |\n|---|---|---|---|---|---|---|---|---|`);
  dists.forEach((dist, d) => {
    for (const ef of EFS) {
      for (const s of SHORTLISTS) {
        const at = runs[d].map((r) => r[`${ef}/${s}`]);
        const m = (key) => median(at.map((x) => x[key]));
        console.log(`| ${dist} | ${ef} | ${s} | ${m('recall').toFixed(3)} | ${m('qps').toFixed(0)} | ${m('cpuUs').toFixed(0)} | ${m('reads').toFixed(1)} | ${m('graphUs').toFixed(0)} | ${m('rescoreUs').toFixed(0)} |`);
      }
    }
  });
  console.log(`\nrecall@10 of the graph's best s candidates ranked exactly (${dists[0]}, first run)\n\n| efSearch | s = 2k + 10 | s = 4k | s = 8k | s = ef |\n|---|---|---|---|---|`);
  for (const ef of EFS) {
    const s = runs[0][0][`${ef}/${SHORTLISTS[0]}`].shortlists;
    console.log(`| ${ef} | ${s[2 * K + 10].toFixed(3)} | ${s[4 * K].toFixed(3)} | ${s[8 * K].toFixed(3)} | ${s[ef].toFixed(3)} |`);
  }
}

function runChild(dir, what, truthFile) {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', what, '--build', dir, '--truth', truthFile, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 2 ** 26 });
  if (run.status !== 0) throw new Error(`${what} with ${dir}: child failed (${run.status})`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

async function child(what) {
  const dist = arg('--build');
  const { VectorDB } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
  const db = new VectorDB('token', DB, undefined, { vectorBackend: 'native-rows', bodyCacheBytes: 0, limits: { maxInsertManyDocuments: 1000 } });
  if (what === 'load') {
    const index = { m: 16, efConstruction: EF_CONSTRUCTION, quantization: 'int8' };
    const collection = await db.createCollection({ name: 'vectors', options: { vector: { dimension: DIM, metric: 'cosine', index } } });
    await insertBucketed(collection, data(), buckets(SEED + 3, N), N, DIM);
    await collection.waitForIndex();
    await db.close();
    console.log('{}');
    return;
  }
  const collection = await db.collection('vectors');
  await collection.waitForIndex();
  const truth = JSON.parse(readFileSync(arg('--truth'), 'utf8'));
  const queries = Array.from({ length: Q }, (_, q) => Array.from(row(queriesOf(), q, DIM)));
  const probe = await instrument(dist);
  const out = {};
  for (const ef of EFS) {
    for (const s of SHORTLISTS) {
      probe.shortlist = s;
      const search = async (q) => (await collection.findVector(queries[q], { limit: K, efSearch: ef, projection: { _id: 1 } })).map((doc) => doc._id);
      for (let q = 0; q < Math.min(10, Q); q++) await search(q); // warm-up
      // The profiled pass: recall, records read, time in the graph and in the rescore, the ef candidates.
      probe.reset();
      let recall = 0;
      const shortlists = { [2 * K + 10]: 0, [4 * K]: 0, [8 * K]: 0, [ef]: 0 };
      for (let q = 0; q < Q; q++) {
        recall += recallOf(await search(q), truth[q]);
        const candidates = probe.candidates;
        for (const n of Object.keys(shortlists)) shortlists[n] += recallOf(candidates.slice(0, Number(n)), truth[q]);
      }
      const profiled = { reads: probe.reads / Q, graphUs: (probe.graphMs * 1000) / Q, rescoreUs: (probe.rescoreMs * 1000) / Q };
      for (const n of Object.keys(shortlists)) shortlists[n] /= Q;
      // Timed, unprofiled (but for the shortlist's width): passes over the queries for at least 2 s; the
      // process's CPU time per query beside the QPS (less moved by the other work of a shared machine).
      probe.off();
      let timed = 0;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      while (performance.now() - t0 < 2000) for (let q = 0; q < Q; q++, timed++) await search(q);
      const cpu = process.cpuUsage(cpu0);
      out[`${ef}/${s}`] = { recall: recall / Q, qps: (timed / (performance.now() - t0)) * 1000, cpuUs: (cpu.user + cpu.system) / timed, ...profiled, shortlists };
      probe.on();
    }
  }
  await db.close();
  console.log(JSON.stringify(out));
}

/**
 * Wraps the build's graph search, exact rescore and synchronous reads to count and time them (labels are the
 * document ids here: `_id: i` was given label i in order). The graph is asked for its ef best instead of
 * its shortlist (the same search: hnswlib keeps ef candidates either way), recorded, and the first k handed on.
 */
async function instrument(dist) {
  const { HnswIndex } = await import(pathToFileURL(path.join(dist, 'vector-index', 'hnsw-index.js')).href);
  const { NativeRowStore } = await import(pathToFileURL(path.join(dist, 'vector-index', 'native-rows.js')).href);
  const { KvStore } = await import(pathToFileURL(path.join(dist, 'storage', 'kv-store.js')).href);
  const search = HnswIndex.prototype.search;
  const exactTopOf = NativeRowStore.prototype.exactTopOf;
  const getManySync = KvStore.prototype.getManySync;
  const probe = {
    reads: 0,
    graphMs: 0,
    rescoreMs: 0,
    candidates: [],
    /** When set, the graph answers its best `shortlist` hits where the engine asked for more than k (a shortlist). */
    shortlist: 0,
    reset() {
      Object.assign(probe, { reads: 0, graphMs: 0, rescoreMs: 0, candidates: [] });
    },
    on() {
      HnswIndex.prototype.search = widened(function (query, k, options = {}) {
        const t0 = performance.now();
        const all = search.call(this, query, Math.max(k, options.ef ?? 0), options);
        probe.graphMs += performance.now() - t0;
        probe.candidates = all.map((hit) => hit.label);
        return all.slice(0, k);
      });
      NativeRowStore.prototype.exactTopOf = function (...a) {
        const t0 = performance.now();
        const out = exactTopOf.apply(this, a);
        probe.rescoreMs += performance.now() - t0;
        return out;
      };
      KvStore.prototype.getManySync = function (keys) {
        probe.reads += keys.length;
        return getManySync.call(this, keys);
      };
    },
    off() {
      HnswIndex.prototype.search = widened(search);
      NativeRowStore.prototype.exactTopOf = exactTopOf;
      KvStore.prototype.getManySync = getManySync;
    },
  };
  /** The graph search with its shortlist replaced by probe.shortlist hits (the ef grown to hold them). */
  function widened(searchOf) {
    return function (query, k, options = {}) {
      const s = probe.shortlist;
      if (s === 0 || k <= K) return searchOf.call(this, query, k, options);
      return searchOf.call(this, query, s, { ...options, ef: Math.max(s, options.ef ?? 0) });
    };
  }
  probe.on();
  return probe;
}
