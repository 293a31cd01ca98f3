// Where a loaded process's memory is (issue 20's footprint): loads N x D random vectors through insertMany of
// 1,000 (bodyCacheBytes 0), waits for the graph, and prints RSS after two full GCs, V8's heap, the main
// thread's CPU for the inserts and /proc/self/smaps grouped by mapping (the node binary, the graph, the
// vector rows' WebAssembly memory, [heap] = glibc's main arena, anonymous mappings of 1-64 MB = mostly
// other threads' glibc arenas, LevelDB's mmapped table files), again after --idle ms without work.
// Run after `npm run build`: node --expose-gc bench/load-memory.js [--n 20000] [--dim 384] [--idle 0] [--dist <dir>]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshDist } from './lib/private-dist.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const N = Number(arg('--n', 20_000));
const DIM = Number(arg('--dim', 384));
const IDLE = Number(arg('--idle', 0));
const dist = arg('--dist', undefined);
const distUrl = freshDist(dist === undefined ? undefined : path.resolve(dist));
const MB = 2 ** 20;
if (typeof gc !== 'function') throw new Error('run with node --expose-gc');

/** This thread's CPU ms (utime + stime of the main task, 100 Hz ticks): the graph builder's thread is not in it. */
function mainThreadCpuMs() {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident MB by mapping name (anonymous ones by size class). */
function residentByMapping() {
  const groups = {};
  let current;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      const [range, , , , , ...rest] = line.split(/\s+/);
      const [start, end] = range.split('-').map((hex) => parseInt(hex, 16));
      const size = (end - start) / MB;
      const name = rest.join(' ');
      current = name ? (name.endsWith('.ldb') ? 'LevelDB tables (mmap)' : name.replace(/.*\//, '')) : size >= 1 ? `anon ${size.toFixed(1)}` : 'anon<1MB';
    } else if (line.startsWith('Rss:')) {
      groups[current] = (groups[current] ?? 0) + Number(line.split(/\s+/)[1]) / 1024;
    }
  }
  return Object.entries(groups).sort((a, b) => b[1] - a[1]).filter(([, mb]) => mb >= 1).map(([name, mb]) => `${name} ${mb.toFixed(1)}`).join(', ');
}

async function report(label) {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  const m = process.memoryUsage();
  console.log(`${label}: rss ${(m.rss / MB).toFixed(1)} MB, V8 heapUsed ${(m.heapUsed / MB).toFixed(1)} heapTotal ${(m.heapTotal / MB).toFixed(1)}`);
  console.log(`  ${residentByMapping()}`);
}

const { VectorDB } = await import(new URL('index.js', distUrl).href);
const dir = mkdtempSync(path.join(tmpdir(), 'load-memory-'));
try {
  const db = new VectorDB('token', dir, undefined, { vectorBackend: 'native', bodyCacheBytes: 0 });
  const collection = await db.createCollection({ name: 'vectors', options: { vector: { dimension: DIM, metric: 'cosine', index: { m: 16, efConstruction: 200 } } } });
  let seed = 3;
  const random = () => ((seed = (seed * 16807) % 2147483647), seed / 2147483647 - 0.5);
  let insertCpuMs = 0;
  for (let from = 0; from < N; from += 1000) {
    const docs = [];
    for (let i = from; i < Math.min(N, from + 1000); i++) docs.push({ _id: i, cat: i % 100, $vector: Array.from({ length: DIM }, random) });
    const before = mainThreadCpuMs();
    await collection.insertMany(docs);
    insertCpuMs += mainThreadCpuMs() - before;
  }
  console.log(`${N} x ${DIM} inserted: main thread CPU ${insertCpuMs} ms`);
  await collection.waitForIndex();
  await report('loaded');
  if (IDLE > 0) {
    await new Promise((resolve) => setTimeout(resolve, IDLE));
    await report(`after ${IDLE} ms idle`);
  }
  await db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
