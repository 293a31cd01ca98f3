/**
 * The Data API server: `createServer({db, token})` -> listen() / url / close(). Owns sockets, timeouts and
 * graceful shutdown; requests go to handler.ts. It never opens or closes the database: the caller does.
 *
 * Why node:http and not a framework: the adapter has five routes and no middleware, and every framework
 * (fastify, hono's node adapter, express) runs on node:http anyway, adding per-request work on the hot path
 * (findOne by _id is ~tens of µs in process, so the HTTP layer's cost is what a benchmark sees).
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database, DatabaseOptions } from '../engine/database.js';
import { resolveLimits, type Limits, type LimitsOption } from '../engine/limits.js';
import { fixedTokenVerifier, type TokenVerifier } from './auth.js';
import { checkCorsOrigins, withCors, type CorsOrigins } from './cors.js';
import { handleAdmin, isAdminPath } from './admin-routes.js';
import { createHandler, type RequestHandler, type RequestLogEntry } from './handler.js';
import { createGraphqlHandler, graphqlRoute } from './graphql-routes.js';
import { isExplorerRequest, serveExplorer } from './explorer-route.js';
import { HomeResolver, SingleDatabaseResolver, type Resolver } from './resolver.js';
import type { ProviderSpecs } from '../transport/embedded.js';
import { ResponseBatch } from './response-batch.js';

export interface ServerTimeouts {
  /** Time to receive a request's headers (slow-loris guard). Default 20 s. */
  readonly headersMs?: number;
  /** Time to receive a whole request, body included. Default 120 s. */
  readonly requestMs?: number;
  /** How long an idle keep-alive connection stays open. Default 30 s. */
  readonly keepAliveMs?: number;
}

export interface ServerOptions {
  /** The open database to serve under `/v1`; the caller closes it after `close()`. Give either `db` or `home`. */
  readonly db?: Database;
  /**
   * A home directory: every database of it is served under `/{id}-{region}/v1`, opened on first request and
   * closed by `close()`; tokens are the home's (no `token`), and organization tokens reach `/v2/databases`.
   */
  readonly home?: string;
  /** How a home's databases are opened (their limits); only with `home`. */
  readonly databaseOptions?: DatabaseOptions;
  /**
   * Reranking and embedding providers registered with every database of the home as it opens (`serve --home
   * --reranker/--embedder`); only with `home` (a served `db` has its providers registered by its opener).
   */
  readonly providers?: ProviderSpecs;
  /** The one accepted token (or give `tokenVerifier`). */
  readonly token?: string;
  readonly tokenVerifier?: TokenVerifier;
  /** Default 127.0.0.1: only this machine can connect. */
  readonly host?: string;
  /** Default 8181; 0 picks a free port (read it from `url` after listen()). */
  readonly port?: number;
  /** Largest request body accepted; default 20 MB, as the Data API. */
  readonly maxBodyBytes?: number;
  /**
   * The limits the server is expected to serve with. Limits live on the Database (open it with them);
   * when given (a preset, overrides, or both) they must match the database's, so a misconfigured server
   * fails at start.
   */
  readonly limits?: LimitsOption;
  readonly timeouts?: ServerTimeouts;
  /**
   * Origins whose pages may call the server from a browser (CORS), e.g. `['http://localhost:5173']`, `['null']`
   * for file:// pages (Electron renderers), `['*']` for any. Default none. Tokens are required all the same.
   */
  readonly corsOrigins?: CorsOrigins;
  /** Called after each response (method, path, status, time); never sees headers or tokens. */
  readonly onRequest?: (entry: RequestLogEntry) => void;
}

export const DEFAULT_PORT = 8181;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;

export class DataApiServer {
  readonly #server: Server;
  readonly #host: string;
  readonly #port: number;
  /** Requests whose handler has not finished, and who waits for that count to reach zero (shutdown). */
  #inFlight = 0;
  #drained: (() => void)[] = [];
  readonly #resolver: Resolver;
  #closing: Promise<void> | undefined;

