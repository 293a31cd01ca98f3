/**
 * What a vector collection's hit cache (src/engine/collections/hit-cache.ts) takes in the heap per cached
 * body, against what its budget counts (hitCacheCost): 100,000 bodies of each of three shapes, kept parsed
 * (as a search's read keeps them) and as JSON text (as a write keeps them), heap measured after full GCs.
 *
 *   node --expose-gc bench/hit-cache-memory.js [--dist dist/] [--n 100000]
 */
import { parseArgs } from 'node:util';
import { freshDist } from './lib/private-dist.js';

const { values: flags } = parseArgs({ options: { dist: { type: 'string', default: 'dist/' }, n: { type: 'string', default: '100000' } } });
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const N = Number(flags.n);
const { HitCache } = await import(new URL('engine/collections/hit-cache.js', freshDist(flags.dist)).href);

const shapes = {
  'tiny {_id: int, cat}': (j) => ({ _id: j, cat: j % 100 }),
  'small {_id: uuid, title, n}': (j) => ({ _id: `0f8fad5b-d9cb-469f-a165-${String(j).padStart(12, '0')}`, title: `Document number ${j}`, n: j }),
  'medium (200-char text, tags, meta)': (j) => ({ _id: `doc-${j}`, text: 'x'.repeat(190) + j, tags: ['a', 'b', 'c'], meta: { a: j, b: 'y' } }),
};
const heapAfterGc = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
/** One cache of N bodies of a shape, in one form: the heap it takes, measured while it is still held. */
function measure(make, form) {
  const before = heapAfterGc();
  const cache = new HitCache(Number.MAX_SAFE_INTEGER, 1 << 20, (text) => JSON.parse(text));
  let json = 0;
  for (let j = 0; j < N; j++) {
    const text = JSON.stringify(make(j));
    json += Buffer.byteLength(text);
    if (form === 'parsed') cache.fill(j, `key${j}`, JSON.parse(text), Buffer.byteLength(text));
    else cache.fillWritten(j, `key${j}`, text);
  }
  const heap = heapAfterGc() - before;
  if (cache.size !== N) throw new Error('the cache dropped bodies');
  return { json: json / N, heap: heap / N, counted: cache.bytes / N };
}

console.log(`${N} bodies a shape: JSON bytes, heap bytes an entry, and what the budget counts an entry`);
for (const [name, make] of Object.entries(shapes)) {
  for (const form of ['parsed', 'text']) {
    const { json, heap, counted } = measure(make, form);
    console.log(`  ${name.padEnd(36)} ${form.padEnd(6)} JSON ${json.toFixed(0).padStart(4)}  heap ${heap.toFixed(0).padStart(4)}  counted ${counted.toFixed(0).padStart(4)}`);
  }
}
