/**
 * Benchmark of the exact-scan kernels at 768 dims: the JS kernels (src/vector-index/kernels.ts) and the
 * WebAssembly SIMD kernel (src/vector-index/simd/) against a naive JS loop and against this machine's memory
 * bandwidth measured in the same run (a large typed-array copy), raw and through FlatVectorStore, and the
 * approximate dot products of the same rows as int8 codes (int8-rows.ts: SIMD kernel and JS loop).
 * Not a test: run after a build with `npm run build && node bench/vector-kernels.js [dim] [vectors]`.
 * Set VECTOR_KERNELS to another compiled kernels.js (its simd/ and flat-store.js beside it) to compare builds.
 */
import { pathToFileURL } from 'node:url';
import { freshDist } from './lib/private-dist.js';

const kernelsUrl = process.env.VECTOR_KERNELS
  ? pathToFileURL(process.env.VECTOR_KERNELS).href
  : new URL('vector-index/kernels.js', freshDist()).href;
const { dot, dotRows, squaredNorm, topK } = await import(kernelsUrl);
// Builds from before the SIMD kernel have neither: their rows are left out.
const simd = await import(new URL('./simd/wasm-kernels.js', kernelsUrl).href).catch(() => undefined);
const { FlatVectorStore } = await import(new URL('./flat-store.js', kernelsUrl).href);
// Builds from before int8 rows have none: their rows are left out.
const int8 = await import(new URL('./int8-rows.js', kernelsUrl).href).catch(() => undefined);

const dim = Number(process.argv[2] ?? 768);
const n = Number(process.argv[3] ?? Math.floor(100_000 * (768 / dim))); // ~300 MB: far beyond the caches
const reps = Number(process.env.REPS ?? 9);

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

/**
 * Best of `reps` runs of each contestant after a warm-up, in rounds (one run of each per round), so a
 * busy machine slows all of them alike and memcpy stays a fair yardstick; returns [name, seconds].
 */
function bestOf(contestants) {
  for (const [, fn] of contestants) fn();
  const t = contestants.map(() => Infinity);
  for (let i = 0; i < reps; i++) {
    contestants.forEach(([, fn], c) => {
      const start = process.hrtime.bigint();
      fn();
      t[c] = Math.min(t[c], Number(process.hrtime.bigint() - start) / 1e9);
    });
  }
  return contestants.map(([name], c) => [name, t[c]]);
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

/** `make()` with VECTORDB_NO_SIMD set (noSimd) or unset, as it was after. */
function withSimd(noSimd, make) {
  const before = process.env.VECTORDB_NO_SIMD;
  if (noSimd) process.env.VECTORDB_NO_SIMD = '1';
  else delete process.env.VECTORDB_NO_SIMD;
  const made = make();
  if (before === undefined) delete process.env.VECTORDB_NO_SIMD;
  else process.env.VECTORDB_NO_SIMD = before;
  return made;
}

/** A FlatVectorStore holding the same rows, on the SIMD path or (VECTORDB_NO_SIMD=1) the JS one. */
function flatStore(noSimd) {
  const s = withSimd(noSimd, () => new FlatVectorStore({ dimension: dim, metric: 'cosine', capacity: n }));
  for (let r = 0; r < n; r++) s.set(r, store.subarray(r * dim, (r + 1) * dim));
  return s;
}

/** The same rows as int8 codes (int8-rows.ts, scale trained on the first 1,024), in the SIMD kernel's memory or a plain array. */
function int8Rows(noSimd) {
  const scale = int8.Int8Scale.train(dim, store, Array.from({ length: Math.min(n, 1024) }, (_, r) => r * dim), Math.min(n, 1024));
  const codes = withSimd(noSimd, () => new int8.Int8Rows(scale, n));
  for (let r = 0; r < n; r++) codes.encode(r, store, r * dim);
  return codes;
}

const copyDst = new Float32Array(store.length);
const contestants = [
  ['memcpy (typed-array copy)', () => copyDst.set(store)],
  ['naive loop', () => naiveScan(query, store, dim, n, out)],
  ['dot(), one row at a time', () => dotScan(query, store, dim, n, out)],
  ['JS dotRows(), eight rows per pass', () => dotRows(query64, store, dim, rows, n, out)],
  ['JS topK(cosine, k=10), whole store', () => topK('cosine', query, store, sqNorms, dim, rows, n, 10)],
];
if (simd?.simdAvailable()) {
  // The rows copied once into the kernel's memory (setup): the store keeps them there, the scan reads them in place.
  const mem = simd.WasmRowMemory.create(dim, n);
  mem.rows.set(store);
  const viaSimd = flatStore(false);
  if (viaSimd.kernel !== 'wasm-simd') throw new Error('the FlatVectorStore did not take the SIMD path');
  const viaJs = flatStore(true);
  contestants.push(
    ['wasm SIMD dotRows (f32x4 -> f64x2)', () => mem.dotRows(query64, rows, n)],
    ['FlatVectorStore.exactSearch k=10, SIMD', () => viaSimd.exactSearch(query, 10)],
    ['FlatVectorStore.exactSearch k=10, JS', () => viaJs.exactSearch(query, 10)],
  );
  const a = viaSimd.exactSearch(query, 10);
  const b = viaJs.exactSearch(query, 10);
  const same = a.every((r, i) => r.label === b[i].label && Math.abs(r.score - b[i].score) <= 1e-12 * Math.abs(b[i].score));
  if (!same) throw new Error('SIMD and JS top-10 differ');
  if (int8 !== undefined) {
    const [viaKernel, viaLoop] = [int8Rows(false), int8Rows(true)];
    contestants.push(
      ['int8 rows: wasm SIMD (i16 dot) *', () => viaKernel.dots(query64, rows, n, out)],
      ['int8 rows: JS loop *', () => viaLoop.dots(query64, rows, n, out)],
    );
  }
} else {
  console.log(simd ? 'WebAssembly SIMD unavailable or VECTORDB_NO_SIMD=1: SIMD rows left out' : 'no simd/ in this build');
}
const results = bestOf(contestants);

const memcpy = bytes / results[0][1] / 1e9;
console.log(`vector kernels: ${n} vectors x ${dim} dims (${(bytes / 2 ** 20).toFixed(0)} MiB), best of ${reps}, node ${process.version}`);
console.log('what'.padEnd(40), 'GB/s'.padStart(7), 'x memcpy'.padStart(9), 'ms'.padStart(8));
for (const [name, t] of results) {
  const gbs = bytes / t / 1e9;
  console.log(name.padEnd(40), gbs.toFixed(2).padStart(7), (gbs / memcpy).toFixed(2).padStart(9), (t * 1000).toFixed(1).padStart(8));
}
console.log('GB/s = vector bytes scanned (or copied) per second; target for the kernels: >= 0.5 x memcpy.');
if (int8 !== undefined) console.log('* int8 rows read a quarter of those bytes: their GB/s is of the float32 rows they stand for.');
