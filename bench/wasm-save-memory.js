// What saving and loading a wasm graph in several segments (issue 31) costs in memory beyond the heaps: builds
// N x D clustered unit vectors (M 16, --ef-construction) with each heap's room lowered (VECTORDB_WASM_HEAP_BYTES,
// --per-heap vectors) so that they span several segments, then saves the graph to a LevelDB store in a temporary
// directory as the engine does (the build measured's SnapshotWriter, streaming, when it has one; else its
// serializeParts + writeSnapshot, as before) and loads it back from the stored chunks (streamSnapshotGraph).
// Prints, for the save and the load, the process's peak RSS (VmHWM, reset through /proc/self/clear_refs right
// before) above the RSS just before, and the graph's bytes.
//   node --expose-gc bench/wasm-save-memory.js [--n 150000] [--dim 384] [--per-heap 60000] [--ef-construction 12] [--dist <dir>]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freshDist } from './lib/private-dist.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '150000' },
    dim: { type: 'string', default: '384' },
    'per-heap': { type: 'string', default: '60000' },
    'ef-construction': { type: 'string', default: '12' },
    dist: { type: 'string' },
  },
});
const N = Number(values.n);
const DIM = Number(values.dim);
const MiB = 2 ** 20;
if (typeof gc !== 'function') throw new Error('run with node --expose-gc');
const dist = freshDist(values.dist === undefined ? undefined : path.resolve(values.dist));
const { wasmBytesPerElement } = await import(new URL('vector-index/wasm-capacity.js', dist));
process.env.VECTORDB_WASM_HEAP_BYTES = String(96 * MiB + Number(values['per-heap']) * wasmBytesPerElement(DIM, 16));
const { createVectorIndex, loadVectorIndex, readIndexHeader } = await import(new URL('vector-index/index-backend.js', dist));
const snapshot = await import(new URL('engine/vectors/snapshot.js', dist));
const { KvStore } = await import(new URL('storage/index.js', dist));

const status = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
/** Runs `work` and says how far RSS peaked above where it was just before (after two GCs). */
async function peakOf(work) {
  gc();
  gc();
  const before = status('VmRSS');
  writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
  const started = performance.now();
  const result = await work();
  return { result, ms: Math.round(performance.now() - started), beforeMiB: Math.round(before), peakAboveMiB: Math.round(status('VmHWM') - before) };
}

/** Deterministic clustered unit vectors, `count` from row `from`, into `out`. */
function fill(out, count, from) {
  for (let i = 0; i < count; i++) {
    let seed = (from + i) * 2654435761;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
    const centre = (from + i) % 64;
    let norm = 0;
    for (let d = 0; d < DIM; d++) {
      const v = Math.sin(centre * 7.1 + d * 0.37) + 0.3 * rand();
      out[i * DIM + d] = v;
      norm += v * v;
    }
    for (let d = 0; d < DIM; d++) out[i * DIM + d] /= Math.sqrt(norm);
  }
}

const index = await createVectorIndex({ dimension: DIM, metric: 'cosine', backend: 'wasm', params: { M: 16, efConstruction: Number(values['ef-construction']) } });
const batch = new Float32Array(1000 * DIM);
const built = performance.now();
for (let at = 0; at < N; at += 1000) {
  const count = Math.min(1000, N - at);
  fill(batch, count, at);
  index.add(Array.from({ length: count }, (_, i) => at + i), batch.subarray(0, count * DIM));
}
console.log(`built ${N} x ${DIM} in ${((performance.now() - built) / 1000).toFixed(0)} s`);

const dir = mkdtempSync(path.join(tmpdir(), 'vdb-save-memory-'));
const kv = await KvStore.open(dir);
const streams = typeof snapshot.SnapshotWriter === 'function';
try {
  const save = await peakOf(async () => {
    if (streams) {
      const writer = await snapshot.SnapshotWriter.open(kv, 1);
      const head = await index.serializeTo((piece) => writer.put(piece));
      await writer.finish(head, { labelLimit: N, coveredBelow: N });
      return head;
    }
    const parts = await index.serializeParts();
    await snapshot.writeSnapshot(kv, 1, { graph: parts, labelLimit: N, coveredBelow: N });
    return parts[0];
  });
  const header = readIndexHeader(save.result);
  const meta = await snapshot.readSnapshotMeta(kv, 1);
  index.dispose();
  const load = await peakOf(async () => {
    const back = await loadVectorIndex(snapshot.streamSnapshotGraph(kv, 1, meta), { dimension: DIM, metric: 'cosine' });
    const size = back.size;
    back.dispose();
    return size;
  });
  const graphMiB = Math.round(header.backendBytes / MiB);
  console.log(`${streams ? 'streamed (SnapshotWriter)' : 'joined (serializeParts + writeSnapshot)'}: format ${header.format}, ${header.segments ?? 1} segments, graph ${graphMiB} MiB`);
  console.log(`  save: ${save.ms} ms, RSS before ${save.beforeMiB} MiB, peak +${save.peakAboveMiB} MiB (${(save.peakAboveMiB / graphMiB).toFixed(2)}x the graph)`);
  console.log(`  load: ${load.ms} ms (${load.result} vectors), RSS before ${load.beforeMiB} MiB, peak +${load.peakAboveMiB} MiB`);
} finally {
  await kv.close();
  rmSync(dir, { recursive: true, force: true });
}
