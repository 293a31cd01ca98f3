/**
 * One request, in order: route (404) -> method (405) -> token and database (401, via the Resolver) -> content type (415) -> body size (413)
 * -> JSON (REQUEST_NOT_JSON) -> executeCommand -> the envelope with the HTTP status its error codes carry.
 * Every envelope comes from commands/; the only status decided here is 500 for a failure of this adapter.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorEnvelope, executeCommand, httpStatusOfResponse, type CommandResponse, type RequestOptions } from '../commands/index.js';
import { VectorDbError } from '../errors/index.js';
import { tokenOf } from './auth.js';
import { isJsonContentType, readBody } from './request-body.js';
import type { Resolver } from './resolver.js';
import { displayPath } from './routes.js';
import { parseJsonText, toJsonText } from '../query/exact-number.js';

/** What the server reports per request (never headers, so never a token). */
export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The error code of a failed command (its HTTP status is usually 200). */
  readonly errorCode?: string;
  readonly ms: number;
}

export interface HandlerOptions {
  /** Maps the path and token to the database and target (one database, or a home's). */
  readonly resolver: Resolver;
  readonly maxBodyBytes: number;
  /** True once the server is shutting down: responses then close their connection. */
  readonly isClosing: () => boolean;
  readonly onRequest?: ((entry: RequestLogEntry) => void) | undefined;
  /** Ends a response whose head is written (the server batches them: response-batch.ts); default `res.end`. */
  readonly endResponse?: ((res: ServerResponse, body: string) => void) | undefined;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createHandler(options: HandlerOptions): RequestHandler {
  const { resolver, maxBodyBytes, isClosing, onRequest } = options;
  const endResponse = options.endResponse ?? ((res: ServerResponse, body: string) => void res.end(body, 'utf8'));

  const send = (req: IncomingMessage, res: ServerResponse, envelope: CommandResponse, started: number, extra: { status?: number; close?: boolean; allow?: boolean } = {}): void => {
    if (res.headersSent || res.destroyed) return;
    let status = extra.status ?? httpStatusOfResponse(envelope);
    let body: string;
    try {
      body = toJsonText(envelope);
    } catch (error) {
      status = 500;
      body = JSON.stringify(errorEnvelope('UNEXPECTED_SERVER_ERROR', { reason: `response could not be serialised: ${(error as Error).message}` }));
    }
    const headers: (string | number)[] = ['content-type', 'application/json', 'content-length', Buffer.byteLength(body, 'utf8')];
    if (extra.allow) headers.push('allow', 'POST');
    if (extra.close || isClosing()) headers.push('connection', 'close');
    res.writeHead(status, headers); // the flat [name, value, ...] form skips an object walk
    // A string body goes out with the head in one write (node:http joins them); a Buffer would be a second chunk.
    endResponse(res, body);
    const errorCode = envelope.errors?.[0]?.errorCode;
    onRequest?.({ method: req.method ?? '', path: displayPath(req.url), status, ...(errorCode !== undefined ? { errorCode } : {}), ms: performance.now() - started });
  };

  return async (req, res) => {
    const started = onRequest ? performance.now() : 0;
    try {
      const route = resolver.route(req.url);
      if (route === undefined) return send(req, res, errorEnvelope('RESOURCE_NOT_FOUND', { path: displayPath(req.url) }), started);
      if (req.method !== 'POST') {
        return send(req, res, errorEnvelope('METHOD_NOT_ALLOWED', { method: String(req.method).slice(0, 20) }), started, { allow: true });
      }
      const token = tokenOf(req.headers);
      if (token === undefined) return send(req, res, errorEnvelope('MISSING_AUTHENTICATION_TOKEN'), started);
      let db;
      try {
        db = await resolver.open(route, token, req.url);
      } catch (error) {
        if (error instanceof VectorDbError) return send(req, res, { errors: [error.toWire()] }, started);
        throw error;
      }
      const contentType = req.headers['content-type'];
      if (!isJsonContentType(contentType)) {
        return send(req, res, errorEnvelope('UNSUPPORTED_CONTENT_TYPE', { contentType: String(contentType).slice(0, 100) }), started);
      }
      const body = await readBody(req, maxBodyBytes);
      if (body.kind === 'aborted') return; // the client is gone; nothing to answer
      if (body.kind === 'too-large') {
        // The body was drained (within bounds) so the client reads this answer; the connection still closes.
        const size = body.size === undefined ? `more than ${maxBodyBytes}` : String(body.size);
        return send(req, res, errorEnvelope('REQUEST_TOO_LARGE', { size, max: maxBodyBytes }), started, { close: true });
      }
      const text = body.text.charCodeAt(0) === 0xfeff ? body.text.slice(1) : body.text;
      if (text.trim().length === 0) {
        // The reference's code for a null command, with a message that says what actually happened.
        return send(req, res, errorEnvelope('COMMAND_FIELD_VALUE_INVALID', { field: 'command', value: '`null`', reason: 'the request body is empty: send one JSON command, such as {"findCollections": {}}' }), started);
      }
      let command: unknown;
      try {
        command = parseJsonText(text); // numbers kept exact (query/exact-number.ts)
      } catch (error) {
        return send(req, res, errorEnvelope('REQUEST_NOT_JSON', { problem: String((error as Error).message).slice(0, 300) }), started);
      }
      send(req, res, await executeCommand(db, command, route.target, providerKeysOf(req)), started);
    } catch (error) {
      // A bug in this adapter or a throwing verifier: answer 500 and keep serving.
      send(req, res, errorEnvelope('UNEXPECTED_SERVER_ERROR', { reason: (error as Error)?.message ?? String(error) }), started, { status: 500, close: true });
    }
  };
}

/** The provider keys a request carries (astra-db-ts's embeddingApiKey and rerankingApiKey headers). */
function providerKeysOf(req: IncomingMessage): RequestOptions | undefined {
  const embeddingApiKey = req.headers['x-embedding-api-key'];
  const rerankingApiKey = req.headers['x-rerank-api-key'];
  if (typeof embeddingApiKey !== 'string' && typeof rerankingApiKey !== 'string') return undefined;
  return { ...(typeof embeddingApiKey === 'string' ? { embeddingApiKey } : {}), ...(typeof rerankingApiKey === 'string' ? { rerankingApiKey } : {}) };
}
