// Verify benchmark (issue 28): how long `db.verify()` takes on a database of about --mb megabytes of document
// bodies (one collection, --doc-bytes per document, three indexed fields, the long text not indexed), loaded
// with durability relaxed; prints the load time, the bytes on disk, and the verify time and rate. Run after
// `npm run build`:  node bench/verify-bench.js [--mb 1024] [--doc-bytes 4000] [--dir <parent directory>]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshDist } from './lib/private-dist.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const MB = Number(arg('--mb', 1024));
const DOC_BYTES = Number(arg('--doc-bytes', 4000));
const PARENT = arg('--dir', tmpdir());
const { VectorDB } = await import(new URL('node/index.js', freshDist()).href);

const count = Math.ceil((MB * 1024 * 1024) / DOC_BYTES);
// Incompressible text (base64 of random bytes), so the directory holds about --mb of data after Snappy.
const body = () => randomBytes(Math.floor(((DOC_BYTES - 100) * 3) / 4)).toString('base64');
const dir = mkdtempSync(path.join(PARENT, 'verify-bench-'));
const bytesOnDisk = (d) => readdirSync(d, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).reduce((sum, e) => sum + statSync(path.join(e.parentPath, e.name)).size, 0);
try {
  const limits = { preset: 'data-api', maxInsertManyDocuments: 100, maxCountDocuments: count + 1 };
  let db = new VectorDB('token', dir, undefined, { durability: 'relaxed', limits });
  await db.command({ createCollection: { name: 'docs', options: { indexing: { deny: ['body'] } } } }, { keyspace: 'default_keyspace' });
  const docs = await db.collection('docs');
  const loadStart = performance.now();
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, (_, k) => ({ _id: `d${i + k}`, n: i + k, cat: `c${(i + k) % 100}`, tags: ['a', `t${(i + k) % 7}`], body: body() }));
    await docs.insertMany(batch);
    if (i % 50_000 === 0) process.stderr.write(`loaded ${i} of ${count}\n`);
  }
  const loadMs = performance.now() - loadStart;
  await db.close();
  const disk = bytesOnDisk(dir);
  db = new VectorDB('token', dir, undefined, { limits });
  const start = performance.now();
  const report = await db.verify();
  const verifyMs = performance.now() - start;
  await db.close();
  console.log(`${count} documents of ${DOC_BYTES} bytes (${MB} MB of bodies), ${(disk / 2 ** 20).toFixed(0)} MiB on disk, loaded in ${(loadMs / 1000).toFixed(1)} s`);
  console.log(`verify: ${(verifyMs / 1000).toFixed(1)} s, ${((disk / 2 ** 20) / (verifyMs / 1000)).toFixed(0)} MiB/s of the directory; ok: ${report.ok}`.slice(0, 400));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
