// HTTP benchmark (issue 6): requests/s and p50/p99 latency of findOne by _id, insertOne and a vector find over
// keep-alive HTTP from a second process (bench/http-load.js), beside the same operations in process
// (executeCommand, no HTTP). Run after `npm run build`: node bench/http-bench.js [--docs 10000] [--requests 20000]
// --skip-vector leaves out the vector collection; --client node|undici picks the load generator's HTTP client
// (default undici: see http-load.js); --concurrency N (default 16) connections, one request in flight on each.
// Prints a table and writes bench/results/http-bench.json. Not a test: figures only.
import { fork } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshDist } from './lib/private-dist.js';

const dist = freshDist();
const { executeCommand } = await import(new URL('commands/index.js', dist).href);
const { Database } = await import(new URL('engine/database.js', dist).href);
const { createServer } = await import(new URL('http/index.js', dist).href);

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const DOCS = arg('--docs', 10_000);
const REQUESTS = arg('--requests', 20_000);
const VECTOR_REQUESTS = arg('--vector-requests', 4_000);
const CONCURRENCY = arg('--concurrency', 16);
const SKIP_VECTOR = args.includes('--skip-vector');
const CLIENT = args.includes('--client') ? args[args.indexOf('--client') + 1] : 'undici';
const DIM = 64;
const KS = 'default_keyspace';

/** Deterministic pseudo-random numbers so runs are comparable. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(42);
const vector = () => Array.from({ length: DIM }, () => Math.round((random() * 2 - 1) * 1e4) / 1e4);
const doc = (i) => ({ _id: `d${i}`, n: i, name: `item ${i}`, tags: [`t${i % 7}`], price: (i * 7919) % 1000 });

async function setup(db) {
  await executeCommand(db, { createCollection: { name: 'docs' } }, { keyspace: KS });
  await executeCommand(db, { createCollection: { name: 'vecs', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, { keyspace: KS });
  for (let i = 0; i < DOCS; i += 20) {
    const plain = [];
    const vec = [];
    for (let j = i; j < Math.min(DOCS, i + 20); j++) {
      plain.push(doc(j));
      vec.push({ ...doc(j), $vector: vector() });
    }
    for (const [collection, documents] of SKIP_VECTOR ? [['docs', plain]] : [['docs', plain], ['vecs', vec]]) {
      const r = await executeCommand(db, { insertMany: { documents } }, { keyspace: KS, collection });
      if (r.errors) throw new Error(`setup: ${JSON.stringify(r.errors[0])}`);
    }
  }
  // The vector graph catches up first: its build in the background (on a worker thread, whose CPU this
  // process's counts) would otherwise be timed with the first operations.
  for (let caughtUp = SKIP_VECTOR; !caughtUp; ) {
    const r = await executeCommand(db, { waitForIndex: { options: { maxTimeMS: 10_000 } } }, { keyspace: KS, collection: 'vecs' });
    if (r.errors) throw new Error(`setup: ${JSON.stringify(r.errors[0])}`);
    caughtUp = r.status.caughtUp === true;
  }
}

/** The three operations: command objects (in process) and their JSON bodies (HTTP). Inserted ids never collide. */
function operations() {
  const ids = Array.from({ length: 2000 }, () => Math.floor(random() * DOCS));
  const queries = Array.from({ length: 200 }, vector);
  let inserted = 0;
  const all = [
    { name: 'findOne by _id', collection: 'docs', count: REQUESTS, make: (i) => ({ findOne: { filter: { _id: `d${ids[i % ids.length]}` } } }) },
    { name: 'insertOne', collection: 'docs', count: REQUESTS, make: (_i, tag) => ({ insertOne: { document: { _id: `${tag}-${inserted++}`, n: inserted, name: 'new item', tags: ['t1'] } } }) },
    { name: `vector find (k=10, ${DIM}d)`, collection: 'vecs', count: VECTOR_REQUESTS, make: (i) => ({ find: { sort: { $vector: queries[i % queries.length] }, options: { limit: 10 } } }) },
  ];
  return SKIP_VECTOR ? all.slice(0, 2) : all;
}

function stats(latencies, elapsedMs) {
  const sorted = Float64Array.from(latencies).sort();
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { requests: sorted.length, perSecond: Math.round((sorted.length / elapsedMs) * 1000), p50: q(0.5), p99: q(0.99) };
}

/**
 * CPU time this process spends per request while `run` goes (user + system, µs). On a shared machine req/s
 * mostly shows how much CPU the server got; this shows what each request costs it.
 */
async function withCpu(count, run) {
  const before = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(before);
  return { ...result, serverCpuUsPerRequest: Math.round((used.user + used.system) / count) };
}

