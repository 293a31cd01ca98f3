/**
 * The lexical benchmark of issue 29: BM25 top-10 queries per second and indexing rate of vectordb-local (in
 * process, LevelDB, `$lexical` sort) against MiniSearch, FlexSearch and Orama on the same documents and
 * queries, the overlap of each peer's top 10 with ours, and our top 10 after a crash and after a reopen.
 *
 *   node bench/lexical-bench.js [--n 100000] [--queries 300] [--rounds 5] [--systems ours,minisearch,...]
 *                               [--dist dist/] [--keep]
 *
 * Corpus: bench/lib/text-corpus.js (generated from the Brown corpus, cached in the temp directory). Each
 * system runs in its own process (bench/lib/lexical-child.js), loaded one after another, then all answer the
 * same queries in interleaved rounds (the order rotating); QPS are medians of the rounds, ratios medians of
 * the per-round ratios. Writes bench/results/lexical-bench.json and prints a markdown table.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { corpus, corpusFile, generateQueries } from './lib/text-corpus.js';
import { privateDist } from './lib/private-dist.js';
import { installPeersIfMissing } from './peers/install.js';
import { median } from './lib/stats.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const ALL = ['ours', 'minisearch', 'flexsearch', 'orama'];
const { values: flags } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '5' },
    systems: { type: 'string', default: ALL.join(',') },
    dist: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const n = Number(flags.n);
const rounds = Number(flags.rounds);
const systems = flags.systems.split(',');
const distDir = flags.dist ? resolvePath(flags.dist) : join(root, 'dist');
if (!existsSync(join(distDir, 'index.js'))) throw new Error(`no build at ${distDir}: run npm run build first`);
const log = (...parts) => console.error(new Date().toISOString().slice(11, 19), ...parts);

installPeersIfMissing(log);
const load0 = loadavg()[0];

let docs = corpus(n, log);
const queries = generateQueries(docs, { count: Number(flags.queries) });
const words = docs.reduce((sum, d) => sum + d.text.split(' ').length, 0);
docs = undefined;
log(`${n} documents, ${(words / n).toFixed(0)} words each on average; ${queries.length} queries`);

const workDir = mkdtempSync(join(tmpdir(), 'lexbench-'));
symlinkSync(corpusFile(n), join(workDir, 'corpus.ndjson'));
writeFileSync(join(workDir, 'queries.json'), JSON.stringify(queries));
const childScript = fileURLToPath(new URL('./lib/lexical-child.js', import.meta.url));
const dist = privateDist(distDir, 'lexical-bench');
const distUrl = pathToFileURL(dist.dir + '/').href;

/** A child process and a way to ask it something (one request at a time). */
function start(system, task) {
  const child = fork(childScript, [system, workDir, distUrl, task], { execArgv: ['--max-old-space-size=16000'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = [];
  child.on('message', (m) => waiting.shift()?.resolve(m));
  child.on('exit', (code, signal) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`${system} exited (${code ?? signal})`));
  });
  const next = () => new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  return { child, next, ask: (message) => (child.send(message), next()) };
}

const results = {};
const children = {};
for (const system of systems) {
  log(`loading ${system}`);
  const c = start(system, 'run');
  const loaded = await c.next();
  children[system] = c;
  results[system] = { docsPerSecond: n / (loaded.loadMs / 1000), loadMs: loaded.loadMs, loadCpuMs: loaded.loadCpuMs, rssMb: loaded.rssMb, bursts: [] };
  log(`${system}: ${results[system].docsPerSecond.toFixed(0)} docs/s, RSS ${loaded.rssMb.toFixed(0)} MB`);
}

const ids = {};
for (let r = 0; r < rounds; r++) {
  const order = systems.map((_, i) => systems[(i + r) % systems.length]);
  for (const system of order) {
    const b = await children[system].ask({ type: 'burst', withIds: r === 0 });
    if (r === 0) ids[system] = b.ids;
    results[system].bursts.push({ round: r, qps: (b.queries / b.ms) * 1000, cpuQps: (b.queries / b.cpuMs) * 1000 });
  }
  log(`round ${r + 1}: ${order.map((s) => `${s} ${results[s].bursts.at(-1).qps.toFixed(0)} q/s`).join(', ')}`);
}

