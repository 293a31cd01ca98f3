/**
 * VectorDBAdmin: organization-level administration of a home of databases (databases, keyspaces, tokens). A typed
 * facade over src/admin: every failure is a DataApiException (subclass by code); no token is ever logged.
 * (`VectorDB.fromDatabaseId`, which opens a database of a home by its UUID, is home-databases.ts.)
 */
import { resolveHome } from '../admin/home-paths.js';
import type { HomeAdmin, RemoteAdmin } from '../admin/index.js';
import type { CreatedToken, DatabaseInfo, TokenInfo, TokenRoleName } from '../admin/types.js';
import { DEFAULT_KEYSPACE } from '../engine/database.js';
import { VectorDbError } from '../errors/index.js';
import { adminLayer, openDatabase, typed } from './home-databases.js';
import { VectorDB } from './vector-db.js';
import { rejectUnknownMembers } from './wire.js';
import type { VectorDBOptions } from './vector-db-options.js';

export type { DatabaseByIdOptions } from './vector-db-options.js';

export interface VectorDBAdminOptions {
  /**
   * The home directory (default: `$VECTORDB_HOME`, else `~/.vectordb-local`), or the `http(s)://` URL of a
   * server running `vectordb-local serve --home` (the same as giving `url`).
   */
  home?: string;
  /** A home server's base URL: database and keyspace calls go over HTTP; token calls need a home directory. */
  url?: string;
}

const ADMIN_OPTIONS: ReadonlySet<keyof VectorDBAdminOptions> = new Set(['home', 'url']);

export class VectorDBAdmin {
  /** The absolute home directory, or the server URL when administering over HTTP. */
  readonly home: string;
  /** The server URL when administering over HTTP. */
  readonly url: string | undefined;
  readonly #token: string;
  #backend: Promise<HomeAdmin | RemoteAdmin> | undefined;

  /**
   * Administration of a home with an Organization Administrator token; the token is checked on every call.
   * @example
   * const admin = new VectorDBAdmin(process.env.VECTORDB_ORG_TOKEN!, { home: '/srv/vectordb' });
   * const id = await admin.createDatabase('catalog');
   */
  constructor(orgToken: string, options: VectorDBAdminOptions = {}) {
    if (typeof orgToken !== 'string') throw new TypeError('VectorDBAdmin: the token must be a string');
    rejectUnknownMembers(options, ADMIN_OPTIONS, 'VectorDBAdminOptions');
    this.url = options.url ?? (options.home !== undefined && /^https?:\/\//i.test(options.home) ? options.home : undefined);
    this.home = this.url ?? resolveHome(options.home);
    this.#token = orgToken;
  }

  /** The HomeAdmin of the home directory, or the RemoteAdmin of the server URL (made at the first call). */
  #admin(): Promise<HomeAdmin | RemoteAdmin> {
    this.#backend ??= adminLayer().then(({ HomeAdmin, RemoteAdmin }) =>
      this.url !== undefined ? new RemoteAdmin(this.#token, this.url) : new HomeAdmin(this.#token, this.home),
    );
    return this.#backend;
  }

  /** The local HomeAdmin, for token calls (not available over HTTP). */
  async #local(): Promise<HomeAdmin> {
    if (this.url !== undefined) {
      throw VectorDbError.of('INVALID_ARGUMENT', { reason: 'token management needs the home directory: it is not available through a server URL' });
    }
    return (await this.#admin()) as HomeAdmin;
  }

  /**
   * Creates a home and returns its first Organization Administrator token, shown this once: store it safely.
   * Refuses a directory that already is a home (HOME_ALREADY_EXISTS).
   * @example const orgToken = await VectorDBAdmin.initHome('/srv/vectordb');
   */
  static async initHome(home?: string): Promise<string> {
    return typed(async () => (await (await adminLayer()).HomeAdmin.initHome(home)).token);
  }

