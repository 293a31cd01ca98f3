/**
 * One system of the vector benchmark, in its own process (so heaps, GC and the wasm module of one
 * system never disturb another): builds the index over a dataset written by bench/vector-bench.js,
 * then measures recall@k and QPS over an ef sweep and over filtered queries, and writes JSON.
 *
 *   node bench/lib/vector-bench-child.js <system> <datasetDir> <outFile> <optionsJson>
 *
 * Systems: raw-native (hnswlib-node used directly), raw-wasm (hnswlib-wasm used directly, loaded the way
 * a user must in Node), ours-wasm / ours-native (vectordb-local's full API through executeCommand).
 * Progress goes to stderr; stdout stays empty unless a library prints (the parent checks that).
 */
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { classifyBulkLoad, classifyQuery, classifyReopen, startProfile, summarize } from './cpu-profile.js';
import { queryComponents } from './query-components.js';
import { readDataset, row } from './vector-data.js';
import { SELECTIVITIES, bucketBound, gcTimer, measureQueries } from './measure.js';

const [system, dataDir, outFile, optionsJson] = process.argv.slice(2);
const opts = JSON.parse(optionsJson);
const ds = readDataset(dataDir);
// --load-only runs have no ground truth (no queries are measured).
const truth = opts.loadOnly ? null : JSON.parse(readFileSync(join(dataDir, 'truth.json'), 'utf8'));
const { n, dim } = ds;
const K = opts.k;
const log = (...a) => process.stderr.write(`  [${system} ${ds.label}] ${a.join(' ')}\n`);
const sec = (ms) => (ms / 1000).toFixed(1);
const measureOpts = { maxMs: opts.maxMs, minQueries: opts.minQueries };

const result = { system, dataset: ds.label, n, dim, params: { M: opts.M, efConstruction: opts.efConstruction }, build: {}, unfiltered: [], filtered: [] };

/**
 * Every system's unfiltered ef sweep runs twice, before and after its filtered runs, and each ef keeps the
 * faster of its two measurements (recall is the same: same graph, same queries). Other processes on a
 * shared machine only ever slow a measurement down, and they come and go over seconds: the second sweep,
 * a minute later, is the one chance a system gets at a quiet machine if the first was unlucky.
 */
function recordUnfiltered(ef, m, sweep) {
  const previous = result.unfiltered.find((u) => u.ef === ef);
  log(`ef ${ef}${sweep === 2 ? ' (second sweep)' : ''}: recall ${m.recall.toFixed(3)}, ${m.qps.toFixed(0)} QPS (GC ${(m.gcMsPerQuery * 1000).toFixed(0)} us/query, heap ${m.heapUsedMb.toFixed(0)} MB)`);
  if (previous === undefined) result.unfiltered.push({ ef, ...m, sweeps: [m.qps] });
  else if (m.qps > previous.qps) Object.assign(previous, m, { sweeps: [...previous.sweeps, m.qps] });
  else previous.sweeps.push(m.qps);
}

/** Silences hnswlib-wasm's console chatter while `fn` (and its promise) runs. Other output passes. */
const CHATTER = /^(?:b\. jsFS |EmscriptenFileSystemManager: |\s*$)/;
let chatterLines = 0;
async function quiet(fn) {
  const saved = {};
  for (const m of ['log', 'info', 'warn', 'error', 'debug']) {
    saved[m] = console[m];
    console[m] = (...args) => {
      if (typeof args[0] === 'string' && CHATTER.test(args[0])) {
        chatterLines++;
        return;
      }
      saved[m](...args);
    };
  }
  try {
    return await fn();
  } finally {
    Object.assign(console, saved);
  }
}

const started = performance.now();
let published = false;

/** Writes the result file (once): at the end, or before serving a duel. */
function publish() {
  if (published) return;
  published = true;
  result.totalMs = performance.now() - started;
  result.chatterLinesHidden = chatterLines;
  writeFileSync(outFile, JSON.stringify(result));
}

/**
 * The duel (opts.duel, with an IPC channel to the parent): once its own runs are done, a system stays
 * alive and answers "measure ef X for Y ms" requests, so that the parent can alternate short bursts of
 * the same queries between a raw library and our API, both loaded side by side. Load from other
 * processes on a shared machine drifts over seconds; alternating bursts see the same drift.
 */
async function serveDuel(peer) {
  publish();
  if (!opts.duel || !process.send) return;
  const nextMessage = () => new Promise((resolve) => process.once('message', resolve));
  process.send({ type: 'ready' });
  let ef;
  for (let message = await nextMessage(); message.type === 'measure'; message = await nextMessage()) {
    if (message.ef !== ef) {
      await peer.setEf(message.ef);
      ef = message.ef;
    }
    process.send({ type: 'measured', ...(await burst(peer.search, message.ms)) });
  }
}

