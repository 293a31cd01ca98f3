/**
 * The query phase of bulk-load-bench.js (issue 31's query goals at 1M): exact ground truth streamed from the
 * data source (bench/lib/bulk-data.js; the parent's, once), then in one child holding every system an efSearch
 * sweep (recall@10 on the truth queries, QPS on unseen queries after a warm-up) and filtered queries at 1 % and
 * 10 %, and finally the summary rows (first ef reaching a recall, the QPS ratio at equal recall). Queries are
 * never rows of the data.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { recallOf, streamedTopK } from './exact.js';
import { median } from './stats.js';

export const K = 10;
/** The efSearch sweep, both systems (past 256: at 1M neither reaches recall 0.95 by 256 on the clustered data). */
export const EFS = [10, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512];
/** Real embeddings need more (GloVe is a hard set: hnswlib at M 16 reaches recall 0.95 late). */
export const EFS_HARD = [...EFS, 768, 1024, 1536];
/** Filtered queries: a field per selectivity, `i % cats` on document i (label i on raw's side). */
export const FILTERS = [
  { field: 'c100', cats: 100, label: '1 %' },
  { field: 'c10', cats: 10, label: '10 %' },
];
export const categoryFields = (i) => Object.fromEntries(FILTERS.map(({ field, cats }) => [field, i % cats]));

/**
 * Exact top 10 of `count` truth queries, unfiltered and per filter (query q asks category q % cats), over the
 * `data` source's rows read one at a time: memory is the queries and the lists, whatever n. Written to `file`.
 */
export function writeGroundTruth(file, data, count) {
  const queries = data.truthQueries(count);
  const next = data.rowStream();
  const row = new Float32Array(data.dim);
  const lists = [{ rowKey: () => 0, queryKey: () => 0 }, ...FILTERS.map(({ cats }) => ({ rowKey: (i) => i % cats, queryKey: (q) => q % cats }))];
  const [unfiltered, ...filtered] = streamedTopK(queries, count, data.dim, data.n, () => next(row), K, lists);
  writeFileSync(file, JSON.stringify({ unfiltered, filtered: Object.fromEntries(FILTERS.map(({ field }, f) => [field, filtered[f]])) }));
}

/** A point's QPS bursts: this many, interleaved with the other systems' at that point, the median kept. */
const BURSTS = 3;

/**
 * The queries of one process's systems (`{ name: system }`), interleaved point by point (each ef, each
 * filter: every system in turn, BURSTS times, who goes first alternating), so that a shared machine's load
 * weighs on all alike and a passing spike on one burst only. `system.setEf(ef)` (undefined: its default) and
 * `system.search(vector, filter)` (filter `{ field, value }` or undefined) returning row numbers;
 * `system.filteredEfs`: the efs it tries filtered, in order, stopping at its first reaching recall 0.99
 * (default [undefined]: its default only). `efs`: the unfiltered sweep's points. Returns, per name, { sweep: [{ ef, recall, qps, cpuQps }],
 * filtered: { [field]: [{ ef, recall, qps, cpuQps }] } }, each QPS the median of the point's bursts.
 */
