/**
 * One workload, plain JavaScript, run unchanged by Node (dist/index.js) and by a page (the browser
 * bundle): a vector collection of seeded documents, then filters, a vector search and a filtered vector
 * search. The browser test compares the answers of the two runs; bench/browser-vector.js times the search.
 */

/** Deterministic documents: `count` of them with `dimension`-value vectors (mulberry32 from `seed`). */
export function makeDocuments(count, dimension, seed = 19) {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const documents = [];
  for (let i = 0; i < count; i++) {
    const $vector = Array.from({ length: dimension }, () => Math.round((random() * 2 - 1) * 1e4) / 1e4);
    documents.push({ _id: `doc-${i}`, n: i, category: `c${i % 5}`, tags: i % 3 === 0 ? ['three'] : ['other'], $vector });
  }
  return documents;
}

/**
 * Limits of the databases the workload runs on: 100 documents per insertMany rather than 20 (fewer, larger
 * writes: IndexedDB pays per transaction).
 */
export const LIMITS = { maxInsertManyDocuments: 100 };

/** Creates collection `name` (cosine) and inserts the documents, 100 per request (LIMITS). */
export async function loadCollection(db, name, documents) {
  const collection = await db.createCollection(name, documents[0].$vector.length, 'cosine');
  await collection.insertMany(documents, { chunkSize: LIMITS.maxInsertManyDocuments });
  return collection;
}

/** The answers compared between runtimes: ids (sorted where order is not asked for) and similarities. */
export async function queryCollection(collection, query) {
  const ids = async (filter) => (await collection.find({ filter }).toArray()).map((d) => d._id).sort();
  const nearest = async (filter) =>
    (await collection.findVector(query, { ...(filter ? { filter } : {}), limit: 10, includeSimilarity: true })).map((d) => [d._id, Number(d.$similarity.toFixed(6))]);
  return {
    all: (await ids({})).length,
    category: await ids({ category: 'c2' }),
    range: await ids({ n: { $gte: 500, $lt: 540 } }),
    combined: await ids({ $and: [{ category: 'c1' }, { tags: 'three' }, { n: { $lt: 300 } }] }),
    vector: await nearest(undefined),
    filteredVector: await nearest({ category: 'c3', n: { $gte: 1000 } }),
  };
}

/** Vector searches per second over `rounds` queries (top 10 each), after a few to warm up. */
export async function vectorQps(collection, queries, rounds) {
  for (const q of queries.slice(0, 5)) await collection.findVector(q, { limit: 10 });
  const start = performance.now();
  for (let i = 0; i < rounds; i++) await collection.findVector(queries[i % queries.length], { limit: 10 });
  return rounds / ((performance.now() - start) / 1000);
}
