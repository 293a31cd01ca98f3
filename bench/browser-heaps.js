/**
 * How many n x dim vectors the wasm backend holds in headless Chromium (issue 31): with one WebAssembly heap
 * allowed (VECTORDB_WASM_HEAPS = 1; with --dist of a build before segments, the ceiling as it was) and spread
 * over heaps as needed (segments), each filled as
 * the engine fills a graph (created small, grown step by step, batches of 1,000), until it holds `--n` or
 * says VECTOR_INDEX_CAPACITY. Per run: vectors held, heaps, build time and rate, the page's renderer RSS
 * (peak while building, and after), QPS of top-10 searches and recall@10 against an exact scan on a sample of
 * 50 queries (kept up to date as the vectors are generated, so the page holds no copy of them). Plus a
 * building-rate run at the default efConstruction on a smaller n. Each run in a fresh Chromium.
 *
 *   npm run build && node bench/browser-heaps.js [--n 1000000] [--dim 384] [--ef-construction 12] [--rate-n 10000]
 *     [--runs rate,one,segments,save] [--dist <another build's dist/, e.g. from before segments>]
 *
 * `save` (not run by default): heaps as needed, then the graph saved to IndexedDB in 4 MiB chunks (streamed by
 * segment where the build can), with the renderers' peak RSS (VmHWM, reset right before) during the save.
 *
 * Writes bench/results/browser-heaps.json (browser-heaps-<runs>.json when --runs names fewer than all).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { browserPlugins } from '../scripts/browser-plugins.js';
import { CHROMIUM, FLAGS, servePage } from '../test/browser/harness.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    dim: { type: 'string', default: '384' },
    'ef-construction': { type: 'string', default: '12' },
    'rate-n': { type: 'string', default: '10000' },
    /** `save` (not in the default): heaps as needed, then the graph saved to IndexedDB, peak RSS measured. */
    runs: { type: 'string', default: 'rate,one,segments' },
    /** Another build's dist/ to measure (e.g. one from before segments). */
    dist: { type: 'string' },
  },
});
const n = Number(values.n);
const dim = Number(values.dim);
const cheapEf = Number(values['ef-construction']);
const runs = values.runs.split(',');

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = resolve(values.dist ?? join(root, 'dist'));
const work = mkdtempSync(join(tmpdir(), 'vdb-heaps-bench-'));
const heapsModule = join(dist, 'vector-index', 'wasm-heaps.js');
if (!existsSync(heapsModule)) writeFileSync(join(work, 'one-heap.js'), 'export const heapCount = () => 1;\n');
/** The page's imports of the build measured. */
const measured = {
  name: 'measured-dist',
  setup(build) {
    build.onResolve({ filter: /^vdb-index$/ }, () => ({ path: join(dist, 'vector-index', 'index-backend.js') }));
    build.onResolve({ filter: /^vdb-heaps$/ }, () => ({ path: existsSync(heapsModule) ? heapsModule : join(work, 'one-heap.js') }));
  },
};
await esbuild.build({
  entryPoints: [join(root, 'bench', 'lib', 'heaps-page.js')],
  outfile: join(work, 'heaps.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  inject: [join(root, 'scripts', 'buffer-global.js')],
  plugins: [measured, ...browserPlugins(dist)],
  logLevel: 'warning',
});
writeFileSync(join(work, 'heaps.html'), '<!doctype html><meta charset="utf-8"><title>heaps</title><script type="module" src="/heaps.js"></script>\n');
const server = await servePage({ files: { '/heaps.html': join(work, 'heaps.html'), '/heaps.js': join(work, 'heaps.js') } });

/** RSS (MiB) of the renderer processes under the browser process `pid` (their peak RSS: `field` VmHWM). */
function rendererRss(pid, field = 'VmRSS') {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(Number(entry), ppid);
    } catch {
      // gone
    }
  }
  const under = (p) => {
    for (let q = p; q > 1; q = children.get(q) ?? 0) if (q === pid) return true;
    return false;
  };
  let sum = 0;
  for (const p of children.keys()) {
    if (!under(p)) continue;
    try {
      if (!readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      // Resets the peak (VmHWM) to the current RSS.
      if (field === 'reset') writeFileSync(`/proc/${p}/clear_refs`, '5');
      const kb = new RegExp(`${field === 'reset' ? 'VmRSS' : field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
      sum += Number(kb ?? 0) / 1024;
    } catch {
      // gone
    }
  }
  return sum;
}

async function run(name, options) {
  const browserServer = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const pid = browserServer.process().pid;
  const browser = await chromium.connect(browserServer.wsEndpoint());
  let peak = 0;
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.log(`  page error: ${e.message}`));
    await page.goto(`${server.url}heaps.html`);
    await page.waitForFunction(() => window.heaps !== undefined);
    const done = page.evaluate((o) => window.heaps.run(o), options);
    // With `save`: the renderers' peak RSS is reset when the page is about to save, and read once it saved.
    let beforeSave;
    const saved = !options.save
      ? undefined
      : (async () => {
          await page.waitForFunction(() => window.heaps.progress.phase === 'save', undefined, { timeout: 0, polling: 1000 });
          beforeSave = rendererRss(pid, 'reset');
          await page.evaluate(() => window.heaps.resetDone());
        })();
    let last = 0;
    const poll = setInterval(async () => {
      peak = Math.max(peak, rendererRss(pid));
      if (Date.now() - last < 30_000) return;
      last = Date.now();
      const p = await page.evaluate(() => window.heaps.progress).catch(() => undefined);
      if (p) console.log(`  ${name}: ${p.held} held in ${p.heaps} heap(s), ${(p.ms / 1000).toFixed(0)} s building, renderer ${rendererRss(pid).toFixed(0)} MiB, load ${loadavg()[0].toFixed(2)}`);
    }, 2000);
    const result = await done.finally(() => clearInterval(poll));
    const after = rendererRss(pid);
    const save = {};
    if (saved !== undefined) {
      await saved;
      Object.assign(save, { rendererBeforeSaveMiB: Math.round(beforeSave), rendererPeakInSaveMiB: Math.round(rendererRss(pid, 'VmHWM')) });
    }
    return { name, ...options, ...result, ...save, rendererPeakMiB: Math.round(Math.max(peak, after)), rendererAfterMiB: Math.round(after), load: loadavg().map((l) => Number(l.toFixed(2))) };
  } finally {
    await browser.close();
    await browserServer.close();
  }
}

const results = [];
const plan = {
  rate: ['default build (M 16, efConstruction 200)', { n: Number(values['rate-n']), dim, M: 16, efConstruction: 200, efSearch: 128 }],
  one: [`one heap allowed (VECTORDB_WASM_HEAPS 1), efConstruction ${cheapEf}`, { n, dim, M: 16, efConstruction: cheapEf, efSearch: 128, heapLimit: 1 }],
  segments: [`heaps as needed (segments), efConstruction ${cheapEf}`, { n, dim, M: 16, efConstruction: cheapEf, efSearch: 128 }],
  save: [`heaps as needed, then saved to IndexedDB, efConstruction ${cheapEf}`, { n, dim, M: 16, efConstruction: cheapEf, efSearch: 128, save: true }],
};
try {
  for (const key of runs) {
    const [name, options] = plan[key];
    console.log(`${name}: up to ${options.n} x ${dim} (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    const r = await run(name, options);
    results.push(r);
    const rate = r.held / (r.buildMs / 1000);
    console.log(
      `  held ${r.held}${r.error ? ` then ${r.error.code}` : ''} in ${r.heaps} heap(s); build ${(r.buildMs / 1000).toFixed(1)} s (${rate.toFixed(0)} vectors/s); ` +
        `renderer RSS peak ${r.rendererPeakMiB} MiB, after ${r.rendererAfterMiB} MiB; ${r.qps?.toFixed(0)} QPS top 10 at efSearch 128, recall@10 ${r.recall?.toFixed(3)} ` +
        `(load average ${r.load.join(' ')})`,
    );
    if (r.save) {
      console.log(
        `  saved ${(r.savedBytes / 2 ** 20).toFixed(0)} MiB to IndexedDB (${r.saveStreamed ? 'streamed by segment' : 'segments joined'}) in ${(r.saveMs / 1000).toFixed(1)} s: ` +
          `renderer RSS ${r.rendererBeforeSaveMiB} MiB before, peak ${r.rendererPeakInSaveMiB} MiB (+${r.rendererPeakInSaveMiB - r.rendererBeforeSaveMiB} MiB)`,
      );
    }
  }
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
const out = new URL('results/', import.meta.url);
mkdirSync(out, { recursive: true });
const file = runs.join(',') === 'rate,one,segments' && values.dist === undefined ? 'browser-heaps.json' : `browser-heaps-${runs.join('-')}${values.dist ? '-other-dist' : ''}.json`;
writeFileSync(new URL(file, out), `${JSON.stringify({ date: new Date().toISOString(), dist, dim, results }, null, 2)}\n`);
