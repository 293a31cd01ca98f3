/**
 * SIGKILL during CassIO row writes: a child (test/fixtures/cassio-crash-writer.mjs, on the built package) puts
 * rows into a clustered_metadata_vector table, one at a time or eight in flight, printing each acknowledged
 * row; we kill it after a number of acknowledgements (never after a delay), reopen and check that every
 * acknowledged row is there and whole, that the metadata index and the vector index agree with the rows, and
 * that writing resumes on the reopened table.
 */
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { VectorDB, type ClusteredMetadataVectorRecord } from '../../src/index.js';
import { CASSIO_CRASH_DIMENSION, CASSIO_CRASH_TABLE, cassioCrashRow } from '../fixtures/cassio-crash-rows.mjs';
import { tempDir } from '../support/temp.js';
import { buildPackage, finish, startFixture } from './built-package.js';

/** Runs the writer from `start`, SIGKILLs it after `killAfter` acknowledgements; returns seq -> rowId acknowledged. */
async function putUntilKilled(dir: string, mode: 'serial' | 'parallel', start: number, killAfter: number): Promise<Map<number, string>> {
  const child = startFixture('cassio-crash-writer.mjs', [dir, mode, String(start)]);
  child.stdin.end();
  const done = finish(child, 120_000);
  const acked = new Map<number, string>();
  let killed = false;
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('ack ')) continue;
    const [, seq, rowId] = line.split(' ');
    acked.set(Number(seq), rowId!);
    if (!killed && acked.size >= killAfter) {
      killed = true;
      child.kill('SIGKILL');
    }
  }
  const result = await done;
  expect(result.signal, `the writer ended by itself (code ${result.code}): ${result.stderr}`).toBe('SIGKILL');
  return acked;
}

/**
 * That `row` is the whole row of `seq` (metadata values are stored as strings; vector components come back as
 * the shortest decimal of their float32, so they are compared as float32).
 */
function expectWholeRow(row: ClusteredMetadataVectorRecord | undefined, seq: number): void {
  const { partitionId, body, vector, metadata } = cassioCrashRow(seq);
  expect(row).toMatchObject({ partitionId, body, metadata: { seq: `${seq}.0`, parity: metadata.parity } });
  expect(row!.vector.map(Math.fround)).toEqual(vector);
}

async function verify(dir: string, acked: ReadonlyMap<number, string>): Promise<void> {
  const db = new VectorDB('token', dir);
  try {
    const table = await db.clusteredMetadataVectorTable(CASSIO_CRASH_TABLE, CASSIO_CRASH_DIMENSION);
    const present = new Map<string, ClusteredMetadataVectorRecord>();
    for (const partition of ['p0', 'p1', 'p2', 'p3']) {
      const rows = await table.getPartition(partition);
      // Newest first within a partition (row ids are time-based and increase with seq).
      const seqs = rows.map((r) => Number(r.metadata.seq));
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
      for (const row of rows) present.set(row.rowId, row);
    }
    for (const [seq, rowId] of acked) {
      const row = present.get(rowId);
      expect(row, `acknowledged row ${seq} is missing`).toBeDefined();
      expectWholeRow(row, seq);
    }
    // Every present row is whole (a row written but not acknowledged is whole too).
    for (const row of present.values()) expectWholeRow(row, Number(row.metadata.seq));
    // The metadata index agrees with the rows: each even row is found through it, and only those.
    const even = [...present.values()].filter((r) => r.metadata.parity === 'even').map((r) => r.rowId).sort();
    const viaIndex = await db.command({ find: { filter: { metadata_s: { $all: [['parity', 'even']] } }, projection: { row_id: 1 }, options: { limit: 100_000 } } }, { collection: CASSIO_CRASH_TABLE });
    let found = (viaIndex.data as { documents: { row_id: string }[]; nextPageState: string | null });
    const indexed = found.documents.map((d) => d.row_id);
    while (found.nextPageState) {
      const next = await db.command({ find: { filter: { metadata_s: { $all: [['parity', 'even']] } }, projection: { row_id: 1 }, options: { pageState: found.nextPageState } } }, { collection: CASSIO_CRASH_TABLE });
      found = next.data as typeof found;
      indexed.push(...found.documents.map((d) => d.row_id));
    }
    expect(indexed.sort()).toEqual(even);
    // The vector index has every row: each sampled row is its own nearest neighbour in its partition.
    const sample = [...acked.keys()].filter((_, i) => i % 7 === 0);
    for (const seq of sample) {
      const row = cassioCrashRow(seq);
      const [best] = await table.similaritySearch({ embeddings: row.vector, recordCount: 1, metaData: { partition_id: row.partitionId, seq } });
      expect(best?.embedded.rowId).toBe(acked.get(seq));
      expect(best?.similarity).toBeCloseTo(1, 5);
    }
  } finally {
    await db.close();
  }
}

describe('CassIO tables survive SIGKILL during row writes', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it('serial puts, then parallel puts on the reopened table: no acknowledged row lost', async () => {
    const dir = tempDir('vectordb-cassio-crash-');
    const first = await putUntilKilled(dir, 'serial', 0, 150);
    await verify(dir, first);
    const second = await putUntilKilled(dir, 'parallel', 10_000, 200);
    await verify(dir, new Map([...first, ...second]));
  }, 180_000);
});
