/**
 * Between node:http and the Fetch API objects graphql-yoga speaks: request headers as a Headers object, and a
 * Fetch Response written to a ServerResponse in one piece (with its length). Used by the GraphQL routes and the gateway.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export function requestHeaders(req: IncomingMessage, extra: Record<string, string> = {}): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}

/** Writes `response` to `res`; resolves to its status (for the request log). */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<number> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
  return response.status;
}
