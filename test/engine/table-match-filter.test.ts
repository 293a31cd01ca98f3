/**
 * A table's `$match` filter without a lexical sort (tables/plan.ts): its candidates are the rows in the index
 * entries of every query token (the keys' entries intersected, smallest first), not the first token's alone.
 * On random rows with skewed word frequencies, for random queries of one to three words: the plan's candidates
 * are exactly the rows holding every token, and the find (paged, and with another clause) returns the rows, in
 * the order, that a scan of the whole table filtered by the analyzer gives. The candidates come from the text
 * index's postings (engine/lexical-candidates.ts, as a collection's $match): never from its index entries, from
 * memory once hot (no LevelDB read), dropped by a write that touches their terms (an insert, an update of the
 * column, a delete), and counted in stats' cachedBytes.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { parseTableFilter } from '../../src/engine/tables/filter.js';
import { planRows } from '../../src/engine/tables/plan.js';
import { DEFAULT_ANALYZER, queryTerms, tokenize } from '../../src/query/analyzers.js';
import type { JsonObject } from '../../src/query/json.js';
import { keys } from '../../src/storage/index.js';
import { rng } from '../support/random.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const T = { ...KS, collection: 't' };
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape', 'honey', 'ice', 'jam', 'kiwi', 'lime'];

type Row = JsonObject & { part: string; id: number; n: number; body?: string };

async function run(db: Database, command: JsonObject, target: JsonObject = T): Promise<JsonObject> {
  const r = await executeCommand(db, command, target);
  expect(r.errors, JSON.stringify(command).slice(0, 200)).toBeUndefined();
  return r as unknown as JsonObject;
}

/** Every row a find of table t returns, page after page. */
async function allRows(db: Database, find: JsonObject = {}): Promise<Row[]> {
  const rows: Row[] = [];
  let pageState: string | null = null;
  do {
    const r = await run(db, { find: { ...find, options: pageState ? { pageState } : {} } });
    const data = r.data as { documents: Row[]; nextPageState: string | null };
    rows.push(...data.documents);
    pageState = data.nextPageState;
  } while (pageState);
  return rows;
}

/** Every row a find returns, page after page, as `part/id`. */
async function findAll(db: Database, filter: JsonObject): Promise<string[]> {
  return (await allRows(db, { filter, projection: { part: 1, id: 1 } })).map((row) => `${row.part}/${row.id}`);
}

describe("a table's $match filter without a sort", () => {
  let db: Database;
  /** Every row, in the table's own order (a find without a filter: a scan). */
  let scanned: Row[];
  const random = rng(32);
  const queries = Array.from({ length: 40 }, () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => WORDS[Math.floor(WORDS.length * random() ** 1.5)]).join(' '));
  const holdsAll = (row: Row, query: string) => {
    const tokens = new Set(typeof row.body === 'string' ? tokenize(row.body, DEFAULT_ANALYZER) : []);
    return queryTerms(query, DEFAULT_ANALYZER).every((term) => tokens.has(term));
  };

  beforeAll(async () => {
    db = await Database.open(path.join(tempDir('vectordb-table-match-'), 'db'), { limits: { maxInsertManyDocuments: 100 } });
    await run(db, { createTable: { name: 't', definition: { columns: { part: 'text', id: 'int', body: 'text', n: 'int' }, primaryKey: { partitionBy: ['part'], partitionSort: { id: 1 } } } } }, KS);
    await run(db, { createTextIndex: { name: 'body_text', definition: { column: 'body' } } });
    // Skewed word frequencies: the first words common, the last rare, so the tokens' entries differ in size.
    const text = () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => WORDS[Math.floor(WORDS.length * random() ** 2)]).join(' ');
    for (let i = 0; i < 400; i += 100) {
      await run(db, { insertMany: { documents: Array.from({ length: 100 }, (_, j) => ({ part: `p${(i + j) % 5}`, id: i + j, n: Math.floor(random() * 10), ...(random() < 0.9 ? { body: text() } : {}) })) } });
    }
    for (let i = 0; i < 400; i += 9) await run(db, { updateOne: { filter: { part: `p${i % 5}`, id: i }, update: { $set: { body: text() } } } });
    for (let i = 3; i < 400; i += 17) await run(db, { deleteOne: { filter: { part: `p${i % 5}`, id: i } } });
    scanned = await allRows(db);
  });

  afterAll(async () => {
    await db?.close();
  });

  it("the plan's candidates are exactly the rows holding every token", async () => {
    const table = db.table('default_keyspace', 't');
    let narrowed = 0;
    for (const query of queries) {
      const filter = parseTableFilter({ body: { $match: query } }, table.record, table.types);
      const plan = planRows(filter, table.record, table.store, (index) => table.store.text.ready(index));
      expect(plan.kind).toBe('index');
      const candidates: string[] = [];
      for await (const { row } of plan.rows()) candidates.push(`${row.part}/${row.id}`);
      const expected = scanned.filter((row) => holdsAll(row, query)).map((row) => `${row.part}/${row.id}`);
      expect(candidates.sort(), query).toEqual(expected.sort());
      const first = queryTerms(query, DEFAULT_ANALYZER)[0]!;
      if (scanned.filter((row) => holdsAll(row, first)).length > expected.length) narrowed++;
    }
    expect(narrowed).toBeGreaterThan(10); // queries where the first token alone would have read more rows
  });

  it('find returns what a scan filtered by the analyzer gives, in order, paged and with another clause', async () => {
    for (const query of queries) {
      const expected = scanned.filter((row) => holdsAll(row, query)).map((row) => `${row.part}/${row.id}`);
      expect(await findAll(db, { body: { $match: query } }), query).toEqual(expected);
      const withN = scanned.filter((row) => holdsAll(row, query) && row.n < 5).map((row) => `${row.part}/${row.id}`);
      expect(await findAll(db, { body: { $match: query }, n: { $lt: 5 } }), query).toEqual(withN);
    }
  });
});

