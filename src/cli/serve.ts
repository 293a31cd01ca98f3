/**
 * `vectordb-local serve`: open the data directory, settle the token, start the HTTP server, print how to
 * connect, and on SIGINT/SIGTERM stop accepting, finish requests in flight, close the database and exit 0.
 * Wiring only: the server is http/, the database engine/.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Database } from '../engine/database.js';
import { isVectorDbError } from '../errors/index.js';
import { createServer, type RequestLogEntry } from '../http/index.js';
import { banner } from './banner.js';
import { requestLogLine } from './request-log.js';
import type { ServeOptions } from './serve-options.js';
import { serveHome } from './serve-home.js';
import { resolveToken } from './token.js';
import { registerRerankers } from '../providers/rerankers.js';
import { registerEmbedders } from '../providers/embedders.js';

export type { ServeOptions } from './serve-options.js';

/** Runs until a signal; resolves with the process exit code. */
export async function serve(options: ServeOptions): Promise<number> {
  if (options.home !== undefined) return serveHome({ ...options, home: options.home });
  const data = path.resolve(options.data);
  let db: Database;
  try {
    await mkdir(data, { recursive: true });
    db = await Database.open(data, {
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.bodyCacheBytes !== undefined ? { bodyCacheBytes: options.bodyCacheBytes } : {}),
      ...(options.durability !== undefined ? { durability: options.durability } : {}),
      onProgress: (p) => console.error(`vectordb-local: building the vector index of ${p.collection}: ${p.done} of ${p.total}`),
    });
  } catch (error) {
    console.error(`vectordb-local: cannot open ${data}: ${messageOf(error)}`);
    return 1;
  }
  let flag = '--reranker';
  try {
    registerRerankers(db, options.rerankers);
    flag = '--embedder';
    registerEmbedders(db, options.embedders);
  } catch (error) {
    console.error(`vectordb-local: ${flag}: ${messageOf(error)}`);
    await db.close().catch(() => undefined);
    return 1;
  }
  const log = options.log ? (e: RequestLogEntry) => console.log(requestLogLine(e)) : undefined;
  let server;
  let announcement: string;
  try {
    const token = await resolveToken(db, options.token);
    server = createServer({
      db,
      tokenVerifier: token.verifier,
      host: options.host,
      port: options.port,
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(log ? { onRequest: log } : {}),
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    });
    await server.listen();
    announcement = banner({ version: options.version, data, url: server.url, host: options.host, source: token.source, generated: token.generated, limits: db, corsOrigins: options.corsOrigins, durability: options.durability });
  } catch (error) {
    console.error(`vectordb-local: cannot serve ${data} on ${options.host}:${options.port}: ${messageOf(error)}`);
    await db.close().catch(() => undefined);
    return 1;
  }
  const running = server;
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        console.error(`vectordb-local: ${signal} again, exiting without waiting`);
        process.exit(1);
      }
      stopping = true;
      console.log(`vectordb-local: ${signal}: finishing requests in flight, then closing the database`);
      void (async () => {
        let code = 0;
        try {
          await running.close();
          await db.close();
          console.log('vectordb-local: stopped');
        } catch (error) {
          console.error(`vectordb-local: error while stopping: ${messageOf(error)}`);
          code = 1;
        }
        resolve(code);
      })();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Printed once the handlers are in: a supervisor may send SIGTERM as soon as it reads the endpoint.
    console.log(announcement);
  });
}

function messageOf(error: unknown): string {
  if (isVectorDbError(error)) return error.message;
  const code = (error as { code?: unknown })?.code;
  if (code === 'EADDRINUSE') return 'the port is already in use (pick another with --port or PORT)';
  if (code === 'EACCES') return 'permission denied (ports below 1024 need privileges; pick another with --port)';
  return error instanceof Error ? error.message : String(error);
}
