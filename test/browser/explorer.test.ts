/**
 * The Data Explorer page that `vectordb-local serve` answers at `/`, in real headless Chromium against the
 * built CLI serving a data directory with a token: a wrong token gets a clear message, the right one (kept in
 * sessionStorage across a reload) lists keyspaces and collections with stats, the documents table pages and
 * narrows under a filter, a refused filter shows the Data API code and message, find-similar and a search from
 * a pasted vector list the neighbours the client finds, an edit round-trips, a delete removes, and a refused
 * insert shows its Data API code, and the PCA chart draws the sample. No request of the signed-in views fails. VECTORDB_SCREENSHOT=path saves one.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { serve } from '../cli/helpers.js';
import { ROOT, buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { launchChromium } from './harness.js';

const TOKEN = 'explorer-test-token-7f3a';
const DOCUMENTS = Array.from({ length: 30 }, (_, n) => ({
  _id: `p${n}`,
  name: `product ${n}`,
  category: ['a', 'b', 'c'][n % 3]!,
  price: n,
  $vector: [Math.cos(n / 5), Math.sin(n / 5), 0.5],
}));

describe('the Data Explorer page in headless Chromium', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let server: Awaited<ReturnType<typeof serve>>;
  let page: Page;
  let neighbours: string[];
  const failed: string[] = [];
  const pageErrors: Error[] = [];
  let signedIn = false;

  beforeAll(async () => {
    await buildPackage();
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-explorer.js')], { cwd: ROOT });
    const data = tempDir();
    {
      await using db = new VectorDB('t', data);
      const products = await db.createCollection('products', 3, 'cosine');
      await products.insertMany(DOCUMENTS);
      neighbours = (await products.findVector(DOCUMENTS[4]!.$vector, { limit: 10 })).map((d) => String(d._id));
      await db.command({ createKeyspace: { name: 'other' } }, { keyspace: null });
    }
    [server, chromium] = await Promise.all([serve(data, TOKEN), launchChromium()]);
    page = await chromium.context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error));
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      if (signedIn && response.status() >= 400) failed.push(`${response.url()} ${response.status()}`);
    });
  }, 240_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
  });

  const rowIds = (table: string) => page.$$eval(`#${table} tbody tr[data-id]`, (rows) => rows.map((r) => JSON.parse(r.getAttribute('data-id')!) as string));

  it('the page type-checks with the DOM library (the root tsconfig leaves src/explorer out)', () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'src', 'explorer', 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' })).toBe('');
  }, 120_000);

  it('GET / is the page alone: HTML without data, its inline script allowed by hash, requests to its origin only', async () => {
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'; .*connect-src 'self'/);
    const html = await response.text();
    expect(html).toContain('vectordb-local Data Explorer');
    expect(html).not.toContain('product 1');
  });

  it('asks for the token; a wrong one is refused with a clear message', async () => {
    await page.goto(server.url);
    await page.waitForSelector('#token-form:not([hidden])');
    await page.fill('#token-input', 'not-the-token');
    await page.click('#token-form button[type=submit]');
    await page.waitForFunction(() => document.getElementById('message')!.textContent!.includes('refused the token'));
    expect(await page.textContent('#message')).toMatch(/The server refused the token \(UNAUTHENTICATED_REQUEST: .+\)\. Enter a valid token\./);
    expect(await page.isVisible('#token-form')).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('with the token: keyspaces, collections, stats, and the first page of documents', async () => {
    signedIn = true;
    await page.fill('#token-input', TOKEN);
    await page.click('#token-form button[type=submit]');
    await page.waitForSelector('button.collection[data-name=products]');
    expect(await page.$$eval('#keyspaces > li > strong', (nodes) => nodes.map((n) => n.textContent))).toEqual(['default_keyspace', 'other']);
    expect(await page.textContent('#keyspaces')).toContain('no collections');
    await page.click('button.collection[data-name=products]');
    await page.waitForSelector('#documents tbody tr[data-id]');
    await page.waitForSelector('#stats progress');
    expect(await page.textContent('#stats')).toMatch(/documents 30/);
    expect(await page.textContent('#stats')).toMatch(/dimension 3, cosine/);
    expect(await page.textContent('#definition')).toContain('"dimension": 3');
    expect(await rowIds('documents')).toHaveLength(20);
    expect(await page.$$eval('#documents th', (cells) => cells.map((c) => c.textContent))).toEqual(expect.arrayContaining(['_id', 'name', 'category', 'price', '$vector']));
    expect(await page.$$('#documents svg.spark')).toHaveLength(20);
    await page.click('#next');
    await page.waitForFunction(() => document.getElementById('page-info')!.textContent!.startsWith('page 2'));
    expect(await rowIds('documents')).toHaveLength(10);
  });

  it('a filter narrows the table; a refused filter shows the Data API code and message', async () => {
    await page.fill('#filter', '{"category": "b", "price": {"$lt": 20}}');
    await page.click('#apply');
    await page.waitForFunction(() => document.getElementById('page-info')!.textContent === 'page 1, 7 documents');
    expect((await rowIds('documents')).sort()).toEqual(DOCUMENTS.filter((d) => d.category === 'b' && d.price < 20).map((d) => d._id).sort());
    await page.fill('#filter', '{"price": {"$regex": "1"}}');
    await page.click('#apply');
    await page.waitForFunction(() => document.getElementById('message')!.className === 'error');
    expect(await page.textContent('#message')).toMatch(/^Find failed: [A-Z_]+: \S.+/);
    await page.fill('#filter', '{oops');
    await page.click('#apply');
    await page.waitForFunction(() => document.getElementById('message')!.textContent!.includes('not valid JSON'));
    await page.fill('#filter', '');
    await page.click('#apply');
    await page.waitForFunction(() => document.getElementById('page-info')!.textContent === 'page 1, 20 documents');
  });

  it('find similar lists the nearest documents with their similarity', async () => {
    await page.fill('#filter', '{"_id": "p4"}');
    await page.click('#apply');
    await page.waitForFunction(() => document.getElementById('page-info')!.textContent === 'page 1, 1 document');
    await page.click('#documents tbody button.find-similar');
    await page.waitForSelector('#similar:not([hidden]) #similar-documents tbody tr[data-id]');
    expect(await page.textContent('#similar-title')).toBe('Similar to "p4"');
    const similar = await rowIds('similar-documents');
    expect(similar[0]).toBe('p4');
    expect([...similar].sort()).toEqual([...neighbours].sort()); // equal scores may come in either order
    const firstScore = await page.$eval('#similar-documents tbody tr td:last-child', (cell) => cell.textContent);
    expect(firstScore).toBe('1.0000');
  });

  /** A Data API command straight to the server, as the page's writes are checked. */
  const api = async (body: object) => {
    const response = await fetch(`${server.url}/v1/default_keyspace/products`, { method: 'POST', headers: { 'content-type': 'application/json', Token: TOKEN }, body: JSON.stringify(body) });
    return (await response.json()) as { data?: { document?: Record<string, unknown> | null }; status?: Record<string, unknown> };
  };
  const showOnly = async (id: string, count: number) => {
    await page.fill('#filter', JSON.stringify({ _id: id }));
    await page.click('#apply');
    await page.waitForFunction((text) => document.getElementById('page-info')!.textContent === text, `page 1, ${count} document${count === 1 ? '' : 's'}`);
  };
  const waitMessage = (text: string) => page.waitForFunction((t) => document.getElementById('message')!.textContent!.includes(t), text);

  it('a vector search from a pasted vector (NumPy spelling) lists the nearest documents with scores; a wrong dimension shows the code', async () => {
    const v = DOCUMENTS[4]!.$vector;
    await page.fill('#vector-input', `[${v[0]} ${v[1]}\n ${v[2]}]`);
    await page.click('#vector-search');
    await page.waitForFunction(() => document.getElementById('similar-title')!.textContent!.startsWith('Nearest to the pasted vector'));
    expect(await page.textContent('#similar-title')).toBe('Nearest to the pasted vector (3 dimensions)');
    const nearest = await rowIds('similar-documents');
    expect([...nearest].sort()).toEqual([...neighbours].sort());
    expect(await page.$eval('#similar-documents tbody tr td:last-child', (cell) => cell.textContent)).toBe('1.0000');
    await page.fill('#vector-input', '0.5, 0.5');
    await page.click('#vector-search');
    await page.waitForFunction(() => document.getElementById('message')!.className === 'error');
    expect(await page.textContent('#message')).toMatch(/^Vector search failed: [A-Z_]+: \S.+/);
    await page.fill('#vector-input', '1 two 3');
    await page.click('#vector-search');
    await waitMessage('"two", which is not a number');
  });

  it('an edit round-trips: the document as JSON, changed, saved, read back by the API with its vector', async () => {
    const before = (await api({ findOne: { filter: { _id: 'p4' }, projection: { '*': 1 } } })).data?.document; // $vector as stored (float32)
    await showOnly('p4', 1);
    await page.click('#documents tbody button.edit');
    await page.waitForSelector('#editor:not([hidden])');
    expect(await page.textContent('#editor-title')).toBe('Edit "p4"');
    const shown = JSON.parse(await page.inputValue('#editor-json')) as Record<string, unknown>;
    expect(shown).toEqual(before);
    await page.fill('#editor-json', JSON.stringify({ ...shown, name: 'renamed lamp', tags: ['new'] }, null, 2));
    await page.click('#editor-save');
    await waitMessage('Saved "p4".');
    expect(await page.isHidden('#editor')).toBe(true);
    expect(await page.textContent('#documents tbody')).toContain('renamed lamp');
    const stored = await api({ findOne: { filter: { _id: 'p4' }, projection: { '*': 1 } } });
    expect(stored.data?.document).toEqual({ ...before, name: 'renamed lamp', tags: ['new'] });
  });

  it('a delete removes the document (after the confirm)', async () => {
    await showOnly('p5', 1);
    const dialogs: string[] = [];
    page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await page.click('#documents tbody button.delete');
    await waitMessage('Deleted "p5".');
    expect(dialogs).toEqual(['Delete the document "p5"?']);
    expect(await page.textContent('#page-info')).toBe('page 1, 0 documents');
    expect((await api({ findOne: { filter: { _id: 'p5' } } })).data?.document).toBeNull();
  });

  it('a bad insert shows the Data API code and message and inserts nothing; a good one inserts', async () => {
    await page.click('#insert');
    await page.waitForSelector('#editor:not([hidden])');
    await page.fill('#editor-json', '{"_id": "p6", "name": "a second p6"}');
    await page.click('#editor-save');
    await waitMessage('Insert failed: DOCUMENT_ALREADY_EXISTS: ');
    await page.fill('#editor-json', '{"_id": "new1", "$vector": [1, 2]}');
    await page.click('#editor-save');
    await page.waitForFunction(() => /^Insert failed: (?!DOCUMENT_ALREADY_EXISTS)[A-Z_]+: \S/.test(document.getElementById('message')!.textContent!));
    expect(await page.isVisible('#editor')).toBe(true); // kept open to fix the JSON
    expect((await api({ findOne: { filter: { _id: 'new1' } } })).data?.document).toBeNull();
    await page.fill('#editor-json', '{"_id": "new1", "name": "fresh", "$vector": [1, 0, 0.5]}');
    await page.click('#editor-save');
    await waitMessage('Inserted "new1".');
    expect((await api({ findOne: { filter: { _id: 'new1' } } })).data?.document).toEqual({ _id: 'new1', name: 'fresh' });
  });

  it('the vector chart draws one point per sampled document, at distances the vectors have (PCA), coloured by a field', async () => {
    await page.fill('#filter', '');
    await page.click('#apply');
    await page.waitForFunction(() => document.getElementById('page-info')!.textContent === 'page 1, 20 documents');
    await page.click('#chart-draw');
    await page.waitForSelector('#chart circle.point');
    const stored = new Map<string, number[]>();
    for (const id of [...DOCUMENTS.map((d) => d._id).filter((id) => id !== 'p5'), 'new1']) stored.set(id, (await api({ findOne: { filter: { _id: id }, projection: { $vector: 1 } } })).data!.document!.$vector as number[]);
    const points = await page.$$eval('#chart circle.point', (circles) =>
      circles.map((c) => ({ id: JSON.parse(c.getAttribute('data-id')!) as string, x: Number(c.getAttribute('data-pc1')), y: Number(c.getAttribute('data-pc2')), fill: c.getAttribute('fill')! })),
    );
    expect(points.map((p) => p.id).sort()).toEqual([...stored.keys()].sort()); // fewer than the sample size: all of them
    expect(await page.textContent('#chart-info')).toMatch(/^30 vectors /);
    // The sampled vectors lie in a plane (z = 0.5): two principal components keep every distance.
    const distance = (a: readonly number[], b: readonly number[]) => Math.hypot(...a.map((v, i) => v - b[i]!));
    for (const [a, b] of [[0, 1], [3, 17], [10, 29], [5, 22]] as const) {
      expect(distance([points[a]!.x, points[a]!.y], [points[b]!.x, points[b]!.y])).toBeCloseTo(distance(stored.get(points[a]!.id)!, stored.get(points[b]!.id)!), 4);
    }
    expect(new Set(points.map((p) => p.fill)).size).toBe(1); // coloured by nothing yet
    await page.selectOption('#chart-field', 'category');
    await page.waitForFunction(() => document.querySelectorAll('#chart-legend li').length === 4);
    const fills = await page.$$eval('#chart circle.point', (circles) => Object.fromEntries(circles.map((c) => [JSON.parse(c.getAttribute('data-id')!) as string, c.getAttribute('fill')!])));
    for (const d of DOCUMENTS.filter((d) => d._id !== 'p5')) expect(fills[d._id]).toBe(fills[DOCUMENTS[['a', 'b', 'c'].indexOf(d.category)]!._id]);
    expect(new Set(Object.values(fills)).size).toBe(4); // a, b, c and the inserted document without a category
    expect(await page.$$eval('#chart-legend li', (items) => items.map((i) => i.textContent!.trim()).sort())).toEqual(['(missing)', 'a', 'b', 'c']);
    if (process.env.VECTORDB_SCREENSHOT) await page.screenshot({ path: process.env.VECTORDB_SCREENSHOT, fullPage: true });
  });

  it('keeps the token for the tab across a reload, and nothing failed', async () => {
    await page.reload();
    await page.waitForSelector('button.collection[data-name=products]');
    expect(await page.isVisible('#token-form')).toBe(false);
    expect(failed).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
