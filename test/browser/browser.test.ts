/**
 * The browser bundle in real headless Chromium (test/browser/harness.js): a page imports it, creates a
 * vector collection of 2,000 documents with 128-dimension vectors in IndexedDB, and answers filters, a
 * vector search and a filtered vector search exactly as the Node build (dist/index.js, LevelDB) does on the
 * same data; after a reload (the page's handles gone, as in a crash) and after a clean close, everything is
 * still there; while one tab holds the database a second tab gets DATABASE_LOCKED, and opens it once the
 * first closes. VECTORDB_SCREENSHOT=path saves a screenshot of the page (docs/browser-test.png).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, openPage, reloadPage, servePage } from './harness.js';
import { LIMITS, loadCollection, makeDocuments, queryCollection, type Answers } from './scenario.js';
import { tempDir } from '../support/temp.js';

const DOCUMENTS = makeDocuments(2000, 128);
const QUERY = makeDocuments(1, 128, 7)[0]!.$vector;
const DB_NAME = 'browser-test-db';

type NodeEntry = typeof import('../../src/index.js');

async function nodeAnswers(): Promise<Answers> {
  const { VectorDB } = (await import(new URL('../../dist/index.js', import.meta.url).href)) as NodeEntry;
  // The wasm backend, as in the page: the same hnswlib build, the same graph, the same answers.
  const db = new VectorDB('node-token', tempDir(), undefined, { vectorBackend: 'wasm', limits: LIMITS });
  try {
    return await queryCollection(await loadCollection(db, 'items', DOCUMENTS), QUERY);
  } finally {
    await db.close();
  }
}

describe('the browser bundle in headless Chromium', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let server: Awaited<ReturnType<typeof servePage>>;
  let page: Page;
  const pageErrors: Error[] = [];
  let expected: Answers;

  beforeAll(async () => {
    [expected, server, chromium] = await Promise.all([nodeAnswers(), servePage(), launchChromium()]);
    page = await openPage(chromium.context, server.url, pageErrors);
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it('the Node build answers the workload (the reference)', () => {
    expect(expected.all).toBe(2000);
    expect(expected.category).toHaveLength(400);
    expect(expected.range).toHaveLength(40);
    expect(expected.vector).toHaveLength(10);
    expect(expected.filteredVector).toHaveLength(10);
    expect(expected.filteredVector.every(([id]) => Number(id.slice(4)) % 5 === 3 && Number(id.slice(4)) >= 1000)).toBe(true);
  });

  it('the bundle exports the client without homes: VectorDBAdmin is absent, fromDatabaseId says what to use', async () => {
    const surface = await page.evaluate(() => window.vdb.surface());
    expect(surface).toMatchObject({ VectorDB: 'function', Filter: 'function', VectorDBAdmin: 'undefined' });
    expect(surface.byId).toMatch(/^TypeError: .*IndexedDB/);
  });

  it('inserts 2,000 documents with 128-dimension vectors and answers as the Node build', async () => {
    await page.evaluate((name) => window.vdb.open(name), DB_NAME);
    await page.evaluate((documents) => window.vdb.load(documents), DOCUMENTS);
    expect(await page.evaluate((query) => window.vdb.query(query), QUERY)).toEqual(expected);
  });

  it('refuses a second tab on the same database with DATABASE_LOCKED while the first holds it', async () => {
    const second = await openPage(chromium.context, server.url, pageErrors);
    const refused = await second.evaluate((name) => window.vdb.tryOpen(name), DB_NAME);
    expect(refused.code).toBe('DATABASE_LOCKED');
    expect(refused.message).toContain(DB_NAME);
    await second.close();
    await page.evaluate((line) => window.vdb.note(line), `a second tab was refused: ${refused.code}`);
  });

  it('finds everything after a reload without closing (the page gone, as in a crash)', async () => {
    await reloadPage(page);
    await page.evaluate((name) => window.vdb.open(name), DB_NAME);
    expect(await page.evaluate((query) => window.vdb.query(query), QUERY)).toEqual(expected);
  });

  it('releases the database on close: another tab opens it, and a reload after the close finds everything', async () => {
    await page.evaluate(() => window.vdb.close());
    const second = await openPage(chromium.context, server.url, pageErrors);
    expect((await second.evaluate((name) => window.vdb.tryOpen(name), DB_NAME)).code).toBe('opened');
    await second.close();
    await page.evaluate(() => window.vdb.note('after close: a second tab opened the database'));
    await reloadPage(page);
    await page.evaluate((name) => window.vdb.open(name), DB_NAME);
    expect(await page.evaluate((query) => window.vdb.query(query), QUERY)).toEqual(expected);
    if (process.env.VECTORDB_SCREENSHOT) await page.screenshot({ path: process.env.VECTORDB_SCREENSHOT, fullPage: true });
    await page.evaluate(() => window.vdb.close());
    expect(pageErrors).toEqual([]);
  });
});
