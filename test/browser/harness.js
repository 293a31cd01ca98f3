/**
 * The browser test page in real headless Chromium, for test/browser/*.test.ts and bench/browser-vector.js:
 * serves the page (page.html, page.js, scenario.js and the built bundle) on 127.0.0.1 (a secure context:
 * Web Locks, crypto.randomUUID) and launches Debian's /usr/bin/chromium (or $CHROMIUM) with playwright-core,
 * which downloads nothing, on a fresh profile, so IndexedDB starts empty and survives reloads.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
export const BUNDLE = join(root, 'dist', 'browser', 'vectordb-local.js');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const FILES = {
  '/': join(here, 'page.html'),
  '/page.js': join(here, 'page.js'),
  '/scenario.js': join(here, 'scenario.js'),
  '/vectordb-local.js': BUNDLE,
  '/vectordb-local.js.map': `${BUNDLE}.map`,
};
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.map': 'application/json' };

/**
 * Serves the page on 127.0.0.1, port 0, with `files` (URL path -> file) added or replacing. With `proxy`
 * (a server's URL), every other path is passed to it, so the page reaches a Data API server at its own
 * origin (as a web app behind one host would).
 */
export async function servePage({ proxy, files = {} } = {}) {
  if (!existsSync(BUNDLE)) throw new Error(`no browser bundle at ${BUNDLE}: run npm run build`);
  const served = { ...FILES, ...files };
  const server = createServer((request, response) => {
    const file = served[new URL(request.url ?? '/', 'http://x').pathname];
    if (file === undefined && proxy !== undefined) return forward(request, response, proxy);
    if (file === undefined) return void response.writeHead(404).end();
    const type = TYPES[/\.\w+$/.exec(file)?.[0] ?? ''] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function forward(request, response, target) {
  const upstream = httpRequest(new URL(request.url, target), { method: request.method, headers: request.headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  upstream.on('error', () => response.writeHead(502).end());
  request.pipe(upstream);
}

/** Headless Chromium on a fresh profile (removed by close). */
export async function launchChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium package (.ci/run does) or set CHROMIUM`);
  const profile = mkdtempSync(join(tmpdir(), 'vectordb-chromium-'));
  // launchPersistentContext passes --user-data-dir itself.
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1000, height: 640 } });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens `url` in a new tab and waits for page.js to be ready; page errors fail `errors`. */
export async function openPage(context, url, errors = []) {
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(url);
  await page.waitForFunction(() => window.vdb !== undefined);
  return page;
}

/** Reloads a page and waits for page.js again (the page's database handles are gone, as on a crash). */
export async function reloadPage(page) {
  await page.reload();
  await page.waitForFunction(() => window.vdb !== undefined);
}
