/**
 * Vector search QPS in headless Chromium (the browser bundle on IndexedDB) vs in Node (dist/index.js on
 * LevelDB), on the same documents and queries, in one run: the workload of test/browser/scenario.js,
 * top 10 through the client API (findVector), both on hnswlib-wasm; Node also with `vectorBackend: 'auto'`
 * (hnswlib-node when installed) for reference. The two runtimes take turns, `--rounds` queries each, three times.
 *
 *   npm run build && node bench/browser-vector.js [--docs 10000] [--dim 128] [--rounds 2000]
 *
 * Prints one line per runtime and the ratio; writes bench/results/browser-vector.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, openPage, servePage } from '../test/browser/harness.js';
import { LIMITS, loadCollection, makeDocuments, vectorQps } from '../test/browser/scenario.js';
import { freshDist } from './lib/private-dist.js';

const { values } = parseArgs({ options: { docs: { type: 'string', default: '10000' }, dim: { type: 'string', default: '128' }, rounds: { type: 'string', default: '2000' } } });
const count = Number(values.docs);
const dimension = Number(values.dim);
const rounds = Number(values.rounds);
const TURNS = 3;

const documents = makeDocuments(count, dimension);
const queries = makeDocuments(200, dimension, 7).map((d) => d.$vector);
const { VectorDB } = await import(new URL('index.js', freshDist()).href); // the browser bundle is built with it

async function nodeCollection(backend, dir) {
  const db = new VectorDB('bench', dir, undefined, { vectorBackend: backend, limits: LIMITS });
  return { db, collection: await loadCollection(db, 'items', documents) };
}

const dirs = [mkdtempSync(join(tmpdir(), 'vdb-bench-wasm-')), mkdtempSync(join(tmpdir(), 'vdb-bench-auto-'))];
const server = await servePage();
const chromium = await launchChromium();
const results = { chromium: [], nodeWasm: [], nodeAuto: [] };
try {
  const page = await openPage(chromium.context, server.url);
  let started = performance.now();
  await page.evaluate(() => window.vdb.open('bench'));
  await page.evaluate((docs) => window.vdb.load(docs), documents);
  console.log(`loaded ${count} x ${dimension} in Chromium (IndexedDB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  const wasm = await nodeCollection('wasm', dirs[0]);
  const auto = await nodeCollection('auto', dirs[1]);
  console.log(`loaded the same twice in Node (LevelDB; wasm, auto) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (let turn = 0; turn < TURNS; turn++) {
    results.chromium.push(await page.evaluate(([q, r]) => window.vdb.qps(q, r), [queries, rounds]));
    results.nodeWasm.push(await vectorQps(wasm.collection, queries, rounds));
    results.nodeAuto.push(await vectorQps(auto.collection, queries, rounds));
  }
  await page.evaluate(() => window.vdb.close());
  await wasm.db.close();
  await auto.db.close();
} finally {
  await chromium.close();
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

const best = (list) => Math.max(...list);
const line = (name, list) => `${name.padEnd(34)} ${best(list).toFixed(0).padStart(6)} QPS (turns: ${list.map((q) => q.toFixed(0)).join(', ')})`;
console.log(`\nvector search, top 10, ${count} x ${dimension} cosine, ${rounds} queries per turn, best of ${TURNS} turns (${cpus().length} cores):`);
console.log(line('Chromium, browser bundle, wasm', results.chromium));
console.log(line('Node, dist/index.js, wasm', results.nodeWasm));
console.log(line('Node, dist/index.js, auto', results.nodeAuto));
console.log(`Chromium / Node (both wasm): ${(best(results.chromium) / best(results.nodeWasm)).toFixed(2)}x`);

const out = new URL('results/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('browser-vector.json', out), `${JSON.stringify({ count, dimension, rounds, turns: TURNS, date: new Date().toISOString(), results }, null, 2)}\n`);
