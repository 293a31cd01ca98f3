/**
 * The local gateway: serves the workspace's schema at POST /api/<endpoint>/__graphql (Authorization: Apikey
 * required, 401 otherwise) and its explorer (GraphiQL with the query-building Explorer, offline) at
 * GET /api/<endpoint>, loopback clients only since the page carries the API key. Rebuilds on workspace changes.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { renderExplorerPage } from '../../graphql/graphiql-page.js';
import { requestHeaders, sendFetchResponse } from '../../http/fetch-bridge.js';
import { gatewaySchema } from './gateway-schema.js';
import { CONFIG_FILE, readWorkspace } from './workspace.js';

export interface GatewayOptions {
  readonly dir: string;
  readonly apiKey: string;
  readonly host: string;
  readonly port: number;
  /** Called after each rebuild triggered by a file change (the error when it failed: the last good schema stays). */
  readonly onRedeploy?: (error?: Error) => void;
}

export interface RunningGateway {
  readonly url: string;
  readonly endpoint: string;
  close(): Promise<void>;
}

/** As the database server's default: no GraphQL request needs more. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;
const sha = (text: string): Buffer => createHash('sha256').update(text).digest();

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  let workspace = await readWorkspace(options.dir);
  let schema: GraphQLSchema = await gatewaySchema(options.dir, workspace);
  const key = sha(`Apikey ${options.apiKey}`);
  const yoga = createYoga({
    schema: () => schema,
    graphqlEndpoint: '*',
    landingPage: false,
    logging: false,
    graphiql: () => ({
      title: `vectordb-local gateway: ${workspace.endpoint}`,
      endpoint: `/${workspace.endpoint}/__graphql`,
      headers: JSON.stringify({ Authorization: `Apikey ${options.apiKey}` }),
      defaultQuery: '# Tick a collection in the Explorer to build a query, then run it (Ctrl-Enter).\n',
    }),
    renderGraphiQL: renderExplorerPage,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/$/, '');
    const explorer = `/${workspace.endpoint}`;
    if (pathname === explorer && req.method === 'GET') {
      if (!isLoopback(req.socket.remoteAddress)) return json(res, 403, { errors: [{ message: 'the explorer is served to this machine only' }] });
      return forward(req, res, yoga, { accept: 'text/html' });
    }
    if (pathname !== `${explorer}/__graphql`) return json(res, 404, { errors: [{ message: `no endpoint at ${pathname}: the gateway serves ${explorer}/__graphql` }] });
    const auth = String(req.headers.authorization ?? '');
    if (!timingSafeEqual(sha(auth), key)) {
      return json(res, 401, { errors: [{ message: 'Unauthorized: send Authorization: Apikey <API_KEY> (vectordb-local gateway whoami --apikey)', extensions: { code: 'UNAUTHENTICATED' } }] });
    }
    return forward(req, res, yoga);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 500, { errors: [{ message: `gateway error: ${(error as Error).message}` }] }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });

  // Redeploy on .graphql and config changes, 500 ms after the last one (editors write in several steps).
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(options.dir, { recursive: true }, (_event, file) => {
    const name = String(file ?? '');
    if (!name.endsWith('.graphql') && name !== CONFIG_FILE) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      readWorkspace(options.dir)
        .then(async (next) => {
          schema = await gatewaySchema(options.dir, next);
          workspace = next;
          options.onRedeploy?.();
        })
        .catch((error: Error) => options.onRedeploy?.(error));
    }, 500);
  });

  const address = server.address() as AddressInfo;
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    get endpoint() {
      return workspace.endpoint;
    },
    async close() {
      clearTimeout(timer);
      watcher.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function forward(req: IncomingMessage, res: ServerResponse, yoga: { fetch: (url: string, init: RequestInit) => Promise<Response> | Response }, extra: Record<string, string> = {}): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (req.method === 'POST') {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) return json(res, 413, { errors: [{ message: `request body over ${MAX_BODY_BYTES} bytes` }] });
      chunks.push(chunk as Buffer);
    }
  }
  const init: RequestInit = { method: req.method ?? 'GET', headers: requestHeaders(req, extra), ...(chunks.length ? { body: Buffer.concat(chunks) as unknown as BodyInit } : {}) };
  await sendFetchResponse(res, await yoga.fetch(`http://localhost${req.url ?? '/'}`, init));
}

function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
