/**
 * SIGKILL half-way through a streamed save of a wasm graph in several segments (issue 31): the child
 * (test/fixtures/segment-save-writer.mjs, on the built engine) saves a snapshot of 1,500 vectors in 3+
 * segments, adds 300, and is killed once the second save wrote its first batch of graph chunks. After
 * reopening, the first snapshot is the one the metadata names, every vector is found (the 300 replayed
 * from the records), and the next save clears what the killed one left.
 */
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { readSnapshotMeta, streamSnapshotGraph } from '../../src/engine/vectors/snapshot.js';
import type { JsonObject } from '../../src/query/json.js';
import { keys, KvStore } from '../../src/storage/index.js';
import { readIndexHeader } from '../../src/vector-index/index-backend.js';
import { WASM_HEAP_ENV, wasmBytesPerElement } from '../../src/vector-index/wasm-capacity.js';
import { segmentVector, SEGMENT_SAVE_DIMENSION } from '../fixtures/segment-save-docs.mjs';
import { tempDir } from '../support/temp.js';
import { buildPackage, finish, startFixture } from './built-package.js';

const KS = { keyspace: 'default_keyspace', collection: 'v' };
/** About 600 vectors per heap. */
const HEAP_BYTES = String(96 * 2 ** 20 + 600 * wasmBytesPerElement(SEGMENT_SAVE_DIMENSION, 16));

beforeAll(async () => {
  await buildPackage();
}, 180_000);

async function storedChunks(kv: KvStore, cid: number): Promise<number> {
  const prefix = keys.vectorIndexChunkPrefix(cid);
  let stored = 0;
  for await (const _ of kv.entries({ gte: prefix, lt: prefix + keys.HIGH })) stored++;
  return stored;
}

async function nearest(db: Database, n: number): Promise<unknown> {
  const r = (await executeCommand(db, { findOne: { sort: { $vector: segmentVector(n) }, projection: { _id: 1 } } }, KS)) as unknown as JsonObject;
  return ((r.data as JsonObject).document as JsonObject)._id;
}

describe('a streamed save of a graph in segments, killed half-way', () => {
  it('leaves the previous snapshot readable and every vector found', async () => {
    const dir = tempDir();
    const child = startFixture('segment-save-writer.mjs', [dir], { [WASM_HEAP_ENV]: HEAP_BYTES });
    child.stdin.end();
    const done = finish(child, 120_000);
    const lines: string[] = [];
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(line);
      if (line.startsWith('paused')) child.kill('SIGKILL');
    }
    const result = await done;
    expect(result.signal, result.stderr).toBe('SIGKILL');
    expect(lines[0]).toBe('saved');
    expect(lines[1]).toMatch(/^paused \d+$/);

    // What the killed save left: the first snapshot under the metadata, more chunks than it has.
    const kv = await KvStore.open(dir);
    let cid: number;
    try {
      const metaKeys: string[] = [];
      for await (const key of kv.keys({ gte: 'vmeta:', lt: `vmeta:${keys.HIGH}` })) metaKeys.push(key);
      expect(metaKeys).toHaveLength(1);
      cid = Array.from({ length: 1000 }, (_, c) => c).find((c) => keys.vectorIndexMetaKey(c) === metaKeys[0])!;
      const meta = (await readSnapshotMeta(kv, cid))!;
      expect(meta.labelLimit).toBeLessThanOrEqual(1500);
      const head = (await streamSnapshotGraph(kv, cid, meta).next()).value as Uint8Array;
      expect(readIndexHeader(head).segments).toBeGreaterThanOrEqual(2);
      expect(await storedChunks(kv, cid)).toBeGreaterThan(meta.chunks);
    } finally {
      await kv.close();
    }

    process.env[WASM_HEAP_ENV] = HEAP_BYTES;
    try {
      const db = await Database.open(dir, { vectorBackend: 'wasm' });
      try {
        const vectors = (await db.collection('default_keyspace', 'v').vectors())!;
        expect(vectors.size).toBe(1800);
        for (const n of [0, 700, 1499, 1500, 1799]) expect(await nearest(db, n)).toBe(n);
        await vectors.waitForIndex();
        for (let n = 0; n < 1800; n += 97) expect(await nearest(db, n)).toBe(n);
      } finally {
        await db.close(); // saves again: the killed save's chunks are cleared
      }
      const after = await KvStore.open(dir);
      try {
        const meta = (await readSnapshotMeta(after, cid))!;
        expect(meta.labelLimit).toBeGreaterThanOrEqual(1800);
        expect(await storedChunks(after, cid)).toBe(meta.chunks);
      } finally {
        await after.close();
      }
    } finally {
      delete process.env[WASM_HEAP_ENV];
    }
  });
});
