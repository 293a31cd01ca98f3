/**
 * SQLite's I/O-error technique on our stack: the N-th write (or read) of a database file fails with EIO (lazy-disk.c),
 * for every N up to a bound, under a mixed workload in a child process (test/fixtures/eio-workload.mjs). After each
 * run the child must have ended by itself (no crash, no hang), and the reopened database must hold every
 * acknowledged change and, for a failed one, either the state before it or after it: nothing half-written. Reads
 * that fail are an error or the right answer, never a wrong one. The long sweep runs under `npm run test:long`.
 */
import { ClassicLevel } from 'classic-level';
import { beforeAll, describe, expect, it } from 'vitest';
import { VectorDB, type JsonObject } from '../../src/index.js';
import { tempDir } from '../support/temp.js';
import { buildPackage, finish, lastJsonLine } from '../durability/built-package.js';
import { canBuildShim, startUnderShim } from './lazy-disk.js';

const LONG = process.env['VECTORDB_LONG_TESTS'] === '1';
const WRITE_FAULTS = LONG ? Array.from({ length: 200 }, (_, i) => i + 1) : [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24, 40, 70, 120];
const READ_FAULTS = LONG ? Array.from({ length: 40 }, (_, i) => i + 1) : [1, 2, 3, 5, 8];

/** What a document may be after the run: absent, or present with this `v`. */
type State = 'absent' | 0 | 1;
const vectorOf = (i: number, v: number): number[] => [1 + (i % 7), 2 + v, 3 + (i % 3), 4];
const textOf = (i: number): string => `document ${i} `.repeat(8);

interface Op {
  readonly op: 'create' | 'insert' | 'update' | 'delete';
  readonly ids?: number[];
  readonly id?: number;
}

/** Replays the child's lines into the states each document may be in. */
function allowedStates(lines: readonly string[]): Map<number, Set<State>> {
  const states = new Map<number, Set<State>>();
  // An update of an absent document changes nothing; an acknowledged change is certain, a failed one may or may not be there.
  const set = (id: number, next: State, acked: boolean, onlyIfPresent = false): void => {
    const before = states.get(id) ?? new Set<State>(['absent']);
    const after = [...before].map((state) => (onlyIfPresent && state === 'absent' ? 'absent' : next));
    states.set(id, new Set(acked ? after : [...before, ...after]));
  };
  for (const line of lines) {
    const acked = line.startsWith('ack ');
    if (!acked && !line.startsWith('err ')) continue;
    const json = acked ? line.slice(4) : line.split(' ').slice(2).join(' ').replace(/^(\{.*?\})( .*)?$/, '$1');
    if (!json.startsWith('{')) continue;
    const op = JSON.parse(json) as Op;
    if (op.op === 'insert') for (const id of op.ids ?? []) set(id, 0, acked);
    if (op.op === 'update') set(op.id!, 1, acked, true);
    if (op.op === 'delete') set(op.id!, 'absent', acked);
  }
  return states;
}

/**
 * The documents after the fault, from a fresh open. An EIO inside a MANIFEST append (a compaction's) leaves a
 * MANIFEST that ends inside a record, which the open refuses as DATABASE_CORRUPTED rather than let LevelDB guess;
 * then the remedy the error names, LevelDB's repair, runs first, and what it recovers is checked like the rest.
 */
async function documentsAfter(dir: string): Promise<Map<number, JsonObject> | undefined> {
  try {
    return await readDocuments(dir);
  } catch (error) {
    if ((error as { errorCode?: string }).errorCode !== 'DATABASE_CORRUPTED') throw error;
    expect((error as Error).message).toMatch(/MANIFEST-\d+ is not whole/);
    await ClassicLevel.repair(dir);
    return readDocuments(dir);
  }
}

async function readDocuments(dir: string): Promise<Map<number, JsonObject> | undefined> {
  const db = new VectorDB('token', dir);
  try {
    const listed = (await db.command({ findCollections: {} }, { keyspace: 'default_keyspace' })).status as { collections: string[] };
    if (!listed.collections.includes('docs')) return undefined;
    const found = new Map<number, JsonObject>();
    let pageState: string | null = null;
    do {
      const response = await db.command({ find: { projection: { '*': 1 }, options: pageState === null ? {} : { pageState } } } as JsonObject, { collection: 'docs' });
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      const data = response.data as { documents: JsonObject[]; nextPageState: string | null };
      for (const doc of data.documents) found.set(Number(String(doc['_id']).slice(1)), doc);
      pageState = data.nextPageState;
    } while (pageState !== null);
    return found;
  } finally {
    await db.close();
  }
}

async function runWorkload(dir: string, faults: { failWrite?: number; failRead?: number }): Promise<string[]> {
  const { child } = startUnderShim('eio-workload.mjs', [dir], dir, faults);
  child.stdin.end();
  const result = await finish(child, 60_000);
  expect(result.hung, 'the workload hung').toBe(false);
  expect(result.signal, result.stderr).toBeNull();
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines.at(-1)).toBe('done');
  return lines;
}

describe.skipIf(!canBuildShim())('I/O errors (EIO on the N-th write or read)', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it.each(WRITE_FAULTS)('write %i fails: no crash, nothing acknowledged lost, nothing half-written', async (n) => {
    const dir = tempDir('eio-write-');
    const lines = await runWorkload(dir, { failWrite: n });
    const created = lines.some((l) => l.startsWith('ack {"op":"create"'));
    const found = await documentsAfter(dir);
    if (found === undefined) {
      expect(created, 'an acknowledged createCollection was lost').toBe(false);
      return;
    }
    for (const [id, allowed] of allowedStates(lines)) {
      const doc = found.get(id);
      const state: State = doc === undefined ? 'absent' : (doc['v'] as 0 | 1);
      expect([...allowed], `document d${id} is ${String(state)}`).toContain(state);
      if (doc !== undefined) {
        expect(doc['text']).toBe(textOf(id));
        expect(doc['$vector']).toEqual(vectorOf(id, doc['v'] as number));
      }
      found.delete(id);
    }
    expect([...found.keys()], 'documents no operation wrote').toEqual([]);
  }, 120_000);

  it.each(READ_FAULTS)('read %i fails: the answer is an error or the right documents', async (n) => {
    const dir = tempDir('eio-read-');
    const lines = await runWorkload(dir, {});
    const want = allowedStates(lines);
    const { child } = startUnderShim('open-database.mjs', [dir, 'dump', 'docs'], dir, { failRead: n });
    child.stdin.end();
    const result = await finish(child, 60_000);
    expect(result.hung, 'the read hung').toBe(false);
    const outcome = lastJsonLine(result.stdout);
    if (outcome['ok'] !== true) {
      expect(String(outcome['message'] ?? outcome['errorCode'])).toMatch(/[A-Z_]{6,}/);
      return;
    }
    const documents = outcome['documents'] as JsonObject[];
    const present = new Map(documents.map((doc) => [Number(String(doc['_id']).slice(1)), doc]));
    for (const [id, allowed] of want) {
      const doc = present.get(id);
      expect([...allowed]).toContain(doc === undefined ? 'absent' : doc['v']);
      if (doc !== undefined) expect(doc['$vector']).toEqual(vectorOf(id, doc['v'] as number));
    }
  }, 120_000);
});
