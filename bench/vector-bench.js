/**
 * Vector search benchmark (issue 4): raw hnswlib-node, raw hnswlib-wasm, vectordb-local's full API (wasm
 * and native backends) and plain-JS brute force, side by side on deterministic clustered data, with the
 * same M / efConstruction. Reports build time (ours: insert acknowledgement, graph complete, snapshot),
 * recall@10 and QPS at ef 10/50/100/200, filtered recall and QPS at 0.1-100 % selectivity, where a bulk
 * load spends its time, and pass/fail for the issue's targets.
 *
 *   npm run build && node bench/vector-bench.js [--quick] [--systems raw-native,raw-wasm,ours-wasm,ours-native]
 *        [--datasets 128,768] [--batch 100] [--queries N] [--no-profile] [--no-query-profile] [--keep-profiles] [--no-duel]
 *   node bench/vector-bench.js [--quick] --report-only    (re-renders .md/.svg from the last run's .json)
 *   node bench/vector-bench.js --load-only [--systems ours-wasm,ours-native] [--datasets 128] [--dist <dir>]
 *        (only our bulk load: build times and event-loop delay, no queries; writes vector-bench-load.json)
 *
 * Full: 100,000 x 128 and 20,000 x 768 (about 25-35 minutes on 2 cores). --quick: 10,000 x 128 and
 * 5,000 x 768 (a few minutes). Each system runs in its own child process (bench/lib/vector-bench-child.js),
 * one after the other; the brute force runs here and doubles as the ground truth. Then our API and its raw
 * library, both still loaded, alternate bursts of the same queries (the duel: what the 0.8x target reads).
 * Writes bench/results/vector-bench.{json,md,svg} (--quick: vector-bench-quick.*) and prints the markdown.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exactTopK } from './lib/exact.js';
import { SELECTIVITIES, allowedRows, measureQueries } from './lib/measure.js';
import { makeDataset, row, writeDataset } from './lib/vector-data.js';
import { checkTargets, markdown, svg } from './lib/vector-report.js';
import { freshDist } from './lib/private-dist.js';
import { median } from './lib/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const quick = flag('--quick');
const loadOnly = flag('--load-only');
if (flag('--help')) {
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0]);
  process.exit(0);
}

if (flag('--report-only')) {
  // Re-renders the markdown and the SVG (and the target checks) from the last run's JSON.
  const base = join(here, 'results', quick ? 'vector-bench-quick' : 'vector-bench');
  const report = JSON.parse(readFileSync(`${base}.json`, 'utf8'));
  report.targets = checkTargets(report.datasets, report.params);
  const md = markdown(report);
  writeFileSync(`${base}.json`, JSON.stringify(report, null, 2));
  writeFileSync(`${base}.md`, md);
  writeFileSync(`${base}.svg`, svg(report));
  process.stdout.write(`${md}\n`);
  process.exit(0);
}

// A private copy of dist/ for this run: other people's rebuilds during a 30-minute run must not change
// the code under test half-way. Under node_modules/ so that the copy resolves the same packages.
// --dist <dir>: another build to measure (e.g. a copy of dist/ from before a change), same bench code.
const distSource = fileURLToPath(freshDist(option('--dist', undefined)));
if (!existsSync(join(distSource, 'vector-index', 'index.js'))) {
  console.error('vector-bench: dist/ is missing: run `npm run build` first');
  process.exit(1);
}
const snapshotRoot = join(here, '..', 'node_modules', '.cache', `vector-bench-${process.pid}`);
const distDir = join(snapshotRoot, 'dist');
cpSync(distSource, distDir, { recursive: true });
writeFileSync(join(snapshotRoot, 'package.json'), '{"type":"module"}');
process.on('exit', () => rmSync(snapshotRoot, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const { DEFAULT_PARAMS, nativeBackendAvailable } = await import(pathToFileURL(join(distDir, 'vector-index', 'index.js')).href);

const params = {
  k: 10,
  M: DEFAULT_PARAMS.M,
  efConstruction: DEFAULT_PARAMS.efConstruction,
  efs: [10, 50, 100, 200],
  // Filtered runs use the product's default efSearch: what a user gets without tuning.
  filterEf: DEFAULT_PARAMS.efSearch,
};

// Clustered, overlapping Gaussian mixtures (spread ~ the spread of the centres: high intrinsic dimension).
const DATASETS = [
  { key: '128', label: quick ? '10k x 128' : '100k x 128', n: quick ? 10_000 : 100_000, dim: 128, clusters: quick ? 32 : 100, spread: 1.0, queries: quick ? 100 : 200, seed: 1280 },
  { key: '768', label: quick ? '5k x 768' : '20k x 768', n: quick ? 5_000 : 20_000, dim: 768, clusters: quick ? 16 : 50, spread: 1.0, queries: quick ? 100 : 200, seed: 7680 },
].filter((d) => option('--datasets', '128,768').split(',').includes(d.key));
for (const d of DATASETS) d.queries = Number(option('--queries', d.queries));

const native = await nativeBackendAvailable();
let systems = option('--systems', loadOnly ? 'ours-wasm,ours-native' : 'raw-native,raw-wasm,ours-wasm,ours-native').split(',');
if (loadOnly) systems = systems.filter((s) => s.startsWith('ours-'));
if (!native) {
  console.error('vector-bench: hnswlib-node does not load here: skipping raw-native and ours-native');
  systems = systems.filter((s) => !s.endsWith('native'));
}
const childOptions = {
  ...params,
  distUrl: `${pathToFileURL(distDir).href}/`,
  batch: Number(option('--batch', 100)),
  profile: !flag('--no-profile'),
  profileIntervalUs: 2000,
  queryProfile: !flag('--no-query-profile'),
  diagnose: !flag('--no-query-profile'),
  maxMs: quick ? 8000 : 10_000,
  minQueries: 50,
  loadOnly,
};
if (loadOnly) childOptions.profile = childOptions.queryProfile = childOptions.diagnose = false;

const resultsDir = join(here, 'results');
mkdirSync(resultsDir, { recursive: true });
if (flag('--keep-profiles')) {
  childOptions.profileDir = join(resultsDir, 'profiles');
  mkdirSync(childOptions.profileDir, { recursive: true });
}
const base = loadOnly ? 'vector-bench-load' : quick ? 'vector-bench-quick' : 'vector-bench';
const work = mkdtempSync(join(tmpdir(), 'vector-bench-data-'));
const log = (s) => process.stderr.write(`${s}\n`);
const startAll = performance.now();

/**
 * Runs one system's child. With `duel`, the child keeps its index loaded once its runs are done (see
 * serveDuel in the child) and this resolves with a handle to it (`peer`) as soon as its result is written.
 */
