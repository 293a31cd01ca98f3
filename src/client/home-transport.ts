/**
 * The transport of `new VectorDB(token, databaseId, ...)`: the seed's id-based constructors. At first use it
 * finds the database in the home ($VECTORDB_HOME, else ~/.vectordb-local), checks the token and region, then
 * runs commands in-process on the database's directory. An unknown id is DATABASE_NOT_FOUND; nothing is created.
 * The home lookup is database-by-id.ts's (Node only; a page has no homes).
 */
import type { CommandResponse, CommandTarget, RequestOptions } from '../commands/index.js';
import type { DatabaseOptions } from '../engine/database.js';
import { VectorDbError } from '../errors/index.js';
import type { JsonObject } from '../query/json.js';
import type { Transport } from '../transport/transport.js';
import { EmbeddedTransport, checkProviderSpecs, type ProviderSpecs } from '../transport/embedded.js';
import { databaseDirectoryById } from './database-by-id.js';

const DATABASE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a database UUID (as opposed to a directory path or a URL). */
export function isDatabaseId(endpoint: string): boolean {
  return DATABASE_ID.test(endpoint);
}

export class HomeDatabaseTransport implements Transport {
  readonly endpoint: string;
  readonly #token: string;
  readonly #region: string | undefined;
  readonly #options: DatabaseOptions;
  readonly #providers: ProviderSpecs;
  #inner: Promise<EmbeddedTransport> | undefined;
  #closed = false;

  constructor(token: string, databaseId: string, region: string | undefined, options: DatabaseOptions, providers: ProviderSpecs = {}) {
    this.endpoint = databaseId.toLowerCase();
    this.#token = token;
    this.#region = region;
    this.#options = options;
    checkProviderSpecs(providers);
    this.#providers = providers;
  }

  /** The embedded transport on the database's directory, once the home has vouched for id, region and token. */
  #resolve(): Promise<EmbeddedTransport> {
    this.#inner ??= (async () => new EmbeddedTransport(await databaseDirectoryById(this.#token, this.endpoint, this.#region), this.#options, this.#providers))();
    this.#inner.catch(() => (this.#inner = undefined)); // a failed lookup is retried on next use
    return this.#inner;
  }

  async execute(command: JsonObject, target: CommandTarget, request?: RequestOptions): Promise<CommandResponse> {
    return (await this.#open()).execute(command, target, request);
  }

  async insertManyLimit(): Promise<number> {
    return (await this.#open()).insertManyLimit();
  }

  async backup(target: string, onProgress?: (copiedKeys: number) => void): Promise<{ keys: number }> {
    return (await this.#open()).backup(target, onProgress);
  }

  async connect(): Promise<void> {
    await (await this.#open()).connect();
  }

  warm(target: Required<CommandTarget>): void {
    if (!this.#closed) void this.#resolve().then((inner) => inner.warm(target), () => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const inner = this.#inner;
    this.#inner = undefined;
    if (inner) await (await inner.catch(() => undefined))?.close();
  }

  async #open(): Promise<EmbeddedTransport> {
    if (this.#closed) throw VectorDbError.of('DATABASE_NOT_OPEN', { location: this.endpoint, state: 'closed' });
    return this.#resolve();
  }
}
