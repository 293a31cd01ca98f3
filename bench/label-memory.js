// What a collection's document key <-> label map costs per document (issue 31: beyond its vector, at most
// 100 bytes a document): fills the map of engine/vectors/labels.js with N documents as a bulk load does
// (numeric ids `n<i>` or UUID ids `s<uuid>`), then replaces 10 % of them (new labels) and deletes 10 %,
// and prints V8 heap + array buffer bytes after two full GCs against the same process before, per
// document, with the CPU time of the fills and of 1M lookups each way. Each --dist runs in its own child.
// Run after `npm run build`: node bench/label-memory.js [--n 1000000] [--ids uuid|number] [--dist dist/,<other>/dist/]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshDist } from './lib/private-dist.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const N = Number(arg('--n', 1_000_000));
const IDS = arg('--ids', 'uuid');
const dists = arg('--dist', 'dist/').split(',');
const child = arg('--child', undefined);

const decoder = new TextDecoder();
const encoder = new TextEncoder();
/**
 * The i-th document's storage key as document-id.ts idKey makes it: `n<i>`, or `s` + the id's text, the id
 * a flat string as JSON.parse leaves it (a UUID-shaped text).
 */
function keyOf(i) {
  if (IDS === 'number') return `n${i}`;
  const hex = (i * 2654435761 >>> 0).toString(16).padStart(8, '0');
  const id = decoder.decode(encoder.encode(`${hex}-${(i & 0xffff).toString(16).padStart(4, '0')}-4${hex.slice(1, 4)}-8${hex.slice(4, 7)}-${String(i).padStart(12, '0')}`));
  return `s${id}`;
}

async function settle() {
  for (let i = 0; i < 2; i++) {
    global.gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const cpuMs = (from) => {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
};

if (child !== undefined) {
  const { VectorLabels } = await import(pathToFileURL(path.resolve(child, 'engine/vectors/labels.js')).href);
  const before = await settle();
  const labels = new VectorLabels();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) labels.set(labels.take(), keyOf(i));
  // Churn: 10 % replaced (a new label each), 10 % deleted.
  for (let i = 0; i < N; i += 10) {
    const key = keyOf(i);
    const old = labels.labelOf(key);
    labels.delete(old, key);
    labels.set(labels.take(), key);
  }
  for (let i = 5; i < N; i += 10) {
    const key = keyOf(i);
    labels.delete(labels.labelOf(key), key);
  }
  const fillMs = cpuMs(cpu0);
  const after = await settle();
  const cpu1 = process.cpuUsage();
  let found = 0;
  for (let i = 0; i < 1_000_000; i++) if (labels.labelOf(keyOf(i % N)) !== undefined) found++;
  const byKeyMs = cpuMs(cpu1);
  const cpu2 = process.cpuUsage();
  let chars = 0;
  for (let i = 0; i < 1_000_000; i++) chars += labels.keyOf((i * 7919) % labels.limit)?.length ?? 0;
  const byLabelMs = cpuMs(cpu2);
  process.stdout.write(`RESULT ${JSON.stringify({ live: labels.size, bytesPerDoc: (after - before) / labels.size, fillMs, byKeyMs, byLabelMs, found, chars })}\n`);
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
console.log(`label map: ${N} documents (${IDS} ids), 10 % replaced, 10 % deleted`);
console.log('| build | live | bytes per live document | fill CPU ms | 1M labelOf CPU ms | 1M keyOf CPU ms |\n|---|---|---|---|---|---|');
for (const dist of dists) {
  freshDist(path.resolve(dist));
  const out = execFileSync(process.execPath, ['--expose-gc', self, '--child', dist, '--n', String(N), '--ids', IDS], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const r = JSON.parse(out.split('\n').find((line) => line.startsWith('RESULT ')).slice(7));
  console.log(`| ${dist} | ${r.live} | ${r.bytesPerDoc.toFixed(1)} | ${r.fillMs.toFixed(0)} | ${r.byKeyMs.toFixed(0)} | ${r.byLabelMs.toFixed(0)} |`);
}
