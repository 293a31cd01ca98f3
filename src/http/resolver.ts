/**
 * Resolvers: request path + token -> the database and command target to run on, or a VectorDbError (404/401).
 * SingleDatabaseResolver serves one open Database under `/v1` (`serve --data`); HomeResolver serves every
 * database of a home under `/{id}-{region}/v1`, checking tokens against the home (`serve --home`).
 */
import type { CommandTarget } from '../commands/index.js';
import type { Database, DatabaseOptions } from '../engine/database.js';
import { VectorDbError } from '../errors/index.js';
import { authenticate, databaseDirectory, readRegistry, reaches, resolveHome } from '../admin/index.js';
import { EmbeddedTransport, checkProviderSpecs, type ProviderSpecs } from '../transport/embedded.js';
import type { TokenVerifier } from './auth.js';
import { displayPath, resolveRoute } from './routes.js';

/** A decoded request path: the command target, and the `{id}-{region}` database prefix when served from a home. */
export interface ResolvedRoute {
  readonly target: CommandTarget;
  readonly database?: { readonly id: string; readonly region: string };
}

export interface Resolver {
  /** The route of a URL, or undefined when it is not a Data API resource (404). */
  route(url: string | undefined): ResolvedRoute | undefined;
  /** The database for this route and (present) token; throws VectorDbError (UNAUTHENTICATED_REQUEST, UNAUTHORIZED_ACCESS, RESOURCE_NOT_FOUND). */
  open(route: ResolvedRoute, token: string, url: string | undefined): Promise<Database>;
  /** Closes what the resolver opened (a caller-owned database is left open). */
  close(): Promise<void>;
}

export class SingleDatabaseResolver implements Resolver {
  constructor(
    readonly db: Database,
    readonly verify: TokenVerifier,
  ) {}

  route(url: string | undefined): ResolvedRoute | undefined {
    const target = resolveRoute(url);
    return target === undefined ? undefined : { target };
  }

  async open(_route: ResolvedRoute, token: string): Promise<Database> {
    if (!(await this.verify(token))) throw VectorDbError.of('UNAUTHENTICATED_REQUEST');
    return this.db;
  }

  async close(): Promise<void> {}
}

const PREFIX = /^\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([a-z0-9-]+)(\/.*)$/i;

/** A home URL's `/{id}-{region}` database prefix and the path after it, or undefined without one. */
export function splitDatabasePrefix(url: string | undefined): { database: { id: string; region: string }; rest: string } | undefined {
  const match = url === undefined ? null : PREFIX.exec(url);
  return match === null ? undefined : { database: { id: match[1]!.toLowerCase(), region: match[2]! }, rest: match[3]! };
}

export class HomeResolver implements Resolver {
  readonly home: string;
  readonly #options: DatabaseOptions;
  readonly #providers: ProviderSpecs;
  readonly #open = new Map<string, EmbeddedTransport>();

  /** `providers`: registered with each database as it opens (a bad spec throws here, at start). */
  constructor(home: string, options: DatabaseOptions = {}, providers: ProviderSpecs = {}) {
    this.home = resolveHome(home);
    this.#options = options;
    this.#providers = providers;
    checkProviderSpecs(providers);
  }

  route(url: string | undefined): ResolvedRoute | undefined {
    const split = splitDatabasePrefix(url);
    if (split === undefined) return undefined;
    const target = resolveRoute(split.rest);
    return target === undefined ? undefined : { target, database: split.database };
  }

  async open(route: ResolvedRoute, token: string, url: string | undefined): Promise<Database> {
    const wanted = route.database;
    if (wanted === undefined) throw VectorDbError.of('RESOURCE_NOT_FOUND', { path: displayPath(url) });
    const registry = await readRegistry(this.home); // every request: a revoked token is refused at once
    const principal = await authenticate(registry, token);
    if (!reaches(principal, wanted.id)) {
      throw VectorDbError.of('UNAUTHORIZED_ACCESS', { resource: `database '${wanted.id}': it is a Database Administrator token of another database` });
    }
    const record = registry.databases.find((d) => d.id === wanted.id && d.region === wanted.region);
    if (record === undefined) throw VectorDbError.of('RESOURCE_NOT_FOUND', { path: displayPath(url) });
    let transport = this.#open.get(record.id);
    if (transport === undefined) {
      transport = new EmbeddedTransport(databaseDirectory(this.home, record.id), this.#options, this.#providers);
      this.#open.set(record.id, transport);
    }
    try {
      return await transport.database();
    } catch (error) {
      this.#open.delete(record.id);
      await transport.close();
      throw error;
    }
  }

  /** Lets a database go (before deleting it): the next request opens it again. */
  async release(id: string): Promise<void> {
    const transport = this.#open.get(id);
    this.#open.delete(id);
    await transport?.close();
  }

  async close(): Promise<void> {
    const all = [...this.#open.values()];
    this.#open.clear();
    await Promise.allSettled(all.map((t) => t.close()));
  }
}
