/**
 * Runs the conformance tables (cases-*.ts) end to end through `db.command`, once per DbFactory (embedded, and
 * HTTP when test/support/http-factory.ts provides it). Read-only cases share one seeded collection per fixture;
 * write cases get a private collection, dropped afterwards. Assertions are exact: ids, documents with key order,
 * status objects, error codes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandResponse, JsonObject, JsonValue, Limits, VectorDB } from '../../src/index.js';
import { embeddedFactory, type DbFactory, type TestDatabase } from '../support/factory.js';
import { httpFactory } from '../support/http-factory.js';
import { filterCases } from './cases-filter.js';
import { pagingCases } from './cases-paging.js';
import { projectionCases } from './cases-projection.js';
import { sortCases } from './cases-sort.js';
import { updateCases } from './cases-update.js';
import { FIXTURES, type Fixture } from './fixtures.js';
import { PAGE_STATE, type ConformanceCase, type Expect, type Expected, type Step } from './types.js';

const TABLES: Record<string, ConformanceCase[]> = {
  filter: filterCases,
  projection: projectionCases,
  sort: sortCases,
  update: updateCases,
  paging: pagingCases,
};

const FACTORIES: DbFactory[] = [embeddedFactory, httpFactory];

const WRITE_COMMANDS = new Set([
  'insertOne',
  'insertMany',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'deleteOne',
  'deleteMany',
]);

const commandName = (command: JsonObject): string => Object.keys(command)[0]!;

function mutates(c: ConformanceCase): boolean {
  if (c.mutates !== undefined) return c.mutates;
  return [c.command, ...(c.then ?? []).map((s) => s.command)].some((command) => WRITE_COMMANDS.has(commandName(command)));
}

// ---- databases and collections ------------------------------------------------------------------------------

interface Target {
  readonly db: VectorDB;
  readonly collection: string;
  cleanup(): Promise<void>;
}

class Pool {
  readonly #databases = new Map<string, Promise<TestDatabase>>();
  readonly #shared = new Map<string, Promise<void>>();
  #counter = 0;

  constructor(readonly factory: DbFactory) {}

  #database(key: string, limits: Partial<Limits> | undefined): Promise<TestDatabase> {
    let database = this.#databases.get(key);
    if (!database) {
      database = this.factory.create(limits ? { limits } : {});
      this.#databases.set(key, database);
    }
    return database;
  }

  async target(c: ConformanceCase): Promise<Target> {
    const limitsKey = JSON.stringify(c.limits ?? {});
    const fixture: Fixture | undefined = typeof c.setup === 'string' ? FIXTURES[c.setup] : undefined;
    const documents = fixture ? fixture.documents : ((c.setup as JsonObject[] | undefined) ?? []);
    const options = c.collectionOptions ?? fixture?.options;
    if (!mutates(c) && typeof c.setup === 'string') {
      // One database per shared fixture keeps every database under the collection limit.
      const key = `${limitsKey}|${c.setup}|${JSON.stringify(options ?? null)}`;
      const { db } = await this.#database(key, c.limits);
      let seeded = this.#shared.get(key);
      if (!seeded) {
        seeded = createAndSeed(db, 'fx', options, documents);
        this.#shared.set(key, seeded);
      }
      await seeded;
      return { db, collection: 'fx', cleanup: async () => {} };
    }
    const { db } = await this.#database(`${limitsKey}|private`, c.limits);
    const collection = `case_${++this.#counter}`;
    await createAndSeed(db, collection, options, documents);
    return {
      db,
      collection,
      cleanup: async () => {
        const response = await db.command({ deleteCollection: { name: collection } }, { keyspace: db.getCurrentKeyspace() });
        expect(response, 'deleteCollection').toEqual({ status: { ok: 1 } });
      },
    };
  }

  async close(): Promise<void> {
    const all = [...this.#databases.values()];
    this.#databases.clear();
    for (const database of all) await (await database).close();
  }
}

async function createAndSeed(db: VectorDB, name: string, options: JsonObject | undefined, documents: readonly JsonObject[]): Promise<void> {
  const created = await db.command({ createCollection: { name, ...(options ? { options } : {}) } }, { keyspace: db.getCurrentKeyspace() });
  expect(created, `createCollection ${name}`).toEqual({ status: { ok: 1 } });
  for (let i = 0; i < documents.length; i += 20) {
    const chunk = documents.slice(i, i + 20);
    const response = await db.command({ insertMany: { documents: chunk as JsonValue[], options: { ordered: true } } }, { collection: name });
    expect(response.errors, `seeding ${name}: ${JSON.stringify(response.errors)}`).toBeUndefined();
    expect((response.status?.insertedIds as unknown[]).length).toBe(chunk.length);
  }
}

// ---- comparison helpers ---------------------------------------------------------------------------------------

const isMatcher = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function';

const idKey = (id: unknown): string => (isMatcher(id) ? '\uffff' : JSON.stringify(id));

function byId<T>(docs: readonly T[]): T[] {
  return [...docs].sort((x, y) => {
    const a = idKey((x as { _id?: unknown })?._id);
    const b = idKey((y as { _id?: unknown })?._id);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/** Recursively checks that objects list their keys in the expected order. */
