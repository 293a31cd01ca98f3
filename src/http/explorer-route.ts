/**
 * `GET /`: the Data Explorer page (dist/explorer/index.html, which scripts/build-explorer.js writes). The page
 * is code only and holds no data: everything it shows comes from Data API commands sent with the token the
 * user types into it, checked like any other request. Its Content-Security-Policy allows its own inline
 * script (by hash) and requests to this origin, nothing else.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** From dist/http/ and from the bundle in dist/node/ alike (one folder below dist/). */
const PAGE = new URL('../explorer/index.html', import.meta.url);

interface Page {
  readonly html: string;
  readonly csp: string;
}

let page: Promise<Page | undefined> | undefined;

async function loadPage(): Promise<Page | undefined> {
  let html: string;
  try {
    html = await readFile(PAGE, 'utf8');
  } catch {
    return undefined; // not built (a run from src/): answered with how to build it
  }
  const { createHash } = await import('node:crypto'); // at first use: a cold import of the package loads no crypto
  const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  const csp = `default-src 'none'; script-src ${scripts.join(' ')}; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return { html, csp };
}

/** True for a GET or HEAD of `/` (a query string allowed). */
export function isExplorerRequest(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && (req.url === '/' || req.url?.startsWith('/?') === true);
}

/** Answers the page; resolves to the HTTP status sent. */
export async function serveExplorer(req: IncomingMessage, res: ServerResponse): Promise<number> {
  page ??= loadPage();
  const loaded = await page;
  if (loaded === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('The Data Explorer page is not built: run `npm run build` (it writes dist/explorer/index.html).\n');
    return 404;
  }
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(loaded.html),
    'cache-control': 'no-store',
    'content-security-policy': loaded.csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : loaded.html);
  return 200;
}