/** QPS of the unfiltered queries (cycled) over `ms` of wall time, after a few warm-up queries. */
async function burst(search, ms) {
  const nq = truth.unfiltered.length;
  for (let i = 0; i < 50; i++) await search(i % nq);
  const gc = gcTimer();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < ms) {
    const r = search(count % nq);
    if (r && typeof r.then === 'function') await r;
    count++;
  }
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const gcMsPerQuery = (await gc.stop()) / count;
  return { queries: count, qps: (count / elapsed) * 1000, cpuQps: (count / ((cpu.user + cpu.system) / 1000)) * 1000, gcMsPerQuery };
}

// ---- raw peers ------------------------------------------------------------------------------------

async function rawNative() {
  const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node');
  const index = new HierarchicalNSW('cosine', dim);
  const t0 = performance.now();
  index.initIndex(n, opts.M, opts.efConstruction, 100);
  for (let i = 0; i < n; i++) {
    index.addPoint(Array.from(row(ds.vectors, i, dim)), i);
    if (i % 20000 === 19999) log(`built ${i + 1}/${n} in ${sec(performance.now() - t0)} s`);
  }
  result.build.ms = performance.now() - t0;
  log(`build ${sec(result.build.ms)} s`);
  const queries = Array.from({ length: ds.queries.length / dim }, (_, q) => Array.from(row(ds.queries, q, dim)));
  return {
    setEf: (ef) => index.setEf(ef),
    search: (q, filter) => index.searchKnn(queries[q], K, filter).neighbors,
  };
}

async function rawWasm() {
  // What a user of hnswlib-wasm must do in Node 20 (see shared/reference/vector-index-notes.md).
  globalThis.window ??= globalThis;
  await import('fake-indexeddb/auto');
  const { loadHnswlib, waitForFileSystemSynced } = await import('hnswlib-wasm/dist/hnswlib.js');
  // Mounting IDBFS ends with a sync whose "synced successfully" line comes in a timer after
  // loadHnswlib() resolved: stay quiet until the module reports that sync.
  const lib = await quiet(async () => {
    const loaded = await loadHnswlib();
    await waitForFileSystemSynced();
    return loaded;
  });
  const index = new lib.HierarchicalNSW('cosine', dim, '');
  const t0 = performance.now();
  await quiet(() => index.initIndex(n, opts.M, opts.efConstruction, 100));
  const BATCH = 1000;
  for (let i = 0; i < n; i += BATCH) {
    const items = [];
    const labels = [];
    for (let j = i; j < Math.min(n, i + BATCH); j++) {
      items.push(row(ds.vectors, j, dim));
      labels.push(j);
    }
    await quiet(() => index.addPoints(items, labels, false));
    if ((i + BATCH) % 20000 === 0) log(`built ${i + BATCH}/${n} in ${sec(performance.now() - t0)} s`);
  }
  result.build.ms = performance.now() - t0;
  log(`build ${sec(result.build.ms)} s`);
  const queries = Array.from({ length: ds.queries.length / dim }, (_, q) => row(ds.queries, q, dim));
  return {
    setEf: (ef) => index.setEfSearch(ef),
    search: (q, filter) => index.searchKnn(queries[q], K, filter).neighbors,
  };
}

async function runRaw(peer) {
  const sweep = async (number) => {
    for (const ef of opts.efs) {
      peer.setEf(ef);
      recordUnfiltered(ef, await measureQueries((q) => peer.search(q), truth.unfiltered, measureOpts), number);
    }
  };
  await sweep(1);
  peer.setEf(opts.filterEf);
  for (const sel of SELECTIVITIES) {
    const bound = bucketBound(sel);
    const bucket = ds.bucket;
    // The naive filter callback: hnswlib calls it for every graph node it visits.
    const filter = (label) => bucket[label] < bound;
    const m = await measureQueries((q) => peer.search(q, filter), truth.filtered[sel], measureOpts);
    result.filtered.push({ selectivity: sel, ef: opts.filterEf, ...m });
    log(`filtered ${sel * 100} %: recall ${m.recall.toFixed(3)}, ${m.qps.toFixed(1)} QPS (${m.queries} queries)`);
  }
  await sweep(2);
  await serveDuel(peer);
}

// ---- our full API -----------------------------------------------------------------------------------

