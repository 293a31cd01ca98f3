// Query benchmark (issue 3): indexed vs scanned queries at 10k and 100k documents, and insert throughput
// with full indexing vs `deny: ["*"]`. Run after `npm run build`:
//   node bench/query-bench.js [--sizes 10000,100000] [--repeat 3]
// Insert rates vary by +-20 % from run to run on a shared 2-core machine: with --repeat N each size loads
// both collections N more times, each pair into a fresh database and in alternating order, and the rates
// reported are the medians (every sample is printed and kept in the JSON). A warm-up load of each kind
// runs first, so neither is measured with cold code.
// Prints a table and writes bench/results/query-bench.json. Not a test: no assertions, figures only.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ClassicLevel } from 'classic-level';
import { freshDist } from './lib/private-dist.js';
import { median } from './lib/stats.js';

const dist = freshDist();
const { Database } = await import(new URL('engine/database.js', dist).href);
const { executeCommand } = await import(new URL('commands/index.js', dist).href);
const { parseFilter } = await import(new URL('query/filter.js', dist).href);

const args = process.argv.slice(2);
const sizes = (args[args.indexOf('--sizes') + 1] && args.includes('--sizes') ? args[args.indexOf('--sizes') + 1] : '10000,100000').split(',').map(Number);
const BATCH = 100;
const repeat = args.includes('--repeat') ? Number(args[args.indexOf('--repeat') + 1]) : 0;

/** Extra insert samples: each pair of loads in a fresh database, full indexing first on odd runs. */
async function insertSamples(n, runs) {
  const full = [];
  const deny = [];
  for (let run = 0; run < runs; run++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'vdb-bench-'));
    const db = await Database.open(dir, { limits: { maxInsertManyDocuments: BATCH, maxCollections: 10 } });
    const order = run % 2 === 0 ? ['deny', 'full'] : ['full', 'deny'];
    for (const kind of order) {
      if (kind === 'full') full.push(await load(db, 'indexed', n));
      else deny.push(await load(db, 'unindexed', n, { deny: ['*'] }));
    }
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { full, deny };
}

/** Deterministic documents with mixed attributes: 5,000 distinct `code` values (so 20 per value at 100k). */
function makeDoc(i, n) {
  return {
    _id: `doc-${i}`,
    code: `c${i % Math.max(1, Math.floor(n / 20))}`,
    price: (i * 7919) % 10_000,
    category: ['lamp', 'chair', 'desk', 'sofa', 'rug'][i % 5],
    inStock: i % 3 === 0,
    tags: [`t${i % 11}`, `t${i % 13}`],
    dims: { w: i % 100, h: (i * 3) % 100 },
    created: { $date: 1_700_000_000_000 + i * 1000 },
    note: `product number ${i} with a short description`,
  };
}

async function load(db, name, n, indexing) {
  await executeCommand(db, { createCollection: { name, options: indexing ? { indexing } : {} } }, { keyspace: 'default_keyspace' });
  const start = performance.now();
  for (let i = 0; i < n; i += BATCH) {
    const documents = [];
    for (let j = i; j < Math.min(n, i + BATCH); j++) documents.push(makeDoc(j, n));
    const r = await executeCommand(db, { insertMany: { documents } }, { keyspace: 'default_keyspace', collection: name });
    if (r.errors) throw new Error(JSON.stringify(r.errors[0]));
  }
  return n / ((performance.now() - start) / 1000);
}

async function time(fn, minMs = 300) {
  await fn();
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs || runs < 5) {
    await fn();
    runs++;
  }
  return (performance.now() - start) / runs;
}

const QUERIES = {
  'equality (20 matches)': (n) => ({ code: `c${Math.floor(n / 40)}` }),
  'range (~1% of docs)': () => ({ price: { $gte: 5000, $lt: 5100 } }),
  'equality + range': (n) => ({ code: `c${Math.floor(n / 40)}`, price: { $gte: 0 } }),
  'broad equality, first page (20% of docs)': () => ({ category: 'lamp' }),
  'broad range, first page (50% of docs)': () => ({ price: { $lt: 5000 } }),
};

/**
 * Loads a few thousand documents of each kind into a database that is thrown away: the first load in a
 * process runs with cold JIT code, and whichever kind went first was measured slower for it.
 */
async function warmUp() {
  const dir = mkdtempSync(path.join(tmpdir(), 'vdb-bench-warm-'));
  const db = await Database.open(dir, { limits: { maxInsertManyDocuments: BATCH, maxCollections: 10 } });
  await load(db, 'warm_indexed', 5000);
  await load(db, 'warm_unindexed', 5000, { deny: ['*'] });
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}

