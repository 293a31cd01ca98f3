// What per-dimension int8 scalar quantization keeps of an exact scan (issue 31, step 2's choice of
// oversampling and of how to handle drift): N x D seeded clustered unit vectors (bench/lib/vector-data.js, as
// bulk-load-bench), each dimension's min/max trained on the first `--train` fraction (a collection trains at
// its first build and keeps the scale: later vectors outside it are clamped), every vector coded in 1 byte a
// dimension; then for held-out queries, recall@10 against the exact float32 top 10 of: the int8 scan alone
// (asymmetric: the float query against the decoded codes), and the int8 scan's top 10 x oversampling rescored
// with the float32 vectors. Also: a drifted half (the second half of the data shifted by --drift in every
// dimension, trained on the first half only). Plain JS, no database.
// `--binary`: the same for 1 bit a dimension (above or below the trained mean of the dimension; the float query
// against mean +- the dimension's mean absolute deviation), at larger oversampling (issue 31: dimensions >= 768).
// Run: node bench/quantization-recall.js [--n 50000] [--dim 384] [--queries 100] [--train 0.1] [--drift 0.05] [--binary]
import { mixture, row, sample } from './lib/vector-data.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const N = Number(arg('--n', 50_000));
const DIM = Number(arg('--dim', 384));
const Q = Number(arg('--queries', 100));
const TRAIN = Number(arg('--train', 0.1));
const DRIFT = Number(arg('--drift', 0.05));
const K = 10;
const BINARY = args.includes('--binary');
const OVERSAMPLING = BINARY ? [2, 4, 8, 16, 32] : [1, 2, 3, 4, 8];

/** Per-dimension min and scale over the first `rows` rows. */
function train(data, rows) {
  const min = new Float32Array(DIM).fill(Infinity);
  const max = new Float32Array(DIM).fill(-Infinity);
  for (let i = 0; i < rows; i++) {
    for (let d = 0; d < DIM; d++) {
      const v = data[i * DIM + d];
      if (v < min[d]) min[d] = v;
      if (v > max[d]) max[d] = v;
    }
  }
  const scale = new Float32Array(DIM);
  for (let d = 0; d < DIM; d++) scale[d] = max[d] > min[d] ? (max[d] - min[d]) / 255 : 1;
  return { min, scale };
}

/** Codes 0..255 per dimension (clamped outside the trained range), and how many values were clamped. */
function quantize(data, n, { min, scale }) {
  const codes = new Uint8Array(n * DIM);
  let clamped = 0;
  for (let i = 0; i < n * DIM; i++) {
    const d = i % DIM;
    const q = Math.round((data[i] - min[d]) / scale[d]);
    if (q < 0 || q > 255) clamped++;
    codes[i] = Math.max(0, Math.min(255, q));
  }
  return { codes, clamped };
}

/** Top `k` rows by cosine of `query` against `score(row)`. */
function topK(n, k, score) {
  const best = [];
  for (let i = 0; i < n; i++) {
    const s = score(i);
    if (best.length < k || s > best[best.length - 1].s) {
      best.push({ i, s });
      best.sort((a, b) => b.s - a.s);
      if (best.length > k) best.pop();
    }
  }
  return best.map((b) => b.i);
}

function cosineFloat(data, i, q) {
  let dot = 0;
  let nn = 0;
  for (let d = 0; d < DIM; d++) {
    const v = data[i * DIM + d];
    dot += v * q[d];
    nn += v * v;
  }
  return dot / Math.sqrt(nn);
}

/** Cosine of the float query against a decoded row: q . (min + scale x code) / |decoded|, from precomputed parts. */
function int8Scorer(codes, n, { min, scale }) {
  const norms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let nn = 0;
    for (let d = 0; d < DIM; d++) {
      const v = min[d] + scale[d] * codes[i * DIM + d];
      nn += v * v;
    }
    norms[i] = Math.sqrt(nn);
  }
  return (q) => {
    // q . decoded = q . min + sum(q x scale x code): one multiply-add a dimension on the codes.
    let qmin = 0;
    const qs = new Float64Array(DIM);
    for (let d = 0; d < DIM; d++) {
      qmin += q[d] * min[d];
      qs[d] = q[d] * scale[d];
    }
    return (i) => {
      let dot = qmin;
      const at = i * DIM;
      for (let d = 0; d < DIM; d++) dot += qs[d] * codes[at + d];
      return dot / norms[i];
    };
  };
}

