/**
 * db.verify() (engine/integrity/verify.ts): clean on a healthy database, with counts per collection and
 * table; each kind of damage (a body failing its checksum, a missing or orphaned index entry, a missing or
 * orphaned vector record, a table's index entry) is reported with where it is. A lexical collection's postings
 * deleted or added and its statistics skewed on disk are reported, and repair rebuilds them exactly: verify is
 * clean again and a `$lexical` sort finds the right document.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as ClassicLevelModule from 'classic-level';
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { repairDirectory } from '../../src/engine/database-files.js';
import type { JsonObject } from '../../src/query/json.js';
import { keys } from '../../src/storage/index.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const COLL = { ...KS, collection: 'docs' };
const opened: Database[] = [];
afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function seeded(): Promise<Database> {
  const db = await Database.open(tempDir());
  opened.push(db);
  await executeCommand(db, { createCollection: { name: 'docs', options: { vector: { dimension: 3, metric: 'cosine' } } } }, KS);
  const documents = Array.from({ length: 20 }, (_, i) => ({ _id: `d${i}`, tag: `t${i % 4}`, n: i, $vector: [i + 1, 1, 2] }));
  await executeCommand(db, { insertMany: { documents } }, COLL);
  await executeCommand(db, { createTable: { name: 'people', definition: { columns: { id: 'int', age: 'int' }, primaryKey: 'id' } } }, KS);
  await executeCommand(db, { createIndex: { name: 'people_age', definition: { column: 'age' } } }, { ...KS, collection: 'people' });
  await executeCommand(db, { insertMany: { documents: [{ id: 1, age: 30 }, { id: 2, age: 40 }] } }, { ...KS, collection: 'people' });
  return db;
}

async function firstKey(db: Database, prefix: string): Promise<[string, Uint8Array]> {
  for await (const chunk of db.kvStore.rawEntryChunks({ gte: prefix, lt: prefix + keys.HIGH })) return chunk[0]!;
  throw new Error(prefix);
}

describe('verify', () => {
  it('is clean on a healthy database, with counts', async () => {
    const db = await seeded();
    const report = await db.verify();
    expect(report.ok).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.unsealed).toBe(0);
    expect(report.objects).toEqual([
      { kind: 'collection', keyspace: 'default_keyspace', name: 'docs', documents: 20, indexEntries: expect.any(Number), vectors: 20, lexicalPostings: 0, problems: 0 },
      { kind: 'table', keyspace: 'default_keyspace', name: 'people', documents: 2, indexEntries: 2, problems: 0 },
    ]);
  });

  it('reports each kind of damage with where it is', async () => {
    const db = await seeded();
    const kv = db.kvStore;
    // A body that fails its checksum.
    const [bodyKey, body] = await firstKey(db, keys.docKey(1, 'sd1'));
    const changed = Uint8Array.from(body);
    changed[8]! ^= 0x20;
    await kv.rawBatch([{ type: 'put', key: bodyKey, value: changed }]);
    // A missing and an orphaned index entry.
    const [indexKey] = await firstKey(db, keys.indexPathPrefix(1, 'tag'));
    await kv.rawBatch([{ type: 'del', key: indexKey }]);
    await kv.rawBatch([{ type: 'put', key: `${keys.indexPathPrefix(1, 'tag')}3nope${keys.SEP}sd2`, value: '1' }]);
    // A vector record gone.
    const [vectorKey] = await firstKey(db, keys.vectorKeyPrefix(1));
    await kv.rawBatch([{ type: 'del', key: vectorKey }]);
    // A table index entry gone.
    const [rowIndexKey] = await firstKey(db, 'ridx:');
    await kv.rawBatch([{ type: 'del', key: rowIndexKey }]);

    const report = await db.verify();
    expect(report.ok).toBe(false);
    expect(report.problemCounts).toMatchObject({ 'damaged-record': 1, 'index-entry-missing': 2, 'index-entry-orphaned': 1, 'vector-record-missing': 1 });
    const where = (kind: string): string[] => report.problems.filter((p) => p.kind === kind).map((p) => p.where);
    expect(where('damaged-record')).toEqual(['document _id "d1" of collection default_keyspace.docs']);
    expect(where('index-entry-orphaned')).toEqual(['document _id "d2" of collection default_keyspace.docs']);
    expect(where('index-entry-missing')).toContain(`index entry ${JSON.stringify(rowIndexKey)} of table default_keyspace.people`);
    expect(report.objects.find((o) => o.name === 'people')?.problems).toBe(1);
  });

  it('reports lexical postings missing or orphaned and skewed statistics; repair rebuilds them exactly', async () => {
    const dir = path.join(tempDir('vectordb-verify-lexical-'), 'db');
    const WORDS = { ...KS, collection: 'words' };
    let db = await Database.open(dir);
    await executeCommand(db, { createCollection: { name: 'words', options: { lexical: { enabled: true, analyzer: 'standard' } } } }, KS);
    const texts = ['the quick brown fox jumps over the lazy dog', 'quick quick fox', 'lazy dogs sleep all day', 'a fox in the snow', 'brown bread and butter'];
    await executeCommand(db, { insertMany: { documents: [...texts.map((text, i) => ({ _id: `w${i}`, $lexical: text })), { _id: 'plain', n: 1 }] } }, WORDS);
    const clean = await db.verify();
    expect(clean.ok, JSON.stringify(clean.problems)).toBe(true);
    const postings = clean.objects.find((o) => o.name === 'words')!.lexicalPostings!;
    expect(postings).toBeGreaterThan(20);
    const top = async (): Promise<unknown> => {
      const found = (await executeCommand(db, { find: { sort: { $lexical: 'quick fox' }, projection: { _id: 1 }, options: { limit: 1 } } }, WORDS)) as unknown as { data: { documents: JsonObject[] } };
      return found.data.documents[0]?._id;
    };
    expect(await top()).toBe('w1');
    const cid = db.objects().collections.find((c) => c.record.name === 'words')!.record.cid;
    await db.close();

    // On disk, with classic-level: w1's postings of "quick" and "fox" gone, a bogus posting, a bogus statistics delta.
    const { ClassicLevel } = createRequire(import.meta.url)('classic-level') as typeof ClassicLevelModule;
    const level = new ClassicLevel<string, string>(dir, { createIfMissing: false });
    const lex = keys.lexicalPrefix(cid);
    const SEP = keys.SEP;
    await level.batch([
      { type: 'del', key: `${lex}p${SEP}quick${SEP}sw1` },
      { type: 'del', key: `${lex}p${SEP}fox${SEP}sw1` },
      { type: 'put', key: `${lex}p${SEP}zebra${SEP}sw2`, value: '1 5' },
      { type: 'put', key: `${lex}d${SEP}zzzzzzzz`, value: '3 40' },
    ]);
    await level.close();

    db = await Database.open(dir);
    opened.push(db);
    const damaged = await db.verify();
    expect(damaged.ok).toBe(false);
    expect(damaged.problemCounts).toEqual({ 'lexical-posting-missing': 2, 'lexical-posting-orphaned': 1, 'lexical-stats-mismatch': 1 });
    const where = (kind: string): string[] => damaged.problems.filter((p) => p.kind === kind).map((p) => p.where);
    expect(where('lexical-posting-missing')).toEqual(['document _id "w1" of collection default_keyspace.words', 'document _id "w1" of collection default_keyspace.words']);
    expect(where('lexical-posting-orphaned')).toEqual(['document _id "w2" of collection default_keyspace.words']);
    expect(where('lexical-stats-mismatch')).toEqual([`lexical index record ${JSON.stringify(lex)} of collection default_keyspace.words`]);
    expect(await top()).not.toBe('w1');
    await db.close();

    const report = await repairDirectory(dir, { backup: false });
    expect(report.verify.ok, JSON.stringify(report.verify.problems)).toBe(true);
    expect(report.objects.find((o) => o.name === 'words')).toMatchObject({ kept: 6, lost: 0, lexicalPostingsRebuilt: postings });
    db = await Database.open(dir);
    opened.push(db);
    const repaired = await db.verify();
    expect(repaired.ok, JSON.stringify(repaired.problems)).toBe(true);
    expect(repaired.objects.find((o) => o.name === 'words')?.lexicalPostings).toBe(postings);
    expect(await top()).toBe('w1');
  });
});
