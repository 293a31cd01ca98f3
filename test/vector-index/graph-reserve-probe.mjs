/**
 * Test support for native-graph-moves.test.ts: grows native-rows graphs past their level-0 block's reserved
 * range (native/src/graph_growth.h), which VECTORDB_GRAPH_RESERVE_BYTES caps in the process running this (read
 * once: hence a child process per value), and prints what the test compares as JSON.
 * `node graph-reserve-probe.mjs graph <dir>`: the addon's graph directly (PROBE_N elements, 2000 unless set),
 * grown resize by resize from 64 slots, searched on the JS thread while each batch inserts, saved and loaded,
 * grown again. `collection <dir>`: through the engine (the built dist/), a collection's bulk load (PROBE_N
 * documents, 4000 unless set) searched meanwhile, closed and reopened. `reentry`: a search whose JS filter
 * tries to grow, change or dispose the graph it walks.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const DIST = new URL('../../dist/', import.meta.url);
const { loadNativeAddon } = await import(new URL('vector-index/native-addon.js', DIST).href);
const { NativeRowStore } = await import(new URL('vector-index/native-rows.js', DIST).href);
const a = loadNativeAddon();
if (a === null) throw new Error('the native addon does not load');

const DIM = 16;

/** n seeded vectors of DIM values around 8 centres, row-major. */
function vectors(seed, n) {
  let s = seed >>> 0;
  const random = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const centres = Array.from({ length: 8 }, () => Array.from({ length: DIM }, () => random() * 2 - 1));
  const out = new Float32Array(n * DIM);
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(random() * 8)];
    for (let j = 0; j < DIM; j++) out[i * DIM + j] = c[j] + (random() - 0.5) * 0.6;
  }
  return out;
}
const vectorAt = (data, i) => data.subarray(i * DIM, (i + 1) * DIM);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Every element's row and links (levels 0 and 1), and the top 10 of `queries`: one string, compared whole. */
function stateOf(graph, n, queries) {
  const links = new Uint32Array(64);
  const slots = new Uint32Array(10);
  const distances = new Float32Array(10);
  const parts = [];
  for (let s = 0; s < n; s++) {
    const at0 = graph.links(s, 0, links);
    const l0 = Array.from(links.subarray(0, Math.max(at0, 0)));
    const at1 = graph.links(s, 1, links);
    parts.push(`${graph.rowOf(s)}:${l0}:${at1 < 0 ? '-' : Array.from(links.subarray(0, at1))}`);
  }
  for (let q = 0; q * DIM < queries.length; q++) {
    const k = graph.search(vectorAt(queries, q), 10, 64, undefined, slots, distances);
    parts.push(`${Array.from(slots.subarray(0, k))}/${Array.from(distances.subarray(0, k))}`);
  }
  return parts.join('|');
}

/** Elements 0 .. n-1 that a search of their own vector finds first (k 1, ef 64). */
function selfFound(graph, data, from, n) {
  const slots = new Uint32Array(1);
  const distances = new Float32Array(1);
  let found = 0;
  for (let i = from; i < n; i++) if (graph.search(vectorAt(data, i), 1, 64, undefined, slots, distances) === 1 && slots[0] === i) found++;
  return found;
}

/**
 * One search of element `i`'s vector while slots below `upTo` may be in the graph: a hit list that is wrong in
 * form (a slot not inserted, distances out of order or not numbers) counts as bad; `self` whether `i` is in it.
 */
function checkedSearch(graph, data, i, upTo, out) {
  const slots = new Uint32Array(10);
  const distances = new Float32Array(10);
  const k = graph.search(vectorAt(data, i), 10, 64, undefined, slots, distances);
  out.searches++;
  let bad = k === 0;
  for (let j = 0; j < k; j++) if (slots[j] >= upTo || !Number.isFinite(distances[j]) || (j > 0 && distances[j] < distances[j - 1])) bad = true;
  if (bad) out.bad++;
  if (Array.from(slots.subarray(0, k)).includes(i)) out.self++;
}

/**
 * Grows a graph over rows[0 .. n) from 64 slots: each round fills it to capacity - 1 (addAsync on `threads`
 * threads, searched meanwhile on this thread, a resize tried meanwhile), then doubles it (every other time with
 * its tables prepared), checking that the resize kept every element, link and answer.
 */
