/**
 * Deterministic synthetic vector data for the vector benchmark: a seeded RNG, a Gaussian mixture
 * (clustered, then normalised for cosine), held-out queries from the same mixture, and a `bucket`
 * attribute (0..999) assigned by a seeded permutation so that `bucket < N` selects exactly N/1000 of
 * the rows. Datasets travel between the bench processes as raw little-endian binary files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** mulberry32: small, fast, deterministic. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal samples (Box-Muller) from a uniform source. */
export function gaussian(rand) {
  let spare = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = Math.max(rand(), 1e-12);
    const r = Math.sqrt(-2 * Math.log(u));
    const theta = 2 * Math.PI * rand();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

/**
 * The mixture: `clusters` centres drawn N(0, 1) per dimension; a point is a centre (chosen uniformly)
 * plus N(0, spread^2) noise per dimension, normalised to unit length. `spread` near 1 makes the
 * clusters overlap (high intrinsic dimension: hard for HNSW, like real embeddings).
 */
export function mixture(seed, dim, clusters) {
  const rand = rng(seed);
  const g = gaussian(rand);
  const centres = new Float32Array(clusters * dim);
  for (let i = 0; i < centres.length; i++) centres[i] = g();
  return { dim, clusters, centres };
}

export function sample(mix, seed, n, spread) {
  const out = new Float32Array(n * mix.dim);
  const next = sampleStream(mix, seed, spread);
  for (let i = 0; i < n; i++) next(out.subarray(i * mix.dim, (i + 1) * mix.dim));
  return out;
}

/**
 * The rows of `sample(mix, seed, n, spread)` one at a time, the same values in the same order: `next(out)`
 * writes the next row into `out` (a Float32Array of dim). For data too large to hold (1M x 384 is 1.5 GB).
 */
export function sampleStream(mix, seed, spread) {
  const { dim, clusters, centres } = mix;
  const rand = rng(seed);
  const g = gaussian(rand);
  return (out) => {
    const c = Math.floor(rand() * clusters) * dim;
    let sq = 0;
    for (let j = 0; j < dim; j++) {
      const v = centres[c + j] + g() * spread;
      out[j] = v;
      sq += v * v;
    }
    const inv = 1 / Math.sqrt(sq);
    for (let j = 0; j < dim; j++) out[j] *= inv;
    return out;
  };
}

/** bucket[i] in 0..999, exactly n/1000 rows per bucket (n a multiple of 1000), in seeded random order. */
export function buckets(seed, n) {
  if (n % 1000 !== 0) throw new Error(`n must be a multiple of 1000 for exact selectivities, got ${n}`);
  const rand = rng(seed);
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  const out = new Uint16Array(n);
  const per = n / 1000;
  for (let i = 0; i < n; i++) out[perm[i]] = Math.floor(i / per);
  return out;
}

/**
 * Inserts the first `n` rows of `vectors` into a collection (the client's) as documents `{ _id: i, bucket:
 * bucket[i], $vector }`, through insertMany of 1,000.
 */
export async function insertBucketed(collection, vectors, bucket, n, dim) {
  for (let from = 0; from < n; from += 1000) {
    const docs = [];
    for (let i = from; i < Math.min(n, from + 1000); i++) docs.push({ _id: i, bucket: bucket[i], $vector: Array.from(row(vectors, i, dim)) });
    await collection.insertMany(docs, { chunkSize: 1000 });
  }
}

/** One dataset: vectors, queries, buckets. */
export function makeDataset(spec) {
  const mix = mixture(spec.seed, spec.dim, spec.clusters);
  return {
    ...spec,
    vectors: sample(mix, spec.seed + 1, spec.n, spec.spread),
    queries: sample(mix, spec.seed + 2, spec.queries, spec.spread),
    bucket: buckets(spec.seed + 3, spec.n),
  };
}

/** Writes the dataset (and anything JSON-able in `extra`) into `dir` for the child processes. */
export function writeDataset(dir, ds, extra = {}) {
  const { vectors, queries, bucket, ...meta } = ds;
  writeFileSync(join(dir, 'vectors.f32'), new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength));
  writeFileSync(join(dir, 'queries.f32'), new Uint8Array(queries.buffer, queries.byteOffset, queries.byteLength));
  writeFileSync(join(dir, 'bucket.u16'), new Uint8Array(bucket.buffer, bucket.byteOffset, bucket.byteLength));
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, ...extra }));
}

export function readDataset(dir) {
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
  const view = (file, Type) => {
    const buf = readFileSync(join(dir, file));
    const copy = new Uint8Array(buf.byteLength);
    copy.set(buf);
    return new Type(copy.buffer);
  };
  return { ...meta, vectors: view('vectors.f32', Float32Array), queries: view('queries.f32', Float32Array), bucket: view('bucket.u16', Uint16Array) };
}

export const row = (data, i, dim) => data.subarray(i * dim, (i + 1) * dim);
