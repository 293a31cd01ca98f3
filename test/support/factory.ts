/**
 * How shared suites get a database: each factory opens a fresh VectorDB on a temporary directory,
 * either in-process (embedded) or through a real HTTP server on 127.0.0.1 (see http-factory.ts), or
 * in-process on memory-level (memory: a fresh name per test).
 * Suites take a factory and never branch on which one it is; real differences go in `supports`.
 */
import { VectorDB } from '../../src/index.js';
import type { LimitsOption } from '../../src/index.js';
import { tempDir } from './temp.js';

export interface TestDatabase {
  readonly db: VectorDB;
  /** The data directory behind it (memory: the database's name). */
  readonly dir: string;
  close(): Promise<void>;
}

export interface DbFactory {
  readonly name: string;
  create(options?: { limits?: LimitsOption }): Promise<TestDatabase>;
}

export const embeddedFactory: DbFactory = {
  name: 'embedded',
  async create(options = {}) {
    const dir = tempDir();
    const db = new VectorDB('test-token', dir, undefined, options.limits ? { limits: options.limits } : {});
    await db.connect();
    return { db, dir, close: () => db.close() };
  },
};

/**
 * As embeddedFactory, with vectorBackend 'wasm': collections keep their vectors in a FlatVectorStore (int8
 * ones too), where 'auto' puts them in the native addon's rows when it is built (suites on both row stores).
 */
export const flatRowsFactory: DbFactory = {
  name: 'embedded, flat rows',
  async create(options = {}) {
    const dir = tempDir();
    const db = new VectorDB('test-token', dir, undefined, { vectorBackend: 'wasm', ...(options.limits ? { limits: options.limits } : {}) });
    await db.connect();
    return { db, dir, close: () => db.close() };
  },
};

let memoryDatabases = 0;

export const memoryFactory: DbFactory = {
  name: 'memory',
  async create(options = {}) {
    const dir = `memory-suite-${++memoryDatabases}`;
    const db = new VectorDB('test-token', dir, undefined, { storage: 'memory', ...(options.limits ? { limits: options.limits } : {}) });
    await db.connect();
    return { db, dir, close: () => db.close() };
  },
};
