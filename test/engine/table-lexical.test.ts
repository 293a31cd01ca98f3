/**
 * A table's lexical sort from its text index's postings and exact BM25 statistics (tables/text-postings.ts):
 * on random rows changed by upserts, updates, unsets and deletes, it returns the rows, in the order, that the
 * former full-scan computation gives (statistics from every row, each candidate tokenized), with and without a
 * filter, and after a reopen; the stored statistics are exact; it reads no scan; an index written before the
 * statistics were kept gets them on first use; dropIndex, dropTable and truncation leave none behind; verify
 * and repair know them.
 */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { repairDirectory } from '../../src/engine/database-files.js';
import { TableStore } from '../../src/engine/tables/store.js';
import { rankTerms } from '../../src/engine/lexical-ranking.js';
import { DEFAULT_ANALYZER, queryTerms, tokenize } from '../../src/query/analyzers.js';
import { bm25Score, termFrequencies } from '../../src/query/bm25.js';
import type { JsonObject } from '../../src/query/json.js';
import { keys } from '../../src/storage/index.js';
import { rng } from '../support/random.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const T = { ...KS, collection: 't' };
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape', 'honey', 'ice', 'jam'];
const QUERIES = ['apple', 'banana cherry', 'fig grape honey', 'JAM', 'ice apple', 'nowhere apple'];

type Row = JsonObject & { part: string; id: number };

async function run(db: Database, command: JsonObject, target: JsonObject = T): Promise<JsonObject> {
  const r = await executeCommand(db, command, target);
  expect(r.errors, JSON.stringify(command).slice(0, 200)).toBeUndefined();
  return r as unknown as JsonObject;
}

async function open(dir: string): Promise<Database> {
  return Database.open(dir, { limits: { maxInsertManyDocuments: 100 } });
}

/** The rows as stored, in row key order. */
async function storedRows(db: Database): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const { row } of db.table('default_keyspace', 't').store.scan()) rows.push(row as Row);
  return rows;
}

/** The former computation: statistics from every row, the candidates tokenized, best first (ties in row key order). */
function fullScan(rows: readonly Row[], query: string, keep: (row: Row) => boolean, limit: number): string[] {
  return scoredByFullScan(rows, query, keep, limit).map((t) => t.id);
}

function scoredByFullScan(rows: readonly Row[], query: string, keep: (row: Row) => boolean, limit: number): { id: string; score: number }[] {
  const terms = queryTerms(query, DEFAULT_ANALYZER);
  const texts = rows.filter((row) => typeof row.body === 'string').map((row) => ({ row, tokens: tokenize(row.body as string, DEFAULT_ANALYZER) }));
  const total = texts.reduce((sum, t) => sum + t.tokens.length, 0);
  const documentsWith = new Map(terms.map((term) => [term, texts.filter((t) => t.tokens.includes(term)).length]));
  const stats = { documents: texts.length, meanLength: total / Math.max(texts.length, 1), documentsWith };
  return texts
    .filter((t) => terms.length > 0 && terms.every((term) => t.tokens.includes(term)) && keep(t.row))
    .map((t) => ({ id: `${t.row.part}/${t.row.id}`, score: bm25Score(termFrequencies(t.tokens), t.tokens.length, terms, stats) }))
    .sort((a, b) => b.score - a.score) // stable: ties stay in row key order
    .slice(0, limit);
}

async function lexicalSort(db: Database, query: string, filter: JsonObject = {}, limit = 40): Promise<string[]> {
  const r = await run(db, { find: { filter, sort: { body: query }, projection: { part: 1, id: 1 }, options: { limit } } });
  return ((r.data as JsonObject).documents as Row[]).map((row) => `${row.part}/${row.id}`);
}

/** The statistics of the body index as stored, and as the rows give them. */
async function statistics(db: Database): Promise<{ stored: { documents: number; length: number }; rows: { documents: number; length: number } }> {
  const table = db.table('default_keyspace', 't');
  const index = table.record.indexes.find((i) => i.name === 'body_text')!;
  const snapshot = db.kvStore.snapshot();
  try {
    const { documents, length } = await table.store.text.of(index).store.storedTotals(snapshot);
    const texts = (await storedRows(db)).filter((row) => typeof row.body === 'string').map((row) => tokenize(row.body as string, DEFAULT_ANALYZER).length);
    return { stored: { documents, length }, rows: { documents: texts.length, length: texts.reduce((a, b) => a + b, 0) } };
  } finally {
    await snapshot.close();
  }
}

