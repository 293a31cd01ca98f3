/**
 * The Data Explorer under `vectordb-local serve --home`, in real headless Chromium against the built CLI: an
 * organization token picks a database of the home, then its keyspaces; the tables view shows a table's columns,
 * primary key, indexes and stats, pages its rows under a filter (a refused one shows the Data API code), and
 * searches a vector column; a collection's bytes on disk count writes made through the server; lexical and hybrid search on a collection list the documents (and scores) the Data API
 * commands answer in process; a database token opens its database at `/{id}-{region}/` and is told so at `/`.
 * No request of the organization token's views fails. VECTORDB_SCREENSHOT_DIR=dir saves the views' screenshots.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDBAdmin } from '../../src/index.js';
import { start, waitFor } from '../cli/helpers.js';
import { ROOT, buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { launchChromium } from './harness.js';

const ARTICLES = [
  { _id: 'a1', title: 'Baking sourdough bread', topic: 'food', $vector: [1, 0, 0], $lexical: 'sourdough bread flour water salt' },
  { _id: 'a2', title: 'Quick flatbread', topic: 'food', $vector: [0.9, 0.1, 0], $lexical: 'flatbread flour water quick bread' },
  { _id: 'a3', title: 'Pasta at home', topic: 'food', $vector: [0.7, 0.7, 0], $lexical: 'pasta flour eggs' },
  { _id: 'a4', title: 'Cats and naps', topic: 'pets', $vector: [0, 1, 0], $lexical: 'cats sleep naps sun' },
  { _id: 'a5', title: 'Dogs and bread', topic: 'pets', $vector: [0, 0.8, 0.6], $lexical: 'dogs steal bread from tables' },
  { _id: 'a6', title: 'Markets today', topic: 'money', $vector: [0, 0, 1], $lexical: 'markets fell bonds rose' },
];
const ITEMS = Array.from({ length: 24 }, (_, n) => ({ shop: n % 2 === 0 ? 'north' : 'south', sku: `sku-${String(n).padStart(2, '0')}`, price: n * 3, emb: [Math.cos(n / 4), Math.sin(n / 4)] }));

describe('the Data Explorer serving a home, in headless Chromium', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let server: ReturnType<typeof start>;
  let url: string;
  let orgToken: string;
  let notesToken: string;
  let databases: { shop: string; notes: string };
  let page: Page;
  const expected: { lexical: string[]; hybrid: { ids: string[]; vectorRanks: (number | null)[] }; nearestItems: string[] } = { lexical: [], hybrid: { ids: [], vectorRanks: [] }, nearestItems: [] };
  const failed: string[] = [];
  const pageErrors: Error[] = [];

  beforeAll(async () => {
    await buildPackage();
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-explorer.js')], { cwd: ROOT });
    const home = path.join(tempDir(), 'home');
    orgToken = await VectorDBAdmin.initHome(home);
    const admin = new VectorDBAdmin(orgToken, { home });
    await admin.createDatabase('shop');
    await admin.createDatabase('notes');
    notesToken = (await admin.createToken('DATABASE_ADMINISTRATOR', 'notes')).token;
    const listed = await admin.listDatabases();
    const prefixOf = (name: string) => listed.filter((d) => d.name === name).map((d) => `${d.id}-${d.region}`)[0]!;
    databases = { shop: prefixOf('shop'), notes: prefixOf('notes') };
    {
      await using shop = await admin.database('shop');
      await shop.createCollection('articles', 3, 'cosine');
      await shop.command({ insertMany: { documents: ARTICLES } }, { collection: 'articles' });
      const lexical = await shop.command({ find: { sort: { $lexical: 'bread flour' }, options: { limit: 10 } } }, { collection: 'articles' });
      expected.lexical = (lexical.data as unknown as { documents: { _id: string }[] }).documents.map((d) => d._id);
      const hybrid = await shop.command(
        { findAndRerank: { sort: { $hybrid: { $vector: ARTICLES[4]!.$vector, $lexical: 'bread flour' } }, options: { limit: 10, rerankOn: 'title', rerankQuery: 'bread flour', includeScores: true } } },
        { collection: 'articles' },
      );
      expected.hybrid.ids = (hybrid.data as unknown as { documents: { _id: string }[] }).documents.map((d) => d._id);
      expected.hybrid.vectorRanks = (hybrid.status!.documentResponses as { scores: { $vectorRank: number | null } }[]).map((r) => r.scores.$vectorRank);
      await shop.command({ createTable: { name: 'items', definition: { columns: { shop: 'text', sku: 'text', price: 'int', emb: { type: 'vector', dimension: 2 } }, primaryKey: { partitionBy: ['shop'], partitionSort: { sku: -1 } } } } });
      await shop.command({ createIndex: { name: 'price_idx', definition: { column: 'price' } } }, { collection: 'items' });
      await shop.command({ createVectorIndex: { name: 'emb_idx', definition: { column: 'emb', options: { metric: 'cosine' } } } }, { collection: 'items' });
      for (const part of [ITEMS.slice(0, 12), ITEMS.slice(12)]) expect((await shop.command({ insertMany: { documents: part } }, { collection: 'items' })).errors).toBeUndefined();
      const nearest = await shop.command({ find: { sort: { emb: ITEMS[5]!.emb }, options: { limit: 10 } } }, { collection: 'items' });
      expected.nearestItems = (nearest.data as unknown as { documents: { sku: string }[] }).documents.map((d) => d.sku);
      await using notes = await admin.database('notes');
      await notes.createCollection('journal');
    }
    server = start(['serve', '--home', home, '--port', '0']);
    [, url] = (await waitFor(server.output, /endpoint:\s+(http:\/\/\S+)/, server.exited)) as unknown as [string, string];
    chromium = await launchChromium();
    page = await chromium.context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error));
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.url()} ${response.status()}`);
    });
  }, 240_000);

  afterAll(async () => {
    await chromium?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  const shot = async (name: string) => {
    if (process.env.VECTORDB_SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.VECTORDB_SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  };
  const cells = (selector: string) => page.$$eval(selector, (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)));
  const columnOf = async (table: string, name: string) => {
    const headers = await page.$$eval(`#${table} th`, (ths) => ths.map((t) => t.textContent));
    return (await cells(`#${table} tbody tr`)).map((row) => row[headers.indexOf(name)]);
  };

  it("serves the page at / and at each database's own path, marked as serving a home; the banner says where", async () => {
    expect(server.output()).toContain(`explorer: ${url}/ (the Data Explorer;`);
    expect(server.output()).toContain(`database shop: ${url}/${databases.shop}`);
    for (const at of ['/', `/${databases.shop}/`, `/${databases.notes}`]) {
      const response = await fetch(url + at);
      expect(response.status, at).toBe(200);
      expect(await response.text()).toContain('<meta name="vectordb-local-serving" content="home">');
    }
    expect((await fetch(`${url}/v1`)).status).toBe(404); // the data routes stay under a database
  });

  it('an organization token picks a database, then sees its keyspaces, collections and tables', async () => {
    await page.goto(url);
    await page.fill('#token-input', orgToken);
    await page.click('#token-form button[type=submit]');
    await page.waitForSelector('#database-box:not([hidden])');
    expect((await page.$$eval('#database option', (options) => options.map((o) => o.textContent))).sort()).toEqual(['notes (local)', 'shop (local)'].sort());
    await page.selectOption('#database', { label: 'shop (local)' });
    await page.waitForSelector('button.table[data-name=items]');
    expect(await page.$$eval('#keyspaces button', (buttons) => buttons.map((b) => b.getAttribute('data-name')))).toEqual(['articles', 'items']);
    await page.selectOption('#database', { label: 'notes (local)' });
    await page.waitForSelector('button.collection[data-name=journal]');
    expect(await page.$$('button.table')).toHaveLength(0);
    await page.selectOption('#database', { label: 'shop (local)' });
    await page.waitForSelector('button.table[data-name=items]');
  });

  it('the tables view: columns, primary key and indexes; rows paged; a filter narrows; a refused one shows its code', async () => {
    await page.click('button.table[data-name=items]');
    await page.waitForSelector('#table-rows tbody tr[data-key]');
    expect(await page.textContent('#table-name')).toBe('default_keyspace.items');
    expect(await cells('#table-schema tbody tr')).toEqual([
      ['shop', 'text', 'partition 1', ''],
      ['sku', 'text', 'clustering 1 desc', ''],
      ['price', 'int', '', 'price_idx (regular)'],
      ['emb', 'vector(2)', '', expect.stringMatching(/^emb_idx \(vector .*cosine/)],
    ]);
    expect(await page.textContent('#table-page-info')).toBe('page 1, 20 rows');
    expect(await page.$$('#table-rows svg.spark')).toHaveLength(20);
    await page.waitForSelector('#table-stats .graph');
    const stats = (await page.textContent('#table-stats'))!;
    expect(stats).toContain(`rows ${ITEMS.length}`);
    expect(stats).toContain(`index entries ${ITEMS.length}`); // price_idx: one entry per row
    expect(stats).toContain(`vectors of emb ${ITEMS.length} (dimension 2, cosine)`);
    expect(stats).toContain('graph caught up');
    expect(Number(/bytes on disk (\d+)/.exec(stats)![1])).toBeGreaterThan(0);
    await page.click('#table-next');
    await page.waitForFunction(() => document.getElementById('table-page-info')!.textContent === 'page 2, 4 rows');
    await page.fill('#table-filter', '{"shop": "south", "price": {"$lt": 30}}');
    await page.click('#table-apply');
    await page.waitForFunction(() => document.getElementById('table-page-info')!.textContent!.startsWith('page 1,'));
    const skus = await columnOf('table-rows', 'sku');
    expect(skus).toEqual(ITEMS.filter((i) => i.shop === 'south' && i.price < 30).map((i) => i.sku).sort().reverse()); // clustering order: sku desc
    await page.fill('#table-filter', '{"colour": "red"}');
    await page.click('#table-apply');
    await page.waitForFunction(() => document.getElementById('message')!.className === 'error');
    expect(await page.textContent('#message')).toMatch(/^Find failed: UNKNOWN_TABLE_COLUMNS: .*colour/);
    await page.fill('#table-filter', '');
    await page.click('#table-apply');
    await page.waitForFunction(() => document.getElementById('table-page-info')!.textContent === 'page 1, 20 rows');
  });

  it('the tables view: a vector search on the indexed vector column lists the nearest rows with scores', async () => {
    expect(await page.$$eval('#table-vector-column option', (options) => options.map((o) => o.textContent))).toEqual(['emb']);
    await page.fill('#table-vector-input', `[${ITEMS[5]!.emb.join(', ')}]`);
    await page.click('#table-vector-search');
    await page.waitForSelector('#table-similar-section:not([hidden]) #table-similar tbody tr');
    // Items lie on a circle: sku-04 and sku-06 are as near to sku-05 as each other (and so on), so ties may
    // come in either order; each place must hold an item as far from sku-05 as the expected one there.
    const stepsFromFifth = (skus: string[]) => skus.map((sku) => Math.abs(Number(sku.slice(4)) - 5));
    expect(stepsFromFifth(await columnOf('table-similar', 'sku'))).toEqual(stepsFromFifth(expected.nearestItems));
    expect((await columnOf('table-similar', '$similarity'))[0]).toBe('1.0000');
    await shot('explorer-table');
  });

  it('lexical search lists the documents the $lexical sort answers, in its order', async () => {
    await page.click('button.collection[data-name=articles]');
    await page.waitForSelector('#search-box:not([hidden])');
    expect(await page.isHidden('#table-view')).toBe(true);
    await page.fill('#search-text', 'bread flour');
    await page.click('#search-run');
    await page.waitForFunction(() => document.getElementById('similar-title')!.textContent!.startsWith('Lexical'));
    expect(await page.$$eval('#similar-documents tbody tr[data-id]', (rows) => rows.map((r) => JSON.parse(r.getAttribute('data-id')!) as string))).toEqual(expected.lexical);
    expect(expected.lexical.length).toBeGreaterThanOrEqual(2);
    expect(await columnOf('similar-documents', '$bm25Rank')).toEqual(expected.lexical.map((_, i) => String(i + 1)));
  });

  it("hybrid search with a document's vector lists what findAndRerank answers, with its scores", async () => {
    await page.selectOption('#search-kind', 'hybrid');
    await page.waitForSelector('#hybrid-source:not([hidden])');
    await page.fill('#hybrid-id', 'a5');
    await page.fill('#rerank-on', 'title');
    await page.click('#search-run');
    await page.waitForFunction(() => document.getElementById('similar-title')!.textContent!.startsWith('Hybrid'));
    expect(await page.textContent('#similar-title')).toBe('Hybrid: "bread flour" with the vector of "a5", reranked on title');
    expect(await page.$$eval('#similar-documents tbody tr[data-id]', (rows) => rows.map((r) => JSON.parse(r.getAttribute('data-id')!) as string))).toEqual(expected.hybrid.ids);
    expect(await columnOf('similar-documents', '$vectorRank')).toEqual(expected.hybrid.vectorRanks.map((r) => (r === null ? 'null' : String(r))));
    expect(await page.textContent('#message')).toMatch(/nvidia/); // the default provider is not registered: RRF order, and the warning shown
    await shot('explorer-hybrid');
    await page.fill('#hybrid-id', '"nope"');
    await page.click('#search-run');
    await page.waitForFunction(() => document.getElementById('message')!.textContent!.includes('is not there'));
    expect(await page.textContent('#message')).toBe('Hybrid search failed: document "nope" is not there');
  });

  it("a collection's bytes on disk count documents written through the server just before", async () => {
    const documents = Array.from({ length: 20 }, (_, n) => ({ _id: `e${n}`, text: `entry ${n} `.repeat(20) })); // one insertMany: the seed limit
    const written = await fetch(`${url}/${databases.notes}/v1/default_keyspace/journal`, { method: 'POST', headers: { token: orgToken, 'content-type': 'application/json' }, body: JSON.stringify({ insertMany: { documents } }) });
    expect(((await written.json()) as { errors?: unknown }).errors).toBeUndefined();
    await page.selectOption('#database', { label: 'notes (local)' });
    await page.click('button.collection[data-name=journal]');
    await page.waitForFunction((count) => document.getElementById('stats')!.textContent!.includes(`documents ${count}`), documents.length);
    const bytes = Number(/bytes on disk (\d+)/.exec((await page.textContent('#stats'))!)![1]);
    expect(bytes).toBeGreaterThan(0); // LevelDB's estimate leaves out its write buffer: stats write it out first
  });

  it('nothing the organization token did failed', () => {
    expect(failed).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("a database token opens its database at the database's own path, and is told to at /", async () => {
    const other = await chromium.context.newPage();
    other.setDefaultTimeout(15_000);
    await other.goto(`${url}/${databases.notes}/`);
    await other.evaluate(() => sessionStorage.clear());
    await other.reload();
    await other.fill('#token-input', notesToken);
    await other.click('#token-form button[type=submit]');
    await other.waitForSelector('button.collection[data-name=journal]');
    expect(await other.isHidden('#database-box')).toBe(true);
    await other.goto(url);
    await other.waitForFunction(() => document.getElementById('message')!.textContent!.includes('reaches one database'));
    expect(await other.textContent('#message')).toContain(`${url}/{id}-{region}/`);
    await other.close();
  });
});
