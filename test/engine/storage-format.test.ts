/**
 * The storage format label (storage/keys.ts FORMAT_VERSION): a new database is written at the current format,
 * one labelled by an older format (2) opens with its data and is relabelled, and a database labelled newer
 * than this version is refused with a message that says to upgrade, never misread.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { KvStore, keys } from '../../src/storage/index.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function relabel(dir: string, format: string): Promise<void> {
  const kv = await KvStore.open(dir);
  await kv.batch([{ type: 'put', key: keys.META_FORMAT, value: format }]);
  await kv.close();
}

describe('storage format', () => {
  it('is 4: truth records carry checksums and tables may key rows by token (since 3, bodies may hold exact numbers and databases tables)', () => {
    expect(keys.FORMAT_VERSION).toBe(4);
  });

  it('opens a format-2 database with its documents and relabels it', async () => {
    const dir = tempDir();
    let db = await Database.open(dir);
    await executeCommand(db, { createCollection: { name: 'c' } }, KS);
    await executeCommand(db, { insertMany: { documents: [{ _id: 1, n: 1 }, { _id: 2, n: 2 }] } }, { ...KS, collection: 'c' });
    await db.close();
    await relabel(dir, '2');

    db = await Database.open(dir);
    opened.push(db);
    expect(await db.kvStore.getString(keys.META_FORMAT)).toBe(String(keys.FORMAT_VERSION));
    const found = (await executeCommand(db, { find: { sort: { n: -1 } } }, { ...KS, collection: 'c' })) as { data: { documents: unknown[] } };
    expect(found.data.documents).toEqual([{ _id: 2, n: 2 }, { _id: 1, n: 1 }]);
  });

  it('refuses a database of a newer format, saying to upgrade, and leaves it as it was', async () => {
    const dir = tempDir();
    await (await Database.open(dir)).close();
    await relabel(dir, String(keys.FORMAT_VERSION + 1));
    await expect(Database.open(dir)).rejects.toMatchObject({ code: 'STORAGE_FORMAT_UNSUPPORTED', message: expect.stringMatching(/storage format 5, newer .* upgrade vectordb-local/) });
    const kv = await KvStore.open(dir);
    expect(await kv.getString(keys.META_FORMAT)).toBe('5');
    await kv.close();
  });
});
