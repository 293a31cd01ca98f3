/**
 * The browser's persistent store (src/storage/persistent-level.browser.ts) in real headless Chromium: IndexedDB
 * stores a typed array by structured clone, with the whole buffer behind it, so a value that is part of a larger
 * buffer (a snapshot chunk cut from a graph segment's bytes) must be stored as a copy of its own, or each such
 * chunk stores the whole segment. The module is bundled for the page here (esbuild, as the browser build does).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, servePage } from './harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'vdb-idb-views-'));

/** In the page: a value that views 100 bytes of an 8 MiB buffer, put and read back through the store. */
const PAGE_SCRIPT = `
import { openPersistentLevel } from './src/storage/persistent-level.browser.ts';
window.storeView = async () => {
  const store = await openPersistentLevel('idb-views');
  const big = new Uint8Array(8 * 2 ** 20).fill(7);
  await store.db.put('part', big.subarray(100, 200));
  await store.db.put('whole', new Uint8Array(300).fill(1));
  const part = await store.db.get('part');
  const whole = await store.db.get('whole');
  await store.db.close();
  await store.afterClose();
  return { part: [part.byteLength, part.buffer.byteLength, part[0]], whole: [whole.byteLength, whole.buffer.byteLength] };
};
`;

describe('the browser store keeps each value in a buffer of its own', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let server: Awaited<ReturnType<typeof servePage>>;
  let page: Page;

  beforeAll(async () => {
    await esbuild.build({
      stdin: { contents: PAGE_SCRIPT, resolveDir: ROOT, loader: 'js' },
      outfile: join(work, 'views.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      inject: [join(ROOT, 'scripts', 'buffer-global.js')],
      logLevel: 'warning',
    });
    writeFileSync(join(work, 'views.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="/views.js"></script>\n');
    [server, chromium] = await Promise.all([servePage({ files: { '/views.html': join(work, 'views.html'), '/views.js': join(work, 'views.js') } }), launchChromium()]);
    page = await chromium.context.newPage();
    await page.goto(`${server.url}views.html`);
    await page.waitForFunction(() => (globalThis as { storeView?: unknown }).storeView !== undefined);
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('stores a view of part of a buffer as its own bytes only', async () => {
    const stored = await page.evaluate(() => (globalThis as unknown as { storeView: () => Promise<{ part: number[]; whole: number[] }> }).storeView());
    expect(stored.part).toEqual([100, 100, 7]);
    expect(stored.whole).toEqual([300, 300]);
  });
});
