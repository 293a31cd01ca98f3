/**
 * Import benchmark (issue 18): N documents with D-dimension vectors from one NDJSON file, loaded three ways in
 * the same run: `vectordb-local import` as a child process (the CLI: parse, stable ids, rejects, progress),
 * in-process `insertMany` of the same documents already parsed into an array, and in-process `insertMany` of
 * an AsyncIterable reading the file. Prints documents per second for each and the ratios.
 * `node bench/import-bench.js [docs=100000] [dim=384] [concurrency=4] [--no-stream]` after `npm run build`;
 * IMPORT_BENCH_FILE=path reuses a file written by an earlier run (it is kept when given).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freshDist } from './lib/private-dist.js';

const { VectorDB } = await import(new URL('index.js', freshDist()).href);

const args = process.argv.slice(2);
const [docs = 100_000, dim = 384, concurrency = 4] = args.filter((a) => !a.startsWith('--')).map(Number);
const withStream = !args.includes('--no-stream');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(tmpdir(), 'vdbl-import-bench-'));
const file = process.env.IMPORT_BENCH_FILE ?? path.join(work, `docs-${docs}x${dim}.ndjson`);

// Deterministic data (xorshift), vectors with 6 decimals as a real export would have.
let seed = 42;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};
if (!existsSync(file)) {
  const out = createWriteStream(file);
  for (let n = 0; n < docs; n++) {
    const vector = Array.from({ length: dim }, () => Math.round((random() * 2 - 1) * 1e6) / 1e6);
    const line = JSON.stringify({ _id: `doc-${n}`, title: `document ${n}`, category: `c${n % 50}`, year: 1990 + (n % 35), $vector: vector });
    if (!out.write(`${line}\n`)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
}
const megabytes = (readFileSync(file).length / 1e6).toFixed(0);
console.log(`${docs} documents x ${dim} dimensions, ${megabytes} MB of NDJSON, concurrency ${concurrency}`);

// 1. The CLI, as a user runs it (a child process; stderr is not a terminal: plain progress lines).
const cliDir = path.join(work, 'cli');
let started = performance.now();
const cli = spawnSync(process.execPath, [path.join(root, 'dist/cli/main.js'), 'import', file, '--data', cliDir, '-c', 'docs', '--create', '--dimension', String(dim), '--concurrency', String(concurrency), '--progress-interval', '5'], { encoding: 'utf8' });
const cliSeconds = (performance.now() - started) / 1000;
if (cli.status !== 0) throw new Error(`import failed (${cli.status}):\n${cli.stderr}`);
process.stdout.write(`${cli.stderr.trimEnd().replace(/^/gm, '  | ')}\n`);

// 2. insertMany of an array already in memory (parsing not timed), then close (which saves the vector snapshot).
const parsed = [];
for await (const line of createInterface({ input: createReadStream(file) })) parsed.push(JSON.parse(line));
const arrayDir = path.join(work, 'array');
let db = new VectorDB('bench', arrayDir);
let collection = await db.createCollection('docs', dim, 'cosine');
started = performance.now();
await collection.insertMany(parsed, { concurrency, ordered: false });
const arrayInsert = (performance.now() - started) / 1000;
await db.close();
const arraySeconds = (performance.now() - started) / 1000;
parsed.length = 0;

const rate = (seconds) => `${Math.round(docs / seconds).toLocaleString('en-US')} docs/s`;
console.log(`CLI import (child process, start to exit): ${cliSeconds.toFixed(1)} s ${rate(cliSeconds)}`);
console.log(`insertMany(array) in process: inserts ${arrayInsert.toFixed(1)} s ${rate(arrayInsert)}; with close ${arraySeconds.toFixed(1)} s ${rate(arraySeconds)}`);
console.log(`rate of the CLI / rate of insertMany(array) with close: ${(arraySeconds / cliSeconds).toFixed(2)}`);

// 3. insertMany of an AsyncIterable reading and parsing the file (bounded memory), then close.
if (withStream) {
  async function* fromFile() {
    for await (const line of createInterface({ input: createReadStream(file) })) yield JSON.parse(line);
  }
  db = new VectorDB('bench', path.join(work, 'stream'));
  collection = await db.createCollection('docs', dim, 'cosine');
  started = performance.now();
  const summary = await collection.insertMany(fromFile(), { concurrency, ordered: false });
  const streamInsert = (performance.now() - started) / 1000;
  await db.close();
  const streamSeconds = (performance.now() - started) / 1000;
  if (summary.inserted !== docs) throw new Error(`stream inserted ${summary.inserted}`);
  console.log(`insertMany(stream of the file): inserts ${streamInsert.toFixed(1)} s ${rate(streamInsert)}; with close ${streamSeconds.toFixed(1)} s ${rate(streamSeconds)}`);
  console.log(`rate of insertMany(stream) / rate of insertMany(array), with close: ${(arraySeconds / streamSeconds).toFixed(2)}`);
}
rmSync(work, { recursive: true, force: true });