  /** @example for (const db of await admin.listDatabases()) console.log(db.name, db.id, db.endpoint); */
  listDatabases(): Promise<DatabaseInfo[]> {
    return typed(async () => (await this.#admin()).listDatabases());
  }

  /** @example const names = await admin.listDatabaseNames(); */
  async listDatabaseNames(): Promise<string[]> {
    return (await this.listDatabases()).map((d) => d.name);
  }

  /**
   * Creates a database and returns its UUID; given the name of an existing database, returns its UUID (whatever
   * the region). Names: 1 to 64 letters, digits, `_` or `-`; regions: lower-case letters, digits, `-`.
   * @example const id = await admin.createDatabase('catalog', 'local');
   */
  createDatabase(name: string, region?: string): Promise<string> {
    return typed(async () => (await this.#admin()).createDatabase(name, region));
  }

  /** @example const info = await admin.findDatabaseById(id); // undefined when there is none */
  async findDatabaseById(id: string): Promise<DatabaseInfo | undefined> {
    return (await this.listDatabases()).find((d) => d.id === id.toLowerCase());
  }

  /** @example const info = await admin.findDatabaseByName('catalog'); */
  async findDatabaseByName(name: string): Promise<DatabaseInfo | undefined> {
    return (await this.listDatabases()).find((d) => d.name === name);
  }

  /** @example if (!(await admin.isDatabaseExists('catalog'))) await admin.createDatabase('catalog'); */
  async isDatabaseExists(idOrName: string): Promise<boolean> {
    return (await typed(async () => (await this.#admin()).findDatabase(idOrName))) !== undefined;
  }

  /**
   * A connected VectorDB on a database (by UUID or name), working in `keyspace` (default `default_keyspace`,
   * which must exist). DatabaseNotFoundException / KeyspaceNotFoundException otherwise. Close it when done.
   * @example
   * const db = await admin.database('catalog');
   * const products = await db.createCollection('products', 3);
   */
  database(idOrName: string, keyspace: string = DEFAULT_KEYSPACE, options: VectorDBOptions = {}): Promise<VectorDB> {
    return typed(async () => {
      const info = await (await this.#admin()).findDatabase(idOrName);
      if (info === undefined) throw VectorDbError.of('DATABASE_NOT_FOUND', { database: idOrName, where: ` in home '${this.home}'` });
      if (this.url === undefined) await (await adminLayer()).checkDatabaseToken(this.home, info.id, this.#token);
      return openDatabase(new VectorDB(this.#token, info.endpoint, keyspace, options), keyspace);
    });
  }

  /**
   * Deletes a database and its files (its tokens are revoked); false when there is none. Throws
   * DatabaseInUseException while a VectorDB (of this or another process) or a server has it open.
   * @example await admin.deleteDatabase('catalog');
   */
  deleteDatabase(idOrName: string): Promise<boolean> {
    return typed(async () => (await this.#admin()).deleteDatabase(idOrName));
  }

  /** KeyspaceAlreadyExistException when it exists. @example await admin.createKeyspace('catalog', 'archive'); */
  createKeyspace(databaseIdOrName: string, keyspace: string): Promise<void> {
    return typed(async () => (await this.#admin()).createKeyspace(databaseIdOrName, keyspace));
  }

  /** Drops it with its collections; KeyspaceNotFoundException when missing. @example await admin.deleteKeyspace('catalog', 'archive'); */
  deleteKeyspace(databaseIdOrName: string, keyspace: string): Promise<void> {
    return typed(async () => (await this.#admin()).deleteKeyspace(databaseIdOrName, keyspace));
  }

  /**
   * A new token, shown this once (only its hash is stored). A Database Administrator token (role code or the seed's words) reaches one database
   * (by UUID or name) and no administration call; from then on that database needs a token to open.
   * @example
   * const { token } = await admin.createToken('Database Administrator', 'catalog'); // or TokenRoles.DATABASE_ADMINISTRATOR
   * const db = await VectorDB.fromDatabaseId(token, id, { home: admin.home });
   */
  createToken(role: TokenRoleName, databaseIdOrName?: string): Promise<CreatedToken> {
    return typed(async () => (await this.#local()).createToken(role, databaseIdOrName));
  }

  /** Revokes a token, given whole or by client id; refuses the last Organization Administrator token. @example await admin.revokeToken(clientId); */
  revokeToken(tokenOrClientId: string): Promise<void> {
    return typed(async () => (await this.#local()).revokeToken(tokenOrClientId));
  }

  /** Every token, revoked ones included, without secrets. @example const active = (await admin.listTokens()).filter((t) => !t.revoked); */
  listTokens(): Promise<TokenInfo[]> {
    return typed(async () => (await this.#local()).listTokens());
  }
}
