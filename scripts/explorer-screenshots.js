/**
 * Takes the README's screenshots of the Data Explorer's tables view and hybrid search: a home with a small
 * demo database (a collection of recipes with vectors and `$lexical` text, a table of items with a vector
 * index), served by the built server, opened in Debian's Chromium (or $CHROMIUM) through playwright-core.
 * Writes docs/explorer-table.png and docs/explorer-hybrid.png. Run after a build:
 *   node scripts/build-if-stale.js && node scripts/explorer-screenshots.js
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createServer } from '../dist/http/index.js';
import { VectorDBAdmin } from '../dist/node/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = join(root, 'docs');
const scratch = mkdtempSync(join(tmpdir(), 'vectordb-screenshots-'));

const RECIPES = [
  ['r1', 'Country sourdough bread', 'bread', [0.95, 0.1, 0.05], 'sourdough bread flour water salt levain'],
  ['r2', 'Quick yogurt flatbread', 'bread', [0.85, 0.3, 0.05], 'flatbread yogurt flour quick pan bread'],
  ['r3', 'Fresh egg pasta', 'pasta', [0.6, 0.75, 0.1], 'pasta flour eggs semolina'],
  ['r4', 'Bread pudding', 'dessert', [0.5, 0.1, 0.85], 'stale bread custard raisins bread pudding'],
  ['r5', 'Focaccia with rosemary', 'bread', [0.9, 0.35, 0.15], 'focaccia flour olive oil rosemary bread'],
  ['r6', 'Lemon tart', 'dessert', [0.1, 0.2, 0.97], 'tart lemon butter flour sugar'],
  ['r7', 'Tomato soup', 'soup', [0.15, 0.95, 0.2], 'tomato soup basil bread croutons'],
].map(([_id, title, kind, $vector, $lexical]) => ({ _id, title, kind, $vector, $lexical }));
const ITEMS = Array.from({ length: 18 }, (_, n) => ({
  store: ['north', 'south', 'east'][n % 3],
  sku: `sku-${String(n).padStart(3, '0')}`,
  name: ['lamp', 'chair', 'desk', 'shelf', 'rug', 'mirror'][n % 6],
  price: 15 + ((n * 37) % 120),
  emb: [Math.cos(n / 3), Math.sin(n / 3), (n % 4) / 4],
}));

const home = join(scratch, 'home');
const token = await VectorDBAdmin.initHome(home);
const admin = new VectorDBAdmin(token, { home });
await admin.createDatabase('kitchen');
{
  const db = await admin.database('kitchen');
  await db.createCollection('recipes', 3, 'cosine');
  await db.command({ insertMany: { documents: RECIPES } }, { collection: 'recipes' });
  await db.command({ createTable: { name: 'items', definition: { columns: { store: 'text', sku: 'text', name: 'text', price: 'int', emb: { type: 'vector', dimension: 3 } }, primaryKey: { partitionBy: ['store'], partitionSort: { sku: 1 } } } } });
  await db.command({ createIndex: { name: 'price_idx', definition: { column: 'price' } } }, { collection: 'items' });
  await db.command({ createVectorIndex: { name: 'emb_idx', definition: { column: 'emb', options: { metric: 'cosine' } } } }, { collection: 'items' });
  await db.command({ insertMany: { documents: ITEMS } }, { collection: 'items' });
  await db.close();
}

const server = createServer({ home, port: 0 });
await server.listen();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 700 } });
  page.setDefaultTimeout(15_000);
  await page.goto(server.url);
  await page.fill('#token-input', token);
  await page.click('#token-form button[type=submit]');
  await page.waitForSelector('button.table[data-name=items]');

  await page.click('button.table[data-name=items]');
  await page.waitForSelector('#table-rows tbody tr[data-key]');
  await page.fill('#table-filter', '{"store": "north"}');
  await page.click('#table-apply');
  await page.waitForFunction(() => document.getElementById('table-page-info').textContent.startsWith('page 1, 6'));
  await page.fill('#table-vector-input', '[0.9, 0.4, 0.25]');
  await page.click('#table-vector-search');
  await page.waitForSelector('#table-similar tbody tr');
  await page.screenshot({ path: join(docs, 'explorer-table.png'), fullPage: true });

  await page.click('button.collection[data-name=recipes]');
  await page.waitForSelector('#search-box:not([hidden])');
  await page.fill('#search-text', 'bread flour');
  await page.selectOption('#search-kind', 'hybrid');
  await page.fill('#hybrid-id', 'r5');
  await page.fill('#rerank-on', 'title');
  await page.click('#search-run');
  await page.waitForSelector('#similar-documents tbody tr[data-id]');
  await page.screenshot({ path: join(docs, 'explorer-hybrid.png'), fullPage: true });
  console.log('wrote docs/explorer-table.png and docs/explorer-hybrid.png');
} finally {
  await browser.close();
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
}