describe("a table's $match candidates from the text index's postings", () => {
  let db: Database;
  const rows = Array.from({ length: 30 }, (_, id) => ({ part: `p${id % 3}`, id, n: id % 4, body: [WORDS[id % 5], WORDS[(id * 7) % 11], WORDS[id % 2 === 0 ? 5 : 7]].join(' ') }));

  beforeAll(async () => {
    db = await Database.open(path.join(tempDir('vectordb-table-match-hot-'), 'db'), { bodyCacheBytes: 0, limits: { maxInsertManyDocuments: 100 } }); // no row cache: cachedBytes is the postings alone
    await run(db, { createTable: { name: 't', definition: { columns: { part: 'text', id: 'int', body: 'text', n: 'int' }, primaryKey: { partitionBy: ['part'], partitionSort: { id: 1 } } } } }, KS);
    await run(db, { insertMany: { documents: rows } });
    await run(db, { createTextIndex: { name: 'body_text', definition: { column: 'body' } } });
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await db?.close();
  });

  /** The rows a scan finds holding every word, as `part/id`, in the table's order. */
  async function truth(query: string): Promise<string[]> {
    const all = await allRows(db);
    const terms = queryTerms(query, DEFAULT_ANALYZER);
    return all.filter((row) => typeof row.body === 'string' && terms.every((t) => tokenize(row.body!, DEFAULT_ANALYZER).includes(t))).map((row) => `${row.part}/${row.id}`);
  }

  it('reads hot terms from memory, a write drops the terms it touches, stats count them', async () => {
    const tid = db.table('default_keyspace', 't').record.tid;
    const postingReads = vi.spyOn(db.kvStore, 'textEntryChunks');
    const entryReads = vi.spyOn(db.kvStore, 'entries');
    const postingPrefix = keys.tableLexicalPrefix(tid, 'body_text');
    /** The terms whose postings were read from LevelDB since the last call. */
    const termsRead = (): string[] => {
      const terms = postingReads.mock.calls.map(([range]) => String(range.gte)).filter((gte) => gte.startsWith(postingPrefix)).map((gte) => gte.slice(postingPrefix.length).split('\u0000')[1]!);
      postingReads.mockClear();
      return terms.sort();
    };
    const indexEntriesRead = () => entryReads.mock.calls.filter(([range]) => String(range.gte).startsWith(keys.rowIndexPrefix(tid, 'body_text'))).length;
    const filter = { body: { $match: 'fig honey' } };
    const expected = await truth('fig honey');
    expect(expected.length).toBeGreaterThan(2);
    expect(await findAll(db, filter)).toEqual(expected);
    expect(termsRead()).toEqual(['fig', 'honey']); // read once, then cached
    expect(await findAll(db, filter)).toEqual(expected);
    expect(await findAll(db, { ...filter, n: { $lt: 2 } })).toEqual(expected.filter((key) => Number(key.split('/')[1]) % 4 < 2));
    expect(termsRead()).toEqual([]); // from memory

    // An insert holding both words, an update of the column losing 'fig', a delete of a row with 'honey'.
    const [loser, victim] = [expected[0]!, expected[1]!].map((key) => ({ part: key.split('/')[0]!, id: Number(key.split('/')[1]) }));
    await run(db, { insertOne: { document: { part: 'p9', id: 100, n: 0, body: 'honey and fig' } } });
    expect(await findAll(db, filter)).toEqual(await truth('fig honey'));
    expect(termsRead()).toEqual(['fig', 'honey']);
    await run(db, { updateOne: { filter: loser, update: { $set: { body: 'honey only' } } } });
    expect(await findAll(db, filter)).toEqual(await truth('fig honey'));
    expect(termsRead()).toEqual(['fig', 'honey']);
    await run(db, { deleteOne: { filter: victim } });
    const after = await truth('fig honey');
    expect(after).toContain('p9/100');
    expect(after).not.toContain(`${loser.part}/${loser.id}`);
    expect(after).not.toContain(`${victim.part}/${victim.id}`);
    expect(await findAll(db, filter)).toEqual(after);
    expect(termsRead()).toEqual(['fig', 'honey']);
    // A write to another column, or of words neither has, leaves them in memory.
    await run(db, { updateOne: { filter: { part: 'p9', id: 100 }, update: { $set: { n: 3 } } } });
    await run(db, { insertOne: { document: { part: 'p9', id: 101, body: 'kiwi lime' } } });
    expect(await findAll(db, filter)).toEqual(after);
    expect(termsRead()).toEqual([]);
    expect(indexEntriesRead()).toBe(0); // the text index's entries are never read for candidates
  });

  it("stats' cachedBytes count the postings held (12 bytes each); a write touching the term drops them", async () => {
    const U = { ...KS, collection: 'u' };
    await run(db, { createTable: { name: 'u', definition: { columns: { id: 'int', body: 'text' }, primaryKey: 'id' } } }, KS);
    await run(db, { insertMany: { documents: Array.from({ length: 12 }, (_, id) => ({ id, body: id % 3 === 0 ? 'apple pie' : 'banana bread' })) } }, U);
    await run(db, { createTextIndex: { name: 'u_text', definition: { column: 'body' } } }, U);
    const before = db.cachedBytes; // table t's hot terms
    const found = (await run(db, { find: { filter: { body: { $match: 'apple' } } } }, U)).data as { documents: JsonObject[] };
    expect(found.documents.map((row) => row.id as number).sort((a, b) => a - b)).toEqual([0, 3, 6, 9]);
    expect(db.cachedBytes - before).toBe(4 * 12); // one term, read in key order: 12 bytes a posting
    expect((await db.stats()).cachedBytes).toBe(db.cachedBytes);
    await run(db, { insertOne: { document: { id: 100, body: 'apple tart' } } }, U);
    expect(db.cachedBytes).toBe(before);
  });

  it("the engine's deleteRows by $match loads the text index under the write mutex it holds (after a reopen)", async () => {
    const dir = path.join(tempDir('vectordb-table-match-reopen-'), 'db');
    let reopened = await Database.open(dir);
    await run(reopened, { createTable: { name: 't', definition: { columns: { id: 'int', body: 'text' }, primaryKey: 'id' } } }, KS);
    await run(reopened, { insertMany: { documents: Array.from({ length: 10 }, (_, id) => ({ id, body: id % 2 === 0 ? 'fig jam' : 'lime' })) } });
    await run(reopened, { createTextIndex: { name: 'body_text', definition: { column: 'body' } } });
    await reopened.close();
    reopened = await Database.open(dir);
    try {
      // (The Data API's deleteMany takes primary key filters only; the engine's deleteRows takes any.)
      const table = reopened.table('default_keyspace', 't');
      await table.deleteRows(parseTableFilter({ body: { $match: 'jam' } }, table.record, table.types));
      const left = (await run(reopened, { find: {} })).data as { documents: JsonObject[] };
      expect(left.documents.map((row) => row.id).sort()).toEqual([1, 3, 5, 7, 9]);
    } finally {
      await reopened.close();
    }
  });
});
