/**
 * The vector table saved with the graph snapshot: it round-trips, damaged tables are refused, and a
 * stale one (writes after the snapshot, then a crash before the next) never wins over the records:
 * deleted vectors stay deleted, changed vectors come back changed, new ones are found.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { decodeVectorTable, encodeVectorTable, encodeVectorTableParts, tableRows, tableValues, type DecodedVectorTable } from '../../src/engine/vectors/value-table.js';
import { readSnapshotGraph, readSnapshotMeta, writeSnapshot } from '../../src/engine/vectors/snapshot.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore, keys } from '../../src/storage/index.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

describe('vector table encoding', () => {
  const table = { dimension: 2, labels: Uint32Array.from([1, 5, 9]), values: Float32Array.from([1, 2, 3, 4, 5, 6]) };

  const plain = (decoded: DecodedVectorTable | undefined) => decoded && { dimension: decoded.dimension, labels: decoded.labels, values: tableValues(decoded) };

  it('round-trips, also from an unaligned offset', () => {
    const bytes = encodeVectorTable(table);
    expect(plain(decodeVectorTable(bytes, 2))).toEqual(table);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(plain(decodeVectorTable(shifted.subarray(1), 2))).toEqual(table);
  });

  it('reads the chunks it was stored in without joining them, wherever they cut it', () => {
    const bytes = encodeVectorTable(table);
    for (const cuts of [[3], [8], [9, 21], [12, 16, 20, 24, 28], [1, 2, 3, 30, 31]]) {
      const chunks = [0, ...cuts, bytes.length].slice(1).map((end, i, ends) => bytes.slice(i === 0 ? 0 : ends[i - 1], end));
      const decoded = decodeVectorTable(chunks, 2);
      expect(plain(decoded)).toEqual(table);
      // Rows inside one chunk are views into it, not copies.
      const inside = decoded!.segments.find((s) => s.values.length > 2);
      if (inside) expect(chunks.some((c) => c.buffer === inside.values.buffer)).toBe(true);
    }
    expect(decodeVectorTable([bytes.slice(0, 10), bytes.slice(11)], 2)).toBeUndefined();
  });

  it('gathers chosen rows across segments (a stale table: only the live rows)', () => {
    const bytes = encodeVectorTable(table);
    for (const cuts of [[], [24], [22, 29]]) {
      const chunks = [0, ...cuts, bytes.length].slice(1).map((end, i, ends) => bytes.slice(i === 0 ? 0 : ends[i - 1], end));
      const decoded = decodeVectorTable(chunks, 2)!;
      expect(Array.from(tableRows(decoded, [0, 2]))).toEqual([1, 2, 5, 6]);
      expect(Array.from(tableRows(decoded, [1]))).toEqual([3, 4]);
      expect(tableRows(decoded, [0, 1, 2])).toEqual(tableValues(decoded));
    }
  });

  it('refuses a wrong dimension and damaged bytes', () => {
    const bytes = encodeVectorTable(table);
    expect(decodeVectorTable(bytes, 3)).toBeUndefined();
    expect(decodeVectorTable(bytes.subarray(0, bytes.length - 1), 2)).toBeUndefined();
    expect(decodeVectorTable(bytes.subarray(0, 20), 2)).toBeUndefined();
  });
});

describe('reopening with a stale snapshot', () => {
  it('takes live labels from the records and only their values from the table (snapshots saved with one)', async () => {
    const dir = tempDir();
    let db = await Database.open(dir, { vectorBackend: 'wasm' });
    opened.push(db);
    const run = async (command: JsonObject) => {
      const r = (await executeCommand(db, command, { ...KS, collection: 'v' })) as unknown as JsonObject;
      expect(r.errors).toBeUndefined();
      return r;
    };
    await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: 2, metric: 'euclidean' } } } }, KS);
    for (let i = 0; i < 100; i += 20) {
      await run({ insertMany: { documents: Array.from({ length: 20 }, (_, j) => ({ _id: i + j, $vector: [i + j, 0] })) } });
    }
    const vectors = await db.collection('default_keyspace', 'v').vectors()!;
    await vectors.waitForIndex();
    await vectors.saveSnapshot();
    const cid = db.collection('default_keyspace', 'v').record.cid;
    // Saved as before vectors were stored once: the graph and a table of every vector.
    const meta = (await readSnapshotMeta(db.kvStore, cid))!;
    expect(meta.tableChunks).toBeUndefined();
    const graph = (await readSnapshotGraph(db.kvStore, cid, meta))!;
    const live = [...vectors.labelsNow().values()].sort((a, b) => a - b);
    const values = new Float32Array(live.length * 2);
    live.forEach((label, i) => values.set(vectors.vectorOf(label)!, i * 2));
    await writeSnapshot(db.kvStore, cid, { graph: [graph], labelLimit: meta.labelLimit, table: encodeVectorTableParts({ dimension: 2, labels: Uint32Array.from(live), values }) });
    const saved = await snapshotEntries(db.kvStore, cid);

    // After the snapshot: a delete, a changed vector, a new document.
    await run({ deleteOne: { filter: { _id: 10 } } });
    await run({ updateOne: { filter: { _id: 20 }, update: { $set: { $vector: [10.2, 0] } } } });
    await run({ insertOne: { document: { _id: 'new', $vector: [9.9, 0] } } });
    await db.close();
    // "Crash" before the next snapshot: put the old one back.
    const kv = await KvStore.open(dir);
    const prefix = keys.vectorIndexChunkPrefix(cid);
    await kv.clearRange(prefix, prefix + keys.HIGH);
    await kv.batch(saved.map(([key, value]) => ({ type: 'put', key, value })));
    await kv.close();

    db = await Database.open(dir, { vectorBackend: 'wasm' });
    opened.push(db);
    const r = await run({ find: { sort: { $vector: [10, 0] }, projection: { $vector: 1 }, options: { limit: 4 } } });
    expect((r.data as JsonObject).documents).toEqual([
      { _id: 'new', $vector: [9.9, 0] },
      { _id: 20, $vector: [10.2, 0] },
      { _id: 9, $vector: [9, 0] },
      { _id: 11, $vector: [11, 0] },
    ]);
    const count = await run({ countDocuments: {} });
    expect(count.status).toEqual({ count: 100 });
    const reopened = await db.collection('default_keyspace', 'v').vectors()!;
    expect(reopened.size).toBe(100);
    await reopened.waitForIndex();
    const again = await run({ find: { sort: { $vector: [10, 0] }, options: { limit: 2 } } });
    expect(((again.data as JsonObject).documents as JsonObject[]).map((d) => d._id)).toEqual(['new', 20]);
  });
});

async function snapshotEntries(kv: KvStore, cid: number): Promise<[string, Uint8Array][]> {
  const prefix = keys.vectorIndexChunkPrefix(cid);
  const out: [string, Uint8Array][] = [];
  for await (const entry of kv.entries({ gte: prefix, lt: prefix + keys.HIGH })) out.push(entry);
  out.push([keys.vectorIndexMetaKey(cid), (await kv.get(keys.vectorIndexMetaKey(cid)))!]);
  expect(out.some(([key]) => key.startsWith(`${prefix}t`) || key.startsWith(`${prefix}st`))).toBe(true); // table chunks, slot a or s
  return out;
}

describe('format 1 databases', () => {
  it('have their vector records migrated at open (also when a migration was interrupted)', async () => {
    const dir = tempDir();
    let db = await Database.open(dir, { vectorBackend: 'wasm' });
    await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: 2, metric: 'euclidean' } } } }, KS);
    await executeCommand(db, { insertMany: { documents: Array.from({ length: 10 }, (_, i) => ({ _id: i, $vector: [i, 1] })) } }, { ...KS, collection: 'v' });
    const cid = db.collection('default_keyspace', 'v').record.cid;
    await db.close();

    // Rewrite as format 1: one `vec:` record per vector (doc key and values), no snapshot; one record
    // stays migrated, as if a migration had stopped half-way.
    const kv = await KvStore.open(dir);
    const ops: { type: 'put' | 'del'; key: string; value?: Uint8Array | string }[] = [];
    for await (const [key, docKey] of kv.entries({ gte: keys.vectorKeyPrefix(cid), lt: keys.vectorKeyPrefix(cid) + keys.HIGH })) {
      const label = key.slice(keys.vectorKeyPrefix(cid).length);
      if (label === keys.labelText(0)) continue;
      const values = (await kv.get(keys.vectorValuesKey(cid, Number.parseInt(label, 16))))!;
      const record = Buffer.alloc(4 + docKey.length + values.length);
      record.writeUInt32LE(docKey.length, 0);
      record.set(docKey, 4);
      record.set(values, 4 + docKey.length);
      ops.push({ type: 'put', key: `${keys.LEGACY_VECTOR_PREFIX}${keys.cidText(cid)}${keys.SEP}${label}`, value: record });
      ops.push({ type: 'del', key }, { type: 'del', key: keys.vectorValuesKey(cid, Number.parseInt(label, 16)) });
    }
    ops.push({ type: 'del', key: keys.vectorIndexMetaKey(cid) }, { type: 'put', key: keys.META_FORMAT, value: '1' });
    await kv.batch(ops.map((op) => (op.type === 'put' ? { type: 'put', key: op.key, value: op.value! } : { type: 'del', key: op.key })));
    await kv.close();

    db = await Database.open(dir, { vectorBackend: 'wasm' });
    opened.push(db);
    const r = (await executeCommand(db, { find: { sort: { $vector: [3.2, 1] }, projection: { $vector: 1 }, options: { limit: 3 } } }, { ...KS, collection: 'v' })) as unknown as JsonObject;
    expect((r.data as JsonObject).documents).toEqual([
      { _id: 3, $vector: [3, 1] },
      { _id: 4, $vector: [4, 1] },
      { _id: 2, $vector: [2, 1] },
    ]);
    expect(await db.kvStore.getString(keys.META_FORMAT)).toBe(String(keys.FORMAT_VERSION));
    const legacy = [];
    for await (const key of db.kvStore.keys({ gte: keys.LEGACY_VECTOR_PREFIX, lt: keys.LEGACY_VECTOR_PREFIX + keys.HIGH })) legacy.push(key);
    expect(legacy).toEqual([]);
    expect((await db.collection('default_keyspace', 'v').vectors())!.size).toBe(10);
  });
});