async function inProcess(db, op, concurrency, tag) {
  const target = { keyspace: KS, collection: op.collection };
  const warm = Math.min(op.count, 500);
  for (let i = 0; i < warm; i++) await executeCommand(db, op.make(i, `${tag}w`), target);
  const latencies = new Float64Array(op.count);
  let next = 0;
  const worker = async () => {
    while (next < op.count) {
      const i = next++;
      const command = op.make(i, tag);
      const t0 = performance.now();
      const r = await executeCommand(db, command, target);
      latencies[i] = performance.now() - t0;
      if (r.errors) throw new Error(`${op.name}: ${JSON.stringify(r.errors[0])}`);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return stats(latencies, performance.now() - started);
}

function overHttp(child, server, token, op, concurrency, tag) {
  const bodies = Array.from({ length: op.name === 'insertOne' ? op.count : 2000 }, (_, i) => JSON.stringify(op.make(i, tag)));
  const warmup = Array.from({ length: 500 }, (_, i) => JSON.stringify(op.make(i, `${tag}w`)));
  return new Promise((resolve, reject) => {
    child.once('message', (message) => {
      if (!message.ok) return reject(new Error(message.error));
      const { latencies, elapsedMs, errors, firstError, sockets, loadCpuUsPerRequest } = message.result;
      if (errors > 0) return reject(new Error(`${op.name} over HTTP: ${errors} failed requests, first: ${firstError}`));
      resolve({ ...stats(latencies, elapsedMs), sockets, loadCpuUsPerRequest });
    });
    child.send({ url: server.url, token, path: `/v1/${KS}/${op.collection}`, bodies, warmup, concurrency, count: op.count, client: CLIENT });
  });
}

/** The floor on this machine right now: node:http answering a fixed findOne-sized body, no auth, no database. */
async function bareBaseline(child) {
  const reply = Buffer.from('{"data":{"document":{"_id":"d1","n":1,"name":"item 1","tags":["t1"],"price":919}}}');
  const bare = http.createServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(200, ['content-type', 'application/json', 'content-length', reply.length]);
      res.end(reply);
    });
  });
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const server = { url: `http://127.0.0.1:${bare.address().port}` };
  const op = { name: 'bare', collection: 'docs', count: REQUESTS, make: () => ({ findOne: { filter: { _id: 'd1' } } }) };
  try {
    return { c1: await overHttp(child, server, 'x', op, 1, 'b1'), cN: await withCpu(op.count + 500, () => overHttp(child, server, 'x', op, CONCURRENCY, 'bc')) };
  } finally {
    bare.close();
  }
}

const fmt = (ms) => `${ms < 1 ? ms.toFixed(3) : ms.toFixed(2)} ms`;

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vectordb-http-bench-'));
  const db = await Database.open(dir);
  const token = `VDBL:${randomBytes(24).toString('base64url')}`;
  const server = createServer({ db, token, port: 0 });
  const child = fork(path.join(here, 'http-load.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    console.log(`setting up ${DOCS} documents (plain and ${DIM}-d vectors)...`);
    await setup(db);
    await server.listen();
    const rows = [];
    for (const op of operations()) {
      const local1 = await inProcess(db, op, 1, 'l1');
      const localC = await withCpu(op.count + 500, () => inProcess(db, op, CONCURRENCY, 'lc'));
      const http1 = await overHttp(child, server, token, op, 1, 'h1');
      const httpC = await withCpu(op.count + 500, () => overHttp(child, server, token, op, CONCURRENCY, 'hc'));
      rows.push({ operation: op.name, inProcess: { c1: local1, [`c${CONCURRENCY}`]: localC }, http: { c1: http1, [`c${CONCURRENCY}`]: httpC }, addedP50Ms: http1.p50 - local1.p50 });
    }
    const bare = await bareBaseline(child);
    const header = ['operation', 'in-proc p50/p99 (c=1)', 'HTTP p50/p99 (c=1)', 'added p50', `in-proc req/s (c=${CONCURRENCY})`, `HTTP req/s (c=${CONCURRENCY})`, `HTTP p50/p99 (c=${CONCURRENCY})`, 'CPU µs/req in-proc', 'CPU µs/req HTTP', 'load gen CPU µs/req'];
    const c = `c${CONCURRENCY}`;
    const table = rows.map((r) => {
      return [r.operation, `${fmt(r.inProcess.c1.p50)} / ${fmt(r.inProcess.c1.p99)}`, `${fmt(r.http.c1.p50)} / ${fmt(r.http.c1.p99)}`, fmt(r.addedP50Ms), String(r.inProcess[c].perSecond), String(r.http[c].perSecond), `${fmt(r.http[c].p50)} / ${fmt(r.http[c].p99)}`, String(r.inProcess[c].serverCpuUsPerRequest), String(r.http[c].serverCpuUsPerRequest), String(r.http[c].loadCpuUsPerRequest)];
    });
    table.push(['(bare node:http floor)', '-', `${fmt(bare.c1.p50)} / ${fmt(bare.c1.p99)}`, '-', '-', String(bare.cN.perSecond), `${fmt(bare.cN.p50)} / ${fmt(bare.cN.p99)}`, '-', String(bare.cN.serverCpuUsPerRequest), String(bare.cN.loadCpuUsPerRequest)]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
    const line = (cells) => cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ');
    console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n${table.map(line).join('\n')}`);
    console.log(`load generator: ${CLIENT}; findOne over HTTP at c=${CONCURRENCY} is ${Math.round((rows[0].http[c].perSecond / bare.cN.perSecond) * 100)}% of the bare node:http floor`);
    console.log(`load average during the run: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs (other processes compete for them)`);
    const result = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadAverage: os.loadavg(), docs: DOCS, dimension: DIM, concurrency: CONCURRENCY, loadClient: CLIENT, rows, bareNodeHttp: bare };
    mkdirSync(path.join(here, 'results'), { recursive: true });
    writeFileSync(path.join(here, 'results', 'http-bench.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log('\nwritten to bench/results/http-bench.json');
  } finally {
    child.kill();
    await server.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