function runChild(system, dataDir, duel = false) {
  const out = join(dataDir, `${system}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'lib', 'vector-bench-child.js'), system, dataDir, out, JSON.stringify({ ...childOptions, duel })], {
      stdio: ['ignore', 'pipe', 'inherit', ...(duel ? ['ipc'] : [])],
    });
    let stdout = '';
    let settled = false;
    const read = () => {
      const r = JSON.parse(readFileSync(out, 'utf8'));
      // Anything a library printed to stdout (hnswlib-wasm's chatter must not get there).
      r.stdoutLines = stdout.split('\n').filter((l) => l.trim() !== '').length;
      if (r.stdoutLines > 0) log(`  [${system}] WARNING: ${r.stdoutLines} lines on stdout: ${JSON.stringify(stdout.slice(0, 200))}`);
      return r;
    };
    child.stdout.on('data', (b) => (stdout += b));
    child.on('error', reject);
    child.on('message', (m) => {
      if (m.type !== 'ready' || settled) return;
      settled = true;
      resolve({ result: read(), peer: duelPeer(system, child) });
    });
    child.on('exit', (code, signal) => {
      if (settled) return;
      settled = true;
      if (code !== 0) return reject(new Error(`${system} exited with ${code ?? signal}`));
      resolve({ result: read(), peer: undefined });
    });
  });
}

/** A child serving duel bursts: `measure(ef, ms)` resolves with its QPS; `close()` lets it exit. */
function duelPeer(system, child) {
  return {
    measure: (ef, ms) =>
      new Promise((resolve, reject) => {
        const onExit = (code, signal) => reject(new Error(`${system} exited during the duel (${code ?? signal})`));
        child.once('exit', onExit);
        child.once('message', (m) => {
          child.off('exit', onExit);
          resolve(m);
        });
        child.send({ type: 'measure', ef, ms });
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'exit' });
      }),
  };
}

const DUEL_ROUNDS = quick ? 3 : 5;
const DUEL_BURST_MS = quick ? 500 : 1000;

/**
 * Our API against its raw library, both loaded, in alternating bursts of the same unfiltered queries at
 * each ef (who goes first alternates too): per round the QPS ratio, reported as the median over rounds.
 */
async function duel(raw, ours, label) {
  const out = [];
  for (const ef of params.efs) {
    const rounds = [];
    for (let r = 0; r < DUEL_ROUNDS; r++) {
      const first = r % 2 === 0 ? raw : ours;
      const a = await first.measure(ef, DUEL_BURST_MS);
      const b = await (first === raw ? ours : raw).measure(ef, DUEL_BURST_MS);
      const [rawM, oursM] = first === raw ? [a, b] : [b, a];
      rounds.push({ rawQps: rawM.qps, oursQps: oursM.qps, ratio: oursM.qps / rawM.qps, cpuRatio: oursM.cpuQps / rawM.cpuQps, gcMsPerQuery: { raw: rawM.gcMsPerQuery, ours: oursM.gcMsPerQuery } });
    }
    const entry = { ef, burstMs: DUEL_BURST_MS, ratio: median(rounds.map((r) => r.ratio)), cpuRatio: median(rounds.map((r) => r.cpuRatio)), rounds };
    out.push(entry);
    log(`   duel ${label} ef ${ef}: ${entry.ratio.toFixed(2)}x (rounds ${rounds.map((r) => r.ratio.toFixed(2)).join(', ')})`);
  }
  return out;
}

/** Which raw library each of our backends duels (both must be in --systems; --no-duel skips it). */
const DUEL_PARTNER = { 'ours-wasm': 'raw-wasm', 'ours-native': 'raw-native' };
const duelSystems = new Set(
  flag('--no-duel') || loadOnly ? [] : Object.entries(DUEL_PARTNER).filter(([ours, raw]) => systems.includes(ours) && systems.includes(raw)).flat(),
);

const report = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown CPU',
  quick,
  params,
  batch: childOptions.batch,
  loadavgAtStart: loadavg(),
  datasets: [],
};

try {
  for (const spec of DATASETS) {
    log(`\n== ${spec.label}: making data`);
    let t = performance.now();
    const ds = makeDataset(spec);
    log(`   ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const nq = spec.queries;
    const q = (i) => row(ds.queries, i, spec.dim);
    if (loadOnly) {
      const dataDir = join(work, spec.key);
      mkdirSync(dataDir, { recursive: true });
      writeDataset(dataDir, ds);
      const entry = { label: spec.label, n: spec.n, dim: spec.dim, systems: {} };
      for (const system of systems) {
        log(`== ${spec.label}: ${system} (load only)`);
        try {
          entry.systems[system] = (await runChild(system, dataDir)).result;
        } catch (e) {
          log(`   ${system} failed: ${e.message}`);
        }
      }
      report.datasets.push(entry);
      continue;
    }

    // Brute force: exact top-k over every row (and over the allowed rows when filtered). Its answers
    // are the ground truth, so its recall is 1 by construction; its QPS is measured while computing them.
    log(`   brute force (ground truth): unfiltered`);
    const truthUnfiltered = [];
    t = performance.now();
    for (let i = 0; i < nq; i++) truthUnfiltered.push(exactTopK(q(i), ds.vectors, spec.dim, spec.n, params.k));
    const brute = { system: 'brute', unfiltered: [{ ef: null, recall: 1, qps: (nq / (performance.now() - t)) * 1000, queries: nq }], filtered: [] };
    const truthFiltered = {};
    for (const sel of SELECTIVITIES) {
      const rows = allowedRows(ds.bucket, sel);
      if (rows.length !== Math.round(sel * spec.n)) throw new Error(`selectivity ${sel}: ${rows.length} rows`);
      const truths = [];
      t = performance.now();
      for (let i = 0; i < nq; i++) truths.push(exactTopK(q(i), ds.vectors, spec.dim, spec.n, params.k, rows));
      let elapsed = performance.now() - t;
      let timed = nq;
      if (elapsed < 500) {
        // too quick to time on one pass: time more passes
        const m = await measureQueries((i) => exactTopK(q(i), ds.vectors, spec.dim, spec.n, params.k, rows), truths, { warmup: 0, minMs: 1000 });
        elapsed = m.msPerQuery * m.timedQueries;
        timed = m.timedQueries;
      }
      truthFiltered[sel] = truths;
      brute.filtered.push({ selectivity: sel, recall: 1, qps: (timed / elapsed) * 1000, queries: nq, allowed: rows.length });
    }
    log(`   brute force: ${brute.unfiltered[0].qps.toFixed(1)} QPS unfiltered; filtered ${brute.filtered.map((f) => `${f.selectivity * 100} %: ${f.qps.toFixed(0)}`).join(', ')} QPS`);

    const dataDir = join(work, spec.key);
    mkdirSync(dataDir, { recursive: true });
    writeDataset(dataDir, ds);
    writeFileSync(join(dataDir, 'truth.json'), JSON.stringify({ unfiltered: truthUnfiltered, filtered: truthFiltered }));

    const entry = { label: spec.label, n: spec.n, dim: spec.dim, clusters: spec.clusters, spread: spec.spread, queries: nq, systems: {} };
    const serving = {};
    try {
      for (const system of systems) {
        log(`== ${spec.label}: ${system}`);
        t = performance.now();
        const loadBefore = loadavg()[0];
        try {
          const { result, peer } = await runChild(system, dataDir, duelSystems.has(system));
          entry.systems[system] = result;
          entry.systems[system].loadavg = { before: loadBefore, after: loadavg()[0] };
          if (peer) serving[system] = peer;
        } catch (e) {
          log(`   ${system} failed: ${e.message}`);
          entry.systems[system] = { system, failed: String(e.message), unfiltered: [], filtered: [] };
        }
        log(`   ${system} done in ${((performance.now() - t) / 1000).toFixed(0)} s`);
        const raw = DUEL_PARTNER[system];
        if (serving[system] && serving[raw]) {
          try {
            entry.systems[system].duel = await duel(serving[raw], serving[system], `${system} vs ${raw}`);
          } catch (e) {
            log(`   duel ${system} vs ${raw} failed: ${e.message}`);
          }
          for (const done of [system, raw]) {
            await serving[done].close();
            delete serving[done];
          }
        }
      }
    } finally {
      for (const peer of Object.values(serving)) await peer.close();
    }
    entry.systems.brute = brute;
    for (const [k, v] of Object.entries(entry.systems)) if (v.failed) delete entry.systems[k];
    report.datasets.push(entry);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

report.totalMs = performance.now() - startAll;
if (loadOnly) {
  // No queries, so no targets or chart: the build figures and the event-loop delay only.
  writeFileSync(join(resultsDir, `${base}.json`), JSON.stringify(report, null, 2));
  const lines = ['| dataset | system | acknowledged (s) | graph complete (s) | snapshot saved (s) | event loop max (ms) | p99 (ms) |', '|---|---|---|---|---|---|---|'];
  for (const d of report.datasets) {
    for (const [name, r] of Object.entries(d.systems)) {
      const b = r.build;
      const s = (ms) => (ms / 1000).toFixed(1);
      lines.push(`| ${d.label} | ${name} | ${s(b.ackMs)} | ${s(b.graphMs)} | ${s(b.indexedAndSavedMs)} | ${b.eventLoopDelay.maxMs.toFixed(0)} | ${b.eventLoopDelay.p99Ms.toFixed(0)} |`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}
// The measurements first: a rendering bug must not lose a 30-minute run (re-render with --report-only).
writeFileSync(join(resultsDir, `${base}.json`), JSON.stringify(report, null, 2));
report.targets = checkTargets(report.datasets, report.params);
writeFileSync(join(resultsDir, `${base}.json`), JSON.stringify(report, null, 2));
const md = markdown(report);
writeFileSync(join(resultsDir, `${base}.md`), md);
writeFileSync(join(resultsDir, `${base}.svg`), svg(report));
process.stdout.write(`${md}\n`);
log(`wrote bench/results/${base}.{json,md,svg} in ${(report.totalMs / 1000).toFixed(0)} s total`);
