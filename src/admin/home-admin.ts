/**
 * HomeAdmin: the administration of one home on disk, for one token: databases, keyspaces and tokens. Every
 * call checks that the token is a valid Organization Administrator token of the home. Throws VectorDbError
 * (the client maps codes to typed exceptions); the HTTP server can drive the same class per request.
 */
import { randomUUID } from 'node:crypto';
import { VectorDbError } from '../errors/index.js';
import { createDatabaseFiles, holdExclusively, moveAside, removeMovedAside, withDatabase } from './database-files.js';
import { databaseDirectory, resolveHome } from './home-paths.js';
import * as changes from './registry-changes.js';
import { createRegistry, readRegistry, updateRegistry } from './registry-file.js';
import { emptyRegistry, type Registry } from './registry-format.js';
import { clientIdOf, hashSecret, newCredential } from './secrets.js';
import { checkOrganization } from './token-check.js';
import { DEFAULT_REGION, TOKEN_ROLES, roleOf, type CreatedToken, type DatabaseInfo, type TokenInfo, type TokenRoleName } from './types.js';

export class HomeAdmin {
  /** The absolute home directory. */
  readonly home: string;
  readonly #token: string;

  constructor(token: string, home?: string) {
    this.home = resolveHome(home);
    this.#token = token;
  }

  /** Creates a home (HOME_ALREADY_EXISTS if it is one) and returns its first Organization Administrator token. */
  static async initHome(home?: string): Promise<CreatedToken> {
    const dir = resolveHome(home);
    const credential = newCredential();
    const now = new Date().toISOString();
    const record = { clientId: credential.clientId, role: 'ORGANIZATION_ADMINISTRATOR' as const, hash: await hashSecret(credential.token), createdAt: now, revoked: false };
    await createRegistry(dir, changes.withToken(emptyRegistry(now), record));
    return credential;
  }

  /** The registry, once the token is checked. */
  async #registry(): Promise<Registry> {
    const registry = await readRegistry(this.home);
    await checkOrganization(registry, this.#token);
    return registry;
  }

  async listDatabases(): Promise<DatabaseInfo[]> {
    const registry = await this.#registry();
    return registry.databases.map((d) => changes.databaseInfo(this.home, d));
  }

  /** By UUID or name; undefined when there is none. */
  async findDatabase(idOrName: string): Promise<DatabaseInfo | undefined> {
    const found = changes.findDatabase(await this.#registry(), idOrName);
    return found === undefined ? undefined : changes.databaseInfo(this.home, found);
  }

  /** Creates a database (with its LevelDB and `default_keyspace`) and returns its UUID; idempotent by name. */
  async createDatabase(name: string, region: string = DEFAULT_REGION): Promise<string> {
    changes.checkDatabaseName(name, region);
    await this.#registry();
    return updateRegistry(this.home, async (current) => {
      const existing = current.databases.find((d) => d.name === name);
      if (existing !== undefined) return { result: existing.id };
      const id = randomUUID();
      await createDatabaseFiles(databaseDirectory(this.home, id));
      const record = { id, name, region, createdAt: new Date().toISOString(), tokenRequired: false };
      return { registry: changes.withDatabase(current, record), result: id };
    });
  }

  /**
   * Deletes a database, its files and its tokens; false when there is none. DATABASE_IN_USE while any VectorDB,
   * server or other process has it open: it is opened exclusively while the registry changes.
   */
  async deleteDatabase(idOrName: string): Promise<boolean> {
    await this.#registry();
    let aside: string | undefined;
    const deleted = await updateRegistry(this.home, async (current) => {
      const record = changes.findDatabase(current, idOrName);
      if (record === undefined) return { result: false };
      const dir = databaseDirectory(this.home, record.id);
      const held = await holdExclusively(dir, record.name);
      const settle = async (written: boolean): Promise<void> => {
        await held?.close();
        if (written) aside = await moveAside(dir);
      };
      return { registry: changes.withoutDatabase(current, record.id, new Date().toISOString()), result: true, settle };
    });
    await removeMovedAside(aside);
    return deleted;
  }

  /** KEYSPACE_ALREADY_EXISTS when it exists; DATABASE_LOCKED when another process has the database open. */
  async createKeyspace(databaseIdOrName: string, keyspace: string): Promise<void> {
    const record = changes.requireDatabase(await this.#registry(), databaseIdOrName, this.home);
    await withDatabase(databaseDirectory(this.home, record.id), record.name, async (db) => {
      if (!(await db.createKeyspace(keyspace))) throw VectorDbError.of('KEYSPACE_ALREADY_EXISTS', { keyspace });
    });
  }

  /** Drops a keyspace and its collections; UNKNOWN_KEYSPACE when it does not exist. */
  async deleteKeyspace(databaseIdOrName: string, keyspace: string): Promise<void> {
    const record = changes.requireDatabase(await this.#registry(), databaseIdOrName, this.home);
    await withDatabase(databaseDirectory(this.home, record.id), record.name, async (db) => {
      if (!(await db.dropKeyspace(keyspace))) throw VectorDbError.of('UNKNOWN_KEYSPACE', { keyspace, known: db.listKeyspaces().join(', ') });
    });
  }

  /** A new token, shown once; a Database Administrator token needs its database (by UUID or name). */
  async createToken(roleName: TokenRoleName, databaseIdOrName?: string): Promise<CreatedToken> {
    const role = roleOf(roleName);
    if (role === undefined) throw changes.invalid(`role ${JSON.stringify(roleName)} is not one of ${TOKEN_ROLES.join(', ')} ('Organization Administrator', 'Database Administrator')`);
    if (role === 'DATABASE_ADMINISTRATOR' && databaseIdOrName === undefined) throw changes.invalid('a DATABASE_ADMINISTRATOR token needs the database it administers');
    if (role === 'ORGANIZATION_ADMINISTRATOR' && databaseIdOrName !== undefined) throw changes.invalid('an ORGANIZATION_ADMINISTRATOR token reaches every database: give no database');
    await this.#registry();
    const credential = newCredential();
    const hash = await hashSecret(credential.token); // before locking: scrypt takes a while
    return updateRegistry(this.home, async (current) => {
      const databaseId = databaseIdOrName === undefined ? undefined : changes.requireDatabase(current, databaseIdOrName, this.home).id;
      const record = { clientId: credential.clientId, role, ...(databaseId !== undefined ? { databaseId } : {}), hash, createdAt: new Date().toISOString(), revoked: false };
      return { registry: changes.withToken(current, record), result: credential };
    });
  }

  /** Revokes a token given whole or by client id (no-op when already revoked); TOKEN_NOT_FOUND when unknown. */
  async revokeToken(tokenOrClientId: string): Promise<void> {
    await this.#registry();
    const clientId = clientIdOf(tokenOrClientId) ?? tokenOrClientId;
    await updateRegistry(this.home, async (current) => {
      const registry = changes.withTokenRevoked(current, clientId, new Date().toISOString());
      return registry === undefined ? { result: undefined } : { registry, result: undefined };
    });
  }

  /** Every token of the home, revoked ones included, without secrets. */
  async listTokens(): Promise<TokenInfo[]> {
    return (await this.#registry()).tokens.map(changes.tokenInfo);
  }
}