export async function measureQueries(systems, { data, truthFile, queries: count, burstMs, efs }) {
  const { dim } = data;
  const truth = JSON.parse(readFileSync(truthFile, 'utf8'));
  const truthVectors = data.truthQueries(count);
  const vectorOf = (q) => truthVectors.subarray(q * dim, (q + 1) * dim);
  // Unseen queries for the QPS bursts: the source's stream.
  const nextUnseen = data.unseenStream();
  let unseen = 0;

  async function recall(system, ef, filter) {
    system.setEf(ef);
    const truthOf = filter ? truth.filtered[filter.field] : truth.unfiltered;
    let sum = 0;
    for (let q = 0; q < count; q++) sum += recallOf(await system.search(vectorOf(q), filter && { field: filter.field, value: q % filter.cats }), truthOf[q]);
    return sum / count;
  }

  /** Wall and CPU QPS of one burst of `ms` (after a warm-up of 64 queries). */
  async function burst(system, ef, filter, ms) {
    system.setEf(ef);
    const batch = () => Array.from({ length: 32 }, () => ({ vector: nextUnseen(new Float32Array(dim)), value: filter ? unseen++ % filter.cats : undefined }));
    const run = async (list) => {
      for (const { vector, value } of list) await system.search(vector, filter && { field: filter.field, value });
    };
    await run([...batch(), ...batch()]); // warm-up
    let done = 0;
    let wall = 0;
    let cpu = 0;
    while (wall < ms) {
      const list = batch(); // drawn before the clock starts
      const from = performance.now();
      const cpuFrom = process.cpuUsage();
      await run(list);
      const used = process.cpuUsage(cpuFrom);
      wall += performance.now() - from;
      cpu += (used.user + used.system) / 1000;
      done += list.length;
    }
    return { qps: (done * 1000) / wall, cpuQps: (done * 1000) / cpu };
  }

  /** One point for each of `at` ([name, ef, filter]): its recall, then BURSTS rounds of bursts in turn. */
  async function points(at, first) {
    const recalls = [];
    for (const [name, ef, filter] of at) recalls.push(await recall(systems[name], ef, filter));
    const bursts = at.map(() => []);
    for (let r = 0; r < BURSTS; r++) {
      const order = at.map((_, j) => j);
      if ((first + r) % 2 === 1) order.reverse();
      for (const j of order) bursts[j].push(await burst(systems[at[j][0]], at[j][1], at[j][2], burstMs / BURSTS));
    }
    return at.map(([, ef], j) => ({ ef: ef ?? null, recall: recalls[j], qps: median(bursts[j].map((b) => b.qps)), cpuQps: median(bursts[j].map((b) => b.cpuQps)), bursts: bursts[j] }));
  }

  await quiet();
  const names = Object.keys(systems);
  const out = Object.fromEntries(names.map((name) => [name, { sweep: [], filtered: {} }]));
  // Warm-ups of a burst's length first, three each in turn (the code paths compiled, the caches touched).
  for (let i = 0; i < 3; i++) for (const name of names) await burst(systems[name], efs[0], undefined, burstMs);
  for (const [i, ef] of efs.entries()) {
    const measured = await points(names.map((name) => [name, ef, undefined]), i);
    names.forEach((name, j) => out[name].sweep.push(measured[j]));
  }
  for (const filter of FILTERS) {
    for (const name of names) out[name].filtered[filter.field] = [];
    const efsOf = (name) => systems[name].filteredEfs ?? [undefined];
    for (let i = 0; ; i++) {
      const going = names.filter((name) => i < efsOf(name).length && (out[name].filtered[filter.field].at(-1)?.recall ?? 0) < 0.99);
      if (going.length === 0) break;
      const measured = await points(going.map((name) => [name, efsOf(name)[i], filter]), i);
      going.forEach((name, j) => out[name].filtered[filter.field].push(measured[j]));
    }
  }
  return out;
}

/**
 * Resolves once the process is idle (under 10 % of a core over 300 ms, at most 5 minutes): work an open
 * left running in the background (ours reads every vector's values after its first answer, on the event
 * loop and LevelDB's threads) would otherwise be counted in the first points' time.
 */
async function quiet() {
  const end = performance.now() + 300_000;
  for (;;) {
    const from = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { user, system } = process.cpuUsage(from);
    if ((user + system) / 1000 < 30 || performance.now() > end) return;
  }
}

/** The first point of a sweep reaching `recall`, or undefined. */
export const firstReaching = (points, recall) => points.find((p) => p.recall >= recall);

/**
 * QPS at exactly `recall`, interpolated between the sweep's points around its first crossing (geometric in
 * QPS, linear in recall); the first point's QPS if it already reaches it; undefined if none does.
 */
export function qpsAtRecall(points, recall, key = 'qps') {
  const i = points.findIndex((p) => p.recall >= recall);
  if (i < 0) return undefined;
  if (i === 0 || points[i].recall === points[i - 1].recall) return points[i][key];
  const a = points[i - 1];
  const b = points[i];
  return a[key] * (b[key] / a[key]) ** ((recall - a.recall) / (b.recall - a.recall));
}

const fmt = (p) => (p ? `ef ${p.ef ?? 'default'}: recall ${p.recall.toFixed(3)}, ${p.qps.toFixed(0)} QPS (CPU ${p.cpuQps.toFixed(0)})` : 'not reached');
const ratio = (a, b) => (a !== undefined && b !== undefined ? `${(a / b).toFixed(2)}x` : '-');
/** Ours / raw of two points: by wall QPS, then by CPU-time QPS (steadier on a shared machine). */
const ratios = (a, b) => (a && b ? `${ratio(a.qps, b.qps)} (CPU ${ratio(a.cpuQps, b.cpuQps)})` : '-');