async function expectSameAsFullScan(db: Database): Promise<void> {
  const rows = await storedRows(db);
  const filters: [JsonObject, (row: Row) => boolean][] = [
    [{}, () => true],
    [{ part: 'p1' }, (row) => row.part === 'p1'], // a partition's rows, ranked
    [{ part: 'p2', id: 7 }, (row) => row.part === 'p2' && row.id === 7], // one row
    [{ n: { $gt: 50 } }, (row) => (row.n as number) > 50], // rows read in rank order until enough pass
  ];
  for (const query of QUERIES) {
    for (const [filter, keep] of filters) {
      for (const limit of [3, 40]) expect(await lexicalSort(db, query, filter, limit), `${query} ${JSON.stringify(filter)} ${limit}`).toEqual(fullScan(rows, query, keep, limit));
    }
  }
  const { stored, rows: given } = await statistics(db);
  expect(stored).toEqual(given);
  // The scores themselves, from the index's postings and statistics.
  const table = db.table('default_keyspace', 't');
  const text = await table.store.text.ready(table.record.indexes.find((i) => i.name === 'body_text')!);
  const idOf = new Map(rows.map((row) => [table.store.rowKeyOf(row), `${row.part}/${row.id}`]));
  for (const query of QUERIES) {
    const terms = queryTerms(query, DEFAULT_ANALYZER);
    const { ranking } = await rankTerms(text.store, terms);
    const ranked = ranking.next(Infinity).map((hit) => ({ key: ranking.table.keyOf(hit.ordinal), score: hit.score }));
    const expected = scoredByFullScan(rows, query, () => true, rows.length);
    expect(ranked.map((hit) => idOf.get(hit.key)), query).toEqual(expected.map((t) => t.id));
    ranked.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 12));
  }
}

