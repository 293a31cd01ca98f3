/**
 * SIGKILL during writes to a table with a text index: a child (test/fixtures/text-crash-writer.mjs, on the built
 * package) inserts, updates and deletes rows one at a time, printing each acknowledged write; we kill it after a
 * number of acknowledgements (never after a delay), reopen and check that every acknowledged write is there,
 * that the text index's postings and BM25 statistics agree exactly with the rows (verify), that the lexical sort
 * ranks from them, and that writing resumes on the reopened table.
 */
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { TEXT_CRASH_TABLE, crashOp } from '../fixtures/text-crash-ops.mjs';
import { tempDir } from '../support/temp.js';
import { buildPackage, finish, startFixture } from './built-package.js';

/** Runs the writer from write `start`, SIGKILLs it after `killAfter` acknowledgements; returns the last write acknowledged. */
async function writeUntilKilled(dir: string, start: number, killAfter: number): Promise<number> {
  const child = startFixture('text-crash-writer.mjs', [dir, String(start)]);
  child.stdin.end();
  const done = finish(child, 120_000);
  let last = start - 1;
  let acked = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('ack ')) continue;
    last = Number(line.slice(4));
    if (++acked === killAfter) child.kill('SIGKILL');
  }
  const result = await done;
  expect(result.signal, `the writer ended by itself (code ${result.code}): ${result.stderr}`).toBe('SIGKILL');
  return last;
}

/** Replays writes [from, to] on the expected rows (id -> body). */
function replay(rows: Map<number, string>, from: number, to: number): void {
  for (let n = from; n <= to; n++) {
    const op = crashOp(n);
    if (op.body === null) rows.delete(op.id);
    else rows.set(op.id, op.body);
  }
}

async function check(dir: string, expected: ReadonlyMap<number, string>, inFlight: number): Promise<void> {
  const db = new VectorDB('t', dir);
  try {
    const stored = new Map<number, string>();
    let pageState: string | null = null;
    do {
      const page = await db.command({ find: { projection: { id: 1, body: 1 }, options: pageState ? { pageState } : {} } }, { collection: TEXT_CRASH_TABLE });
      const data = page.data as { documents: { id: number; body: string }[]; nextPageState: string | null };
      for (const row of data.documents) stored.set(row.id, row.body);
      pageState = data.nextPageState;
    } while (pageState !== null);
    // The write in flight when the child died may have landed or not: its row is either way.
    const unsure = crashOp(inFlight).id;
    for (const [id, body] of expected) if (id !== unsure) expect(stored.get(id), `row ${id}`).toBe(body);
    for (const id of stored.keys()) if (id !== unsure) expect(expected.has(id), `row ${id} was deleted`).toBe(true);
    // Postings and statistics agree with the rows exactly (verify recomputes both from them).
    const report = await db.verify();
    expect(report.problems).toEqual([]);
    expect(report.objects.find((o) => o.name === TEXT_CRASH_TABLE)?.lexicalPostings).toBeGreaterThan(0);
    const sorted = await db.command({ find: { sort: { body: 'kiwi' }, projection: { id: 1, body: 1 }, options: { limit: 5 } } }, { collection: TEXT_CRASH_TABLE });
    const best = (sorted.data as unknown as { documents: { body: string }[] }).documents;
    expect(best.length).toBeGreaterThan(0);
    for (const row of best) expect(row.body.split(' ')).toContain('kiwi');
  } finally {
    await db.close();
  }
}

describe('a table text index survives SIGKILL during row writes', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it('inserts, updates and deletes, killed twice: every acknowledged write there, postings and statistics exact', async () => {
    const dir = tempDir('vectordb-text-crash-');
    const expected = new Map<number, string>();
    const first = await writeUntilKilled(dir, 0, 150);
    replay(expected, 0, first);
    await check(dir, expected, first + 1);
    // The write in flight is settled by the rows as they are: replay it only if it landed.
    const second = await writeUntilKilled(dir, 10_000, 150);
    const db = new VectorDB('t', dir);
    const landed = await db.command({ findOne: { filter: { id: crashOp(first + 1).id } } }, { collection: TEXT_CRASH_TABLE });
    await db.close();
    const inFlight = crashOp(first + 1);
    const row = (landed.data as { document: { body: string } | null }).document;
    if (inFlight.body === null ? row === null : row?.body === inFlight.body) replay(expected, first + 1, first + 1);
    replay(expected, 10_000, second);
    await check(dir, expected, second + 1);
  }, 180_000);
});