function expectKeyOrder(actual: unknown, expected: Expected | undefined, where: string): void {
  if (expected === null || expected === undefined || typeof expected !== 'object' || isMatcher(expected)) return;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return;
    expected.forEach((e, i) => expectKeyOrder(actual[i], e, `${where}[${i}]`));
    return;
  }
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return;
  expect(Object.keys(actual), `key order of ${where}`).toEqual(Object.keys(expected));
  for (const [k, v] of Object.entries(expected)) expectKeyOrder((actual as Record<string, unknown>)[k], v as Expected, `${where}.${k}`);
}

/** Protocol invariants of every returned document: `_id` first, `$similarity` last (data-api-protocol.md 4.1, 6). */
function expectDocumentShape(doc: unknown, where: string): void {
  expect(typeof doc === 'object' && doc !== null && !Array.isArray(doc), `${where} is an object`).toBe(true);
  const keys = Object.keys(doc as object);
  if (keys.includes('_id')) expect(keys[0], `${where}: _id must be the first property`).toBe('_id');
  if (keys.includes('$similarity')) expect(keys[keys.length - 1], `${where}: $similarity must be the last property`).toBe('$similarity');
}

function substitute(value: JsonValue, pageState: string | null): JsonValue {
  if (value === PAGE_STATE) {
    if (pageState === null) throw new Error('the case uses PAGE_STATE but no earlier response carried a nextPageState');
    return pageState;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, pageState));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v as JsonValue, pageState)]));
  }
  return value;
}

function withPageState(command: JsonObject, pageState: string): JsonObject {
  const name = commandName(command);
  const body = (command[name] ?? {}) as JsonObject;
  return { [name]: { ...body, options: { ...((body.options as JsonObject | undefined) ?? {}), pageState } } };
}

const show = (command: JsonObject, response: CommandResponse): string =>
  `\n  command:  ${JSON.stringify(command)}\n  response: ${JSON.stringify(response)}`;

// ---- running one case --------------------------------------------------------------------------------------

interface RunState {
  pageState: string | null;
  collected: JsonValue[];
}

async function readAll(db: VectorDB, collection: string): Promise<JsonObject[]> {
  const all: JsonObject[] = [];
  let pageState: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const response: CommandResponse = await db.command(
      { find: { projection: { '*': 1 }, ...(pageState ? { options: { pageState } } : {}) } },
      { collection },
    );
    expect(response.errors, `reading back: ${JSON.stringify(response.errors)}`).toBeUndefined();
    const data = response.data as { documents: JsonObject[]; nextPageState: string | null };
    all.push(...data.documents);
    pageState = data.nextPageState;
    if (pageState === null) return all;
  }
  throw new Error('reading back: too many pages');
}

async function runStep(target: Target, c: ConformanceCase, step: Step, state: RunState): Promise<void> {
  let command = substitute(step.command, state.pageState) as JsonObject;
  let response = await target.db.command(command, { collection: target.collection });
  track(response, state);
  if (step.drain) {
    for (let pages = 0; (response.data as { nextPageState?: unknown } | undefined)?.nextPageState; pages++) {
      if (pages > 1000) throw new Error('drain: too many pages');
      command = withPageState(command, state.pageState!);
      response = await target.db.command(command, { collection: target.collection });
      track(response, state);
    }
  }
  await checkResponse(target, c, command, response, step.expect);
}

function track(response: CommandResponse, state: RunState): void {
  const data = response.data as { documents?: JsonObject[]; nextPageState?: string | null } | undefined;
  if (data && Array.isArray(data.documents)) state.collected.push(...data.documents.map((d) => d._id as JsonValue));
  if (data && typeof data.nextPageState === 'string') state.pageState = data.nextPageState;
  const fromStatus = response.status?.nextPageState;
  if (typeof fromStatus === 'string') state.pageState = fromStatus;
}

