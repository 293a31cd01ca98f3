/**
 * Every shared suite (test/suite/) in-process over memory-level (`storage: 'memory'`), so the third
 * storage path answers exactly as LevelDB (test/embedded.test.ts) and HTTP do. Below them, what only
 * memory storage promises: the data lives as long as a VectorDB has the database open, and no longer.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VectorDB } from '../src/index.js';
import { memoryFactory } from './support/factory.js';
import { allSuites } from './suite/index.js';

allSuites(memoryFactory);

const KS = { keyspace: 'default_keyspace' };

async function collectionNames(db: VectorDB): Promise<unknown> {
  return (await db.command({ findCollections: {} }, KS)).status?.collections;
}

describe('memory storage', () => {
  it('is shared by VectorDBs of one name while one is open, and gone after the last closes', async () => {
    const first = new VectorDB('t', 'memory-shared', undefined, { storage: 'memory' });
    await first.command({ createCollection: { name: 'docs', options: { vector: { dimension: 2, metric: 'cosine' } } } }, KS);
    await first.command({ insertMany: { documents: [{ _id: 'a', $vector: [1, 0] }, { _id: 'b', $vector: [0, 1] }] } }, { collection: 'docs' });
    const second = await new VectorDB('t', 'memory-shared', undefined, { storage: 'memory' }).connect();
    await first.close();
    const nearest = await second.command({ find: { sort: { $vector: [0.9, 0.1] }, options: { limit: 1 } } }, { collection: 'docs' });
    expect((nearest.data as unknown as { documents: { _id: string }[] }).documents.map((d) => d._id)).toEqual(['a']);
    await second.close();
    const third = new VectorDB('t', 'memory-shared', undefined, { storage: 'memory' });
    expect(await collectionNames(third)).toEqual([]);
    await third.close();
  });

  it('writes nothing to disk, and is a different database from a directory of the same name', async () => {
    const memory = new VectorDB('t', 'memory-not-on-disk', undefined, { storage: 'memory' });
    await memory.command({ createCollection: { name: 'only_in_memory' } }, KS);
    expect(await collectionNames(memory)).toEqual(['only_in_memory']);
    expect(existsSync('memory-not-on-disk')).toBe(false);
    await memory.close();
  });

  it('refuses an unknown storage, and storage on an http endpoint', () => {
    expect(() => new VectorDB('t', 'x', undefined, { storage: 'disk' as 'memory' })).toThrow(/'persistent' or 'memory'/);
    expect(() => new VectorDB('t', 'http://127.0.0.1:1', undefined, { storage: 'memory' })).toThrow(/embedded databases only/);
  });
});