async function grown(store, rows, data, n, threads, queries, check) {
  const graph = new a.Graph(store.rows, 64, 16, 100, 100);
  const seen = { searches: 0, bad: 0, self: 0, refused: 0, resizes: 0, changed: 0 };
  let added = 0;
  for (let capacity = 64, round = 0; added < n; round++) {
    const upTo = Math.min(capacity - 1, n);
    let settled = false;
    const inserting = graph.addAsync(Uint32Array.from({ length: upTo - added }, (_, i) => added + i), rows.subarray(added, upTo), upTo - added, threads);
    void inserting.finally(() => (settled = true)).catch(() => undefined);
    // A resize now is refused (the graph is busy), never run under the insert's feet.
    try {
      graph.resize(capacity * 4);
    } catch (e) {
      if (/busy/.test(String(e))) seen.refused++;
    }
    let next = 0;
    do {
      if (added > 0) checkedSearch(graph, data, next++ % added, upTo, seen);
      await nextTurn();
    } while (!settled);
    await inserting;
    added = upTo;
    if (added >= n) break;
    const before = check ? stateOf(graph, added, queries) : '';
    if (round % 2 === 1) await graph.prepareResize(capacity * 2);
    if (!graph.resize(capacity * 2)) throw new Error(`resize to ${capacity * 2} failed`);
    capacity *= 2;
    seen.resizes++;
    if (check && stateOf(graph, added, queries) !== before) seen.changed++;
  }
  return { graph, seen };
}

async function graphProbe(dir) {
  const n = Number(process.env.PROBE_N ?? 2000);
  const data = vectors(11, n + 500);
  const queries = vectors(12, 20);
  const store = new NativeRowStore(a, DIM, 'cosine');
  const rows = new Uint32Array(n + 500);
  store.rows.writeMany(data, n + 500, rows);
  const out = {};
  // One insert thread: the graph hnswlib builds, the same whatever its block did.
  const moves0 = a.level0Moves();
  const { graph, seen } = await grown(store, rows, data, n, 1, queries, true);
  out.single = { ...seen, moves: a.level0Moves() - moves0, inPlace: graph.growsInPlace(), found: selfFound(graph, data, 0, n), count: graph.count() };
  const state = stateOf(graph, n, queries);
  out.state = state;
  // Saved and loaded: the same graph; grown past the loaded block's range, it takes the rest.
  const file = join(dir, 'g.graph');
  const bytes = await graph.save(file);
  const other = new NativeRowStore(a, DIM, 'cosine');
  const loaded = new a.Graph(other.rows, 1, 2, 1, 100);
  await loaded.load(file, 0, bytes);
  out.loadedSame = stateOf(loaded, n, queries) === state;
  const moves1 = a.level0Moves();
  if (!loaded.resize(n * 2) || !loaded.resize(n * 4)) throw new Error('resize of the loaded graph failed');
  const moreRows = new Uint32Array(500);
  other.rows.writeMany(data.subarray(n * DIM), 500, moreRows);
  const seenLoaded = { searches: 0, bad: 0, self: 0 };
  const inserting = loaded.addAsync(Uint32Array.from({ length: 500 }, (_, i) => n + i), moreRows, 500, 2);
  checkedSearch(loaded, data, 0, n + 500, seenLoaded);
  await inserting;
  out.loaded = { ...seenLoaded, moves: a.level0Moves() - moves1, found: selfFound(loaded, data, 0, n + 500), count: loaded.count() };
  loaded.dispose();
  graph.dispose();
  // Two insert threads (what a bulk load uses): another graph, but every element in it and found.
  const moves2 = a.level0Moves();
  const two = await grown(store, rows, data, n, 2, queries, false);
  out.twoThreads = { ...two.seen, moves: a.level0Moves() - moves2, found: selfFound(two.graph, data, 0, n), count: two.graph.count(), outOfStep: two.graph.elementRowsOutOfStep() };
  two.graph.dispose();
  return out;
}