async function checkResponse(target: Target, c: ConformanceCase, command: JsonObject, response: CommandResponse, exp: Expect): Promise<void> {
  const context = show(command, response);
  if (exp.errorCode !== undefined) {
    expect(response.errors?.[0]?.errorCode, `expected error ${exp.errorCode}${context}`).toBe(exp.errorCode);
    expect(response.data, `an error response carries no data${context}`).toBeUndefined();
  } else {
    expect(response.errors, `expected no errors${context}`).toBeUndefined();
  }
  if (exp.status !== undefined) expect(response.status, `status${context}`).toEqual(exp.status);

  const data = response.data as Record<string, unknown> | undefined;
  if (exp.errorCode === undefined && data && 'documents' in data) {
    const documents = data.documents as JsonObject[];
    expect(Array.isArray(documents), `data.documents is an array${context}`).toBe(true);
    expect('nextPageState' in data, `data.nextPageState is always present${context}`).toBe(true);
    documents.forEach((d, i) => expectDocumentShape(d, `documents[${i}]`));
    const body = (command[commandName(command)] ?? {}) as JsonObject;
    const sort = body.sort as JsonObject | undefined;
    const ordered = c.ordered ?? (sort !== undefined && sort !== null && typeof sort === 'object' && Object.keys(sort).length > 0);
    if (exp.ids !== undefined) {
      const ids = documents.map((d) => d._id as JsonValue);
      if (ordered) expect(ids, `ids in order${context}`).toEqual(exp.ids);
      else expect(byId(ids.map((_id) => ({ _id }))).map((d) => d._id), `ids as a set${context}`).toEqual(byId(exp.ids.map((_id) => ({ _id }))).map((d) => d._id));
    }
    if (exp.documents !== undefined) {
      const actual = ordered ? documents : byId(documents);
      const expected = ordered ? exp.documents : byId(exp.documents);
      expect(actual, `documents${context}`).toEqual(expected);
      if (c.keyOrder !== false) expectKeyOrder(actual, expected, 'documents');
    }
    if (exp.count !== undefined) expect(documents.length, `number of documents${context}`).toBe(exp.count);
    if (exp.nextPageState === 'string') expect(typeof data.nextPageState, `nextPageState is a page state${context}`).toBe('string');
    else if (exp.nextPageState === null) expect(data.nextPageState, `nextPageState is null${context}`).toBeNull();
    else if (exp.nextPageState === 'end' && typeof data.nextPageState === 'string') {
      const follow = withPageState(command, data.nextPageState);
      const after = await target.db.command(follow, { collection: target.collection });
      expect(after.errors, `following the last page state${show(follow, after)}`).toBeUndefined();
      expect((after.data as { documents: unknown[] }).documents, `nothing after the cap${show(follow, after)}`).toEqual([]);
      expect((after.data as { nextPageState: unknown }).nextPageState, `exhausted${show(follow, after)}`).toBeNull();
    }
  } else if (exp.errorCode === undefined && (exp.ids !== undefined || exp.documents !== undefined || exp.count !== undefined)) {
    throw new Error(`expected data.documents${context}`);
  }

  if (exp.document !== undefined) {
    expect(data && 'document' in data, `data.document is present${context}`).toBe(true);
    const document = data!.document;
    if (document !== null) expectDocumentShape(document, 'document');
    expect(document, `document${context}`).toEqual(exp.document);
    if (c.keyOrder !== false) expectKeyOrder(document, exp.document, 'document');
  }

  if (exp.stored !== undefined) {
    const stored = byId(await readAll(target.db, target.collection));
    const expected = byId(exp.stored);
    expect(stored, `stored documents after${context}`).toEqual(expected);
    stored.forEach((d, i) => expectDocumentShape(d, `stored[${i}]`));
    if (c.keyOrder !== false) expectKeyOrder(stored, expected, 'stored');
  }
}

async function runCase(pool: Pool, c: ConformanceCase): Promise<void> {
  const target = await pool.target(c);
  try {
    const state: RunState = { pageState: null, collected: [] };
    for (const step of [{ command: c.command, expect: c.expect }, ...(c.then ?? [])]) await runStep(target, c, step, state);
    if (c.expectAll) {
      const keys = state.collected.map((id) => JSON.stringify(id));
      expect(new Set(keys).size, `every document is returned once, got ${keys.length} for ${new Set(keys).size} ids`).toBe(keys.length);
      if (c.expectAll.ids) expect([...keys].sort(), 'all pages together').toEqual(c.expectAll.ids.map((id) => JSON.stringify(id)).sort());
      if (c.expectAll.includes) {
        const have = new Set(keys);
        const missing = c.expectAll.includes.filter((id) => !have.has(JSON.stringify(id)));
        expect(missing, 'documents never returned').toEqual([]);
      }
      if (c.expectAll.count !== undefined) expect(keys.length, 'documents over all pages').toBe(c.expectAll.count);
    }
  } finally {
    await target.cleanup();
  }
}

// ---- the tables -------------------------------------------------------------------------------------------------

describe('conformance tables', () => {
  it('hold at least 150 cases with unique names', () => {
    const all = Object.values(TABLES).flat();
    expect(all.length).toBeGreaterThanOrEqual(150);
    for (const [table, cases] of Object.entries(TABLES)) {
      const names = cases.map((c) => c.name);
      expect(names.filter((n, i) => names.indexOf(n) !== i), `duplicate names in ${table}`).toEqual([]);
    }
  });
});

for (const factory of FACTORIES) {
  describe(`conformance over ${factory.name}`, () => {
    const pool = new Pool(factory);
    afterAll(() => pool.close());
    for (const [table, cases] of Object.entries(TABLES)) {
      describe(table, () => {
        for (const c of cases) it(`${c.section} ${c.name}`, () => runCase(pool, c));
      });
    }
  });
}
