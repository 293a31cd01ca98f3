/**
 * Both explorers in real headless Chromium (Debian's /usr/bin/chromium via playwright-core): the database's
 * GraphiQL at /api/graphql/{keyspace} and the gateway's at /api/<endpoint>. The collections are Explorer
 * checkboxes; ticking one builds a query, running it shows the documents; no request fails. Screenshots go
 * to docs/ (shown in the README) with VECTORDB_UPDATE_SCREENSHOTS=1.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { introspect } from '../../src/cli/gateway/introspect.js';
import { startGateway, type RunningGateway } from '../../src/cli/gateway/gateway-server.js';
import { addSource } from '../../src/cli/gateway/workspace.js';
import { serve, type Served } from '../http/helpers.js';
import { tempDir } from '../support/temp.js';

const CHROMIUM = '/usr/bin/chromium';
/** docs/ is refreshed on request only (VECTORDB_UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean. */
const DOCS = process.env.VECTORDB_UPDATE_SCREENSHOTS === '1' ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs') : tempDir('vectordb-screenshots-');
const API_KEY = 'demo::local::browser-test-key';

let s: Served;
let gateway: RunningGateway;
let browser: BrowserContext;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  s = await serve();
  const ks = { keyspace: 'default_keyspace' };
  await executeCommand(s.db, { createCollection: { name: 'books', options: { vector: { dimension: 2 } } } }, ks);
  await executeCommand(s.db, { createCollection: { name: 'authors' } }, ks);
  await executeCommand(s.db, { insertMany: { documents: [{ _id: 'b1', title: 'Moby Dick', year: 1851, $vector: [1, 0] }, { _id: 'b2', title: 'Emma', year: 1815, $vector: [0, 1] }] } }, { ...ks, collection: 'books' });
  await executeCommand(s.db, { insertOne: { document: { _id: 'a1', name: 'Herman Melville' } } }, { ...ks, collection: 'authors' });
  const dir = tempDir('vectordb-explorer-ws-');
  const url = `${s.url}/api/graphql/default_keyspace`;
  const headers = [{ name: 'X-Vendor-Token', value: s.token }];
  await addSource(dir, 'api/library', { url, prefix: 'lib_', headers }, printSchema(await introspect(url, headers)));
  gateway = await startGateway({ dir, apiKey: API_KEY, host: '127.0.0.1', port: 0 });
  browser = await chromium.launchPersistentContext(tempDir('vectordb-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(DOCS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await s?.close();
});

/** Opens an explorer page, ticks `collection` > values > _id, title, runs the query and returns the page. */
async function buildAndRun(url: string, collection: string, otherCollection: string, headers: Record<string, string>): Promise<{ page: Page; failed: string[]; query: string }> {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.setExtraHTTPHeaders(headers);
  const failed: string[] = [];
  page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()} HTTP ${response.status()}`);
  });
  await page.goto(url);
  const box = page.locator(`.graphiql-explorer-${collection} > span`).first();
  await box.waitFor({ timeout: 30_000 });
  await expect(page.locator(`.graphiql-explorer-${otherCollection}`).count()).resolves.toBe(1);
  await box.click();
  await page.locator(`.graphiql-explorer-${collection} .graphiql-explorer-values > span`).first().click();
  for (const field of ['_id', 'title']) await page.locator(`.graphiql-explorer-${collection} .graphiql-explorer-values .graphiql-explorer-${field} > span`).first().click();
  const editor = page.locator('.graphiql-query-editor');
  await expect.poll(() => editor.innerText(), { timeout: 10_000 }).toContain('title');
  const query = (await editor.innerText()).replace(/\s+/g, ' ');
  await page.getByRole('button', { name: /Execute query/ }).click();
  // Monaco renders spaces as no-break spaces: normalise before comparing.
  await expect.poll(async () => (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' '), { timeout: 20_000 }).toContain('"title": "Moby Dick"');
  return { page, failed, query };
}

test('the database explorer: collections are boxes, ticking one builds a query, running it shows documents', async () => {
  const { page, failed, query } = await buildAndRun(`${s.url}/api/graphql/default_keyspace`, 'books', 'authors', { 'X-Vendor-Token': s.token });
  expect(query).toMatch(/books \{ values \{ _id title \} \}/);
  expect(await page.locator('.graphiql-response').innerText()).toContain('Emma');
  await page.screenshot({ path: path.join(DOCS, 'graphql-explorer.png') });
  expect(failed).toEqual([]);
  await page.close();
});

test('the gateway explorer at /api/<endpoint>: prefixed collections, a built query answered through the gateway', async () => {
  const explorer = gateway.url.replace('127.0.0.1', 'localhost') + '/api/library';
  const { page, failed, query } = await buildAndRun(explorer, 'lib_books', 'lib_authors', {});
  expect(query).toMatch(/lib_books \{ values \{ _id title \} \}/);
  await page.screenshot({ path: path.join(DOCS, 'gateway-explorer.png') });
  expect(failed).toEqual([]);
  await page.close();
});
