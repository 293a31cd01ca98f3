/**
 * Raw hnswlib, used directly as a user of the library would: hnswlib-node (native) and hnswlib-wasm
 * (loaded in Node the only way it loads: a `window` and fake-indexeddb). Both at M 16 / efConstruction
 * 200, the filter as hnswlib's label callback. The same copies vectordb-local's backends use (the root's
 * node_modules), so the raw figures are the floor of ours.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { EF_SWEEP } from './settings.js';

const settings = EF_SWEEP.map((ef) => ({ label: `ef ${ef}`, ef }));
const categoryFilter = (cats, cat) => (cat === undefined ? undefined : (label) => cats[label] === cat);

export async function hnswlibNode(ctx) {
  const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');
  const file = join(ctx.workDir, 'index.hnsw');
  let index;
  return {
    settings,
    load() {
      index = new HierarchicalNSW('cosine', ctx.dim);
      index.initIndex(ctx.n, 16, 200, 100);
      for (let i = 0; i < ctx.n; i++) index.addPoint(Array.from(ctx.row(i)), i);
    },
    apply(setting) {
      index.setEf(setting.ef);
    },
    search(vector, cat) {
      return index.searchKnn(Array.from(vector), ctx.k, categoryFilter(ctx.cats, cat)).neighbors;
    },
    close() {
      index.writeIndexSync(file);
    },
    reopen() {
      index = new HierarchicalNSW('cosine', ctx.dim);
      index.readIndexSync(file);
    },
  };
}

/** hnswlib-wasm prints progress lines of its file system on stdout: kept out of the bench's log. */
async function silently(fn) {
  const log = console.log;
  console.log = () => {};
  try {
    return await fn();
  } finally {
    console.log = log;
  }
}

export async function hnswlibWasm(ctx) {
  globalThis.window ??= globalThis;
  await import('fake-indexeddb/auto');
  const { loadHnswlib } = await import('hnswlib-wasm/dist/hnswlib.js');
  const lib = await silently(() => loadHnswlib());
  let index;
  return {
    settings,
    // In Node its index lives in fake-indexeddb's memory: nothing on disk to measure or reopen.
    persistent: false,
    async load() {
      index = new lib.HierarchicalNSW('cosine', ctx.dim, '');
      index.initIndex(ctx.n, 16, 200, 100);
      for (let from = 0; from < ctx.n; from += 1000) {
        const items = [];
        const labels = [];
        for (let i = from; i < Math.min(ctx.n, from + 1000); i++) {
          items.push(ctx.row(i));
          labels.push(i);
        }
        await silently(() => index.addPoints(items, labels, false));
      }
    },
    apply(setting) {
      index.setEfSearch(setting.ef);
    },
    search(vector, cat) {
      return index.searchKnn(vector, ctx.k, categoryFilter(ctx.cats, cat)).neighbors;
    },
  };
}