async function ours(backend) {
  const dist = new URL(opts.distUrl ?? '../../dist/', import.meta.url);
  const { Database } = await import(new URL('engine/database.js', dist));
  const { executeCommand } = await import(new URL('commands/index.js', dist));
  const KS = 'default_keyspace';
  const NAME = 'bench';
  const target = { keyspace: KS, collection: NAME };
  const dir = mkdtempSync(join(tmpdir(), 'vector-bench-'));
  const dbOptions = { limits: { maxInsertManyDocuments: opts.batch, maxCollections: 20 }, vectorBackend: backend };
  let db = await Database.open(dir, dbOptions);
  const check = (r) => {
    if (r.errors) throw new Error(JSON.stringify(r.errors[0]));
    return r;
  };
  try {
    const index = { m: opts.M, efConstruction: opts.efConstruction, efSearch: opts.efs[0] };
    check(await executeCommand(db, { createCollection: { name: NAME, options: { vector: { dimension: dim, metric: 'cosine', index } } } }, { keyspace: KS }));
    let vectors = await db.collection(KS, NAME).vectors();
    if (backend === 'wasm') {
      // Which of our hnswlib-wasm glue patches this build applied (a missing one costs query time).
      result.gluePatches = (await import(new URL('vector-index/wasm-glue.js', dist))).appliedPatches;
      log(`hnswlib-wasm glue patches: ${result.gluePatches.join(', ') || 'none'}`);
    }

    // Each batch's documents are made just before it is inserted, and that time is left out of the
    // figures (docsMs): the load measures the database, not the bench. Not all in advance: 100k
    // documents of 128 numbers held ~330 MB of JS heap for the whole load, and V8's incremental
    // marking of it, done inside the database's insert tasks, stalled the event loop 100-280 ms.
    const makeBatch = (from) => {
      const documents = [];
      for (let j = from; j < Math.min(n, from + opts.batch); j++) {
        documents.push({ _id: j, bucket: ds.bucket[j], title: `document ${j}`, $vector: Array.from(row(ds.vectors, j, dim)) });
      }
      return documents;
    };
    let docsMs = 0;
    const clock = () => performance.now() - docsMs;

    // ---- bulk load: ack'd inserts, then the graph catching up, then its snapshot ----
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const profiler = opts.profile ? await startProfile(opts.profileIntervalUs) : null;
    const t0 = clock();
    let pendingAtAck = 0;
    const batchCount = Math.ceil(n / opts.batch);
    for (let b = 0; b < batchCount; b++) {
      const made = performance.now();
      const documents = makeBatch(b * opts.batch);
      docsMs += performance.now() - made;
      check(await executeCommand(db, { insertMany: { documents } }, target));
      if ((b + 1) % Math.ceil(20000 / opts.batch) === 0) log(`inserted ${(b + 1) * opts.batch}/${n} in ${sec(clock() - t0)} s, ${vectors.pendingCount} not yet in the graph`);
    }
    const ackMs = clock() - t0;
    pendingAtAck = vectors.pendingCount;
    // Handing over a profile of the whole insert phase blocks for a while: not the database's delay.
    loop.disable();
    const insertProfile = profiler ? await profiler.stop() : null;
    log(`acknowledged ${n} in ${sec(ackMs)} s (documents made in ${sec(docsMs)} s more); ${pendingAtAck} vectors still to index`);
    const profiler2 = opts.profile ? await startProfile(opts.profileIntervalUs) : null;
    loop.enable();
    while (vectors.pendingCount > 0) await new Promise((r) => setTimeout(r, 5));
    const graphMs = clock() - t0;
    await vectors.waitForIndex();
    const indexedMs = clock() - t0;
    loop.disable();
    const catchUpProfile = profiler2 ? await profiler2.stop() : null;
    log(`graph complete at ${sec(graphMs)} s, snapshot saved at ${sec(indexedMs)} s; event loop delay max ${(loop.max / 1e6).toFixed(0)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms`);
    result.build = {
      ms: graphMs,
      ackMs,
      graphMs,
      indexedAndSavedMs: indexedMs,
      pendingAtAck,
      docsMs,
      batch: opts.batch,
      eventLoopDelay: { maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6, meanMs: loop.mean / 1e6 },
    };
    if (insertProfile) {
      result.build.profile = {
        intervalUs: opts.profileIntervalUs,
        insertPhase: summarize(insertProfile, classifyBulkLoad),
        catchUpPhase: summarize(catchUpProfile, classifyBulkLoad),
      };
      if (opts.profileDir) {
        writeFileSync(join(opts.profileDir, `${system}-${ds.label.replace(/\W+/g, '_')}-insert.cpuprofile`), JSON.stringify(insertProfile));
        writeFileSync(join(opts.profileDir, `${system}-${ds.label.replace(/\W+/g, '_')}-catchup.cpuprofile`), JSON.stringify(catchUpProfile));
      }
    }
    // --load-only: the bulk load is all that was asked for.
    if (opts.loadOnly) return;
    // Let LevelDB's background compaction of the load settle before timing queries.
    await new Promise((r) => setTimeout(r, opts.settleMs ?? 2000));

    // efSearch is a collection option, not stored in the graph: to change it, the catalog record is
    // rewritten and the database re-opened (the graph snapshot loads with the new efSearch).
    const reopen = async (efSearch, profile = false) => {
      const key = `coll:${KS}\u0000${NAME}`;
      const record = JSON.parse(await db.kvStore.getString(key));
      record.options.vector.index.efSearch = efSearch;
      await db.kvStore.batch([{ type: 'put', key, value: JSON.stringify(record) }]);
      await db.close();
      const p = profile ? await startProfile(500) : null;
      const t = performance.now();
      db = await Database.open(dir, dbOptions);
      vectors = await db.collection(KS, NAME).vectors();
      // Searchable now (exact scans); the graph snapshot is adopted in the background.
      const loadedMs = performance.now() - t;
      await vectors.waitForIndex();
      const graphMs = performance.now() - t;
      if (p) result.reopenProfile = summarize(await p.stop(), classifyReopen);
      result.reopenGraphMs = [...(result.reopenGraphMs ?? []), graphMs];
      return loadedMs;
    };

    const queries = Array.from({ length: ds.queries.length / dim }, (_, q) => Array.from(row(ds.queries, q, dim)));
    const find = async (q, filter) => {
      const command = { find: { ...(filter ? { filter } : {}), sort: { $vector: queries[q] }, options: { limit: K } } };
      const r = await executeCommand(db, command, target);
      if (r.errors) throw new Error(JSON.stringify(r.errors[0]));
      return r.data.documents.map((d) => d._id);
    };
    result.reopenMs = [];
    for (const ef of opts.efs) {
      if (ef !== opts.efs[0]) result.reopenMs.push({ efSearch: ef, ms: await reopen(ef) });
      recordUnfiltered(ef, await measureQueries((q) => find(q), truth.unfiltered, measureOpts), 1);
    }
    result.reopenMs.push({ efSearch: opts.filterEf, ms: await reopen(opts.filterEf, opts.profile) });
    log(`re-open (load the ${n}-vector snapshot): ${result.reopenMs.map((r) => r.ms.toFixed(0)).join(', ')} ms`);
    for (const sel of SELECTIVITIES) {
      const filter = { bucket: { $lt: bucketBound(sel) } };
      const m = await measureQueries((q) => find(q, filter), truth.filtered[sel], measureOpts);
      result.filtered.push({ selectivity: sel, ef: opts.filterEf, ...m });
      log(`filtered ${sel * 100} %: recall ${m.recall.toFixed(3)}, ${m.qps.toFixed(1)} QPS (${m.queries} queries)`);
    }
    for (const ef of opts.efs) {
      await reopen(ef);
      recordUnfiltered(ef, await measureQueries((q) => find(q), truth.unfiltered, measureOpts), 2);
    }
    await reopen(opts.filterEf);
    if (opts.diagnose) result.components = { ef: opts.filterEf, ...(await queryComponents(db, vectors, find, queries, { distUrl: opts.distUrl, k: K, log })) };
    if (opts.queryProfile) {
      // Where a query's time goes at the configurations the targets look at (for diagnosis).
      result.queryProfiles = {};
      for (const [name, filter, ef] of [
        ['unfiltered ef 10', undefined, opts.efs[0]],
        ['filtered 1 %', { bucket: { $lt: bucketBound(0.01) } }, opts.filterEf],
        ['filtered 100 %', { bucket: { $lt: bucketBound(1) } }, opts.filterEf],
      ]) {
        if (ef !== opts.filterEf) await reopen(ef);
        const p = await startProfile(100);
        const t = performance.now();
        let count = 0;
        while (performance.now() - t < 3000) await find(count++ % queries.length, filter);
        const profile = await p.stop();
        result.queryProfiles[name] = { queries: count, profile: summarize(profile, classifyQuery) };
        if (opts.profileDir) writeFileSync(join(opts.profileDir, `${system}-${ds.label.replace(/\W+/g, '_')}-query-${name.replace(/\W+/g, '_')}.cpuprofile`), JSON.stringify(profile));
        if (ef !== opts.filterEf) await reopen(opts.filterEf);
      }
    }
    await serveDuel({ setEf: (ef) => reopen(ef), search: (q) => find(q) });
  } finally {
    await db.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (system === 'raw-native') await runRaw(await rawNative());
else if (system === 'raw-wasm') await runRaw(await rawWasm());
else if (system === 'ours-wasm') await ours('wasm');
else if (system === 'ours-native') await ours('native');
else throw new Error(`unknown system ${system}`);
publish();
process.disconnect?.();
