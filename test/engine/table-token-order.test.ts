/**
 * Tables keep opening across the row key layouts (storage/keys.ts): a table written before token order
 * (its record without keyFormat, as every table of a format-3 database) is read in its old key order and
 * written in it, after the database is relabelled; a new table keys its rows by partition token.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { KvStore, bytesToString, keys } from '../../src/storage/index.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function pks(db: Database, table: string): Promise<unknown[]> {
  const found = (await executeCommand(db, { find: { projection: { pk: 1 } } }, { ...KS, collection: table })) as unknown as { data: { documents: { pk: unknown }[] } };
  return found.data.documents.map((d) => d.pk);
}

describe('table key layouts', () => {
  it('a table of an earlier build (format 3, no keyFormat) opens, keeps key order, and takes writes; a new one is in token order', async () => {
    const dir = tempDir();
    let db = await Database.open(dir);
    await executeCommand(db, { createTable: { name: 'old', definition: { columns: { pk: 'int', v: 'text' }, primaryKey: 'pk' } } }, KS);
    await db.close();
    // Make it a table as today's build wrote it: record without keyFormat, database labelled format 3.
    const kv = await KvStore.open(dir);
    const key = keys.tableKey('default_keyspace', 'old');
    const record = JSON.parse(bytesToString((await kv.get(key))!)) as Record<string, unknown>;
    delete record.keyFormat;
    await kv.batch([{ type: 'put', key, value: JSON.stringify(record) }, { type: 'put', key: keys.META_FORMAT, value: '3' }]);
    await kv.close();

    db = await Database.open(dir);
    opened.push(db);
    expect(await db.kvStore.getString(keys.META_FORMAT)).toBe(String(keys.FORMAT_VERSION));
    const documents = [3, 1, 6, 2, 5, 4].map((pk) => ({ pk, v: `v${pk}` }));
    await executeCommand(db, { insertMany: { documents } }, { ...KS, collection: 'old' });
    expect(await pks(db, 'old')).toEqual([1, 2, 3, 4, 5, 6]); // key order, as before
    const one = (await executeCommand(db, { findOne: { filter: { pk: 4 } } }, { ...KS, collection: 'old' })) as { data: { document: unknown } };
    expect(one.data.document).toEqual({ pk: 4, v: 'v4' });

    await executeCommand(db, { createTable: { name: 'fresh', definition: { columns: { pk: 'int', v: 'text' }, primaryKey: 'pk' } } }, KS);
    await executeCommand(db, { insertMany: { documents } }, { ...KS, collection: 'fresh' });
    expect(await pks(db, 'fresh')).toEqual([5, 1, 2, 4, 6, 3]); // Murmur3 token order (see murmur3-token.test.ts)
  });
});
