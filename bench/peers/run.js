/**
 * `npm run bench:peers`: one workload over vectordb-local and the other embedded vector stores for Node,
 * each system in its own child process (child.js), interleaved rounds, medians. See bench/README.md.
 *
 *   node bench/peers/run.js [--n 20000] [--dim 384] [--rounds 5] [--burst-ms 1000] [--reopen-rounds 5]
 *                           [--peers ours-native,orama,...] [--quick] [--readme] [--dist <dir>] [--keep] [--report-only]
 *
 * Installs bench/peers' own packages (LanceDB, Vectra, Orama) on first use; users of vectordb-local never do.
 * Prints a markdown table on stdout; writes bench/results/peers.{json,md,svg} (peers-quick.* with --quick);
 * `--readme` also puts the table into the README's "Performance" section; `--report-only` re-renders the
 * table, the SVG (and with --readme the README) from the last JSON.
 */
import { execFileSync, fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, platform, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { exactTopK } from '../lib/exact.js';
import { mixture, sample } from '../lib/vector-data.js';
import { MODES, comparisons, markdownTable, replaceBetween, summarize, svgChart } from './report.js';
import { installPeersIfMissing } from './install.js';
import { NEEDS_PEER_PACKAGES, SYSTEMS } from './systems/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const ALL = Object.keys(SYSTEMS);

const { values: flags } = parseArgs({
  options: {
    n: { type: 'string' },
    dim: { type: 'string' },
    rounds: { type: 'string' },
    'burst-ms': { type: 'string' },
    'reopen-rounds': { type: 'string' },
    calibration: { type: 'string' },
    peers: { type: 'string' },
    dist: { type: 'string' },
    quick: { type: 'boolean', default: false },
    readme: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'report-only': { type: 'boolean', default: false },
  },
});
const quick = flags.quick;
const number = (name, full, small) => Number(flags[name] ?? (quick ? small : full));
const config = {
  n: number('n', 20_000, 2_000),
  dim: number('dim', 384, 64),
  k: 10,
  categories: 100,
  rounds: number('rounds', 5, 2),
  burstMs: number('burst-ms', 1000, 250),
  reopenRounds: number('reopen-rounds', 5, 1),
  calibration: number('calibration', 200, 50),
  clusters: 100,
  spread: 1.0,
  mixSeed: 2020,
  dataSeed: 2021,
  calibrationSeed: 2022,
  unseenSeed: 1_000_000,
};
/** Systems run only when named in --peers. */
const ON_REQUEST = new Set(['ours-native-nocache']);
const peers = flags.peers ? flags.peers.split(',').map((p) => p.trim()) : ALL.filter((p) => !ON_REQUEST.has(p));
const unknown = peers.filter((p) => !ALL.includes(p));
if (unknown.length > 0) {
  console.error(`unknown peers: ${unknown.join(', ')} (known: ${ALL.join(', ')})`);
  process.exit(2);
}
const distDir = flags.dist ? resolvePath(flags.dist) : join(root, 'dist');
if (!existsSync(join(distDir, 'index.js'))) {
  console.error(`no build at ${distDir}: run npm run build first`);
  process.exit(2);
}
const log = (...parts) => console.error(new Date().toISOString().slice(11, 19), ...parts);
const outDir = join(root, 'bench', 'results');
const base = join(outDir, quick ? 'peers-quick' : 'peers');
if (flags['report-only']) {
  writeReport(JSON.parse(readFileSync(`${base}.json`, 'utf8')), true);
  process.exit(0);
}

if (peers.some((p) => NEEDS_PEER_PACKAGES.has(p))) installPeersIfMissing(log);
// The machine's load when the run starts and ends: the figures of a loaded machine say less.
const loadAtStart = loadavg()[0];

// ---- the dataset, its calibration queries and their exact answers --------------------------------------
const dataDir = mkdtempSync(join(tmpdir(), 'vdb-peers-'));
const mix = mixture(config.mixSeed, config.dim, config.clusters);
const vectors = sample(mix, config.dataSeed, config.n, config.spread);
const calibration = sample(mix, config.calibrationSeed, config.calibration, config.spread);
const query = (q) => calibration.subarray(q * config.dim, (q + 1) * config.dim);
const rowsOf = (cat) => Uint32Array.from({ length: Math.ceil((config.n - cat) / config.categories) }, (_, j) => cat + j * config.categories);
log(`dataset ${config.n} x ${config.dim}; exact answers of ${config.calibration} calibration queries`);
const truth = {
  unfiltered: Array.from({ length: config.calibration }, (_, q) => exactTopK(query(q), vectors, config.dim, config.n, config.k)),
  filtered: Array.from({ length: config.calibration }, (_, q) => exactTopK(query(q), vectors, config.dim, config.n, config.k, rowsOf(q % config.categories))),
};
const bytes = (array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
writeFileSync(join(dataDir, 'vectors.f32'), bytes(vectors));
writeFileSync(join(dataDir, 'calibration.f32'), bytes(calibration));
writeFileSync(join(dataDir, 'truth.json'), JSON.stringify(truth));
writeFileSync(join(dataDir, 'meta.json'), JSON.stringify({ ...config, distUrl: pathToFileURL(`${distDir}/`).href }));

// ---- the children --------------------------------------------------------------------------------------
/** A child process and a way to wait for its next message of a type (rejects if it dies first). */
function spawnChild(system, task, setting) {
  const workDir = join(dataDir, system);
  mkdirSync(workDir, { recursive: true });
  const child = fork(join(here, 'child.js'), [system, dataDir, workDir, task, String(setting ?? '')], {
    execArgv: ['--expose-gc', '--max-old-space-size=8192'],
    // LanceDB warns on every query that selects columns without `_distance` (a coming change of default).
    env: { ...process.env, LANCEDB_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child.stdout.pipe(process.stderr);
  const inbox = [];
  const waiting = [];
  let exit;
  child.on('message', (message) => (waiting.length > 0 ? waiting.shift().resolve(message) : inbox.push(message)));
  child.on('exit', (code, signal) => {
    exit = new Error(`${system} (${task}) exited with ${signal ?? code}`);
    for (const w of waiting.splice(0)) w.reject(exit);
  });
  const next = (type, timeoutMs) =>
    new Promise((resolve, reject) => {
      if (inbox.length > 0) return resolve(inbox.shift());
      if (exit) return reject(exit);
      const timer = timeoutMs && setTimeout(() => reject(new Error(`${system}: no ${type} after ${timeoutMs / 1000} s`)), timeoutMs);
      const settle = (fn) => (value) => (clearTimeout(timer), fn(value));
      waiting.push({ resolve: settle(resolve), reject: settle(reject) });
    }).then((message) => {
      if (message.type !== type) throw new Error(`${system}: expected ${type}, got ${message.type}`);
      return message;
    });
  return { child, next, ask: (message, type, timeoutMs) => (child.send(message), next(type, timeoutMs)) };
}

const results = Object.fromEntries(peers.map((name) => [name, { name, bursts: Object.fromEntries(MODES.map((m) => [m.key, []])), reopens: [] }]));
const running = {};
// Loads one at a time: a load's time is its own, not shared with another's.
for (const name of peers) {
  log(`${name}: loading`);
  const handle = spawnChild(name, 'run');
  try {
    const loaded = await handle.next('loaded');
    const calibrated = await handle.next('calibrated');
    Object.assign(results[name], { loadMs: loaded.loadMs, calibration: calibrated });
    running[name] = handle;
    log(`${name}: loaded in ${(loaded.loadMs / 1000).toFixed(1)} s; runs at ${calibrated.unfiltered.setting}, filtered at ${calibrated.filtered.setting}`);
  } catch (error) {
    results[name].error = error.message;
    handle.child.kill();
    log(`${name}: FAILED: ${error.message}`);
  }
}

/** A system that fails (or hangs) mid-run is reported as failed; the others go on. */
function fail(name, error) {
  results[name].error = error.message;
  running[name].child.kill();
  delete running[name];
  log(`${name}: FAILED: ${error.message}`);
}
// A burst that takes many times its length (a hung child) fails the system.
const burstTimeoutMs = Math.max(120_000, 50 * config.burstMs);

// Interleaved rounds: in each, every mode is timed on every system in turn, the order rotating per round.
const names = Object.keys(running);
for (let round = 0; round < config.rounds; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  for (const mode of MODES) {
    for (const name of order.filter((n) => running[n])) {
      try {
        results[name].bursts[mode.key].push(await running[name].ask({ type: 'burst', mode: mode.key, ms: config.burstMs }, 'burst', burstTimeoutMs));
      } catch (error) {
        fail(name, error);
      }
    }
  }
  const alive = names.filter((n) => running[n]);
  log(`round ${round + 1}/${config.rounds}: ${alive.map((name) => `${name} ${Math.round(results[name].bursts['unfiltered-unseen'].at(-1).qps)}`).join(', ')} (unfiltered QPS, unseen)`);
}
for (const name of names.filter((n) => running[n])) {
  try {
    const finished = await running[name].ask({ type: 'finish' }, 'finished', burstTimeoutMs);
    Object.assign(results[name], {
      rssMb: finished.rssMb,
      rssGcMb: finished.rssGcMb,
      ...(finished.cachedBytes === null ? {} : { cachedBytes: finished.cachedBytes }),
      diskBytes: finished.diskBytes ?? undefined,
      persistent: finished.diskBytes !== null,
    });
  } catch (error) {
    fail(name, error);
  }
}

// Reopen to first answer, each in a fresh process, interleaved, the order rotating per round as the bursts'
// does. Before the timed rounds:
// - the files the runs wrote are flushed to disk: the kernel's writeback of them (for up to 30 s) slowed
//   the first reopens of whichever stores had written the most (ours 52 -> 43 ms over five reopens; 38-40 ms
//   from the first after a sync);
// - each system reopens once untimed (`coldReopen` in the JSON): a store whose files were written minutes
//   earlier (at its load) may find them paged out of the page cache (this VM's kernel pages out cold memory,
//   page cache included), one whose files were written at the end of its run does not, and the first timed
//   reopen measured that (ours 78 ms, then 42-47).
if (platform() !== 'win32') execFileSync('sync');
await new Promise((resolve) => setTimeout(resolve, 1000));
const reopening = names.filter((n) => results[n].persistent);
/** One reopen of `name` in a fresh process; undefined if it failed (reopenError says why). */
async function reopen(name) {
  const handle = spawnChild(name, 'reopen', results[name].calibration.unfiltered.settingIndex);
  try {
    const reopened = await handle.next('reopened', burstTimeoutMs);
    if (reopened.found < Math.min(config.k, config.n)) {
      results[name].reopenError = `the first answer after reopening had ${reopened.found} results`;
      log(`${name}: ${results[name].reopenError}`);
    }
    return reopened;
  } catch (error) {
    results[name].reopenError = error.message;
    log(`${name}: reopen FAILED: ${error.message}`);
    handle.child.kill();
    return undefined;
  }
}
for (const name of reopening) results[name].coldReopen = await reopen(name);
for (let round = 0; round < config.reopenRounds; round++) {
  for (const name of reopening.map((_, i) => reopening[(i + round) % reopening.length])) {
    const reopened = await reopen(name);
    if (reopened !== undefined) results[name].reopens.push(reopened);
  }
}
if (!flags.keep) rmSync(dataDir, { recursive: true, force: true });
else log(`kept ${dataDir}`);

// ---- the report ------------------------------------------------------------------------------------------
const environment = {
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: availableParallelism(),
  loadAverage: { start: loadAtStart, end: loadavg()[0] },
  date: new Date().toISOString(),
  peerVersions: peerVersions(),
};
writeReport({ config, environment, results });

/** Prints the table and writes the JSON (unless re-rendering it), the markdown, the SVG and, with --readme, the README. */
function writeReport({ config, environment, results }, rerender = false) {
  const summaries = Object.values(results).map(summarize);
  const table = [markdownTable(summaries, config), comparisons(summaries)].filter(Boolean).join('\n\n');
  console.log(table);
  mkdirSync(outDir, { recursive: true });
  if (!rerender) writeFileSync(`${base}.json`, JSON.stringify({ config, environment, results }, null, 2));
  writeFileSync(`${base}.md`, `${table}\n`);
  writeFileSync(`${base}.svg`, svgChart(summaries, config));
  log(`wrote ${base}.{${rerender ? '' : 'json,'}md,svg}`);
  if (flags.readme) {
    const readmePath = join(root, 'README.md');
    const chart = `![Queries per second of each system](bench/results/${quick ? 'peers-quick' : 'peers'}.svg)`;
    const load = environment.loadAverage ? `, ${environment.cpus} cores, load average ${environment.loadAverage.start.toFixed(1)} at the start and ${environment.loadAverage.end.toFixed(1)} at the end` : '';
    const block = `${table}\n\n${chart}\n\nMeasured ${environment.date.slice(0, 10)}, Node ${environment.node}, ${environment.platform}${load}.`;
    writeFileSync(readmePath, replaceBetween(readFileSync(readmePath, 'utf8'), '<!-- bench:peers -->', '<!-- /bench:peers -->', block));
    log('updated the README table');
  }
}

function peerVersions() {
  const version = (dir) => {
    try {
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  return {
    'hnswlib-node': version(join(root, 'node_modules', 'hnswlib-node')),
    'hnswlib-wasm': version(join(root, 'node_modules', 'hnswlib-wasm')),
    '@lancedb/lancedb': version(join(here, 'node_modules', '@lancedb', 'lancedb')),
    vectra: version(join(here, 'node_modules', 'vectra')),
    '@orama/orama': version(join(here, 'node_modules', '@orama', 'orama')),
  };
}
