// Cold start benchmark (issue 20, "reopen to first answer" as an app sees it): in fresh processes, how long
// `import` of the package takes and what it leaves in memory (RSS and heap after a full GC), then how long
// opening an existing collection and answering a first findVector take (RSS and heap after them too).
// Builds are run alternately, the same number of times each, and medians printed. A build is a dist/
// directory: its package entry is dist/node/index.js (the bundled Node entry) when there is one, else
// dist/index.js.
// Run after `npm run build`:
//   node bench/cold-start-bench.js [--rounds 10] [--n 20000] [--dim 384] [--backend native|wasm] [--dist <dir>]...
// (each --dist adds a build, e.g. a copy of dist/ from before a change; none: ./dist). The collection is made
// once per --n/--dim/--backend in the temp directory by the first build and kept (delete it to remake it):
// one per backend, as a backend may rewrite the saved graph in its own format when it opens it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshDist } from './lib/private-dist.js';
import { median } from './lib/stats.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const self = fileURLToPath(import.meta.url);

/** The child: `--child <entry> <dir> <dim> <backend>` prints one JSON line of figures. */
async function child([entry, dir, dim, backend]) {
  const cpuMs = (c) => (c.user + c.system) / 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { VectorDB } = await import(entry);
  const t1 = performance.now();
  const importCpu = cpuMs(process.cpuUsage(cpu0));
  globalThis.gc();
  const afterImport = process.memoryUsage();
  const q = Array.from({ length: Number(dim) }, (_, i) => Math.sin(i));
  const cpu1 = process.cpuUsage();
  const t2 = performance.now();
  const db = new VectorDB('bench', dir, undefined, { vectorBackend: backend });
  const collection = await db.collection('vectors');
  const found = await collection.findVector(q, { limit: 10, projection: { _id: 1 } });
  const t3 = performance.now();
  const openCpu = cpuMs(process.cpuUsage(cpu1));
  if (found.length !== 10) throw new Error(`found ${found.length}, not 10`);
  globalThis.gc();
  const afterFind = process.memoryUsage();
  await db.close();
  const mb = (bytes) => bytes / 2 ** 20;
  console.log(JSON.stringify({ importMs: t1 - t0, importCpuMs: importCpu, rssMB: mb(afterImport.rss), heapMB: mb(afterImport.heapUsed), openFindMs: t3 - t2, openFindCpuMs: openCpu, totalMs: t3 - t0, findRssMB: mb(afterFind.rss), findHeapMB: mb(afterFind.heapUsed) }));
}

async function makeCollection(entry, dir, n, dim, backend) {
  const { VectorDB } = await import(entry);
  const db = new VectorDB('bench', dir, undefined, { vectorBackend: backend });
  const collection = await db.createCollection({ name: 'vectors', options: { vector: { dimension: dim, metric: 'cosine' } } });
  let seed = 3;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5);
  for (let from = 0; from < n; from += 1000) {
    const docs = [];
    for (let i = from; i < Math.min(n, from + 1000); i++) docs.push({ _id: i, cat: i % 100, $vector: Array.from({ length: dim }, random) });
    await collection.insertMany(docs);
  }
  await collection.waitForIndex();
  await db.close();
}

function entryOf(dist) {
  const dir = path.resolve(dist);
  const bundled = path.join(dir, 'node', 'index.js');
  return pathToFileURL(existsSync(bundled) ? bundled : path.join(dir, 'index.js')).href;
}


if (args[0] === '--child') {
  await child(args.slice(1));
} else {
  const rounds = Number(arg('--rounds', 10));
  const n = Number(arg('--n', 20_000));
  const dim = Number(arg('--dim', 384));
  const backend = arg('--backend', 'native');
  const dists = args.flatMap((a, i) => (a === '--dist' ? [args[i + 1]] : []));
  if (dists.length === 0) dists.push(fileURLToPath(freshDist()));
  const builds = dists.map((dist) => ({ dist, entry: entryOf(dist), rows: [] }));
  const dir = path.join(tmpdir(), `vdb-cold-start-${n}x${dim}-${backend}`);
  if (!existsSync(dir)) {
    console.log(`making ${n} x ${dim} in ${dir} ...`);
    await makeCollection(builds[0].entry, dir, n, dim, backend);
  }
  for (let round = 0; round < rounds; round++) {
    for (const build of builds) {
      const out = execFileSync(process.execPath, ['--expose-gc', self, '--child', build.entry, dir, String(dim), backend], { encoding: 'utf8' });
      build.rows.push(JSON.parse(out.trim().split('\n').at(-1)));
    }
  }
  const keys = Object.keys(builds[0].rows[0]);
  console.log(`medians of ${rounds} fresh processes per build, alternating (${n} x ${dim}, ${backend}):`);
  console.log(['build', ...keys].join('\t'));
  for (const build of builds) console.log([`${build.dist} (${path.relative(path.resolve(build.dist), fileURLToPath(build.entry))})`, ...keys.map((k) => median(build.rows.map((r) => r[k])).toFixed(1))].join('\t'));
}