  constructor(options: ServerOptions) {
    this.#host = options.host ?? DEFAULT_HOST;
    this.#port = options.port ?? DEFAULT_PORT;
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!Number.isInteger(maxBodyBytes) || maxBodyBytes <= 0) throw new TypeError('maxBodyBytes must be a positive integer');
    this.#resolver = resolverOf(options);
    const batch = new ResponseBatch();
    const dataHandler = createHandler({
      resolver: this.#resolver,
      maxBodyBytes,
      isClosing: () => this.#closing !== undefined,
      onRequest: options.onRequest,
      endResponse: (res, body) => batch.end(res, body),
    });
    const home = this.#resolver instanceof HomeResolver ? this.#resolver : undefined;
    const restHandler: RequestHandler =
      home === undefined
        ? dataHandler
        : async (req, res) => {
            if (!isAdminPath(req.url)) return dataHandler(req, res);
            const started = performance.now();
            const status = await handleAdmin(req, res, home, maxBodyBytes);
            options.onRequest?.({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]!.slice(0, 200), status, ms: performance.now() - started });
          };
    const graphqlHandler = createGraphqlHandler(this.#resolver, maxBodyBytes);
    const routed: RequestHandler = async (req, res) => {
      const serving = home === undefined ? 'database' : 'home';
      if (isExplorerRequest(req, serving)) {
        const status = await serveExplorer(req, res, serving);
        return options.onRequest?.({ method: req.method ?? '', path: (req.url ?? '/').split('?')[0]!.slice(0, 200), status, ms: 0 });
      }
      const route = req.url?.includes('/api/graphql') ? graphqlRoute(req.url, home !== undefined) : undefined;
      if (route === undefined) return restHandler(req, res);
      const started = performance.now();
      let status: number;
      try {
        status = await graphqlHandler(req, res, route);
      } catch (error) {
        status = 500;
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ errors: [{ message: `Internal server error: ${(error as Error)?.message ?? String(error)}`, extensions: { code: 'UNEXPECTED_SERVER_ERROR' } }] }));
      }
      options.onRequest?.({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]!.slice(0, 200), status, ms: performance.now() - started });
    };
    const corsOrigins = checkCorsOrigins(options.corsOrigins ?? []);
    const handler = corsOrigins.length > 0 ? withCors(corsOrigins, routed) : routed;
    const t = options.timeouts ?? {};
    const requestMs = t.requestMs ?? 120_000;
    const headersMs = Math.min(t.headersMs ?? 20_000, requestMs);
    this.#server = createHttpServer({
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      keepAliveTimeout: t.keepAliveMs ?? 30_000,
      // How often headersTimeout/requestTimeout are checked; the default 30 s lets slow clients linger.
      connectionsCheckingInterval: Math.min(1_000, headersMs),
    });
    // A counter, not a set of promises: this runs per request, and shutdown only needs "all finished".
    const finished = (): void => {
      if (--this.#inFlight === 0) for (const resolve of this.#drained.splice(0)) resolve();
    };
    this.#server.on('request', (req, res) => {
      this.#inFlight++;
      handler(req, res).then(finished, (error: unknown) => {
        finished();
        throw error; // handlers answer their own errors: one escaping is a bug, left unhandled as before
      });
    });
  }

  /** Starts listening; rejects with the socket error (e.g. EADDRINUSE). Resolves to the bound address. */
  listen(): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.#server.once('error', onError);
      this.#server.listen(this.#port, this.#host, () => {
        this.#server.off('error', onError);
        resolve(this.address()!);
      });
    });
  }

  /** The bound address, or undefined before listen(). */
  address(): AddressInfo | undefined {
    const address = this.#server.address();
    return address !== null && typeof address === 'object' ? address : undefined;
  }

  /** The base URL clients use, e.g. `http://127.0.0.1:8181` (Data API paths go under it). */
  get url(): string {
    const address = this.address();
    if (!address) throw new Error('server is not listening');
    return `http://${connectHost(address.address)}:${address.port}`;
  }

  /**
   * Graceful stop: no new connections, idle ones closed, requests in flight finish (their connections close
   * after the response). After `graceMs` the remaining connections are cut. Idempotent.
   */
  close(options: { graceMs?: number } = {}): Promise<void> {
    this.#closing ??= this.#shutdown(options.graceMs ?? 10_000);
    return this.#closing;
  }

  async #shutdown(graceMs: number): Promise<void> {
    if (this.#server.listening) {
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      this.#server.closeIdleConnections();
      const timer = setTimeout(() => this.#server.closeAllConnections(), graceMs);
      timer.unref();
      await this.#idle();
      this.#server.closeIdleConnections();
      await closed;
      clearTimeout(timer);
    }
    // A handler can outlive its connection (the client hung up mid-command): let it finish before the db closes.
    await this.#idle();
    await this.#resolver.close();
  }

  /** Resolves once no request handler is running. */
  #idle(): Promise<void> {
    return this.#inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.#drained.push(resolve));
  }
}

/** Creates a server (not yet listening). */
export function createServer(options: ServerOptions): DataApiServer {
  return new DataApiServer(options);
}

function resolverOf(options: ServerOptions): Resolver {
  if ((options.db === undefined) === (options.home === undefined)) throw new TypeError('give either db or home');
  if (options.home !== undefined) {
    if (options.token !== undefined || options.tokenVerifier !== undefined) throw new TypeError("a home server checks the home's tokens: give no token or tokenVerifier");
    return new HomeResolver(options.home, { ...(options.databaseOptions ?? {}), ...(options.limits ? { limits: options.limits } : {}) }, options.providers);
  }
  if (options.providers !== undefined) throw new TypeError('providers apply to a home server: register them with the served database instead (registerRerankers/registerEmbedders, or the VectorDB options)');
  checkLimits(options.db!, options.limits);
  return new SingleDatabaseResolver(options.db!, verifierOf(options));
}

function verifierOf(options: ServerOptions): TokenVerifier {
  if (options.token !== undefined && options.tokenVerifier !== undefined) throw new TypeError('give either token or tokenVerifier, not both');
  if (options.tokenVerifier !== undefined) return options.tokenVerifier;
  if (options.token === undefined) throw new TypeError('a token (or tokenVerifier) is required: the server never runs without authentication');
  return fixedTokenVerifier(options.token);
}

function checkLimits(db: Database, option: LimitsOption | undefined): void {
  if (option === undefined) return;
  for (const [name, value] of Object.entries(resolveLimits(option))) {
    if (db.limits[name as keyof Limits] !== value) {
      throw new TypeError(`limit '${name}' is ${String(value)} for the server but ${String(db.limits[name as keyof Limits])} for the database: open the Database with the limits to serve`);
    }
  }
}

/** Wildcard binds are reached through loopback; IPv6 literals need brackets. */
function connectHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}
