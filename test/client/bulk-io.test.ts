/**
 * Data in and out in the library: insertMany / upsertMany / insertManyChunked of an AsyncIterable with
 * progress and failures, updateMany and deleteMany progress, db.stats() and collection.stats(), and
 * backup / restore of an embedded database (real LevelDB in temporary directories).
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataApiException, VectorDB, VectorDbError, type BulkWriteFailure, type Progress } from '../../src/index.js';
import { rejection, useDb } from './helpers.js';

async function* generate(count: number, withVectors = true): AsyncGenerator<{ _id: string; n: number; $vector?: number[] }> {
  for (let n = 0; n < count; n++) {
    await Promise.resolve();
    yield withVectors ? { _id: `d${n}`, n, $vector: [1, n + 1, 0.5] } : { _id: `d${n}`, n };
  }
}

describe('bulk writes of an AsyncIterable', () => {
  const ctx = useDb();

  it('insertMany reads a generator chunk by chunk and reports progress and counts', async () => {
    const c = await ctx.db.createCollection('c', 3, 'cosine');
    const seen: Progress[] = [];
    const summary = await c.insertMany(generate(105), { concurrency: 3, ordered: false, chunkSize: 10, onProgress: (p) => seen.push(p), total: 105 });
    expect(summary).toEqual({ processed: 105, inserted: 105, updated: 0, unchanged: 0, failed: 0 });
    expect(seen.length).toBe(11);
    expect(seen.at(-1)).toMatchObject({ done: 105, total: 105, failed: 0 });
    expect(seen.at(-1)!.rate).toBeGreaterThan(0);
    expect(seen.map((p) => p.done)).toEqual([...seen.map((p) => p.done)].sort((a, b) => a - b));
    expect(await c.estimatedDocumentCount()).toBe(105);
    expect(await c.findById('d104')).toMatchObject({ n: 104 });
  });

  it('keeps at most `concurrency` chunks read ahead of the writes', async () => {
    const c = await ctx.db.createCollection('c');
    let pulled = 0;
    let maxAhead = 0;
    let written = 0;
    async function* counting(): AsyncGenerator<{ _id: number }> {
      for (let n = 0; n < 200; n++) {
        pulled++;
        maxAhead = Math.max(maxAhead, pulled - written);
        yield { _id: n };
      }
    }
    await c.insertManyChunked(counting(), 10, 2, { onProgress: (p) => (written = p.done) });
    expect(written).toBe(200);
    expect(maxAhead).toBeLessThanOrEqual(3 * 10);
  });

  it('reports each document not written to onFailure (existing ids) and goes on', async () => {
    const c = await ctx.db.createCollection('c');
    await c.insertMany([{ _id: 'd3' }, { _id: 'd7' }]);
    const failures: BulkWriteFailure[] = [];
    const summary = await c.insertMany(generate(10, false), { ordered: false, chunkSize: 4, onFailure: (f) => failures.push(f) });
    expect(summary).toMatchObject({ processed: 10, inserted: 8, failed: 2 });
    expect(failures.map((f) => [f.index, f.document._id, f.status, f.error?.errorCode])).toEqual([
      [3, 'd3', 'ALREADY_EXISTS', 'DOCUMENT_ALREADY_EXISTS'],
      [7, 'd7', 'ALREADY_EXISTS', 'DOCUMENT_ALREADY_EXISTS'],
    ]);
  });

  it('without onFailure, a stream with failures throws after writing the rest', async () => {
    const c = await ctx.db.createCollection('c');
    await c.insertOne({ _id: 'd1' });
    const error = await rejection(c.insertMany(generate(5, false), { ordered: false }));
    expect(error).toBeInstanceOf(DataApiException);
    expect(await c.estimatedDocumentCount()).toBe(5);
  });

  it('upsertMany of a stream replaces what exists: a re-run is all UNCHANGED', async () => {
    const c = await ctx.db.createCollection('c', 3);
    expect(await c.upsertMany(generate(30), { concurrency: 2 })).toMatchObject({ inserted: 30, failed: 0 });
    expect(await c.upsertMany(generate(30))).toMatchObject({ inserted: 0, unchanged: 30, updated: 0 });
  });

  it('arrays report progress with their length as total', async () => {
    const c = await ctx.db.createCollection('c');
    const seen: Progress[] = [];
    const docs = Array.from({ length: 45 }, (_, n) => ({ _id: n }));
    const results = await c.insertMany(docs, { onProgress: (p) => seen.push(p) });
    expect(results).toHaveLength(45);
    expect(seen.map((p) => [p.done, p.total])).toEqual([[20, 45], [40, 45], [45, 45]]);
  });

  it('updateMany and deleteMany report progress page by page', async () => {
    const c = await ctx.db.createCollection('c');
    await c.insertMany(generate(50, false));
    const updates: Progress[] = [];
    const result = await c.updateMany({ n: { $gte: 0 } }, { $set: { seen: true } }, { onProgress: (p) => updates.push(p) });
    expect(result.matchedCount).toBe(50);
    expect(updates.at(-1)).toMatchObject({ done: 50, failed: 0 });
    const deletes: Progress[] = [];
    expect(await c.deleteMany({ seen: true }, { onProgress: (p) => deletes.push(p) })).toBe(50);
    expect(deletes.at(-1)).toMatchObject({ done: 50 });
    expect(deletes.length).toBeGreaterThanOrEqual(1);
  });
});

describe('stats', () => {
  const ctx = useDb();

  it('collection.stats() and db.stats() tell documents, index entries and the vector index state', async () => {
    const c = await ctx.db.createCollection('vecs', 3, 'dot_product');
    await c.insertMany(generate(40));
    const plain = await ctx.db.createCollection('plain');
    await plain.insertMany([{ a: 1, b: 'x' }, { a: 2 }]);
    const stats = await c.stats();
    expect(stats).toMatchObject({ keyspace: 'default_keyspace', name: 'vecs', documents: 40 });
    expect(stats.indexEntries).toBeGreaterThanOrEqual(40);
    expect(stats.vector).toMatchObject({ dimension: 3, metric: 'dot_product', vectors: 40, hnsw: { m: 16, efConstruction: 200, efSearch: 128 } });
    expect(stats.vector!.inGraph + stats.vector!.pending).toBe(40);
    const all = await ctx.db.stats();
    expect(all.collections.map((s) => [s.name, s.documents])).toEqual([['plain', 2], ['vecs', 40]]);
    expect(all.collections[0]!.vector).toBeUndefined();
    expect(all.bytesOnDisk).toBeGreaterThan(0);
    expect(all.tables).toEqual([]);
    // Tables are in it too, as getTableStats tells each.
    await ctx.db.command({ createTable: { name: 'rows', definition: { columns: { id: 'int', n: 'text' }, primaryKey: 'id' } } });
    await ctx.db.command({ insertMany: { documents: [{ id: 1, n: 'a' }, { id: 2, n: 'b' }, { id: 3 }] } }, { collection: 'rows' });
    const withTable = await ctx.db.stats();
    expect(withTable.tables).toHaveLength(1);
    const own = (await ctx.db.command({ getTableStats: {} }, { collection: 'rows' })).status!.stats;
    expect(withTable.tables[0]).toEqual(own);
    expect(withTable.tables[0]).toMatchObject({ keyspace: 'default_keyspace', name: 'rows', rows: 3, vectors: {} });
    expect((await ctx.db.stats({ keyspace: 'default_keyspace' })).tables.map((t) => t.name)).toEqual(['rows']);
  });
});

describe('backup and restore', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'vdbl-backup-'));
    dirs.push(dir);
    return dir;
  }

  it('backup copies a database being written to: the copy holds a prefix of the acknowledged writes', async () => {
    const root = await tempDir();
    await using db = new VectorDB('t', path.join(root, 'live'));
    const c = await db.createCollection('c', 3);
    await c.insertMany(generate(200));
    let acknowledged = 200;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await c.insertOne({ _id: `d${acknowledged}`, n: acknowledged, $vector: [1, 2, 3] });
        acknowledged++;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const atStart = acknowledged;
    await db.backup(path.join(root, 'copy'));
    const atEnd = acknowledged;
    writing = false;
    await writer;
    await using copy = new VectorDB('t', path.join(root, 'copy'));
    const copied = await copy.collection('c');
    const count = await copied.estimatedDocumentCount();
    expect(count).toBeGreaterThanOrEqual(atStart);
    expect(count).toBeLessThanOrEqual(atEnd + 1);
    // Exactly the first `count` documents: writes are acknowledged in order, the snapshot takes a prefix.
    const ids = new Set((await copied.find({ projection: { _id: 1 } }).toArray()).map((d) => d._id));
    for (let n = 0; n < count; n++) expect(ids.has(`d${n}`)).toBe(true);
    expect((await copied.findVector([1, 2, 3], { limit: 1 })).length).toBe(1);
  });

  it('backup refuses a target that is not empty', async () => {
    const root = await tempDir();
    await using db = new VectorDB('t', path.join(root, 'live'));
    await db.createCollection('c');
    await mkdir(path.join(root, 'full'));
    await writeFile(path.join(root, 'full', 'x'), 'x');
    const error = await rejection(db.backup(path.join(root, 'full')));
    expect((error as VectorDbError).code).toBe('STORAGE_TARGET_NOT_EMPTY');
  });

  it('restore replaces a database not in use and refuses one in use', async () => {
    const root = await tempDir();
    {
      await using db = new VectorDB('t', path.join(root, 'a'));
      await (await db.createCollection('c')).insertMany([{ _id: 1 }, { _id: 2 }]);
      await db.backup(path.join(root, 'backup'));
    }
    {
      await using other = new VectorDB('t', path.join(root, 'b'));
      await (await other.createCollection('other')).insertOne({ _id: 'x' });
      const refused = await rejection(VectorDB.restore(path.join(root, 'backup'), path.join(root, 'b')));
      expect((refused as VectorDbError).code).toBe('DATABASE_LOCKED');
    }
    await VectorDB.restore(path.join(root, 'backup'), path.join(root, 'b'));
    await using restored = new VectorDB('t', path.join(root, 'b'));
    expect(await restored.findAllCollectionsNames()).toEqual(['c']);
    expect(await (await restored.collection('c')).estimatedDocumentCount()).toBe(2);
  });
});