/** Mean share of our top 10 that a peer's top 10 holds (over queries where ours found something). */
function overlap(theirs, ours) {
  let sum = 0;
  let counted = 0;
  for (let i = 0; i < ours.length; i++) {
    if (ours[i].length === 0) continue;
    const mine = new Set(ours[i]);
    sum += theirs[i].filter((id) => mine.has(id)).length / ours[i].length;
    counted++;
  }
  return counted === 0 ? NaN : sum / counted;
}

for (const system of systems) {
  const s = results[system];
  s.qps = median(s.bursts.map((b) => b.qps));
  s.cpuQps = median(s.bursts.map((b) => b.cpuQps));
  if (system !== 'ours' && ids.ours) {
    s.overlapWithOurs = overlap(ids[system], ids.ours);
    s.sameCountAsOurs = ids[system].filter((list, i) => list.length === ids.ours[i].length).length / queries.length;
    const ratios = [];
    for (let r = 0; r < rounds; r++) ratios.push(results.ours.bursts[r].qps / s.bursts[r].qps);
    s.oursOverTheirs = median(ratios);
    s.oursOverTheirsCpu = median(results.ours.bursts.map((b, r) => b.cpuQps / s.bursts[r].cpuQps));
  }
}

// Ours after a crash (the loading process killed, nothing closed), then after a clean reopen.
if (children.ours) {
  const sameTop = (again) => again.filter((list, i) => JSON.stringify(list) === JSON.stringify(ids.ours[i])).length;
  children.ours.child.kill('SIGKILL');
  await new Promise((resolve) => children.ours.child.once('exit', resolve));
  delete children.ours;
  for (const label of ['afterCrash', 'afterReopen']) {
    const again = await start('ours', 'reopen').next();
    results.ours[label] = { sameTop10: sameTop(again.ids), of: queries.length, openAndAnswerAllMs: again.ms };
    log(`ours ${label}: ${results.ours[label].sameTop10}/${queries.length} queries with the same top 10`);
  }
}
for (const c of Object.values(children)) await c.ask({ type: 'finish' }).catch(() => undefined);

const environment = { date: new Date().toISOString(), node: process.version, loadAverage: { start: load0, end: loadavg()[0] } };
const report = { config: { n, wordsPerDocument: words / n, queries: queries.length, rounds, k: 10 }, environment, results };
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'lexical-bench.json'), JSON.stringify(report, null, 2));

const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '-');
console.log(`\n${n} documents (${fmt(words / n)} words each on average), ${queries.length} queries of 1-3 words, top 10, ${rounds} rounds; load average ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)}\n`);
console.log('| system | indexing docs/s | queries/s (median) | CPU queries/s | ours / it (wall) | ours / it (CPU) | top-10 overlap with ours |');
console.log('|---|---|---|---|---|---|---|');
for (const system of systems) {
  const s = results[system];
  console.log(`| ${system} | ${fmt(s.docsPerSecond)} | ${fmt(s.qps)} | ${fmt(s.cpuQps)} | ${system === 'ours' ? '' : `${fmt(s.oursOverTheirs, 2)}x`} | ${system === 'ours' ? '' : `${fmt(s.oursOverTheirsCpu, 2)}x`} | ${system === 'ours' ? '' : `${fmt(s.overlapWithOurs * 100, 1)} %`} |`);
}
if (results.ours?.afterCrash) {
  console.log(`\nours after a crash (kill -9 of the loading process): ${results.ours.afterCrash.sameTop10}/${queries.length} queries with the same top 10; after a clean reopen: ${results.ours.afterReopen.sameTop10}/${queries.length}`);
}
dist.remove();
if (!flags.keep) rmSync(workDir, { recursive: true, force: true });
else log(`kept ${workDir}`);
