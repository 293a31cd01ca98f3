// Vector search on a table vs on a collection holding the same vectors (issue 17), in one process and one
// run: N rows (default 20,000) of 128-dimensional unit vectors, inserted into a collection (`$vector`) and a
// table (a vector column with a cosine vector index); both graphs complete; then the same queries
// (find, sort on the vector, limit 10, rows returned without their vectors, as a collection returns documents) alternate between the two in rounds. Prints QPS and
// recall@10 (against an exact scan) of each, and the table/collection QPS ratio. Figures, not tests.
// Usage: node bench/table-vector-bench.js [--n 20000] [--queries 500]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeDataset } from './lib/vector-data.js';
import { exactTopK, recallOf } from './lib/exact.js';
import { freshDist } from './lib/private-dist.js';

const dist = freshDist();
const { Database } = await import(new URL('engine/database.js', dist).href);
const { executeCommand } = await import(new URL('commands/index.js', dist).href);

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const n = arg('n', 20_000);
const queries = arg('queries', 500);
const dim = 128;
const ds = makeDataset({ seed: 17, dim, clusters: 50, n, spread: 0.6, queries });
const ks = 'default_keyspace';
const dir = mkdtempSync(path.join(tmpdir(), 'vectordb-table-bench-'));
const db = await Database.open(dir, { limits: { maxInsertManyDocuments: 100, maxCollections: 10 } });

async function ok(command, target) {
  const response = await executeCommand(db, command, target);
  if (response.errors) throw new Error(JSON.stringify(response.errors));
  return response;
}

const vectorOf = (i) => Array.from(ds.vectors.subarray(i * dim, (i + 1) * dim));
await ok({ createCollection: { name: 'coll', options: { vector: { dimension: dim, metric: 'cosine' } } } }, { keyspace: ks });
await ok({ createTable: { name: 'tbl', definition: { columns: { id: 'int', v: { type: 'vector', dimension: dim } }, primaryKey: 'id' } } }, { keyspace: ks });
await ok({ createVectorIndex: { name: 'tbl_v', definition: { column: 'v', options: { metric: 'cosine' } } } }, { keyspace: ks, collection: 'tbl' });

const load = async (name, build) => {
  const started = performance.now();
  for (let i = 0; i < n; i += 100) {
    const documents = [];
    for (let j = i; j < Math.min(n, i + 100); j++) documents.push(build(j));
    await ok({ insertMany: { documents } }, { keyspace: ks, collection: name });
  }
  return performance.now() - started;
};
const collLoad = await load('coll', (i) => ({ _id: i, $vector: vectorOf(i) }));
const tblLoad = await load('tbl', (i) => ({ id: i, v: vectorOf(i) }));
const started = performance.now();
await (await db.collection(ks, 'coll').vectors()).waitForIndex();
await db.table(ks, 'tbl').waitForIndexes();
const graphs = performance.now() - started;

const truth = [];
for (let q = 0; q < queries; q++) truth.push(exactTopK(ds.queries.subarray(q * dim, (q + 1) * dim), ds.vectors, dim, n, 10));
const query = (q) => Array.from(ds.queries.subarray(q * dim, (q + 1) * dim));
const systems = {
  collection: { target: { keyspace: ks, collection: 'coll' }, find: (v) => ({ find: { sort: { $vector: v }, options: { limit: 10 } } }), id: (d) => d._id, ms: 0, recall: 0 },
  table: { target: { keyspace: ks, collection: 'tbl' }, find: (v) => ({ find: { sort: { v }, projection: { id: 1 }, options: { limit: 10 } } }), id: (d) => d.id, ms: 0, recall: 0 },
};
// Warm both, then alternate rounds of 50 queries so machine noise falls on both alike.
for (const s of Object.values(systems)) for (let q = 0; q < 20; q++) await ok(s.find(query(q)), s.target);
for (let from = 0; from < queries; from += 50) {
  for (const s of Object.values(systems)) {
    const t0 = performance.now();
    for (let q = from; q < Math.min(queries, from + 50); q++) {
      const found = (await ok(s.find(query(q)), s.target)).data.documents.map(s.id);
      s.recall += recallOf(found, truth[q]);
    }
    s.ms += performance.now() - t0;
  }
}
const qps = (s) => (queries / s.ms) * 1000;
console.log(`${n} x ${dim} cosine, ${queries} queries, limit 10 (load: collection ${(collLoad / 1000).toFixed(1)} s, table ${(tblLoad / 1000).toFixed(1)} s; graphs ${(graphs / 1000).toFixed(1)} s)`);
for (const [name, s] of Object.entries(systems)) console.log(`${name.padEnd(10)} QPS ${qps(s).toFixed(0).padStart(6)}  recall@10 ${(s.recall / queries).toFixed(3)}`);
console.log(`table / collection QPS: ${(qps(systems.table) / qps(systems.collection)).toFixed(2)}`);
await db.close();
rmSync(dir, { recursive: true, force: true });
