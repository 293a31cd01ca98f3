/**
 * Cross-origin access, off unless the server is given origins: a page served from another origin (a web app
 * on its own dev server, an Electron renderer loaded from file://, whose origin is `null`) may then call the
 * server from the browser. CORS only lets the browser hand the page the answer: every request still needs
 * its token, and a preflight (OPTIONS) is answered here without reaching a database.
 */
import type { RequestHandler } from './handler.js';

/** The origins allowed to call the server from a page: exact origins (`http://localhost:5173`, `null`) or `*`. */
export type CorsOrigins = readonly string[];

/** The methods the server's routes take (the Data API and GraphQL are POST; administration and GraphiQL also GET and DELETE). */
const METHODS = 'GET, POST, DELETE';
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

/** Checks the origins a user gave: each must be `*`, `null` or a scheme://host[:port] origin with nothing after it. */
export function checkCorsOrigins(origins: CorsOrigins): CorsOrigins {
  for (const origin of origins) {
    if (origin === '*' || origin === 'null') continue;
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new TypeError(`CORS origin '${origin}' is not an origin: give scheme://host[:port], such as http://localhost:5173, or null, or *`);
    }
    if (parsed.origin !== origin) {
      throw new TypeError(`CORS origin '${origin}' is not an origin (no path, no trailing slash): did you mean '${parsed.origin}'?`);
    }
  }
  return origins;
}

/**
 * Wraps a request handler with CORS: the allowed Origin is echoed on every answer (so each origin sees only
 * its own), and a preflight gets 204 with the methods and the headers it asked for. Requests from other
 * origins are served as before, without the headers, so the browser withholds the answer from their page.
 */
export function withCors(origins: CorsOrigins, handler: RequestHandler): RequestHandler {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return async (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined || !(any || allowed.has(origin))) return handler(req, res);
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      const requested = req.headers['access-control-request-headers'];
      res.writeHead(204, {
        'access-control-allow-methods': METHODS,
        ...(requested !== undefined ? { 'access-control-allow-headers': requested } : {}),
        'access-control-max-age': PREFLIGHT_MAX_AGE,
        'content-length': '0',
      });
      res.end();
      return;
    }
    return handler(req, res);
  };
}