/**
 * The summary rows for the bench's table (`| what | ours | raw | ratio |`) and the JSON of them, from the
 * medians of the children's results: `ours` maps an API name to its results, `raw` is raw's.
 */
export function queryRows(ours, raw) {
  const rows = [];
  const summary = { unfiltered: {}, filtered: {} };
  const rawFirst = firstReaching(raw.sweep, 0.95);
  const rawAt = qpsAtRecall(raw.sweep, 0.95);
  const rawAtCpu = qpsAtRecall(raw.sweep, 0.95, 'cpuQps');
  for (const [api, result] of Object.entries(ours)) {
    const first = firstReaching(result.sweep, 0.95);
    const at = qpsAtRecall(result.sweep, 0.95);
    rows.push([`unfiltered, first ef reaching recall@10 0.95 (${api})`, fmt(first), fmt(rawFirst), ratios(first, rawFirst)]);
    const atCpu = qpsAtRecall(result.sweep, 0.95, 'cpuQps');
    const cell = (qps, cpu) => (qps === undefined ? '-' : `${qps.toFixed(0)} QPS (CPU ${cpu.toFixed(0)})`);
    rows.push([`unfiltered QPS at recall 0.95, interpolated (${api})`, cell(at, atCpu), cell(rawAt, rawAtCpu), `${ratio(at, rawAt)} (CPU ${ratio(atCpu, rawAtCpu)}) (target >= 0.9x)`]);
    summary.unfiltered[api] = {
      first,
      interpolatedQps: at,
      interpolatedCpuQps: atCpu,
      firstRatio: first && rawFirst ? first.qps / rawFirst.qps : null,
      firstCpuRatio: first && rawFirst ? first.cpuQps / rawFirst.cpuQps : null,
      interpolatedRatio: at && rawAt ? at / rawAt : null,
      interpolatedCpuRatio: atCpu && rawAtCpu ? atCpu / rawAtCpu : null,
    };
  }
  summary.unfiltered.raw = { first: rawFirst, interpolatedQps: rawAt, interpolatedCpuQps: rawAtCpu };
  for (const { field, label } of FILTERS) {
    const rawPoints = raw.filtered[field];
    const rawDefault = rawPoints[0];
    const raw99 = firstReaching(rawPoints, 0.99);
    summary.filtered[field] = { raw: { atFirstEf: rawDefault, first99: raw99 ?? null } };
    // Raw's cell: at its first ef (hnswlib's default, 10), then at its first ef reaching recall 0.99 if another.
    const rawCell = raw99 === rawDefault ? `${fmt(rawDefault)} (reaches 0.99)` : `${fmt(rawDefault)}; first reaching 0.99: ${raw99 ? fmt(raw99) : `none up to ef ${rawPoints.at(-1).ef}`}`;
    for (const [api, result] of Object.entries(ours)) {
      const mine = result.filtered[field][0];
      const both = raw99 === rawDefault ? ratios(mine, rawDefault) : `${ratios(mine, rawDefault)} raw's at ef ${rawDefault.ef}, ${ratios(mine, raw99)} at its ef reaching 0.99`;
      rows.push([`filtered ${label}, recall@10 and QPS (${api})`, fmt(mine), rawCell, `${both} (target: >= 50x, recall >= 0.99)`]);
      summary.filtered[field][api] = {
        ours: mine,
        ratioAtFirstEf: mine.qps / rawDefault.qps,
        cpuRatioAtFirstEf: mine.cpuQps / rawDefault.cpuQps,
        ratioAt99: raw99 ? mine.qps / raw99.qps : null,
        cpuRatioAt99: raw99 ? mine.cpuQps / raw99.cpuQps : null,
      };
    }
  }
  return { rows, summary };
}

/** The sweeps side by side: ef, then recall / QPS of each system. */
export function sweepTable(ours, raw) {
  const names = ['raw', ...Object.keys(ours)];
  const all = { raw, ...ours };
  const lines = [`| ef | ${names.map((n) => `${n}: recall@10 / QPS (CPU QPS)`).join(' | ')} |`, `|---|${names.map(() => '---|').join('')}`];
  const cell = (p) => `${p.recall.toFixed(3)} / ${p.qps.toFixed(0)} (${p.cpuQps.toFixed(0)})`;
  raw.sweep.forEach((p, i) => lines.push(`| ${p.ef} | ${names.map((n) => cell(all[n].sweep[i])).join(' | ')} |`));
  return lines.join('\n');
}
