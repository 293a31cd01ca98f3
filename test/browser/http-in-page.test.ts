/**
 * The browser bundle's HTTP transport in headless Chromium: a page reaches a real Data API server
 * (src/http on 127.0.0.1, behind the page's own origin) with `new VectorDB(token, url)` over fetch, and
 * gets the same answers as the Node build in-process; a wrong token is refused as it is from Node. A server on
 * another origin is reached only when it allows the page's origin (corsOrigins).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Database } from '../../src/engine/database.js';
import { createServer, type DataApiServer } from '../../src/http/index.js';
import { VectorDB } from '../../src/index.js';
import { tempDir } from '../support/temp.js';
import { launchChromium, openPage, servePage } from './harness.js';
import { LIMITS, loadCollection, makeDocuments, queryCollection, type Answers } from './scenario.js';

const DOCUMENTS = makeDocuments(300, 32, 5);
const QUERY = makeDocuments(1, 32, 11)[0]!.$vector;
const TOKEN = `VDBL:${randomBytes(16).toString('hex')}`;

let database: Database;
let server: DataApiServer;
/** The same database served on another port (another origin) that allows the page's origin. */
let corsServer: DataApiServer;
let pageServer: Awaited<ReturnType<typeof servePage>>;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let expected: Answers;

beforeAll(async () => {
  database = await Database.open(tempDir(), { vectorBackend: 'wasm', limits: LIMITS });
  server = createServer({ db: database, token: TOKEN, port: 0, limits: LIMITS });
  await server.listen();
  const node = new VectorDB(TOKEN, server.url);
  expected = await queryCollection(await loadCollection(node, 'items', DOCUMENTS), QUERY);
  await node.close();
  pageServer = await servePage({ proxy: server.url });
  corsServer = createServer({ db: database, token: TOKEN, port: 0, limits: LIMITS, corsOrigins: [new URL(pageServer.url).origin] });
  await corsServer.listen();
  chromium = await launchChromium();
  page = await openPage(chromium.context, pageServer.url);
});

afterAll(async () => {
  await chromium?.close();
  await pageServer?.close();
  await corsServer?.close();
  await server?.close();
  await database?.close();
});

it('a page queries a Data API server over fetch and gets the Node build answers', async () => {
  expect(expected.all).toBe(300);
  await page.evaluate(([url, token]) => window.vdb.openRemote(url!, token!), [pageServer.url, TOKEN]);
  expect(await page.evaluate((query) => window.vdb.query(query), QUERY)).toEqual(expected);
});

it('a wrong token is refused in the page as from Node', async () => {
  const refused = await page.evaluate(async (url) => {
    try {
      await window.vdb.openRemote(url, 'not-the-token');
      return 'connected';
    } catch (error) {
      return String((error as Error).message);
    }
  }, pageServer.url);
  expect(refused).toMatch(/token/i);
});

it('a server on another origin answers the page only when it allows that origin (CORS)', async () => {
  const connect = (url: string) =>
    page.evaluate(async ([url, token]) => {
      try {
        await window.vdb.openRemote(url!, token!);
        return 'connected';
      } catch (error) {
        return String((error as Error).message);
      }
    }, [url, TOKEN]);
  expect(await connect(server.url)).toMatch(/fetch/i); // the browser withholds the answer: no Access-Control-Allow-Origin
  expect(await connect(corsServer.url)).toBe('connected');
  expect(await page.evaluate((query) => window.vdb.query(query), QUERY)).toEqual(expected);
});
