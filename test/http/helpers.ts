/**
 * Helpers for the HTTP tests: a served Database on a temp dir with a known token, and a raw POST with fetch.
 * Test-only; the server under test is the real createServer.
 */
import { randomBytes } from 'node:crypto';
import { executeCommand, type CommandResponse } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { LimitsOption } from '../../src/engine/limits.js';
import { createServer, type DataApiServer, type ServerOptions } from '../../src/http/index.js';
import { tempDir } from '../support/temp.js';

export interface Served {
  readonly db: Database;
  readonly server: DataApiServer;
  readonly url: string;
  readonly token: string;
  readonly dir: string;
  close(): Promise<void>;
}

/** `dir`: serve the database already in that directory (a restart) instead of a new one. */
export async function serve(options: Partial<Omit<ServerOptions, 'db'>> & { limits?: LimitsOption; dir?: string } = {}): Promise<Served> {
  const dir = options.dir ?? tempDir('vectordb-http-');
  const db = await Database.open(dir, options.limits ? { limits: options.limits } : {});
  const token = options.token ?? `VDBL:${randomBytes(12).toString('hex')}`;
  const { token: _given, tokenVerifier, dir: _dir, ...rest } = options;
  const server = createServer({ port: 0, ...rest, db, ...(tokenVerifier ? { tokenVerifier } : { token }) });
  await server.listen();
  return {
    db,
    server,
    url: server.url,
    token,
    dir,
    async close() {
      await server.close();
      await db.close();
    },
  };
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: CommandResponse;
}

/**
 * POSTs `body` (an object is JSON-encoded, a string or bytes sent as is) with JSON content type and the token;
 * a header given as undefined (e.g. `{ token: undefined }`) is left out.
 */
export async function post(s: Served, path: string, body: unknown, headers: Record<string, string | undefined> = {}, method = 'POST'): Promise<Reply> {
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const payload = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ 'content-type': 'application/json', token: s.token, ...headers })) {
    if (value !== undefined) merged[name] = value;
  }
  const response = await fetch(s.url + path, {
    method,
    headers: merged,
    ...(hasBody ? { body: payload as BodyInit } : {}), // BodyInit: DOM and undici typings disagree on Uint8Array
  });
  const text = await response.text();
  let parsed: CommandResponse = {};
  try {
    parsed = JSON.parse(text) as CommandResponse;
  } catch {
    // left empty: the assertion on status/text will tell
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Runs a command in process (setup and checks that must not depend on the HTTP path). */
export function run(db: Database, command: Record<string, unknown>, target: { keyspace?: string; collection?: string } = {}): Promise<CommandResponse> {
  return executeCommand(db, command, target);
}

export function firstErrorCode(reply: Reply): string | undefined {
  return reply.body.errors?.[0]?.errorCode;
}
