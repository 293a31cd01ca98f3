/**
 * A table's `$match` filter without a lexical sort (tables/plan.ts): its candidates are the rows in the index
 * entries of every query token (the keys' entries intersected, smallest first), not the first token's alone.
 * On random rows with skewed word frequencies, for random queries of one to three words: the plan's candidates
 * are exactly the rows holding every token, and the find (paged, and with another clause) returns the rows, in
 * the order, that a scan of the whole table filtered by the analyzer gives.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { parseTableFilter } from '../../src/engine/tables/filter.js';
import { planRows } from '../../src/engine/tables/plan.js';
import { DEFAULT_ANALYZER, queryTerms, tokenize } from '../../src/query/analyzers.js';
import type { JsonObject } from '../../src/query/json.js';
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

/** Every row a find returns, page after page, as `part/id`. */
async function findAll(db: Database, filter: JsonObject): Promise<string[]> {
  const ids: string[] = [];
  let pageState: string | null = null;
  do {
    const r = await run(db, { find: { filter, projection: { part: 1, id: 1 }, options: pageState ? { pageState } : {} } });
    const data = r.data as { documents: Row[]; nextPageState: string | null };
    ids.push(...data.documents.map((row) => `${row.part}/${row.id}`));
    pageState = data.nextPageState;
  } while (pageState);
  return ids;
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
    scanned = [];
    let pageState: string | null = null;
    do {
      const r = await run(db, { find: { options: pageState ? { pageState } : {} } });
      const data = r.data as { documents: Row[]; nextPageState: string | null };
      scanned.push(...data.documents);
      pageState = data.nextPageState;
    } while (pageState);
  });

  afterAll(async () => {
    await db?.close();
  });

  it("the plan's candidates are exactly the rows holding every token", async () => {
    const table = db.table('default_keyspace', 't');
    let narrowed = 0;
    for (const query of queries) {
      const filter = parseTableFilter({ body: { $match: query } }, table.record, table.types);
      const plan = planRows(filter, table.record, table.store);
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
