/**
 * `vectordb-local serve --home DIR`: serves every database of a home at `/{id}-{region}/v1` plus the
 * administration routes, with the home's tokens and the `--reranker`/`--embedder` providers registered with each
 * database; on SIGINT/SIGTERM finishes requests, closes the databases, exits 0.
 */
import { existsSync } from 'node:fs';
import { readRegistry, resolveHome } from '../admin/index.js';
import { isVectorDbError } from '../errors/index.js';
import { presetOf, resolveLimits } from '../engine/limits.js';
import { createServer, type DataApiServer, type RequestLogEntry } from '../http/index.js';
import { describeLimits } from './banner.js';
import { requestLogLine } from './request-log.js';
import type { ServeOptions } from './serve-options.js';

export async function serveHome(options: ServeOptions & { readonly home: string }): Promise<number> {
  const home = resolveHome(options.home);
  let server: DataApiServer;
  let announcement: string;
  try {
    if (!existsSync(home)) throw new Error(`no home at ${home}: create one with vectordb-local init --home ${home}`);
    const registry = await readRegistry(home);
    const log = options.log ? (e: RequestLogEntry) => console.log(requestLogLine(e)) : undefined;
    server = createServer({
      home,
      host: options.host,
      port: options.port,
      databaseOptions: {
        ...(options.limits ? { limits: options.limits } : {}),
        ...(options.bodyCacheBytes !== undefined ? { bodyCacheBytes: options.bodyCacheBytes } : {}),
        ...(options.durability !== undefined ? { durability: options.durability } : {}),
      },
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(log ? { onRequest: log } : {}),
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
      providers: { rerankers: options.rerankers, embedders: options.embedders },
    });
    await server.listen();
    const lines = [
      `vectordb-local ${options.version}: serving the home ${home}`,
      `  endpoint: ${server.url}`,
      `  administration: ${server.url}/v2/databases (Organization Administrator tokens)`,
      `  explorer: ${server.url}/ (the Data Explorer; a Database Administrator token opens its database's own address below)`,
      `  limits: ${describeLimits(presetOf(options.limits), resolveLimits(options.limits))}`,
    ];
    if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) {
      lines.push(`  cors: pages of ${options.corsOrigins.join(', ')} may call this server from a browser (with a token)`);
    }
    for (const d of registry.databases) lines.push(`  database ${d.name}: ${server.url}/${d.id}-${d.region}`);
    lines.push(`  graphql: {database}/api/graphql/{keyspace} and {database}/api/graphql-schema`);
    announcement = lines.join('\n');
  } catch (error) {
    console.error(`vectordb-local: cannot serve the home ${home} on ${options.host}:${options.port}: ${isVectorDbError(error) || error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const running = server;
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) process.exit(1);
      stopping = true;
      console.log(`vectordb-local: ${signal}: finishing requests in flight, then closing the databases`);
      running.close().then(
        () => resolve(0),
        (error: unknown) => {
          console.error(`vectordb-local: error while stopping: ${String(error)}`);
          resolve(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Printed once the handlers are in: a supervisor may send SIGTERM as soon as it reads the endpoint.
    console.log(announcement);
  });
}

