/**
 * EmbeddedTransport: runs commands in-process on a database (a directory in Node, an IndexedDB database
 * in a browser, or memory), without a JSON round trip. Databases are shared by every transport of the
 * process that opens the same one (reference counted), so two VectorDB objects on one database work;
 * another process (or tab) gets DATABASE_LOCKED.
 */
import { executeCommand, type CommandResponse, type CommandTarget, type RequestOptions } from '../commands/index.js';
import { Database, type CollectionName, type DatabaseOptions } from '../engine/database.js';
import { createDirectoryAtomically, repairDirectory, restoreDirectory } from '../engine/database-files.js';
import type { RepairOptions, RepairReport } from '../engine/integrity/repair-report.js';
import type { JsonObject } from '../query/json.js';
import { VectorDbError } from '../errors/index.js';
import { prepareLocation, resolveLocation } from './location.js';
import type { Transport } from './transport.js';
import { makeReranker, registerRerankers, type RerankerSpec } from '../providers/rerankers.js';
import { makeEmbedder, registerEmbedders, type EmbedderSpec } from '../providers/embedders.js';

/** The providers an embedded database is opened with (VectorDBOptions' `rerankers` and `embedders`). */
export interface ProviderSpecs {
  readonly rerankers?: Readonly<Record<string, RerankerSpec>> | undefined;
  readonly embedders?: Readonly<Record<string, EmbedderSpec>> | undefined;
}

/** Throws a TypeError naming the first provider spec that is not one (at construction, not at the first command). */
export function checkProviderSpecs(providers: ProviderSpecs): void {
  for (const [name, spec] of Object.entries(providers.rerankers ?? {})) makeReranker(name, spec);
  for (const [name, spec] of Object.entries(providers.embedders ?? {})) makeEmbedder(name, spec);
}

interface SharedDatabase {
  readonly opening: Promise<Database>;
  users: number;
}

const shared = new Map<string, SharedDatabase>();

/** Resolves an endpoint to the database's location: an absolute directory in Node, the name as given elsewhere. */
export function resolveDirectory(endpoint: string, options: DatabaseOptions = {}): string {
  return options.storage === 'memory' ? endpoint : resolveLocation(endpoint);
}

/** Memory databases are named apart from persistent ones (no directory or IndexedDB name starts with a NUL). */
const MEMORY_KEY = '\u0000memory:';

/** `first`: the collection to load first, if this opens the database (Database.open). */
async function acquire(location: string, options: DatabaseOptions, first?: CollectionName): Promise<Database> {
  const memory = options.storage === 'memory';
  const name = memory ? location : await prepareLocation(location);
  const key = memory ? MEMORY_KEY + name : name;
  let entry = shared.get(key);
  if (!entry) {
    const opening = Database.open(name, options, first);
    entry = { opening, users: 0 };
    shared.set(key, entry);
    opening.catch(() => shared.delete(key));
  }
  entry.users++;
  try {
    return await entry.opening;
  } catch (error) {
    entry.users--;
    throw error;
  }
}

async function release(db: Database): Promise<void> {
  const key = db.storage === 'memory' ? MEMORY_KEY + db.location : db.location;
  const entry = shared.get(key);
  if (!entry) return;
  entry.users--;
  if (entry.users === 0) {
    shared.delete(key);
    await db.close();
  }
}

export class EmbeddedTransport implements Transport {
  readonly endpoint: string;
  readonly #options: DatabaseOptions;
  #db: Promise<Database> | undefined;
  /** The database once open (until close): commands then run without an await for it. */
  #open: Database | undefined;
  #closed = false;

  readonly #providers: ProviderSpecs;

  /** `providers`: reranking (findAndRerank) and embedding (`$vectorize`) providers registered with the database once open. */
  constructor(directory: string, options: DatabaseOptions = {}, providers: ProviderSpecs = {}) {
    this.endpoint = resolveDirectory(directory, options);
    this.#options = options;
    checkProviderSpecs(providers);
    this.#providers = providers;
  }

  /** The open database (opened on first use; `first` as acquire's). */
  database(first?: CollectionName): Promise<Database> {
    if (this.#closed) {
      return Promise.reject(VectorDbError.of('DATABASE_NOT_OPEN', { location: this.endpoint, state: 'closed' }));
    }
    this.#db ??= acquire(this.endpoint, this.#options, first).then(
      (db) => {
        registerRerankers(db, this.#providers.rerankers);
        registerEmbedders(db, this.#providers.embedders);
        if (!this.#closed) this.#open = db;
        return db;
      },
      (error: unknown) => {
        this.#db = undefined;
        throw error;
      },
    );
    return this.#db;
  }

  async insertManyLimit(): Promise<number> {
    return (await this.database()).limits.maxInsertManyDocuments;
  }

  async backup(target: string, onProgress?: (copiedKeys: number) => void): Promise<{ keys: number }> {
    return (await this.database()).backup(resolveDirectory(target), onProgress);
  }

  /** Writes a new database into `directory` atomically, filled by `fill` (see engine/database-files.ts). */
  static async createAtomically(directory: string, source: string, fill: (partial: string, begin: () => Promise<void>) => Promise<number>): Promise<number> {
    return createDirectoryAtomically(resolveDirectory(directory), source, fill);
  }

  /** Makes `directory` a copy of the database in `source`; DATABASE_LOCKED when `directory` is in use. */
  static async restore(source: string, directory: string, onProgress?: (copiedKeys: number) => void): Promise<{ keys: number }> {
    return restoreDirectory(resolveDirectory(source), resolveDirectory(directory), onProgress);
  }

  /** Repairs the database in `directory` (engine/integrity/repair.ts); DATABASE_LOCKED when it is in use. */
  static async repair(directory: string, options: RepairOptions = {}): Promise<RepairReport> {
    return repairDirectory(resolveDirectory(directory), options);
  }

  async connect(): Promise<void> {
    await this.database();
  }

  /** Opens the database now, if it is not open yet, loading this collection first (later ones load at their first command). */
  warm(target: Required<CommandTarget>): void {
    if (this.#closed || this.#db !== undefined) return;
    this.database({ keyspace: target.keyspace, collection: target.collection }).catch(() => undefined); // the commands that follow report the failure
  }

  execute(command: JsonObject, target: CommandTarget, request?: RequestOptions): Promise<CommandResponse> {
    const open = this.#open;
    if (open !== undefined) return executeCommand(open, command, target, request);
    return this.database().then((db) => executeCommand(db, command, target, request));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const db = this.#db;
    this.#db = undefined;
    this.#open = undefined;
    if (db) await release(await db.catch(() => undefined as never)).catch(() => undefined);
  }
}
