/**
 * bulk-load-bench.js's closing report: ours against raw hnswlib-node as a table (load, memory, disk, reopen, the
 * query phase's rows and sweep), the results as JSON in bench/results/bulk-load-bench.json, and issue 31's
 * ratios (RSS beyond raw's per document, searchable and reopen against raw's).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { queryRows, sweepTable } from './bulk-queries.js';

const MB = 1024 * 1024;
const s = (ms) => (ms / 1000).toFixed(1);

/**
 * Prints the report of one run's `results` ({ raw, ours }: each system's median build and open figures);
 * `run`: what was run ({ data, n, dim, backend, ids, batch, rounds, reopen, queries: { count, ms } or undefined }).
 */
export function printBulkReport(results, run) {
  const { raw, ours } = results;
  const { n, dim, backend, ids, batch, rounds, reopen } = run;
  const rows = [
    ['time to acknowledged (s)', s(ours.build.ackMs), '-'],
    ['time to searchable by the graph (s)', s(ours.build.searchableMs), s(raw.build.buildMs)],
    ['CPU time until searchable, all threads (s)', s(ours.build.searchableCpuMs), s(raw.build.buildCpuMs)],
    ['longest event-loop stall during the load (ms)', ours.build.maxStallMs.toFixed(0), '-'],
    ['RSS after the load (MB)', `${ours.build.rssMb} (after gc ${ours.build.rssAfterGcMb})`, `${raw.build.rssMb} (after gc ${raw.build.rssAfterGcMb ?? '-'})`],
    ['of which bodies in the body caches (MB)', ours.build.cachedMb ?? '-', '-'],
    ['of which anonymous / file pages mapped in (MB)', `${ours.build.rssSplit.anonMb} / ${ours.build.rssSplit.fileMb}`, `${raw.build.rssSplit.anonMb} / ${raw.build.rssSplit.fileMb}`],
    ['bytes on disk (MB)', (ours.build.diskBytes / MB).toFixed(1), (raw.build.diskBytes / MB).toFixed(1)],
  ];
  // The reopens: the page cache dropped first (coldOpen, or open when it was the only one), then warm.
  const cacheLabel = { cold: 'page cache dropped', warm: 'files in the page cache' };
  const cpuCell = (open) => `${open.firstAnswerCpuMs.toFixed(0)} (${open.firstAnswerSystemMs?.toFixed(0) ?? '-'})`;
  const coldOpens = ours.coldOpen && raw.coldOpen ? [[ours.coldOpen, raw.coldOpen, 'cold']] : [];
  for (const [mine, theirs, cache] of reopen ? [...coldOpens, [ours.open, raw.open, ours.open.cache]] : []) rows.push(
    [`reopen to first answer, ${cacheLabel[cache] ?? cache} (ms)`, `${mine.firstAnswerMs.toFixed(0)}; ${(mine.firstAnswerMs / theirs.firstAnswerMs).toFixed(2)}x`, theirs.firstAnswerMs.toFixed(0)],
    [`CPU time to first answer, all threads, ${cache} (ms; of it system)`, cpuCell(mine), cpuCell(theirs)],
  );
  if (reopen) rows.push(
    ['RSS reopened, graph loaded (MB)', ours.open.rssMb, raw.open.rssMb],
    ['of which anonymous / file pages mapped in (MB)', `${ours.open.rssSplit.anonMb} / ${ours.open.rssSplit.fileMb}`, `${raw.open.rssSplit.anonMb} / ${raw.open.rssSplit.fileMb}`],
  );
  const queries = run.queries ? queryRows(ours.open.queries, raw.open.queries) : undefined;
  // The query rows: ours, then raw, the ratio ours / raw in the ours cell.
  for (const [what, mine, theirs, ratio] of queries?.rows ?? []) rows.push([what, `${mine}; ${ratio}`, theirs]);
  console.log('\n| | ours | raw hnswlib-node |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  if (run.queries) console.log(`\nrecall@10 (${run.queries.count} queries) and wall QPS (unseen queries, ${run.queries.ms} ms a point: the median of 3 bursts interleaved with the other systems') per efSearch:\n${sweepTable(ours.open.queries, raw.open.queries)}`);
  const resultsDir = new URL('../results/', import.meta.url);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(new URL('bulk-load-bench.json', resultsDir), JSON.stringify({ data: run.data, n, dim, backend, ids, batch, rounds, results, queries: queries?.summary }, null, 2));
  const rawGc = raw.build.rssAfterGcMb ?? raw.build.rssMb;
  const coldRatio = ours.coldOpen && raw.coldOpen ? `, cold ${(ours.coldOpen.firstAnswerMs / raw.coldOpen.firstAnswerMs).toFixed(2)}x` : '';
  const reopenRatio = reopen ? `; reopen / raw: ${(ours.open.firstAnswerMs / raw.open.firstAnswerMs).toFixed(2)}x (${ours.open.cache})${coldRatio}` : '';
  const withoutCaches = ours.build.cachedMb == null ? '' : `, without the body caches ${((ours.build.rssAfterGcMb - ours.build.cachedMb) / rawGc).toFixed(2)}x (target <= 1.5x)`;
  // Issue 31's per-document figure: what RSS after GC holds beyond raw's, per document, and of it the second
  // float32 copy of each vector (the flat store's rows) and the body caches.
  const beyondRaw = ((ours.build.rssAfterGcMb - rawGc) * MB) / n;
  const caches = ((ours.build.cachedMb ?? 0) * MB) / n;
  // native-rows holds each vector once (the graph reads the collection's rows): no second copy.
  const secondCopy = backend === 'native-rows' ? 0 : dim * 4;
  console.log(`\nRSS after gc beyond raw's: ${beyondRaw.toFixed(0)} bytes a document, of which the second float32 copy ${secondCopy} and the body caches ${caches.toFixed(0)}: ${(beyondRaw - secondCopy - caches).toFixed(0)} else (target: <= 100)`);
  console.log(`\nsearchable / raw build: ${(ours.build.searchableMs / raw.build.buildMs).toFixed(2)}x${reopenRatio}; RSS loaded after gc / raw's after gc: ${(ours.build.rssAfterGcMb / rawGc).toFixed(2)}x${withoutCaches}`);

}