/** Per dimension the mean and the mean absolute deviation over the first `rows` rows (binary codes). */
function trainBinary(data, rows) {
  const mean = new Float64Array(DIM);
  const dev = new Float64Array(DIM);
  for (let i = 0; i < rows; i++) for (let d = 0; d < DIM; d++) mean[d] += data[i * DIM + d] / rows;
  for (let i = 0; i < rows; i++) for (let d = 0; d < DIM; d++) dev[d] += Math.abs(data[i * DIM + d] - mean[d]) / rows;
  return { mean, dev };
}

/** Cosine-like score of the float query against a row decoded as mean +- dev (by its bit), over |row| exact. */
function binaryScorer(data, n, { mean, dev }) {
  const bits = new Uint8Array(n * DIM);
  const norms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let nn = 0;
    for (let d = 0; d < DIM; d++) {
      bits[i * DIM + d] = data[i * DIM + d] > mean[d] ? 1 : 0;
      nn += data[i * DIM + d] ** 2;
    }
    norms[i] = Math.sqrt(nn);
  }
  return (q) => {
    let qmean = 0;
    let qdev = 0;
    const qs = new Float64Array(DIM);
    for (let d = 0; d < DIM; d++) {
      qmean += q[d] * mean[d];
      qs[d] = 2 * q[d] * dev[d];
      qdev += q[d] * dev[d];
    }
    return (i) => {
      let dot = qmean - qdev;
      const at = i * DIM;
      for (let d = 0; d < DIM; d++) if (bits[at + d] === 1) dot += qs[d];
      return dot / norms[i];
    };
  };
}

function measure(label, data, n, trained, queries) {
  const { codes, clamped } = BINARY ? { codes: undefined, clamped: 0 } : quantize(data, n, trained);
  const scorer = BINARY ? binaryScorer(data, n, trained) : int8Scorer(codes, n, trained);
  const recall = Object.fromEntries(OVERSAMPLING.map((o) => [o, 0]));
  for (const q of queries) {
    const truth = new Set(topK(n, K, (i) => cosineFloat(data, i, q)));
    const score = scorer(q);
    const candidates = topK(n, K * Math.max(...OVERSAMPLING), score);
    for (const o of OVERSAMPLING) {
      const rescored = candidates.slice(0, K * o).map((i) => ({ i, s: cosineFloat(data, i, q) })).sort((a, b) => b.s - a.s).slice(0, K);
      recall[o] += rescored.filter((r) => truth.has(r.i)).length / K / queries.length;
    }
  }
  const cells = OVERSAMPLING.map((o) => recall[o].toFixed(3));
  console.log(`| ${label} | ${(clamped / (n * DIM) * 100).toFixed(3)} % | ${cells.join(' | ')} |`);
}

const mix = mixture(7, DIM, 50);
const data = sample(mix, 11, N + Q, 0.35);
const queries = Array.from({ length: Q }, (_, j) => row(data, N + j, DIM));
const train_ = BINARY ? trainBinary : train;
console.log(`${BINARY ? 'binary' : 'int8 scalar'} quantization, ${N} x ${DIM} clustered unit vectors, cosine, ${Q} queries, recall@10 of the ${BINARY ? 'binary' : 'int8'} scan's top 10 x o rescored in float32`);
console.log(`| trained on | values clamped | ${OVERSAMPLING.map((o) => `o = ${o}`).join(' | ')} |\n|---|---|${OVERSAMPLING.map(() => '---|').join('')}`);
measure(`every vector`, data, N, train_(data, N), queries);
measure(`the first ${TRAIN * 100} %`, data, N, train_(data, Math.max(1, Math.floor(N * TRAIN))), queries);
measure(`the first 1 %`, data, N, train_(data, Math.max(1, Math.floor(N * 0.01))), queries);
// Drift: the second half moved by DRIFT in every dimension (renormalised), trained on the first half.
const drifted = data.slice(0, N * DIM);
for (let i = N / 2; i < N; i++) {
  let nn = 0;
  for (let d = 0; d < DIM; d++) {
    drifted[i * DIM + d] += DRIFT;
    nn += drifted[i * DIM + d] ** 2;
  }
  const inv = 1 / Math.sqrt(nn);
  for (let d = 0; d < DIM; d++) drifted[i * DIM + d] *= inv;
}
measure(`first half, second half drifted by ${DRIFT}`, drifted, N, train_(drifted, N / 2), queries);
