// Open benchmark (issue 4): how long reopening a database with a large vector collection takes before its
// first vector query is answered (vector records + saved HNSW snapshot), and the first query with the
// snapshot deleted (rebuild in the background; the query is answered at once by exact scan).
// Run after `npm run build`: node bench/open-bench.js [--n 100000] [--dim 128] [--backend native|wasm]
// [--dist <dir>] (another build, e.g. a copy of dist/ from before a change)
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freshDist } from './lib/private-dist.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const dist = arg('--dist', undefined);
const distUrl = freshDist(dist === undefined ? undefined : path.resolve(dist));
const { executeCommand } = await import(new URL('commands/index.js', distUrl).href);
const { Database } = await import(new URL('engine/database.js', distUrl).href);
const N = Number(arg('--n', 100_000));
const DIM = Number(arg('--dim', 128));
const BACKEND = arg('--backend', 'native');
const target = { keyspace: 'default_keyspace', collection: 'vectors' };

let seed = 42;
const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const dir = mkdtempSync(path.join(tmpdir(), 'vdb-open-'));
const open = () => Database.open(dir, { limits: { maxInsertManyDocuments: 100 }, vectorBackend: BACKEND });

let db = await open();
await executeCommand(db, { createCollection: { name: 'vectors', options: { vector: { dimension: DIM } } } }, { keyspace: 'default_keyspace' });
let t = performance.now();
for (let i = 0; i < N; i += 100) {
  const documents = [];
  for (let j = i; j < Math.min(N, i + 100); j++) documents.push({ _id: j, $vector: Array.from({ length: DIM }, random) });
  const r = await executeCommand(db, { insertMany: { documents } }, target);
  if (r.errors) throw new Error(JSON.stringify(r.errors[0]));
}
const insertSeconds = (performance.now() - t) / 1000;
t = performance.now();
await (await db.collection('default_keyspace', 'vectors').vectors()).waitForIndex();
const graphSeconds = (performance.now() - t) / 1000;
t = performance.now();
await db.close();
const closeSeconds = (performance.now() - t) / 1000;

const query = { find: { sort: { $vector: Array.from({ length: DIM }, random) }, options: { limit: 10 } } };
t = performance.now();
db = await open();
const first = await executeCommand(db, query, target);
const openSeconds = (performance.now() - t) / 1000;
if (first.errors) throw new Error(JSON.stringify(first.errors[0]));
await db.close();

// Without the snapshot: the graph is rebuilt in the background; queries scan exactly meanwhile.
db = await open();
const cid = db.collection('default_keyspace', 'vectors').record.cid;
await db.kvStore.batch([{ type: 'del', key: `vmeta:${cid.toString(36).padStart(6, '0')}` }]);
await db.close();
t = performance.now();
db = await open();
await executeCommand(db, query, target);
const rebuildFirstQuerySeconds = (performance.now() - t) / 1000;
await db.close();
rmSync(dir, { recursive: true, force: true });

const result = { n: N, dim: DIM, backend: BACKEND, insertSeconds, graphSeconds, closeSeconds, openSeconds, rebuildFirstQuerySeconds };
console.table(result);
console.log(`open + first vector query of ${N} x ${DIM}: ${openSeconds.toFixed(2)} s (target < 1 s)`);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/open-bench.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2));
