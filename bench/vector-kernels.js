/**
 * Benchmark of the exact-scan kernels (src/vector/kernels.ts) at 768 dims against a naive JS loop and
 * against this machine's memory bandwidth measured in the same run (a large typed-array copy).
 * Not a test: run after a build with `npm run build && node bench/vector-kernels.js [dim] [vectors]`.
 * Set VECTOR_KERNELS to another compiled kernels.js to compare builds.
 */
import { pathToFileURL } from 'node:url';

const kernelsUrl = process.env.VECTOR_KERNELS
  ? pathToFileURL(process.env.VECTOR_KERNELS).href
  : new URL('../dist/vector/kernels.js', import.meta.url).href;
const { dot, dotRows, squaredNorm, topK } = await import(kernelsUrl);

const dim = Number(process.argv[2] ?? 768);
const n = Number(process.argv[3] ?? Math.floor(100_000 * (768 / dim))); // ~300 MB: far beyond the caches
const reps = 7;

let seed = 42;
const rand = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32 - 0.5;
};
const store = new Float32Array(n * dim);
for (let i = 0; i < store.length; i++) store[i] = rand();
const query = new Float32Array(dim).map(rand);
const query64 = Float64Array.from(query);
const sqNorms = new Float64Array(n);
for (let r = 0; r < n; r++) sqNorms[r] = squaredNorm(store, r * dim, dim);
const rows = Uint32Array.from({ length: n }, (_, i) => i);
const out = new Float64Array(n);
const bytes = n * dim * 4;

/** Best of `reps` runs after a warm-up; returns seconds. */
function best(fn) {
  fn();
  let t = Infinity;
  for (let i = 0; i < reps; i++) {
    const start = process.hrtime.bigint();
    fn();
    t = Math.min(t, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return t;
}

// Scans take everything as parameters: module-level bindings cost a check per access in V8.
function naiveScan(query, store, dim, n, out) {
  for (let r = 0, off = 0; r < n; r++, off += dim) {
    let s = 0;
    for (let i = 0; i < dim; i++) s += query[i] * store[off + i];
    out[r] = s;
  }
}

function dotScan(query, store, dim, n, out) {
  for (let r = 0, off = 0; r < n; r++, off += dim) out[r] = dot(query, store, off, dim);
}

const copyDst = new Float32Array(store.length);
const results = [
  ['memcpy (typed-array copy)', best(() => copyDst.set(store))],
  ['naive loop', best(() => naiveScan(query, store, dim, n, out))],
  ['dot(), one row at a time', best(() => dotScan(query, store, dim, n, out))],
  ['dotRows(), eight rows per pass', best(() => dotRows(query64, store, dim, rows, n, out))],
  ['topK(cosine, k=10), whole store', best(() => topK('cosine', query, store, sqNorms, dim, rows, n, 10))],
];

const memcpy = bytes / results[0][1] / 1e9;
console.log(`vector kernels: ${n} vectors x ${dim} dims (${(bytes / 2 ** 20).toFixed(0)} MiB), best of ${reps}, node ${process.version}`);
console.log('what'.padEnd(36), 'GB/s'.padStart(7), 'x memcpy'.padStart(9), 'ms'.padStart(8));
for (const [name, t] of results) {
  const gbs = bytes / t / 1e9;
  console.log(name.padEnd(36), gbs.toFixed(2).padStart(7), (gbs / memcpy).toFixed(2).padStart(9), (t * 1000).toFixed(1).padStart(8));
}
console.log('GB/s = vector bytes scanned (or copied) per second; target for the kernels: >= 0.5 x memcpy.');
