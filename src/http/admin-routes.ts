/**
 * The administration routes of a home server, for Organization Administrator tokens (HomeAdmin checks it on
 * every call): `GET|POST /v2/databases`, `GET|DELETE /v2/databases/{id}`, `POST|DELETE /v2/databases/{id}/keyspaces/{ks}`.
 * JSON in and out; errors in the `{errors: [...]}` envelope with an HTTP status per code (see STATUS).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HomeAdmin, type DatabaseInfo } from '../admin/index.js';
import { httpStatusOfResponse, type CommandResponse } from '../commands/index.js';
import { VectorDbError, type ErrorCode } from '../errors/index.js';
import { tokenOf } from './auth.js';
import { readBody } from './request-body.js';
import type { HomeResolver } from './resolver.js';

/** Statuses for codes whose Data API status is 200 (a command error) but are a resource's state here. */
const STATUS: Partial<Record<ErrorCode, number>> = {
  DATABASE_NOT_FOUND: 404,
  UNKNOWN_KEYSPACE: 404,
  KEYSPACE_ALREADY_EXISTS: 409,
  DATABASE_LOCKED: 409,
  DATABASE_IN_USE: 409,
};

/** Whether a URL is one of the administration routes' paths (`/v2/...`). */
export function isAdminPath(url: string | undefined): boolean {
  return url !== undefined && (url === '/v2' || url.startsWith('/v2/'));
}

interface Reply {
  readonly status: number;
  readonly body: unknown;
}

/** Answers one administration request; never throws. */
export async function handleAdmin(req: IncomingMessage, res: ServerResponse, resolver: HomeResolver, maxBodyBytes: number): Promise<number> {
  let reply: Reply;
  try {
    reply = await route(req, resolver, maxBodyBytes);
  } catch (error) {
    reply = error instanceof VectorDbError ? failure(error) : { status: 500, body: { errors: [VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: String((error as Error)?.message ?? error) }).toWire()] } };
  }
  const body = Buffer.from(JSON.stringify(reply.body), 'utf8');
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(reply.status, ['content-type', 'application/json', 'content-length', body.length]);
    res.end(body);
  }
  return reply.status;
}

function failure(error: VectorDbError): Reply {
  const envelope: CommandResponse = { errors: [error.toWire()] };
  const status = STATUS[error.code] ?? httpStatusOfResponse(envelope);
  return { status: status === 200 ? 400 : status, body: envelope };
}

async function route(req: IncomingMessage, resolver: HomeResolver, maxBodyBytes: number): Promise<Reply> {
  const path = (req.url ?? '').split('?')[0]!.replace(/\/$/, '');
  const segments = path.split('/').slice(3).map(decodeSegment); // after '', 'v2', 'databases'
  const method = req.method ?? '';
  if (!path.startsWith('/v2/databases') || (path.length > 13 && path[13] !== '/') || segments.length > 3 || (segments.length >= 2 && segments[1] !== 'keyspaces') || segments.length === 2) {
    throw VectorDbError.of('RESOURCE_NOT_FOUND', { path: path.slice(0, 200) });
  }
  const admin = new HomeAdmin(tokenOf(req.headers) ?? '', resolver.home);
  const base = serverUrl(req);
  const withEndpoint = (d: DatabaseInfo): DatabaseInfo => ({ ...d, endpoint: `${base}/${d.id}-${d.region}` });
  const [id, , keyspace] = segments;
  const allow = (): never => {
    throw VectorDbError.of('METHOD_NOT_ALLOWED', { method: method.slice(0, 20) });
  };
  if (id === undefined) {
    if (method === 'GET') return { status: 200, body: (await admin.listDatabases()).map(withEndpoint) };
    if (method !== 'POST') return allow();
    const body = await jsonBody(req, maxBodyBytes);
    const name = body.name;
    const region = body.region;
    if (typeof name !== 'string' || (region !== undefined && typeof region !== 'string')) {
      throw VectorDbError.of('INVALID_ARGUMENT', { reason: 'the body must be {"name": string, "region"?: string}' });
    }
    return { status: 201, body: { id: await admin.createDatabase(name, region) } };
  }
  if (keyspace === undefined) {
    if (method === 'GET') {
      const found = await admin.findDatabase(id);
      if (found === undefined) throw VectorDbError.of('DATABASE_NOT_FOUND', { database: id, where: '' });
      return { status: 200, body: withEndpoint(found) };
    }
    if (method !== 'DELETE') return allow();
    const found = await admin.findDatabase(id);
    if (found === undefined) throw VectorDbError.of('DATABASE_NOT_FOUND', { database: id, where: '' });
    await resolver.release(found.id); // the server's own handle must not keep it in use
    await admin.deleteDatabase(found.id);
    return { status: 200, body: { deleted: found.id } };
  }
  if (method === 'POST') {
    await admin.createKeyspace(id, keyspace);
    return { status: 201, body: { keyspace } };
  }
  if (method !== 'DELETE') return allow();
  await admin.deleteKeyspace(id, keyspace);
  return { status: 200, body: { deleted: keyspace } };
}

async function jsonBody(req: IncomingMessage, maxBodyBytes: number): Promise<Record<string, unknown>> {
  const body = await readBody(req, maxBodyBytes);
  if (body.kind === 'too-large') throw VectorDbError.of('REQUEST_TOO_LARGE', { size: String(body.size ?? `more than ${maxBodyBytes}`), max: maxBodyBytes });
  if (body.kind === 'aborted') throw VectorDbError.of('INVALID_ARGUMENT', { reason: 'the request was aborted' });
  try {
    const parsed: unknown = body.text.trim() === '' ? {} : JSON.parse(body.text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch (error) {
    throw VectorDbError.of('REQUEST_NOT_JSON', { problem: String((error as Error).message).slice(0, 300) });
  }
  throw VectorDbError.of('INVALID_ARGUMENT', { reason: 'the body must be a JSON object' });
}

/** The base URL the client used (its Host header), for the records' endpoints. */
function serverUrl(req: IncomingMessage): string {
  const host = req.headers.host ?? `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 0}`;
  return `http://${host}`;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw VectorDbError.of('RESOURCE_NOT_FOUND', { path: segment.slice(0, 200) });
  }
}
