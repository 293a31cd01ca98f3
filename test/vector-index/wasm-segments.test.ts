/**
 * A wasm graph spread over several heaps (segments, issue 31), with each heap's room lowered by
 * VECTORDB_WASM_HEAP_BYTES to about 600 vectors so that 2,500 span 4+ segments: recall@10 against an
 * exact scan, filtered search, deletes and replaces routed to the segment holding the slot, save and
 * reopen with the same answers (index format 3: segments framed one by one, each with a checksum; a damaged
 * one is refused, never handed to hnswlib), a format-2 graph the version before wrote still read
 * (test/fixtures/wasm-format2.*), and VECTOR_INDEX_CAPACITY (never a crash) once no heap can be had
 * (VECTORDB_WASM_HEAPS). No timing assertions.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDbError } from '../../src/errors/vectordb-error.js';
import { createVectorIndex, loadVectorIndex, readIndexHeader, type VectorIndex } from '../../src/vector-index/index-backend.js';
import { WASM_HEAP_ENV, WASM_HEAPS_ENV, wasmBytesPerElement } from '../../src/vector-index/wasm-capacity.js';
import { heapCount } from '../../src/vector-index/wasm-heaps.js';
import { clustered, naiveTopK, row } from './data.js';

const DIM = 32;
const N = 2500;
/** Vectors one heap holds beside the runtime's reserve (96 MiB). */
const ROOM = 600;
const data = clustered(3, N, DIM);
const labels = Array.from({ length: N }, (_, i) => 10 + i * 2);
const queries = clustered(4, 30, DIM);
let index: VectorIndex;

async function build(): Promise<VectorIndex> {
  const made = await createVectorIndex({ dimension: DIM, metric: 'cosine', backend: 'wasm', capacity: 64 });
  for (let i = 0; i < N; i += 200) made.add(labels.slice(i, i + 200), data.slice(i * DIM, Math.min(N, i + 200) * DIM));
  return made;
}

function recall(found: VectorIndex, allowed?: (label: number) => boolean): number {
  let hits = 0;
  let wanted = 0;
  for (let q = 0; q < 30; q++) {
    const query = row(queries, q, DIM);
    const exact = new Set(naiveTopK('cosine', query, data, DIM, labels, 10, allowed).map((h) => h.label));
    wanted += exact.size;
    for (const h of found.search(query, 10, allowed ? { filter: allowed } : {})) if (exact.has(h.label)) hits++;
  }
  return hits / wanted;
}

/** test/fixtures/wasm-format2.*: written by scripts at commit 9a3adfe (see the .json's `made`). */
interface Format2Fixture {
  dim: number;
  n: number;
  seed: number;
  segments: number;
  /** The top 5 labels, as that version answered, for vectors 0, 37, 74, ... of the data. */
  answers: number[][];
}

const segmentsOf = async (i: VectorIndex): Promise<number> => readIndexHeader((await i.serializeParts())[0]!).segments ?? 1;

beforeAll(async () => {
  process.env[WASM_HEAP_ENV] = String(96 * 2 ** 20 + ROOM * wasmBytesPerElement(DIM, 16));
  index = await build();
});

afterAll(() => {
  index?.dispose();
  delete process.env[WASM_HEAP_ENV];
  delete process.env[WASM_HEAPS_ENV];
});

