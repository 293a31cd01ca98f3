/**
 * An insert's existence check reads on LevelDB's threads, never on the JS thread (KvStore.getMany's
 * `offThread`, issue 31): a few point reads are otherwise made synchronously (classic-level's getSync), and
 * during a bulk load such a read waited for LevelDB's lock or the disk for up to 1.3 s, holding the event loop.
 * Counted by a spy on classic-level's synchronous read: none while sub-batches of new documents (25, fewer than
 * KvStore reads at once) and a duplicate are inserted; the duplicate is still found. A read of few keys
 * without the option does read synchronously (the spy sees it).
 */
import { ClassicLevel } from 'classic-level';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore } from '../../src/storage/index.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const TARGET = { ...KS, collection: 'docs' };
const opened: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts classic-level's synchronous point reads from now on. */
const syncReads = () => vi.spyOn(ClassicLevel.prototype as unknown as { _getSync: (...args: unknown[]) => unknown }, '_getSync');

describe('reads made while inserting', () => {
  it('an insertMany checks existence on LevelDB threads: no synchronous read, the duplicate still found', async () => {
    const db = await Database.open(tempDir(), { vectorBackend: 'wasm', limits: { maxInsertManyDocuments: 50 } });
    opened.push(db);
    await executeCommand(db, { createCollection: { name: 'docs', options: { vector: { dimension: 3, metric: 'cosine' } } } }, KS);
    const docs = (from: number, n: number): JsonObject[] => Array.from({ length: n }, (_, i) => ({ _id: `d${from + i}`, n: from + i, $vector: [1, (from + i) % 7, 0.5] }));
    await executeCommand(db, { insertMany: { documents: docs(0, 25) } }, TARGET);
    const spy = syncReads();
    const first = (await executeCommand(db, { insertMany: { documents: docs(25, 50) } }, TARGET)) as unknown as JsonObject;
    expect(first.errors).toBeUndefined();
    expect((first.status as { insertedIds: unknown[] }).insertedIds).toHaveLength(50);
    const again = (await executeCommand(db, { insertMany: { documents: [...docs(75, 2), { _id: 'd3', $vector: [0, 1, 0] }], options: { ordered: false } } }, TARGET)) as unknown as JsonObject;
    expect((again.errors as { errorCode: string }[]).map((e) => e.errorCode)).toEqual(['DOCUMENT_ALREADY_EXISTS']);
    expect((again.status as { insertedIds: unknown[] }).insertedIds).toEqual(['d75', 'd76']);
    expect(spy).not.toHaveBeenCalled();
  });

  it('a few keys without offThread are read synchronously; with it, not', async () => {
    const kv = await KvStore.open(tempDir());
    opened.push(kv);
    await kv.batch([{ type: 'put', key: 'a', value: '1' }]);
    const spy = syncReads();
    expect((await kv.getMany(['a', 'b'], { offThread: true, fillCache: false })).map((v) => v?.length)).toEqual([1, undefined]);
    expect(spy).not.toHaveBeenCalled();
    expect((await kv.getMany(['a', 'b'], { fillCache: false })).map((v) => v?.length)).toEqual([1, undefined]);
    expect(spy).toHaveBeenCalled();
  });
});