await warmUp();
const rows = [];
for (const n of sizes) {
  const dir = mkdtempSync(path.join(tmpdir(), 'vdb-bench-'));
  const db = await Database.open(dir, { limits: { maxInsertManyDocuments: BATCH, maxCollections: 10 } });
  const firstFull = await load(db, 'indexed', n);
  const firstDeny = await load(db, 'unindexed', n, { deny: ['*'] });
  const indexed = db.collection('default_keyspace', 'indexed');
  const peer = await rawLevelPeer(db, indexed);
  for (const [label, make] of Object.entries(QUERIES)) {
    const filter = make(n);
    const viaApi = await time(() => executeCommand(db, { find: { filter } }, { keyspace: 'default_keyspace', collection: 'indexed' }));
    const parsed = parseFilter(filter, { isIndexed: () => true });
    const scanned = await time(() => scanWith(db, indexed, parsed), 1000);
    rows.push({ n, query: label, indexedMs: viaApi, scanMs: scanned });
  }
  const sorted = await time(() => executeCommand(db, { find: { filter: { category: 'lamp', price: { $lt: 2000 } }, sort: { price: -1 }, options: { limit: 10 } } }, { keyspace: 'default_keyspace', collection: 'indexed' }));
  rows.push({ n, query: 'sorted find (filter ~4%, top 10)', indexedMs: sorted, scanMs: null });
  await db.close();
  const extra = repeat > 0 ? await insertSamples(n, repeat) : { full: [], deny: [] };
  const fullSamples = [firstFull, ...extra.full];
  const denySamples = [firstDeny, ...extra.deny];
  rows.push({ n, query: 'insert docs/s: full indexing', indexedMs: null, scanMs: null, rate: median(fullSamples), samples: fullSamples });
  rows.push({ n, query: 'insert docs/s: deny ["*"]', indexedMs: null, scanMs: null, rate: median(denySamples), samples: denySamples });
  rows.push({ n, query: `raw classic-level, same keys (${peer.keysPerDoc.toFixed(1)}/doc)`, indexedMs: null, scanMs: null, rate: peer.withIndex });
  rows.push({ n, query: 'raw classic-level, bodies only', indexedMs: null, scanMs: null, rate: peer.bodiesOnly });
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The storage engine's floor, side by side: the exact keys and values the indexed load wrote (read back
 * from its collection), written with classic-level directly in chained batches of 25 documents, as the
 * engine's insert sub-batches are, with the same memtable size. No shredding, no JSON: LevelDB only.
 */
async function rawLevelPeer(db, collection) {
  const cid = collection.record.cid.toString(36).padStart(6, '0');
  const perDoc = new Map();
  for await (const [key, value] of db.kvStore.entries({ gte: `doc:${cid}\u0000`, lt: `doc:${cid}\u0000\u{10FFFF}` })) {
    perDoc.set(key.slice(key.indexOf('\u0000') + 1), [[key, Buffer.from(value)]]);
  }
  let indexKeys = 0;
  for await (const [key, value] of db.kvStore.entries({ gte: `idx:${cid}\u0000`, lt: `idx:${cid}\u0000\u{10FFFF}` })) {
    perDoc.get(key.slice(key.lastIndexOf('\u0000') + 1))?.push([key, Buffer.from(value)]);
    indexKeys++;
  }
  const docs = [...perDoc.values()];
  const write = async (withIndex) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vdb-bench-raw-'));
    const level = new ClassicLevel(dir, { keyEncoding: 'utf8', valueEncoding: 'view', writeBufferSize: 32 * 1024 * 1024 });
    await level.open();
    const start = performance.now();
    for (let i = 0; i < docs.length; i += 25) {
      const batch = level.batch();
      for (const ops of docs.slice(i, i + 25)) for (const [key, value] of withIndex ? ops : ops.slice(0, 1)) batch.put(key, value);
      await batch.write();
    }
    const rate = docs.length / ((performance.now() - start) / 1000);
    await level.close();
    rmSync(dir, { recursive: true, force: true });
    return rate;
  };
  return { keysPerDoc: indexKeys / docs.length, withIndex: await write(true), bodiesOnly: await write(false) };
}

/** Evaluates the filter over every document (the plan an unindexed attribute gets). */
async function scanWith(db, collection, filter) {
  const out = [];
  const kv = db.kvStore;
  const prefix = `doc:${collection.record.cid.toString(36).padStart(6, '0')}\u0000`;
  for await (const [, value] of kv.entries({ gte: prefix, lt: `${prefix}\u{10FFFF}` })) {
    const doc = JSON.parse(Buffer.from(value).toString('utf8'));
    if (filter.matches(doc)) out.push(doc);
    if (out.length === 20) break;
  }
  return out;
}

console.log('\n| docs | query | indexed (ms) | full scan (ms) | docs/s |');
console.log('|---:|---|---:|---:|---:|');
for (const r of rows) {
  const f = (v) => (v === null || v === undefined ? '' : v.toFixed(2));
  console.log(`| ${r.n} | ${r.query} | ${f(r.indexedMs)} | ${f(r.scanMs)} | ${r.rate ? Math.round(r.rate) : ''} |`);
}
const eq = (n) => rows.find((r) => r.n === n && r.query.startsWith('equality (20'))?.indexedMs;
if (sizes.length >= 2) {
  const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
  console.log(`\nindexed equality ${large} vs ${small}: ${(eq(large) / eq(small)).toFixed(2)}x (target <= 1.5x)`);
}
for (const n of sizes) {
  const full = rows.find((r) => r.n === n && r.query.includes('full indexing')).rate;
  const deny = rows.find((r) => r.n === n && r.query.includes('deny')).rate;
  const rawIndexed = rows.find((r) => r.n === n && r.query.startsWith('raw classic-level, same keys')).rate;
  const rawBodies = rows.find((r) => r.n === n && r.query === 'raw classic-level, bodies only').rate;
  const samples = (query) => rows.find((r) => r.n === n && r.query.includes(query)).samples.map(Math.round).join(', ');
  console.log(`insert cost of indexing at ${n}: ${(deny / full).toFixed(2)}x slower with full indexing (target <= 2x)`);
  console.log(`  docs/s samples (the medians are reported): full indexing ${samples('full indexing')}; deny ${samples('deny')}`);
  console.log(`  raw classic-level writing the same keys: ${(rawBodies / rawIndexed).toFixed(2)}x slower than bodies only; our full indexing runs at ${(full / rawIndexed).toFixed(2)}x of that floor`);
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/query-bench.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
