/**
 * Query timing for the vector benchmark: one pass over the queries (recall over every query run), more
 * passes for timing when the first was short, and a time cap so that very slow configurations (e.g. a
 * naive filter callback at 0.1 % selectivity) do not take minutes: those stop after `minQueries`
 * queries once `maxMs` is spent, and report how many queries they ran.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { recallOf } from './exact.js';

/**
 * `search(i)` runs query i and returns its labels (or a promise of them). `truth[i]` are the exact
 * top-k labels. Returns { recall, qps, msPerQuery, cpuQps, cpuMsPerQuery, queries (counted for recall), timedQueries,
 * gcMsPerQuery and heapUsedMb } (the last two: to tell a slow process's garbage collection from its search).
 */
export async function measureQueries(search, truth, { warmup = 5, warmupMs = 500, minMs = 2000, maxMs = 15_000, minQueries = 50 } = {}) {
  const n = truth.length;
  // Warm-up: at least `warmup` queries and up to `warmupMs` (one pass at most), so that every system is
  // timed in its steady state (JIT-compiled paths, warm caches), not in its first milliseconds.
  const warmStart = performance.now();
  for (let i = 0; i < n && (i < warmup || performance.now() - warmStart < warmupMs); i++) await search(i);
  let recallSum = 0;
  let done = 0;
  const gc = gcTimer();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    let found = search(i);
    if (found && typeof found.then === 'function') found = await found;
    recallSum += recallOf(found, truth[i]);
    done++;
    if (done >= minQueries && performance.now() - start > maxMs) break;
  }
  let elapsed = performance.now() - start;
  let timed = done;
  // Short pass: repeat for a steadier rate (recall is already known).
  while (done === n && elapsed < minMs) {
    for (let i = 0; i < n; i++) {
      const r = search(i);
      if (r && typeof r.then === 'function') await r;
    }
    timed += n;
    elapsed = performance.now() - start;
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const gcMs = await gc.stop();
  return {
    recall: recallSum / done,
    qps: (timed / elapsed) * 1000,
    msPerQuery: elapsed / timed,
    // CPU time of the whole process (all threads: LevelDB's too) per query: steadier than wall time on a
    // shared machine, where other processes take turns on the cores.
    cpuMsPerQuery: cpuMs / timed,
    cpuQps: (timed / cpuMs) * 1000,
    queries: done,
    timedQueries: timed,
    gcMsPerQuery: gcMs / timed,
    heapUsedMb: process.memoryUsage().heapUsed / 2 ** 20,
  };
}

/** Milliseconds of garbage collection from now until `await stop()` (V8's gc performance entries). */
export function gcTimer() {
  let ms = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) ms += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async stop() {
      // Node files a GC's entry from its immediate queue: a loop that never yields to it has them pending.
      await new Promise((resolve) => setImmediate(resolve));
      for (const entry of observer.takeRecords()) ms += entry.duration;
      observer.disconnect();
      return ms;
    },
  };
}

/** Selectivities of the filtered runs (fraction of the collection allowed) and the bucket bound of each. */
export const SELECTIVITIES = [0.001, 0.01, 0.1, 0.5, 1];
export const bucketBound = (sel) => Math.round(sel * 1000);

/** Row numbers allowed at `sel` (bucket < bound), ascending. */
export function allowedRows(bucket, sel) {
  const bound = bucketBound(sel);
  const out = [];
  for (let i = 0; i < bucket.length; i++) if (bucket[i] < bound) out.push(i);
  return Uint32Array.from(out);
}
