/**
 * `GET /`: the Data Explorer page (dist/explorer/index.html, which scripts/build-explorer.js writes). The page
 * is code only and holds no data: everything it shows comes from Data API commands sent with the token the
 * user types into it, checked like any other request. Its Content-Security-Policy allows its own inline
 * script (by hash) and requests to this origin, nothing else. Serving a home (`serve --home`), the page is also
 * answered at each database's own path, `/{id}-{region}/` (a database token's way in: it may not list the
 * home's databases), and its `vectordb-local-serving` meta says `home` so that it picks a database first.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** From dist/http/ and from the bundle in dist/node/ alike (one folder below dist/). */
const PAGE = new URL('../explorer/index.html', import.meta.url);

interface Page {
  /** The page as served for one database (`serve --data`) and for a home. */
  readonly html: { readonly database: string; readonly home: string };
  readonly csp: string;
}

/** What the server serves, as the page's meta tells it. */
export type Serving = 'database' | 'home';

let page: Promise<Page | undefined> | undefined;
const SERVING_META = '<meta name="vectordb-local-serving" content="database">';

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
  return { html: { database: html, home: html.replace(SERVING_META, SERVING_META.replace('database', 'home')) }, csp };
}

/** A database's own path in a home, `/{id}-{region}` with or without a final slash (a query string allowed). */
const DATABASE_PAGE = /^\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[a-z0-9-]+\/?(\?.*)?$/i;

/** True for a GET or HEAD of `/` (a query string allowed), or of a database's own path when serving a home. */
export function isExplorerRequest(req: IncomingMessage, serving: Serving): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.url === '/' || req.url?.startsWith('/?') === true) return true;
  return serving === 'home' && req.url !== undefined && DATABASE_PAGE.test(req.url);
}

/** Answers the page; resolves to the HTTP status sent. */
export async function serveExplorer(req: IncomingMessage, res: ServerResponse, serving: Serving): Promise<number> {
  page ??= loadPage();
  const loaded = await page;
  if (loaded === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('The Data Explorer page is not built: run `npm run build` (it writes dist/explorer/index.html).\n');
    return 404;
  }
  const html = loaded.html[serving];
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'content-security-policy': loaded.csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : html);
  return 200;
}
