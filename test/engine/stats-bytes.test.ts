/**
 * Stats' bytes on disk and a table's stats (engine/stats.ts): a collection of a few documents just written (in
 * LevelDB's write buffer, and within one data block of its table files, where LevelDB's estimate says 0) counts
 * the bytes of its records; a large one is LevelDB's estimate of its compressed files, recent writes included;
 * `getTableStats` gives a table's rows, index entries, bytes and each vector index; a memory database says 0.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { keys } from '../../src/storage/index.js';
import { rng } from '../support/random.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };

async function run(db: Database, command: JsonObject, target: JsonObject = KS): Promise<JsonObject> {
  const r = await executeCommand(db, command, target);
  expect(r.errors, JSON.stringify(command).slice(0, 200)).toBeUndefined();
  return r as unknown as JsonObject;
}

const statsOf = async (db: Database, command: string, collection: string) => (await run(db, { [command]: {} }, { ...KS, collection })).status as { stats: JsonObject };

describe('bytes on disk and table stats', () => {
  let db: Database;

  beforeAll(async () => {
    db = await Database.open(path.join(tempDir('vectordb-stats-bytes-'), 'db'), { limits: { maxInsertManyDocuments: 100 } });
  });

  afterAll(async () => {
    await db?.close();
  });

  it('a few documents just written count their records, where the estimate alone says 0', async () => {
    await run(db, { createCollection: { name: 'few' } });
    const documents = Array.from({ length: 5 }, (_, n) => ({ _id: `d${n}`, text: `note ${n}` }));
    await run(db, { insertMany: { documents } }, { ...KS, collection: 'few' });
    const { cid } = db.collection('default_keyspace', 'few').record;
    const docs = keys.docPrefix(cid);
    expect(await db.kvStore.approximateSize(docs, docs + keys.HIGH)).toBe(0);
    const { stats } = await statsOf(db, 'getCollectionStats', 'few');
    // At least each document's key and body.
    expect(stats.bytesOnDisk).toBeGreaterThanOrEqual(documents.reduce((sum, d) => sum + docs.length + JSON.stringify(d).length - 10, 0));
  });

  it("a large collection is LevelDB's estimate of its files, its writes in the buffer included", async () => {
    await run(db, { createCollection: { name: 'many' } });
    const random = rng(7);
    const words = () => Array.from({ length: 60 }, () => Math.floor(random() * 1e9).toString(36)).join(' ');
    for (let i = 0; i < 600; i += 100) await run(db, { insertMany: { documents: Array.from({ length: 100 }, (_, n) => ({ _id: i + n, text: words() })) } }, { ...KS, collection: 'many' });
    const { stats } = await statsOf(db, 'getCollectionStats', 'many');
    expect(stats.bytesOnDisk).toBeGreaterThan(64 * 1024);
    const { cid } = db.collection('default_keyspace', 'many').record;
    let estimate = 0;
    for (const prefix of keys.collectionDataPrefixes(cid)) estimate += await db.kvStore.approximateSize(prefix, prefix + keys.HIGH);
    expect(stats.bytesOnDisk).toBe(estimate); // written out by the stats call: the estimate counts them now
  });

  it('getTableStats: rows, index entries, bytes and each vector index', async () => {
    await run(db, { createTable: { name: 'items', definition: { columns: { id: 'int', tag: 'text', emb: { type: 'vector', dimension: 2 } }, primaryKey: 'id' } } });
    const items = { ...KS, collection: 'items' };
    await run(db, { createIndex: { name: 'tag_idx', definition: { column: 'tag' } } }, items);
    await run(db, { createVectorIndex: { name: 'emb_idx', definition: { column: 'emb', options: { metric: 'dot_product' } } } }, items);
    const rows = Array.from({ length: 30 }, (_, n) => ({ id: n, tag: `t${n % 3}`, ...(n % 2 === 0 ? { emb: [Math.cos(n), Math.sin(n)] } : {}) }));
    await run(db, { insertMany: { documents: rows } }, items);
    await db.table('default_keyspace', 'items').waitForIndexes();
    const { stats } = await statsOf(db, 'getTableStats', 'items');
    expect(stats).toMatchObject({ keyspace: 'default_keyspace', name: 'items', rows: rows.length, indexEntries: rows.length });
    expect(stats.bytesOnDisk).toBeGreaterThan(0);
    const withVector = rows.filter((r) => r.emb !== undefined).length;
    expect(stats.vectors).toEqual({ emb: expect.objectContaining({ dimension: 2, metric: 'dot_product', vectors: withVector, inGraph: withVector, pending: 0 }) });
    const onCollection = await executeCommand(db, { getTableStats: {} }, { ...KS, collection: 'few' });
    expect(onCollection.errors?.[0]?.errorCode).toBe('UNSUPPORTED_COLLECTION_COMMAND');
  });

  it('a memory database has no bytes on disk', async () => {
    const memory = await Database.open('stats-bytes', { storage: 'memory' });
    try {
      await run(memory, { createCollection: { name: 'm' } });
      await run(memory, { insertOne: { document: { _id: 1, text: 'in memory' } } }, { ...KS, collection: 'm' });
      expect((await statsOf(memory, 'getCollectionStats', 'm')).stats.bytesOnDisk).toBe(0);
    } finally {
      await memory.close();
    }
  });
});
