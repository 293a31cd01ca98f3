/**
 * Concurrent writers lose nothing: 1,000 concurrent $inc on one document end exact, concurrent
 * inserts of one `_id` admit exactly one, and concurrent upserts create one document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { tempDir } from '../support/temp.js';

let db: VectorDB;

beforeAll(async () => {
  db = await new VectorDB('token', tempDir()).connect();
});

afterAll(async () => {
  await db.close();
});

describe('concurrent writes', () => {
  it('1,000 concurrent $inc on one document end exact', async () => {
    const counters = await db.createCollection('counters');
    await counters.insertOne({ _id: 'hits', count: 0, log: [] });
    await Promise.all(Array.from({ length: 1000 }, (_, i) => counters.updateOne({ _id: 'hits' }, { $inc: { count: 1, [`byParity.${i % 2}`]: 1 } })));
    const doc = await counters.findById('hits');
    expect(doc?.count).toBe(1000);
    expect(doc?.byParity).toEqual({ 0: 500, 1: 500 });
  });

  it('concurrent $push from many callers keeps every element', async () => {
    const lists = await db.createCollection('lists');
    await lists.insertOne({ _id: 'l', items: [] });
    await Promise.all(Array.from({ length: 200 }, (_, i) => lists.updateOne({ _id: 'l' }, { $push: { items: i } })));
    const items = (await lists.findById('l'))?.items as number[];
    expect([...items].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('concurrent inserts of one _id admit exactly one', async () => {
    const unique = await db.createCollection('unique_ids');
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => unique.insertOne({ _id: 'same', writer: i })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(49);
    for (const r of rejected) expect((r.reason as { errorCode: string }).errorCode).toBe('DOCUMENT_ALREADY_EXISTS');
    expect(await unique.countDocuments({})).toBe(1);
  });

  it('concurrent upserts create one document and apply every update', async () => {
    const upserts = await db.createCollection('upserts');
    await Promise.all(Array.from({ length: 100 }, () => upserts.updateOne({ _id: 'u' }, { $inc: { n: 1 } }, { upsert: true })));
    expect(await upserts.countDocuments({})).toBe(1);
    expect((await upserts.findById('u'))?.n).toBe(100);
  });
});
