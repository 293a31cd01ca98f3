/**
 * The README's Electron guide is real: its code blocks are examples/electron/*.mjs verbatim; the
 * main-process module runs here under Node (its IPC handler called as Electron's ipcMain would), and
 * each renderer runs in headless Chromium: on IndexedDB through the browser entry, and through the main
 * process, with the preload's `window.vectordb.command` bridged to that same handler.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { launchChromium, servePage } from './harness.js';

const examples = fileURLToPath(new URL('../../examples/electron/', import.meta.url));
const rendererHtml = fileURLToPath(new URL('renderer.html', import.meta.url));

type Handler = (event: unknown, ...args: unknown[]) => Promise<unknown>;

/** Electron's ipcMain as far as the guide uses it: handlers by channel. */
class IpcMainStandIn {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, handler: Handler): void {
    this.handlers.set(channel, handler);
  }
}

let chromium: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
});

async function rendererText(renderer: string, prepare: (page: import('playwright-core').Page) => Promise<void> = async () => undefined): Promise<string> {
  const server = await servePage({ files: { '/': rendererHtml, '/renderer.mjs': `${examples}${renderer}` } });
  const page = await chromium.context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  try {
    await prepare(page);
    await page.goto(server.url);
    await page.waitForFunction(() => (document.body.textContent ?? '').trim() !== '', undefined, { timeout: 60_000 });
    expect(errors).toEqual([]);
    return await page.evaluate(() => document.body.textContent ?? '');
  } finally {
    await page.close();
    await server.close();
  }
}

describe('README: Electron', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it('shows each example file verbatim', () => {
    for (const file of ['database.mjs', 'renderer.mjs', 'renderer-ipc.mjs']) {
      expect(readme).toContain(readFileSync(`${examples}${file}`, 'utf8'));
    }
  });

  it('a renderer on its own: the browser entry on IndexedDB', async () => {
    expect(await rendererText('renderer.mjs')).toBe('buy milk 0.997');
  });

  it("the main process's database under Node answers a renderer through IPC", async () => {
    const { serveDatabaseOverIpc } = (await import(`${examples}database.mjs`)) as { serveDatabaseOverIpc(ipc: IpcMainStandIn, dir: string): { close(): Promise<void> } };
    const ipcMain = new IpcMainStandIn();
    const db = serveDatabaseOverIpc(ipcMain, tempDir());
    try {
      const handler = ipcMain.handlers.get('vectordb:command')!;
      // The preload's ipcRenderer.invoke, bridged: arguments and results cross as JSON, as over Electron's IPC.
      const text = await rendererText('renderer-ipc.mjs', async (page) => {
        await page.exposeFunction('invokeMain', async (command: unknown, target: unknown) => JSON.parse(JSON.stringify(await handler({}, command, target))));
        await page.addInitScript(() => {
          const bridge = (window as unknown as { invokeMain: (c: unknown, t: unknown) => Promise<unknown> }).invokeMain;
          (window as unknown as { vectordb: unknown }).vectordb = { command: (command: unknown, target: unknown) => bridge(command, target) };
        });
      });
      expect(text).toBe('buy milk 0.997');
    } finally {
      await db.close();
    }
  });
});
