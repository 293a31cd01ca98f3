/**
 * One system of `bench/lexical-bench.js` in its own process, driven by the parent over IPC.
 *
 *   node bench/lib/lexical-child.js <system> <workDir> <distUrl> run|reopen
 *
 * `run`: loads `<workDir>/corpus.ndjson` into the system (timed: documents per second until searchable, for
 * ours until every insertMany is acknowledged), then answers the parent's requests: `burst` (the queries of
 * `<workDir>/queries.json` in order, timed; `withIds` returns each query's top 10 ids) until `finish` (or
 * until killed: a crash). `reopen` (ours): opens the directory a run left and answers every query once.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const [system, workDir, distUrl, task] = process.argv.slice(2);
const K = 10;
const COLLECTION = 'lexbench';
const peersRequire = createRequire(new URL('../peers/package.json', import.meta.url));

/** Each system: load(docs) then search(query) -> ids of the top 10, best first. */
const SYSTEMS = {
  async ours() {
    const { VectorDB } = await import(new URL('index.js', distUrl));
    let db;
    let collection;
    const open = async () => {
      db = new VectorDB('lexbench', join(workDir, 'ours'), undefined, {});
      collection = await db.collection(COLLECTION);
    };
    return {
      async load(docs) {
        db = new VectorDB('lexbench', join(workDir, 'ours'), undefined, {});
        // A new collection is lexical-enabled with the standard analyzer (the Data API's default).
        collection = await db.createCollection({ name: COLLECTION });
        for (let from = 0; from < docs.length; from += 1000) {
          await collection.insertMany(docs.slice(from, from + 1000).map((d) => ({ _id: d.id, $lexical: d.text })));
        }
      },
      async search(query) {
        // The default projection hides $lexical: each result is {_id}.
        const page = await collection.findPage({ sort: { $lexical: query }, limit: K });
        return page.results.map((d) => d._id);
      },
      open,
      async close() {
        await db.close();
      },
    };
  },
  async minisearch() {
    const { default: MiniSearch } = await import(peersRequire.resolve('minisearch'));
    const index = new MiniSearch({ fields: ['text'], idField: 'id' });
    return {
      load(docs) {
        index.addAll(docs);
      },
      search(query) {
        // Every word required, as our $lexical sort (BM25+ scoring, its default).
        return index.search(query, { combineWith: 'AND' }).slice(0, K).map((hit) => hit.id);
      },
    };
  },
  async flexsearch() {
    const { Index, Charset } = peersRequire('flexsearch');
    // Whole words, lowercased and normalized (no phonetic folding), as the standard analyzer; no result cache.
    const index = new Index({ tokenize: 'strict', encoder: Charset.Normalize });
    return {
      load(docs) {
        for (const d of docs) index.add(d.id, d.text);
      },
      search(query) {
        // A multi-word query is an intersection (every word), scored by FlexSearch's own resolution, not BM25.
        return index.search(query, { limit: K });
      },
    };
  },
  async orama() {
    const { create, insertMultiple, search } = await import(peersRequire.resolve('@orama/orama'));
    const db = create({ schema: { text: 'string' } });
    return {
      async load(docs) {
        await insertMultiple(db, docs.map((d) => ({ id: String(d.id), text: d.text })), 1000);
      },
      async search(query) {
        // threshold 0: only documents holding every word (its BM25 ranks them).
        const found = await search(db, { term: query, properties: ['text'], limit: K, threshold: 0 });
        return found.hits.map((hit) => Number(hit.id));
      },
    };
  },
};

const send = (message) => process.send(message);
const queries = JSON.parse(readFileSync(join(workDir, 'queries.json'), 'utf8'));
const adapter = await SYSTEMS[system]();

async function answerAll() {
  const ids = [];
  for (const q of queries) ids.push(await adapter.search(q));
  return ids;
}

/** Every query once, timed: wall ms and CPU ms of this process; ids when asked. */
async function burst(withIds) {
  const ids = withIds ? [] : undefined;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (const q of queries) {
    let found = adapter.search(q);
    if (found && typeof found.then === 'function') found = await found;
    ids?.push(found);
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, queries: queries.length, ids };
}

if (task === 'reopen') {
  const start = performance.now();
  await adapter.open();
  const ids = await answerAll();
  send({ type: 'reopened', ms: performance.now() - start, ids });
  await adapter.close();
  process.exit(0);
}

const docs = readFileSync(join(workDir, 'corpus.ndjson'), 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => JSON.parse(line));
const cpu0 = process.cpuUsage();
const start = performance.now();
await adapter.load(docs);
const loadMs = performance.now() - start;
const loadCpu = process.cpuUsage(cpu0);
docs.length = 0;
// Warm-up: every query once (JIT-compiled paths), not timed.
await answerAll();
send({ type: 'loaded', loadMs, loadCpuMs: (loadCpu.user + loadCpu.system) / 1000, rssMb: process.memoryUsage().rss / 2 ** 20 });

process.on('message', async (message) => {
  if (message.type === 'burst') send({ type: 'burst', ...(await burst(message.withIds)) });
  else if (message.type === 'finish') {
    await adapter.close?.();
    process.exit(0);
  }
});
