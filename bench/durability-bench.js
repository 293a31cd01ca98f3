// Durability benchmark (issue 28): documents per second acknowledged with `durability: 'full'` (each write
// fsynced before it is acknowledged; concurrent writers share one fsync) against 'relaxed' (acknowledged once
// the OS has it), with 1 and 8 concurrent writers of insertOne, and with insertMany of 20 and of 100.
// Each case on a fresh directory, modes interleaved, median of --rounds. Run after `npm run build`:
//   node bench/durability-bench.js [--docs 2000] [--rounds 3] [--dir <parent directory on the disk to measure>]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshDist } from './lib/private-dist.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const DOCS = Number(arg('--docs', 2000));
const ROUNDS = Number(arg('--rounds', 3));
const PARENT = arg('--dir', tmpdir());
const { VectorDB } = await import(new URL('node/index.js', freshDist()).href);

const doc = (i) => ({ _id: `d${i}`, n: i, text: `document ${i} of the durability benchmark`, tags: ['a', `t${i % 10}`] });

/** Documents per second for one case on a fresh database. */
async function run(durability, writers, batch) {
  const dir = mkdtempSync(path.join(PARENT, 'durability-bench-'));
  const db = new VectorDB('token', dir, undefined, { durability, limits: { preset: 'data-api', maxInsertManyDocuments: 100 } });
  try {
    await db.command({ createCollection: { name: 'docs' } }, { keyspace: 'default_keyspace' });
    const docs = await db.collection('docs');
    let next = 0;
    const writer = async () => {
      for (;;) {
        const start = next;
        if (start >= DOCS) return;
        next += batch;
        const slice = Array.from({ length: Math.min(batch, DOCS - start) }, (_, k) => doc(start + k));
        if (batch === 1) await docs.insertOne(slice[0]);
        else await docs.insertMany(slice);
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: writers }, writer));
    return DOCS / ((performance.now() - began) / 1000);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases = [
  { name: 'insertOne, 1 writer', writers: 1, batch: 1 },
  { name: 'insertOne, 8 writers', writers: 8, batch: 1 },
  { name: 'insertMany of 20, 1 writer', writers: 1, batch: 20 },
  { name: 'insertMany of 20, 8 writers', writers: 8, batch: 20 },
  { name: 'insertMany of 100, 1 writer', writers: 1, batch: 100 },
];
console.log(`| ${DOCS} documents, median of ${ROUNDS}, on ${PARENT} | full (docs/s) | relaxed (docs/s) | full / relaxed |`);
console.log('|---|---|---|---|');
for (const c of cases) {
  const full = [];
  const relaxed = [];
  for (let r = 0; r < ROUNDS; r++) {
    full.push(await run('full', c.writers, c.batch));
    relaxed.push(await run('relaxed', c.writers, c.batch));
  }
  const f = median(full);
  const x = median(relaxed);
  console.log(`| ${c.name} | ${Math.round(f)} | ${Math.round(x)} | ${(f / x).toFixed(2)}x |`);
}