/** Random rows and random changes to them. */
async function fill(db: Database, seed: number): Promise<void> {
  const random = rng(seed);
  // Skewed word frequencies (the first words common, the last rare), so that idf tells the terms apart.
  const text = () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => WORDS[Math.floor(WORDS.length * random() ** 2)]).join(' ');
  const rowOf = (i: number): JsonObject => ({ part: `p${i % 4}`, id: i, n: Math.floor(random() * 100), ...(random() < 0.9 ? { body: text() } : {}) });
  await run(db, { createTable: { name: 't', definition: { columns: { part: 'text', id: 'int', body: 'text', n: 'int' }, primaryKey: { partitionBy: ['part'], partitionSort: { id: 1 } } } } }, KS);
  // Some rows before the index (createTextIndex files them), the rest after.
  await run(db, { insertMany: { documents: Array.from({ length: 60 }, (_, i) => rowOf(i)) } });
  await run(db, { createTextIndex: { name: 'body_text', definition: { column: 'body' } } });
  for (let i = 60; i < 300; i += 60) await run(db, { insertMany: { documents: Array.from({ length: 60 }, (_, j) => rowOf(i + j)) } });
  for (let i = 0; i < 300; i += 7) await run(db, { updateOne: { filter: { part: `p${i % 4}`, id: i }, update: { $set: { body: text() } } } });
  for (let i = 2; i < 300; i += 13) await run(db, { updateOne: { filter: { part: `p${i % 4}`, id: i }, update: { $unset: { body: '' } } } });
  for (let i = 5; i < 300; i += 11) await run(db, { deleteOne: { filter: { part: `p${i % 4}`, id: i } } });
  await run(db, { insertMany: { documents: Array.from({ length: 40 }, (_, i) => rowOf(i * 3)) } }); // upserts: new texts for old rows
  await run(db, { deleteMany: { filter: { part: 'p3', id: { $gt: 250 } } } });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the lexical sort of a table', () => {
  it('ranks as the full-scan computation did, with exact statistics, after changes and after a reopen', async () => {
    const dir = path.join(tempDir('vectordb-table-lexical-'), 'db');
    {
      const db = await open(dir);
      await fill(db, 29);
      expect(fullScan(await storedRows(db), 'apple', () => true, 40).length).toBeGreaterThan(20);
      await expectSameAsFullScan(db);
      await db.close();
    }
    const db = await open(dir);
    await expectSameAsFullScan(db);
    // A lexical sort reads the terms' postings and the rows it returns: no scan.
    const scan = vi.spyOn(TableStore.prototype, 'scan');
    const getMany = vi.spyOn(TableStore.prototype, 'getMany');
    expect(await lexicalSort(db, 'apple', {}, 5)).toHaveLength(5);
    expect(scan).not.toHaveBeenCalled();
    expect(getMany.mock.calls.flat(1).reduce((sum, keys) => sum + (keys as string[]).length, 0)).toBeLessThanOrEqual(16);
    expect((await db.verify()).ok).toBe(true);
    await db.close();
  });

  it('builds the statistics of an index written before they were kept on first use, and stores them', async () => {
    const dir = path.join(tempDir('vectordb-table-lexical-'), 'db');
    {
      const db = await open(dir);
      await fill(db, 30);
      // What a former build left: the text index's entries, no postings and no statistics.
      await db.kvStore.clearRange('tlex:', `tlex:${keys.HIGH}`);
      await db.close();
    }
    const db = await open(dir);
    expect((await db.verify()).ok).toBe(true); // nothing to compare before the first use
    await expectSameAsFullScan(db);
    expect(await db.kvStore.countKeys('tlex:', `tlex:${keys.HIGH}`)).toBeGreaterThan(100);
    const report = await db.verify();
    expect(report.ok).toBe(true);
    expect(report.objects.find((o) => o.name === 't')?.lexicalPostings).toBeGreaterThan(100);
    await db.close();
  });

  it('a write to an index without statistics builds them first; truncation, dropIndex and dropTable leave none', async () => {
    const dir = path.join(tempDir('vectordb-table-lexical-'), 'db');
    const db = await open(dir);
    await fill(db, 31);
    await db.close();
    const reopened = await open(dir);
    await reopened.kvStore.clearRange('tlex:', `tlex:${keys.HIGH}`);
    await run(reopened, { insertOne: { document: { part: 'p0', id: 1000, body: 'apple apple banana' } } });
    await expectSameAsFullScan(reopened);
    await run(reopened, { deleteMany: { filter: {} } });
    expect(await lexicalSort(reopened, 'apple')).toEqual([]);
    await run(reopened, { insertOne: { document: { part: 'p0', id: 1, body: 'apple cherry' } } });
    await expectSameAsFullScan(reopened);
    const count = () => reopened.kvStore.countKeys('tlex:', `tlex:${keys.HIGH}`);
    expect(await count()).toBeGreaterThan(0);
    await run(reopened, { dropIndex: { name: 'body_text' } }, KS);
    expect(await count()).toBe(0);
    await run(reopened, { createTextIndex: { name: 'body_text', definition: { column: 'body' } } });
    await expectSameAsFullScan(reopened);
    await run(reopened, { dropTable: { name: 't' } }, KS);
    expect(await count()).toBe(0);
    await reopened.close();
  });

  it('verify reports skewed table statistics and a missing posting; repair rebuilds them', async () => {
    const dir = path.join(tempDir('vectordb-table-lexical-'), 'db');
    const db = await open(dir);
    await fill(db, 32);
    await lexicalSort(db, 'apple');
    const table = db.table('default_keyspace', 't');
    const prefix = keys.tableLexicalPrefix(table.record.tid, 'body_text');
    let posting: string | undefined;
    for await (const key of db.kvStore.keys({ gte: `${prefix}p`, lt: `${prefix}p${keys.HIGH}` })) {
      posting = key;
      break;
    }
    await db.kvStore.batch([
      { type: 'del', key: posting! },
      { type: 'put', key: `${prefix}d${keys.SEP}zzzzzzzz`, value: '1 7' },
    ]);
    const report = await db.verify();
    expect(report.problemCounts).toEqual({ 'lexical-posting-missing': 1, 'lexical-stats-mismatch': 1 });
    expect(report.problems.map((p) => p.where).join('\n')).toMatch(/table default_keyspace\.t/);
    await db.close();
    const repaired = await repairDirectory(dir, { backup: false });
    expect(repaired.verify.ok).toBe(true);
    // The postings verify read, and the one deleted back.
    expect(repaired.objects.find((o) => o.name === 't')?.lexicalPostingsRebuilt).toBe(report.objects.find((o) => o.name === 't')!.lexicalPostings! + 1);
    const again = await open(dir);
    await expectSameAsFullScan(again);
    await again.close();
  });
});
