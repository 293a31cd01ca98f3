/**
 * The page side of bench/browser-heaps.js (bundled for the page with dist/vector-index, or another build's
 * with --dist, and the browser build's plugins): fills a wasm HNSW index with generated clustered vectors until it holds `n` or says
 * VECTOR_INDEX_CAPACITY, keeping the exact top 10 of a sample of queries up to date as it goes (so no copy
 * of the vectors is kept), then times searches and measures recall@10 against that exact scan; with `save`,
 * then saves the graph to IndexedDB in chunks (saveToIndexedDb) while the Node side measures peak RSS.
 */
// Resolved by bench/browser-heaps.js to the dist/ measured (--dist): a build before segments has no heaps.
import { createVectorIndex } from 'vdb-index';
import { heapCount } from 'vdb-heaps';
import { gaussian, rng } from '../../test/vector-index/data.ts';

/** Deterministic gaussians from `seed`. */
const gaussians = (seed) => gaussian(rng(seed));

/** `count` unit vectors around 64 fixed cluster centres (noise 0.25), into `out` from row 0. */
function clustered(centres, dim, count, next, out) {
  for (let i = 0; i < count; i++) {
    const c = centres[Math.floor(Math.abs(next() * 1e6)) % centres.length];
    let norm = 0;
    for (let d = 0; d < dim; d++) {
      const v = c[d] + 0.25 * next();
      out[i * dim + d] = v;
      norm += v * v;
    }
    norm = Math.sqrt(norm);
    for (let d = 0; d < dim; d++) out[i * dim + d] /= norm;
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

window.heaps = {
  progress: { held: 0, heaps: 0, ms: 0 },
  async run({ n, dim, M, efConstruction, efSearch, heapLimit, batch = 1000, sample = 50, searches = 500, save = false }) {
    if (heapLimit !== undefined) globalThis.VECTORDB_WASM_HEAPS = heapLimit;
    const centreNoise = gaussians(1);
    const centres = Array.from({ length: 64 }, () => Float32Array.from({ length: dim }, () => centreNoise()));
    const queries = new Float32Array(sample * dim);
    clustered(centres, dim, sample, gaussians(2), queries);
    // Per query: the exact top 10 so far (label, similarity), worst last.
    const exact = Array.from({ length: sample }, () => []);
    const index = await createVectorIndex({ dimension: dim, metric: 'cosine', backend: 'wasm', params: { M, efConstruction, efSearch } });
    const next = gaussians(3);
    const vectors = new Float32Array(batch * dim);
    let held = 0;
    let error;
    let buildMs = 0;
    while (held < n) {
      const count = Math.min(batch, n - held);
      clustered(centres, dim, count, next, vectors);
      const labels = Array.from({ length: count }, (_, i) => held + i);
      const started = performance.now();
      try {
        index.add(labels, vectors.subarray(0, count * dim));
      } catch (e) {
        error = { code: e.code ?? e.name, message: String(e.message).slice(0, 400) };
        break;
      }
      buildMs += performance.now() - started;
      for (let q = 0; q < sample; q++) {
        const top = exact[q];
        for (let i = 0; i < count; i++) {
          let s = 0;
          for (let d = 0; d < dim; d++) s += queries[q * dim + d] * vectors[i * dim + d];
          if (top.length === 10 && s <= top[9][1]) continue;
          top.push([held + i, s]);
          top.sort((a, b) => b[1] - a[1]);
          if (top.length > 10) top.pop();
        }
      }
      held += count;
      this.progress = { held, heaps: heapCount(), ms: buildMs };
      await tick();
    }
    const result = { held, error, buildMs, heaps: heapCount() };
    if (held === 0) return result;
    let hits = 0;
    for (let q = 0; q < sample; q++) {
      const want = new Set(exact[q].map(([label]) => label));
      for (const h of index.search(queries.subarray(q * dim, (q + 1) * dim), 10)) if (want.has(h.label)) hits++;
    }
    result.recall = hits / (sample * 10);
    const started = performance.now();
    for (let i = 0; i < searches; i++) index.search(queries.subarray((i % sample) * dim, ((i % sample) + 1) * dim), 10);
    result.qps = searches / ((performance.now() - started) / 1000);
    result.size = index.size;
    if (save) {
      this.progress = { ...this.progress, phase: 'save' };
      // The Node side resets the renderer's peak RSS now, and reads it once the save is done.
      await new Promise((resolve) => (this.resetDone = resolve));
      Object.assign(result, await saveToIndexedDb(index));
    }
    return result;
  },
};

/** 4 MiB chunks, as the engine's snapshot has them. */
const CHUNK = 4 * 2 ** 20;

/**
 * Saves the index to IndexedDB in chunks, as the engine does: streamed one segment at a time when the build
 * measured can (serializeTo), else its pieces (serializeParts: the segments joined into one buffer) cut in
 * chunks. Each chunk is stored as a copy of its own (IndexedDB would store a view's whole buffer).
 */
async function saveToIndexedDb(index) {
  const db = await new Promise((resolve, reject) => {
    const opening = indexedDB.open('heaps-save', 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore('chunks');
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  let chunks = 0;
  let bytes = 0;
  const put = (key, value) =>
    new Promise((resolve, reject) => {
      const tx = db.transaction('chunks', 'readwrite');
      tx.objectStore('chunks').put(value, key);
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
  const sink = async (piece) => {
    bytes += piece.length;
    for (let at = 0; at < piece.length; at += CHUNK) await put(++chunks, piece.slice(at, at + CHUNK));
  };
  const started = performance.now();
  const streamed = typeof index.serializeTo === 'function';
  if (streamed) await put(0, await index.serializeTo(sink));
  else {
    const [head, ...rest] = await index.serializeParts();
    await put(0, head.slice());
    for (const piece of rest) await sink(piece);
  }
  db.close();
  return { saveMs: performance.now() - started, savedBytes: bytes, saveChunks: chunks, saveStreamed: streamed };
}
