/**
 * A wasm graph in several heaps (segments, issue 31) saved to LevelDB as it is serialized (SnapshotWriter,
 * VectorIndex.serializeTo): one segment's bytes at a time, never the whole graph, in chunks read back
 * one segment at a time with the same answers; a save that fails between chunks (a fault injected in the
 * store's batches) leaves the previous snapshot whole, and the graph usable. Each heap's room is lowered
 * (VECTORDB_WASM_HEAP_BYTES) to about 600 vectors so that 2,000 of 32 dimensions span 3+ segments, and
 * chunks to 64 KiB so that a small graph is many of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSnapshotMeta, SnapshotWriter, streamSnapshotGraph } from '../../src/engine/vectors/snapshot.js';
import { KvStore } from '../../src/storage/index.js';
import { createVectorIndex, loadVectorIndex, readIndexHeader, type VectorIndex } from '../../src/vector-index/index-backend.js';
import { WASM_HEAP_ENV, wasmBytesPerElement } from '../../src/vector-index/wasm-capacity.js';
import { failingBatches } from '../support/failing-batches.js';
import { tempDir } from '../support/temp.js';
import { clustered, row } from '../vector-index/data.js';

const DIM = 32;
const N = 2000;
const ROOM = 600;
const CID = 7;
const CHUNK = 64 * 1024;
const data = clustered(11, N + 200, DIM);
const queries = clustered(12, 20, DIM);
const labelOf = (i: number): number => 3 * i + 1;
let kv: KvStore;
let index: VectorIndex;

function addRows(target: VectorIndex, from: number, to: number): void {
  for (let i = from; i < to; i += 250) {
    const end = Math.min(to, i + 250);
    target.add(
      Array.from({ length: end - i }, (_, j) => labelOf(i + j)),
      data.slice(i * DIM, end * DIM),
    );
  }
}

const answers = (target: VectorIndex): number[][] => Array.from({ length: 20 }, (_, q) => target.search(row(queries, q, DIM), 10).map((h) => h.label));

/** Saves `target` through a SnapshotWriter on `store`; the pieces its sink was handed. */
async function save(store: KvStore, target: VectorIndex): Promise<Uint8Array[]> {
  const pieces: Uint8Array[] = [];
  const writer = await SnapshotWriter.open(store, CID, CHUNK);
  let thawed = false;
  const head = await target.serializeTo(
    async (piece) => {
      pieces.push(piece);
      await writer.put(piece);
    },
    () => (thawed = true),
  );
  expect(thawed).toBe(true);
  await writer.finish(head, { labelLimit: labelOf(target.size), coveredBelow: labelOf(target.size) });
  return pieces;
}

async function loadSaved(): Promise<VectorIndex> {
  const meta = (await readSnapshotMeta(kv, CID))!;
  return loadVectorIndex(streamSnapshotGraph(kv, CID, meta), { dimension: DIM, metric: 'cosine' });
}

beforeAll(async () => {
  process.env[WASM_HEAP_ENV] = String(96 * 2 ** 20 + ROOM * wasmBytesPerElement(DIM, 16));
  kv = await KvStore.open(tempDir());
  index = await createVectorIndex({ dimension: DIM, metric: 'cosine', backend: 'wasm', capacity: 64 });
  addRows(index, 0, N);
});

afterAll(async () => {
  index?.dispose();
  await kv?.close();
  delete process.env[WASM_HEAP_ENV];
});

describe('a wasm graph in segments saved as it is serialized', () => {
  it('hands its sink one segment at a time and reads back, one segment at a time, with the same answers', async () => {
    const pieces = await save(kv, index);
    const meta = (await readSnapshotMeta(kv, CID))!;
    const [head] = await streamSnapshotGraph(kv, CID, meta).next().then((r) => [r.value as Uint8Array]);
    const header = readIndexHeader(head!);
    expect(header.format).toBe(3);
    expect(header.segments).toBeGreaterThanOrEqual(3);
    // Per segment a frame and its bytes, after the segment count; none holds more than one segment.
    expect(pieces).toHaveLength(1 + 2 * header.segments!);
    const largest = Math.max(...pieces.map((p) => p.length));
    expect(largest).toBeLessThan(header.backendBytes / 2);
    expect(pieces.reduce((sum, p) => sum + p.length, 0)).toBe(header.backendBytes);
    expect(meta.chunks).toBeGreaterThan(header.backendBytes / CHUNK);
    expect(meta.bytes).toBe(head!.length + header.backendBytes);

    const back = await loadSaved();
    try {
      expect(back.size).toBe(N);
      expect(answers(back)).toEqual(answers(index));
      for (const i of [0, 650, 1300, N - 1]) expect(back.search(row(data, i, DIM), 1)[0]!.label).toBe(labelOf(i));
    } finally {
      back.dispose();
    }
  });

  it('a save that fails between chunks leaves the previous snapshot whole, and the graph usable', async () => {
    const before = (await readSnapshotMeta(kv, CID))!;
    const expected = answers(index);
    addRows(index, N, N + 200);
    const dying = failingBatches(kv, 3);
    await expect(save(dying.store, index)).rejects.toThrow('crash');
    expect(dying.batches()).toBe(4);
    expect(await readSnapshotMeta(kv, CID)).toEqual(before);
    // The graph changes again once the failed save let go of it.
    index.remove([labelOf(5)]);
    expect(index.size).toBe(N + 199);

    const back = await loadSaved();
    try {
      expect(back.size).toBe(N);
      expect(answers(back)).toEqual(expected);
    } finally {
      back.dispose();
    }
    // The next save clears what the failed one left, and is read back whole.
    await save(kv, index);
    const reread = await loadSaved();
    try {
      expect(reread.size).toBe(N + 199);
      expect(answers(reread)).toEqual(answers(index));
    } finally {
      reread.dispose();
    }
  });
});
