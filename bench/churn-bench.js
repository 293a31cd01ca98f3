// Churn benchmark (issue 20, footprint): N vectors, each replaced R times through updateOne (a changed
// vector takes a new label), then what is left behind: RSS after gc, the graph's elements (live + dead),
// the exact-scan store's rows, the graph's side file, CPU time of the churn until the graph caught up;
// then the same after a reopen. Run after `npm run build`, with --expose-gc:
//   node --expose-gc bench/churn-bench.js [--n 20000] [--dim 128] [--rounds 5] [--backend native|wasm] [--dist <dir>]
// `--dist <dir>`: another build (e.g. a copy of dist/ from before a change; footprint figures need
// CollectionVectors.footprint, so a build without it prints '-' for them).
import { mkdtempSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { freshDist } from './lib/private-dist.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dist = arg('--dist', undefined);
const distUrl = freshDist(dist === undefined ? undefined : path.resolve(dist));
const { executeCommand } = await import(new URL('commands/index.js', distUrl).href);
const { Database } = await import(new URL('engine/database.js', distUrl).href);
const N = Number(arg('--n', 20_000));
const DIM = Number(arg('--dim', 128));
const ROUNDS = Number(arg('--rounds', 5));
const BACKEND = arg('--backend', 'native');
const target = { keyspace: 'default_keyspace', collection: 'churn' };
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

let seed = 42;
const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const vector = () => Array.from({ length: DIM }, random);
// `--reopen <dir>` (internal): the reopen step, in a fresh process (RSS then owes nothing to the churn's heap).
const reopenDir = arg('--reopen', undefined);
const dir = reopenDir ?? mkdtempSync(path.join(tmpdir(), 'vdb-churn-'));
const open = () => Database.open(dir, { limits: { maxInsertManyDocuments: 100 }, vectorBackend: BACKEND });
const run = async (db, command) => {
  const r = await executeCommand(db, command, target);
  if (r.errors) throw new Error(JSON.stringify(r.errors[0]));
  return r;
};
const cpuSeconds = (since) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};
const rssAfterGc = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage().rss / 2 ** 20;
};
const sideBytes = () => {
  const side = path.join(dir, 'side');
  if (!existsSync(side)) return 0;
  return readdirSync(side).reduce((sum, f) => sum + statSync(path.join(side, f)).size, 0);
};
const report = async (label, db) => {
  const vectors = await db.collection('default_keyspace', 'churn').vectors();
  const fp = typeof vectors.footprint === 'function' ? vectors.footprint() : undefined;
  const rss = await rssAfterGc();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
  const compactions = fp?.compactions ?? '-';
  console.log(
    `${label.padEnd(22)} live ${vectors.size}  RSS ${rss.toFixed(0)} MB  graph elements ${fp?.graphElements ?? '-'}  flat rows ${fp?.flatRows ?? '-'}  compactions ${compactions}  side file ${(sideBytes() / 2 ** 20).toFixed(1)} MB  (JS heap ${mb(heapUsed)} MB, external ${mb(external)} MB, array buffers ${mb(arrayBuffers)} MB)`,
  );
};

if (reopenDir !== undefined) {
  const db = await open();
  const vectors = await db.collection('default_keyspace', 'churn').vectors();
  await vectors.graphLoaded();
  await vectors.valuesReady?.();
  await vectors.waitForIndex();
  await report('reopened (new process)', db);
  await db.close();
  process.exit(0);
}

let db = await open();
await executeCommand(db, { createCollection: { name: 'churn', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, { keyspace: 'default_keyspace' });
for (let i = 0; i < N; i += 100) {
  await run(db, { insertMany: { documents: Array.from({ length: Math.min(100, N - i) }, (_, j) => ({ _id: i + j, $vector: vector() })) } });
}
let vectors = await db.collection('default_keyspace', 'churn').vectors();
await vectors.waitForIndex();
await vectors.saveSnapshot();
await report('loaded', db);

const started = process.cpuUsage();
const wall = performance.now();
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < N; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, N - i) }, (_, j) => run(db, { updateOne: { filter: { _id: i + j }, update: { $set: { $vector: vector() } } } })));
  }
}
await vectors.waitForIndex();
const peak = process.resourceUsage().maxRSS / 1024;
console.log(`churn ${ROUNDS} x ${N} updates until the graph caught up: CPU ${cpuSeconds(started).toFixed(1)} s, wall ${((performance.now() - wall) / 1000).toFixed(1)} s, peak RSS ${peak.toFixed(0)} MB`);
await vectors.saveSnapshot();
await report(`after ${ROUNDS} replacements`, db);
await db.close();

const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...args, '--reopen', dir], { stdio: 'inherit' });
rmSync(dir, { recursive: true, force: true });
process.exit(child.status ?? 1);