describe('a wasm graph in several heaps', () => {
  it('spans 4+ segments in as many heaps and finds the exact top 10', async () => {
    expect(index.size).toBe(N);
    expect(await segmentsOf(index)).toBeGreaterThanOrEqual(4);
    expect(heapCount()).toBeGreaterThanOrEqual(4);
    expect(recall(index)).toBeGreaterThanOrEqual(0.95);
    // Each vector finds itself, whichever segment holds it.
    for (const i of [0, 700, 1400, 2499]) expect(index.search(row(data, i, DIM), 1)[0]!.label).toBe(labels[i]);
  });

  it('applies a filter in every segment', () => {
    const allowed = (label: number): boolean => label % 7 === 3;
    expect(recall(index, allowed)).toBeGreaterThanOrEqual(0.95);
    for (let q = 0; q < 5; q++) {
      const hits = index.search(row(queries, q, DIM), 10, { filter: allowed });
      expect(hits).toHaveLength(10);
      expect(hits.every((h) => allowed(h.label))).toBe(true);
    }
  });

  it('routes deletes and replaces to the segment holding the slot', () => {
    const rows = [5, 650, 1300, 2450];
    index.remove(rows.map((i) => labels[i]!));
    expect(index.size).toBe(N - rows.length);
    for (const i of rows) expect(index.search(row(data, i, DIM), 1)[0]!.label).not.toBe(labels[i]);
    // Re-adding a label moves it to a fresh slot; its old slot, in an early segment, is deleted.
    const moved = labels[700]!;
    index.add([moved], row(data, 2, DIM).slice());
    expect(index.search(row(data, 2, DIM), 2).map((h) => h.label).sort()).toEqual([labels[2]!, moved].sort());
    expect(index.search(row(data, 700, DIM), 1)[0]!.label).not.toBe(moved);
    index.add([moved], row(data, 700, DIM).slice());
    index.add(
      rows.map((i) => labels[i]!),
      new Float32Array(rows.flatMap((i) => Array.from(row(data, i, DIM)))),
    );
    expect(index.size).toBe(N);
    for (const i of [...rows, 700]) expect(index.search(row(data, i, DIM), 1)[0]!.label).toBe(labels[i]);
  });

  it('saves every segment and reopens with the same top 10', async () => {
    const parts = await index.serializeParts();
    const header = readIndexHeader(parts[0]!);
    expect(header.format).toBe(3);
    expect(header.segments).toBeGreaterThanOrEqual(4);
    const back = await loadVectorIndex(parts, { dimension: DIM, metric: 'cosine' });
    try {
      expect(back.size).toBe(index.size);
      for (let q = 0; q < 30; q++) {
        const query = row(queries, q, DIM);
        expect(back.search(query, 10)).toEqual(index.search(query, 10));
      }
      // It keeps growing into segments after the load.
      back.add([1], row(queries, 0, DIM).slice());
      expect(back.search(row(queries, 0, DIM), 1)[0]!.label).toBe(1);
    } finally {
      back.dispose();
    }
  });

  it('loads from a stream of odd-sized pieces; a damaged segment count or segment is refused as incompatible', async () => {
    const parts = await index.serializeParts();
    const head = parts[0]!;
    const whole = new Uint8Array(Buffer.concat(parts)); // slice() copies (a Buffer's would not)
    async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    }
    const back = await loadVectorIndex(pieces(whole, 70_001), { dimension: DIM, metric: 'cosine' });
    expect(back.search(row(queries, 3, DIM), 10)).toEqual(index.search(row(queries, 3, DIM), 10));
    back.dispose();
    const refusal = async (bytes: Uint8Array): Promise<string> => {
      const refused = await loadVectorIndex(bytes, { dimension: DIM, metric: 'cosine' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((refused as VectorDbError).code).toBe('VECTOR_INDEX_INCOMPATIBLE');
      return (refused as VectorDbError).message;
    };
    // The segment count (after the 8-byte magic) now says one more segment than the bytes hold.
    const counted = whole.slice();
    new DataView(counted.buffer).setUint32(head.length + 8, readIndexHeader(head).segments! + 1, true);
    expect(await refusal(counted)).toMatch(/segments/);
    // One byte of the second segment's hnswlib bytes (after the count, the first frame and segment, its frame).
    const flipped = whole.slice();
    const second = head.length + parts[1]!.length + parts[2]!.length + parts[3]!.length + parts[4]!.length + 100;
    flipped[second] = (flipped[second] as number) ^ 0x40;
    expect(await refusal(flipped)).toMatch(/segment 1 of the graph is damaged \(checksum/);
  });

  it('reads a graph in segments that the version before streamed saves wrote (format 2)', async () => {
    const fixture = JSON.parse(readFileSync(new URL('../fixtures/wasm-format2.json', import.meta.url), 'utf8')) as Format2Fixture;
    const bytes = readFileSync(new URL('../fixtures/wasm-format2.bin', import.meta.url));
    const header = readIndexHeader(bytes);
    expect(header.format).toBe(2);
    expect(header.segments).toBe(fixture.segments);
    const back = await loadVectorIndex(bytes, { dimension: fixture.dim, metric: 'cosine' });
    try {
      expect(back.size).toBe(fixture.n);
      const vectors = clustered(fixture.seed, fixture.n, fixture.dim);
      fixture.answers.forEach((labels, q) => expect(back.search(row(vectors, q * 37, fixture.dim), 5).map((h) => h.label)).toEqual(labels));
      // Saved again, it is format 3.
      expect(readIndexHeader((await back.serializeParts())[0]!).format).toBe(3);
    } finally {
      back.dispose();
    }
  });

  it('says VECTOR_INDEX_CAPACITY once no heap can be had, and stays usable', async () => {
    process.env[WASM_HEAPS_ENV] = String(heapCount() + 1);
    const other = await createVectorIndex({ dimension: DIM, metric: 'cosine', backend: 'wasm', capacity: 64 });
    let error: unknown;
    let added = 0;
    try {
      for (let i = 0; i < 20 * ROOM && error === undefined; i += 100) {
        try {
          other.add(
            Array.from({ length: 100 }, (_, j) => i + j),
            clustered(100 + i, 100, DIM),
          );
          added += 100;
        } catch (e) {
          error = e;
        }
      }
      expect(error).toBeInstanceOf(VectorDbError);
      expect((error as VectorDbError).code).toBe('VECTOR_INDEX_CAPACITY');
      expect((error as VectorDbError).message).toMatch(/hnswlib-wasm.*32 dimensions.*VECTORDB_WASM_HEAPS/);
      // What it holds is still there and searchable, in every segment; so is the first graph.
      expect(other.size).toBe(added);
      expect(added).toBeGreaterThan(ROOM / 2);
      expect(other.search(clustered(100, 1, DIM), 1)[0]!.label).toBe(0);
      expect(index.search(row(data, 0, DIM), 1)[0]!.label).toBe(labels[0]);
    } finally {
      other.dispose();
      delete process.env[WASM_HEAPS_ENV];
    }
  });
});
