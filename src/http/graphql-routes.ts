/**
 * The GraphQL routes: `{api_endpoint}/api/graphql/{keyspace}` (documents) and `{api_endpoint}/api/graphql-schema`
 * (keyspaces and collections), served by graphql-yoga over graphql/. Same token headers and checks as the Data
 * API routes (via the Resolver); a browser GET gets the offline GraphiQL page, which holds no data.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { executeCommand } from '../commands/index.js';
import type { Database } from '../engine/database.js';
import { VectorDbError, type WireError } from '../errors/index.js';
import { GraphqlService } from '../graphql/index.js';
import { renderExplorerPage } from '../graphql/graphiql-page.js';
import { tokenOf } from './auth.js';
import { requestHeaders, sendFetchResponse } from './fetch-bridge.js';
import { readBody } from './request-body.js';
import { splitDatabasePrefix, type Resolver } from './resolver.js';

interface GraphqlRoute {
  readonly database?: { readonly id: string; readonly region: string };
  /** Undefined for /api/graphql-schema. */
  readonly keyspace?: string;
}

interface YogaContext {
  /** The schema this request runs on, resolved before yoga is called (undefined for the GraphiQL page). */
  readonly schema: GraphQLSchema | undefined;
}

const GRAPHQL_PATH = /^\/api\/graphql(?:\/([^/?]+)\/?|-schema\/?)(?:\?.*)?$/;

/** The GraphQL route of a URL, or undefined when it is not one (`home`: paths carry `/{id}-{region}`). */
export function graphqlRoute(url: string | undefined, home: boolean): GraphqlRoute | undefined {
  let path = url;
  let database: GraphqlRoute['database'];
  if (home) {
    const split = splitDatabasePrefix(url);
    if (split === undefined) return undefined;
    path = split.rest;
    database = split.database;
  }
  const match = path === undefined ? null : GRAPHQL_PATH.exec(path);
  if (match === null) return undefined;
  let keyspace: string | undefined;
  if (match[1] !== undefined) {
    try {
      keyspace = decodeURIComponent(match[1]);
    } catch {
      return undefined;
    }
  }
  return { ...(database ? { database } : {}), ...(keyspace !== undefined ? { keyspace } : {}) };
}

export function createGraphqlHandler(resolver: Resolver, maxBodyBytes: number): (req: IncomingMessage, res: ServerResponse, route: GraphqlRoute) => Promise<number> {
  const services = new WeakMap<Database, GraphqlService>();
  const serviceOf = (db: Database): GraphqlService => {
    let service = services.get(db);
    if (service === undefined) {
      service = new GraphqlService((command, target) => executeCommand(db, command, target));
      services.set(db, service);
    }
    return service;
  };
  // Loaded on the first GraphQL request: a server that never serves GraphQL never pays for yoga.
  let yogaPromise: Promise<YogaServerInstance<YogaContext, object>> | undefined;
  const yoga = (): Promise<YogaServerInstance<YogaContext, object>> => (yogaPromise ??= import('graphql-yoga').then(({ createYoga }) => createYoga<YogaContext>({
    schema: (context) => context.schema!,
    graphqlEndpoint: '*',
    landingPage: false,
    logging: false,
    // Cross-origin access is the server's decision (cors.ts), the same for every route: yoga's default allows any origin.
    cors: false,
    graphiql: (request) => ({
      title: `vectordb-local GraphQL: ${new URL(request.url).pathname}`,
      endpoint: new URL(request.url).pathname,
      defaultQuery: '# Add your token in Headers: {"X-Vendor-Token": "<APPLICATION_TOKEN>"}\n# Then tick a collection in the Explorer to build a query.\n',
    }),
    renderGraphiQL: renderExplorerPage,
  })));

  return async (req, res, route) => {
    const url = `http://localhost${req.url ?? '/'}`;
    const method = req.method ?? 'GET';
    const headers = requestHeaders(req);
    if (method === 'GET' && (headers.get('accept') ?? '').includes('text/html')) {
      return sendFetchResponse(res, await (await yoga()).fetch(url, { method, headers }, { schema: undefined }));
    }
    if (method !== 'GET' && method !== 'POST') return sendErrors(res, 405, [VectorDbError.of('METHOD_NOT_ALLOWED', { method: method.slice(0, 20) }).toWire()]);
    const token = tokenOf(req.headers);
    if (token === undefined) return sendErrors(res, 401, [VectorDbError.of('MISSING_AUTHENTICATION_TOKEN').toWire()]);
    let db: Database;
    try {
      db = await resolver.open({ target: {}, ...(route.database ? { database: route.database } : {}) }, token, req.url);
    } catch (error) {
      if (error instanceof VectorDbError) return sendErrors(res, error.httpStatus, [error.toWire()]);
      throw error;
    }
    let body: string | undefined;
    if (method === 'POST') {
      const read = await readBody(req, maxBodyBytes);
      if (read.kind === 'aborted') return 499;
      if (read.kind === 'too-large') {
        res.setHeader('connection', 'close');
        return sendErrors(res, 413, [VectorDbError.of('REQUEST_TOO_LARGE', { size: read.size === undefined ? `more than ${maxBodyBytes}` : String(read.size), max: maxBodyBytes }).toWire()]);
      }
      body = read.text;
    }
    const service = serviceOf(db);
    let schema: GraphQLSchema;
    try {
      schema = route.keyspace === undefined ? service.ddlSchema : await service.schema(route.keyspace);
    } catch (error) {
      // An unknown keyspace is answered here: yoga would turn a failing schema factory into a masked 500.
      const failed = error as { message: string; extensions?: Record<string, unknown> };
      return sendJson(res, 200, { errors: [{ message: failed.message, extensions: failed.extensions ?? {} }] });
    }
    return sendFetchResponse(res, await (await yoga()).fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) }, { schema }));
  };
}

/** Errors before GraphQL runs (token, method, size), in GraphQL's shape with the Data API code in extensions. */
function sendErrors(res: ServerResponse, status: number, errors: WireError[]): number {
  return sendJson(res, status, {
    errors: errors.map((e) => ({ message: e.message, extensions: { code: e.errorCode, family: e.family, scope: e.scope, title: e.title } })),
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): number {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return status;
}