async function collectionProbe(dir) {
  const { Database } = await import(new URL('engine/database.js', DIST).href);
  const { executeCommand } = await import(new URL('commands/index.js', DIST).href);
  const n = Number(process.env.PROBE_N ?? 4000);
  const data = vectors(21, n);
  const KS = { keyspace: 'default_keyspace' };
  const target = { ...KS, collection: 'v' };
  const run = async (db, command) => {
    const r = await executeCommand(db, command, target);
    if (r.errors !== undefined) throw new Error(JSON.stringify(r.errors));
    return r;
  };
  const topOf = async (db, i, limit) => (await run(db, { find: { sort: { $vector: Array.from(vectorAt(data, i)) }, projection: { _id: 1 }, options: { limit } } })).data.documents.map((d) => d._id);
  const moves0 = a.level0Moves();
  let db = await Database.open(dir, { limits: { maxInsertManyDocuments: 1000 } });
  await executeCommand(db, { createCollection: { name: 'v', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, KS);
  // Inserted in batches, each searched for a document already in while the graph takes them in the background.
  const seen = { searches: 0, self: 0 };
  for (let at = 0; at < n; at += 1000) {
    const documents = [];
    for (let i = at; i < Math.min(n, at + 1000); i++) documents.push({ _id: i, $vector: Array.from(vectorAt(data, i)) });
    await run(db, { insertMany: { documents } });
    for (let q = 0; q < 20; q++) {
      const i = (q * 97 + at) % Math.min(n, at + 1000);
      seen.searches++;
      if ((await topOf(db, i, 10)).includes(i)) seen.self++;
    }
  }
  const vectorsOf = await db.collection(KS.keyspace, 'v').vectors();
  await vectorsOf.waitForIndex();
  const backend = vectorsOf.indexInfo().backend;
  let found = 0;
  const tops = [];
  for (let i = 0; i < n; i++) {
    const top = await topOf(db, i, 10);
    if (top[0] === i) found++;
    if (i % 50 === 0) tops.push(top);
  }
  await db.close();
  db = await Database.open(dir, { limits: { maxInsertManyDocuments: 1000 } });
  const reopened = [];
  for (let i = 0; i < n; i += 50) reopened.push(await topOf(db, i, 10));
  await db.close();
  return { backend, seen, found, n, moves: a.level0Moves() - moves0, reopenedSame: JSON.stringify(reopened) === JSON.stringify(tops) };
}

/** A search (ours, or hnswlib's) whose JS filter tries to change the graph it walks: refused, the hits whole. */
async function reentryProbe() {
  const n = 3000;
  const data = vectors(31, n);
  const store = new NativeRowStore(a, DIM, 'cosine');
  const rows = new Uint32Array(n);
  store.rows.writeMany(data, n, rows);
  const out = {};
  for (const [name, search] of [['ours', 'search'], ['hnswlib', 'searchHnswlib']]) {
    const graph = new a.Graph(store.rows, n + 1, 16, 100, 100);
    // Rows out of element order: the walk reads each element's row id from its array, which a resize reallocates.
    const order = Array.from({ length: n }, (_, i) => (i * 7) % n);
    await graph.addAsync(Uint32Array.from(order), Uint32Array.from(order, (i) => rows[i]), n, 1);
    const tried = [];
    const slots = new Uint32Array(10);
    const distances = new Float32Array(10);
    let calls = 0;
    const filter = (slot) => {
      if (calls++ === 0) {
        for (const [what, act] of [['resize', () => graph.resize(n * 512)], ['markDelete', () => graph.markDelete(slot)], ['dispose', () => graph.dispose()]]) {
          try {
            act();
            tried.push(`${what}: done`);
          } catch (e) {
            tried.push(`${what}: ${/busy/.test(String(e)) ? 'refused' : String(e)}`);
          }
        }
      }
      return true;
    };
    const k = graph[search](vectorAt(data, 5), 10, 64, filter, slots, distances);
    out[name] = { tried, k, first: slots[0], capacity: graph.capacity(), count: graph.count() };
    graph.dispose();
  }
  return out;
}

const [what, dir] = process.argv.slice(2);
if (dir !== undefined) mkdirSync(dir, { recursive: true });
const result = what === 'graph' ? await graphProbe(dir) : what === 'collection' ? await collectionProbe(dir) : await reentryProbe();
process.stdout.write(`${JSON.stringify(result)}\n`);
