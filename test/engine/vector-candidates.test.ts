/**
 * Filtered vector search reuses a filter's candidate set until the next write: every kind of write
 * (insert, update of the filtered field, vector change, delete, deleteMany, clear) must show at once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

async function run(db: Database, command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, { ...KS, collection: 'items' })) as unknown as JsonObject;
  expect(response.errors).toBeUndefined();
  return response;
}

describe('filtered vector search after writes', () => {
  it('sees inserts, field updates, vector changes and deletes of candidates at once', async () => {
    const db = await Database.open(tempDir(), { vectorBackend: 'wasm' });
    opened.push(db);
    await executeCommand(db, { createCollection: { name: 'items', options: { vector: { dimension: 2, metric: 'euclidean' } } } }, KS);
    const documents = Array.from({ length: 50 }, (_, i) => ({ _id: i, group: i % 5, $vector: [i, 0] }));
    for (let i = 0; i < documents.length; i += 20) await run(db, { insertMany: { documents: documents.slice(i, i + 20) } });
    const nearest = async (k = 3) => {
      const r = await run(db, { find: { filter: { group: 0 }, sort: { $vector: [0, 0] }, options: { limit: k } } });
      return ((r.data as JsonObject).documents as JsonObject[]).map((d) => d._id);
    };
    expect(await nearest()).toEqual([0, 5, 10]);
    expect(await nearest()).toEqual([0, 5, 10]); // the cached candidate set

    await run(db, { insertOne: { document: { _id: 'new', group: 0, $vector: [1, 0] } } });
    expect(await nearest()).toEqual([0, 'new', 5]);
    await run(db, { updateOne: { filter: { _id: 'new' }, update: { $set: { group: 1 } } } });
    expect(await nearest()).toEqual([0, 5, 10]);
    await run(db, { updateOne: { filter: { _id: 3 }, update: { $set: { group: 0 } } } });
    expect(await nearest()).toEqual([0, 3, 5]);
    await run(db, { updateOne: { filter: { _id: 0 }, update: { $set: { $vector: [100, 0] } } } });
    expect(await nearest()).toEqual([3, 5, 10]);
    await run(db, { deleteOne: { filter: { _id: 3 } } });
    expect(await nearest()).toEqual([5, 10, 15]);
    await run(db, { deleteMany: { filter: { _id: { $in: [5, 10] } } } });
    expect(await nearest()).toEqual([15, 20, 25]);
    await run(db, { findOneAndReplace: { filter: { _id: 15 }, replacement: { group: 2, $vector: [15, 0] } } });
    expect(await nearest()).toEqual([20, 25, 30]);
    await run(db, { deleteMany: {} });
    expect(await nearest()).toEqual([]);
  });
});
