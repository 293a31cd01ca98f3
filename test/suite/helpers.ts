/**
 * Shared helpers of the transport-independent suites: a fresh database per test from the factory, and
 * small wrappers over `db.command` for envelopes and error codes. Everything goes through the public
 * VectorDB API so the same suites run embedded and over HTTP.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import type { CommandResponse, JsonObject, JsonValue, LimitsOption, VectorDB, WireError } from '../../src/index.js';
import type { DbFactory, TestDatabase } from '../support/factory.js';

export const KS = 'default_keyspace';

export type Json = JsonValue;
export type Doc = Record<string, unknown>;

export interface SuiteDb {
  readonly db: VectorDB;
  readonly dir: string;
}

/** A fresh database for every test of the enclosing describe block, closed after it. */
export function useDatabase(factory: DbFactory, options: { limits?: LimitsOption } = {}): SuiteDb {
  let current: TestDatabase | undefined;
  beforeEach(async () => {
    current = await factory.create(options);
  });
  afterEach(async () => {
    const closing = current;
    current = undefined;
    await closing?.close();
  });
  const get = (): TestDatabase => {
    if (!current) throw new Error('useDatabase: no database outside a test');
    return current;
  };
  return {
    get db() {
      return get().db;
    },
    get dir() {
      return get().dir;
    },
  };
}

/** Runs a command (any JSON-like object) against a target. */
/** Runs a command; with no target at the general (database) level, as `keyspace: null` asks db.command. */
export function run(db: VectorDB, command: unknown, target: { keyspace?: string | null; collection?: string } = { keyspace: null }): Promise<CommandResponse> {
  return db.command(command as JsonObject, target);
}

/** Runs a collection command in the current keyspace. */
export function onCollection(db: VectorDB, collection: string, command: unknown): Promise<CommandResponse> {
  return run(db, command, { collection });
}

/** Checks the wire shape of an error object (data-api-protocol.md 2.1). */
export function expectWireError(error: WireError | undefined): asserts error is WireError {
  expect(error).toBeDefined();
  expect(typeof error!.id).toBe('string');
  expect(['REQUEST', 'SERVER']).toContain(error!.family);
  expect(typeof error!.scope).toBe('string');
  expect(typeof error!.errorCode).toBe('string');
  expect(typeof error!.title).toBe('string');
  expect(typeof error!.message).toBe('string');
  expect(error!.message.length).toBeGreaterThan(0);
}

/** Asserts the response failed with `code` as its first error and carries no `data`; returns that error. */
export function expectError(response: CommandResponse, code: string): WireError {
  expect(response.errors, `expected error ${code}, got ${JSON.stringify(response)}`).toBeDefined();
  expect(response.errors!.length).toBeGreaterThan(0);
  const error = response.errors![0];
  expectWireError(error);
  expect(error.errorCode, error.message).toBe(code);
  expect(response.data).toBeUndefined();
  return error;
}

/** Asserts the response has no errors. */
export function expectNoErrors(response: CommandResponse): CommandResponse {
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response;
}

/** Creates a collection in a keyspace (default: the current one) and asserts `{status:{ok:1}}`. */
export async function createCollection(db: VectorDB, name: string, options?: unknown, keyspace: string = KS): Promise<void> {
  const command: Doc = { name };
  if (options !== undefined) command.options = options;
  const response = await run(db, { createCollection: command }, { keyspace });
  expect(response).toEqual({ status: { ok: 1 } });
}

/** Inserts any number of documents in requests of `chunk` and asserts that every one was inserted. */
export async function insertAll(db: VectorDB, collection: string, documents: readonly Doc[], chunk = 20): Promise<void> {
  for (let i = 0; i < documents.length; i += chunk) {
    const slice = documents.slice(i, i + chunk);
    const response = await onCollection(db, collection, { insertMany: { documents: slice, options: { ordered: true } } });
    expectNoErrors(response);
    expect((response.status?.insertedIds as unknown[]).length).toBe(slice.length);
  }
}

/** Every document a find returns, following nextPageState to the end. */
export async function findAll(db: VectorDB, collection: string, find: Doc = {}): Promise<Doc[]> {
  const all: Doc[] = [];
  let pageState: string | null = null;
  let pages = 0;
  do {
    const options = { ...((find.options as Doc | undefined) ?? {}), ...(pageState ? { pageState } : {}) };
    const response = await onCollection(db, collection, { find: { ...find, options } });
    expectNoErrors(response);
    const data = response.data as { documents: Doc[]; nextPageState: string | null };
    all.push(...data.documents);
    pageState = data.nextPageState;
    if (++pages > 10_000) throw new Error('findAll: too many pages');
  } while (pageState !== null);
  return all;
}

/** The one document findOne returns (or null). */
export async function findOne(db: VectorDB, collection: string, findOneBody: Doc = {}): Promise<Doc | null> {
  const response = await onCollection(db, collection, { findOne: findOneBody });
  expectNoErrors(response);
  return (response.data as { document: Doc | null }).document;
}

/** countDocuments of a filter, asserting a plain `{count}` status. */
export async function count(db: VectorDB, collection: string, filter: Doc = {}): Promise<number> {
  const response = await onCollection(db, collection, { countDocuments: { filter } });
  expectNoErrors(response);
  return response.status?.count as number;
}

/** Sorted `_id`s (as JSON text, so ids of any type compare). */
export function idsOf(documents: readonly Doc[]): string[] {
  return documents.map((d) => JSON.stringify(d._id)).sort();
}

/** Sorted JSON texts of the given ids. */
export function idTexts(ids: readonly unknown[]): string[] {
  return ids.map((id) => JSON.stringify(id)).sort();
}

/** `n` documents built by `make(i)` for i = 0..n-1. */
export function makeDocs(n: number, make: (i: number) => Doc): Doc[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

/** A zero-padded id so key order equals numeric order: doc-000, doc-001, ... */
export function padId(prefix: string, i: number): string {
  return `${prefix}-${String(i).padStart(3, '0')}`;
}

/** `{"$binary": base64 of big-endian float32}` of the values. */
export function binaryVector(values: readonly number[]): { $binary: string } {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => bytes.writeFloatBE(v, i * 4));
  return { $binary: bytes.toString('base64') };
}

/** Table commands of a suite's database: a command on a table, createTable (asserting ok) and one page of find. */
export function tableCommands(ctx: SuiteDb): {
  onTable: (name: string, command: unknown) => Promise<CommandResponse>;
  createTable: (name: string, definition: unknown) => Promise<void>;
  rows: (name: string, find?: Doc) => Promise<Doc[]>;
} {
  const onTable = (name: string, command: unknown) => onCollection(ctx.db, name, command);
  return {
    onTable,
    createTable: async (name, definition) => {
      expect(await run(ctx.db, { createTable: { name, definition } }, { keyspace: KS })).toEqual({ status: { ok: 1 } });
    },
    rows: async (name, find = {}) => {
      const response = expectNoErrors(await onTable(name, { find }));
      return (response.data as { documents: Doc[] }).documents;
    },
  };
}
