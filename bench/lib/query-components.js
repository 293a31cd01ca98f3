/**
 * vector-bench's --diagnose: the full API's vector query split into its parts, each timed on its own over the
 * same queries, beside the whole find. Reads dist/ internals: diagnosis only.
 */
import { performance } from 'node:perf_hooks';
import { bucketBound } from './measure.js';

/**
 * The full API's query split into its parts, each timed on its own over the same queries (microseconds
 * per query, wall clock): the in-memory search (CollectionVectors.search: our wrapper + hnswlib, or the
 * exact scan), the planner's secondary-index read, the LevelDB read of the hit documents, and their
 * JSON.parse with and without the `$vector` the stored body carries. Uses dist/ internals: diagnosis only.
 */
export async function queryComponents(db, vectors, find, queries, { distUrl, k: K, log }) {
  const dist = new URL(distUrl ?? '../../dist/', import.meta.url);
  const { planCandidates } = await import(new URL('engine/collections/planner.js', dist));
  const { DocumentStore } = await import(new URL('engine/collections/document-store.js', dist));
  const { parseFilter } = await import(new URL('query/filter.js', dist));
  const { docKey } = await import(new URL('storage/keys.js', dist));
  const collection = db.collection('default_keyspace', 'bench');
  const kv = db.kvStore;
  const store = new DocumentStore(kv, collection.record.cid);
  const qf = queries.map((q) => Float32Array.from(q));
  const nq = qf.length;
  const bodyKeys = (labels) => labels.map((l) => docKey(collection.record.cid, vectors.keyOf(l)));
  const out = {};
  for (const [name, rawFilter, k] of [
    ['unfiltered', undefined, K],
    ['filtered 1 %', { bucket: { $lt: bucketBound(0.01) } }, 2 * K],
  ]) {
    // Every part of query i is timed in the same iteration, so all parts see the same machine load.
    const sums = {};
    const add = (key, ms) => (sums[key] = (sums[key] ?? 0) + ms);
    let count = 0;
    let candidates = 0;
    let bytes = 0;
    let slimBytes = 0;
    const t0 = performance.now();
    for (let it = 0; (it < nq + 5 || performance.now() - t0 < 2000) && !(it > 30 && performance.now() - t0 > 10_000); it++) {
      const i = it % nq;
      const warm = it < 5;
      let t = performance.now();
      const mark = (key) => {
        const now = performance.now();
        if (!warm) add(key, now - t);
        t = now;
      };
      // The full API and its parts search the same query vector, and the second to run finds the graph
      // nodes it visits in the CPU caches: they take turns going first.
      const timeFind = async () => {
        t = performance.now();
        await find(i, rawFilter);
        mark('find (full API)');
        t = performance.now();
      };
      if (it % 2 === 0) await timeFind();
      let allowed;
      if (rawFilter) {
        const filter = parseFilter(rawFilter, { isIndexed: collection.isIndexed });
        mark('(not in the API path: its filter cache) parse + compile filter');
        const plan = await planCandidates(filter, { store, isIndexed: collection.isIndexed, maxCandidates: Math.max(1000, vectors.size) });
        mark('planner (index range read)');
        allowed = new Set();
        for (const key of plan.keys) {
          const label = vectors.labelOf(key);
          if (label !== undefined) allowed.add(label);
        }
        mark('keys -> labels');
        candidates = plan.keys.length;
      }
      const hits = vectors.search(qf[i], k, allowed);
      mark(rawFilter ? 'exact scan of candidates' : 'graph search (our wrapper + hnswlib)');
      const values = await kv.getMany(bodyKeys(hits.map((h) => h.label)));
      mark('LevelDB getMany of the hits');
      const texts = values.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'));
      mark('bytes -> string');
      const docs = texts.map((x) => JSON.parse(x));
      mark('JSON.parse of the bodies');
      const slim = docs.map(({ $vector, ...rest }) => JSON.stringify(rest));
      t = performance.now();
      for (const x of slim) JSON.parse(x);
      mark('(what-if) JSON.parse of the bodies without $vector');
      if (it % 2 === 1) await timeFind();
      if (!warm) {
        count++;
        for (const x of texts) bytes += x.length;
        for (const x of slim) slimBytes += x.length;
      }
    }
    const c = { k, queries: count, candidates: rawFilter ? candidates : undefined, bodyBytes: Math.round(bytes / (count * k)), bodyBytesWithoutVector: Math.round(slimBytes / (count * k)), us: {} };
    for (const [key, ms] of Object.entries(sums)) c.us[key] = Math.round((ms * 1000) / count);
    const parts = Object.entries(c.us).filter(([key]) => !key.startsWith('find') && !key.startsWith('(')).reduce((a, [, v]) => a + v, 0);
    c.us['rest of the full API (command layer, verify, projection, async hops)'] = c.us['find (full API)'] - parts;
    out[name] = c;
    log(`components ${name}: ${JSON.stringify(c.us)}`);
  }
  return out;
}
