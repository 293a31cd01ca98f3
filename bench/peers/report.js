/**
 * The pure parts of `npm run bench:peers`: medians, the summary of one system's measurements, the
 * markdown table and the SVG chart. No I/O and no peer imports, so the default test suite can check them
 * (test/bench/peers-report.test.ts) without installing the peers.
 */

import { median } from '../lib/stats.js';

export { median };

/** The four timed query kinds, in table order: unfiltered / filtered 1 %, on unseen queries / on repeats. */
export const MODES = [
  { key: 'unfiltered-unseen', filtered: false, unseen: true, title: 'unfiltered, unseen queries' },
  { key: 'unfiltered-repeat', filtered: false, unseen: false, title: 'unfiltered, repeated queries' },
  { key: 'filtered-unseen', filtered: true, unseen: true, title: 'filtered 1 %, unseen queries' },
  { key: 'filtered-repeat', filtered: true, unseen: false, title: 'filtered 1 %, repeated queries' },
];

/**
 * One system's figures from its raw measurements: per mode the median QPS of its bursts (and of its
 * CPU-time QPS) and the recall over every query checked; medians of the reopen rounds.
 */
export function summarize(system) {
  const modes = {};
  for (const { key } of MODES) {
    const bursts = system.bursts?.[key] ?? [];
    const checked = bursts.reduce((sum, b) => sum + (b.checked ?? 0), 0);
    modes[key] = {
      qps: median(bursts.map((b) => b.qps)),
      cpuQps: median(bursts.map((b) => b.cpuQps)),
      recall: checked > 0 ? bursts.reduce((sum, b) => sum + b.recallSum, 0) / checked : Number.NaN,
      bursts: bursts.length,
      // Per round, for ratios between systems measured seconds apart (see comparisons).
      roundQps: bursts.map((b) => b.qps),
    };
  }
  const reopens = system.reopens ?? [];
  return {
    name: system.name,
    setting: system.calibration?.unfiltered.setting ?? '',
    filteredSetting: system.calibration?.filtered.setting ?? '',
    loadMs: system.loadMs ?? Number.NaN,
    rssMb: system.rssMb ?? Number.NaN,
    // Runs before these two were measured took the RSS after a GC as rssMb.
    rssGcMb: system.rssGcMb ?? system.rssMb ?? Number.NaN,
    cacheMb: system.cachedBytes === undefined ? Number.NaN : system.cachedBytes / 2 ** 20,
    diskBytes: system.diskBytes ?? Number.NaN,
    reopenMs: median(reopens.map((r) => r.ms)),
    reopenRssMb: median(reopens.map((r) => r.rssMb)),
    modes,
    ...(system.error ? { error: system.error } : {}),
  };
}

const dash = '–';
const fixed = (digits) => (x) => (Number.isFinite(x) ? x.toFixed(digits) : dash);
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : dash);
const qpsText = (x) => (!Number.isFinite(x) ? dash : x >= 100 ? int(x) : x.toFixed(1));

/** The markdown table of summaries (one row per system), a heading line with the workload first. */
export function markdownTable(summaries, workload) {
  const head = [
    'system',
    'setting (cheapest reaching recall 0.95)',
    'load s',
    'QPS unseen',
    'QPS repeats',
    'recall',
    '1 % filter QPS unseen',
    '1 % filter QPS repeats',
    '1 % filter recall',
    '1 % filter setting',
    'reopen to 1st answer ms',
    'RSS loaded MB',
    'RSS loaded, after GC MB',
    'body caches MB',
    'RSS reopened MB',
    'disk MB',
  ];
  const lines = [
    `${workload.n.toLocaleString('en-US')} x ${workload.dim} clustered vectors, cosine, k = ${workload.k}; filter: \`cat\` = one of 100 values (1 %); ` +
      `${workload.rounds} interleaved rounds of ${workload.burstMs} ms bursts, medians; recall over unseen queries.`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
  ];
  for (const s of summaries) {
    if (s.error) {
      lines.push(`| ${s.name} | failed: ${s.error.split('\n')[0].replaceAll('|', '/')} |${' |'.repeat(head.length - 2)}`);
      continue;
    }
    const m = s.modes;
    lines.push(
      `| ${[
        s.name,
        s.setting,
        fixed(1)(s.loadMs / 1000),
        qpsText(m['unfiltered-unseen'].qps),
        qpsText(m['unfiltered-repeat'].qps),
        fixed(3)(m['unfiltered-unseen'].recall),
        qpsText(m['filtered-unseen'].qps),
        qpsText(m['filtered-repeat'].qps),
        fixed(3)(m['filtered-unseen'].recall),
        s.filteredSetting,
        int(s.reopenMs),
        int(s.rssMb),
        int(s.rssGcMb),
        fixed(1)(s.cacheMb),
        int(s.reopenRssMb),
        fixed(1)(s.diskBytes / 1e6),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

const axisLabel = (v) => (v >= 1e6 ? `${v / 1e6}M` : v >= 1000 ? `${v / 1000}k` : String(v));
/**
 * Issue 20's comparisons, one line each, for each of our systems in the run (QPS ratios: the median of the
 * per-round ratios, the systems' bursts of a round being seconds apart): unfiltered QPS on unseen queries
 * against raw hnswlib-node (target >= 0.8x) and against the fastest peer that is not hnswlib; filtered QPS
 * against the fastest other system (target > 1x); RSS (after a full GC, and without our body caches) and
 * disk against raw hnswlib-node.
 */
export function comparisons(summaries) {
  const ok = summaries.filter((s) => !s.error);
  const ours = ok.filter((s) => s.name.startsWith('ours'));
  const raw = ok.find((s) => s.name === 'hnswlib-node');
  const fastest = (list, key) => list.reduce((best, s) => (best === undefined || s.modes[key].qps > best.modes[key].qps ? s : best), undefined);
  const text = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : dash);
  const ratio = (a, b) => text(a / b);
  /** The median of the per-round ratios (bursts seconds apart see the same machine load), else of the medians. */
  const qpsRatio = (a, b, key) => {
    const [x, y] = [a.modes[key].roundQps, b.modes[key].roundQps];
    if (x?.length > 0 && x.length === y?.length) return text(median(x.map((q, i) => q / y[i])));
    return ratio(a.modes[key].qps, b.modes[key].qps);
  };
  const lines = [];
  for (const s of ours) {
    const versus = [];
    // CPU-time QPS (all the process's threads) varies far less with the machine's load than wall-clock QPS.
    const cpu = (a, b) => ratio(a.modes['unfiltered-unseen'].cpuQps, b.modes['unfiltered-unseen'].cpuQps);
    if (raw) versus.push(`${qpsRatio(s, raw, 'unfiltered-unseen')} raw hnswlib-node's unfiltered QPS (unseen; target >= 0.8x; per CPU second ${cpu(s, raw)})`);
    const peer = fastest(ok.filter((o) => !o.name.startsWith('ours') && !o.name.startsWith('hnswlib') && o.name !== 'js-loop'), 'unfiltered-unseen');
    if (peer) versus.push(`${qpsRatio(s, peer, 'unfiltered-unseen')} the fastest other store's (${peer.name})`);
    const filteredPeer = fastest(ok.filter((o) => !o.name.startsWith('ours')), 'filtered-unseen');
    if (filteredPeer) versus.push(`filtered 1 % ${qpsRatio(s, filteredPeer, 'filtered-unseen')} the fastest other system's (${filteredPeer.name}; target > 1x)`);
    if (raw) {
      // Issue 20: within 1.5x of raw hnswlib-node's RSS plus the bodies we choose to cache (both after a full GC).
      const withoutCaches = Number.isFinite(s.cacheMb) ? `, ${ratio(s.rssGcMb - s.cacheMb, raw.rssGcMb)} without its body caches (target <= 1.5x)` : '';
      versus.push(`RSS after GC ${ratio(s.rssGcMb, raw.rssGcMb)}${withoutCaches} and disk ${ratio(s.diskBytes, raw.diskBytes)} raw hnswlib-node's`);
    }
    lines.push(`- ${s.name}: ${versus.join('; ')}.`);
  }
  return lines.join('\n');
}

const escapeXml = (text) => String(text).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

/**
 * A horizontal bar chart of QPS on a log scale: one panel for unfiltered and one for filtered 1 %, each
 * system a pair of bars (unseen queries, repeats). Hand-written SVG, no dependencies.
 */
export function svgChart(summaries, workload) {
  const shown = summaries.filter((s) => !s.error);
  const panels = [
    { title: `unfiltered (recall ≥ 0.95 where reachable)`, keys: ['unfiltered-unseen', 'unfiltered-repeat'] },
    { title: 'filtered to 1 % of the documents', keys: ['filtered-unseen', 'filtered-repeat'] },
  ];
  const colours = ['#1f6feb', '#9ecbff'];
  const labelWidth = 150;
  const plotWidth = 380;
  const panelGap = 40;
  const barHeight = 9;
  const rowHeight = 2 * barHeight + 8;
  const top = 56;
  const width = labelWidth + 2 * plotWidth + panelGap + 20;
  const height = top + shown.length * rowHeight + 46;
  const values = shown.flatMap((s) => panels.flatMap((p) => p.keys.map((k) => s.modes[k].qps))).filter((v) => Number.isFinite(v) && v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.min(1, ...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(10, ...values)));
  const x = (v) => (plotWidth * (Math.log10(v) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="18" font-size="13" font-weight="bold">${escapeXml(`Queries per second (log scale), ${workload.n.toLocaleString('en-US')} x ${workload.dim}, cosine, k = ${workload.k}`)}</text>`,
  ];
  panels.forEach((panel, p) => {
    const left = labelWidth + p * (plotWidth + panelGap);
    out.push(`<text x="${left}" y="${top - 14}" font-weight="bold">${escapeXml(panel.title)}</text>`);
    for (let decade = lo; decade <= hi; decade *= 10) {
      const gx = left + x(decade);
      out.push(`<line x1="${gx.toFixed(1)}" y1="${top - 6}" x2="${gx.toFixed(1)}" y2="${top + shown.length * rowHeight}" stroke="#ddd"/>`);
      out.push(`<text x="${gx.toFixed(1)}" y="${top + shown.length * rowHeight + 14}" text-anchor="middle" fill="#555">${axisLabel(decade)}</text>`);
    }
    shown.forEach((s, row) => {
      panel.keys.forEach((key, b) => {
        const v = s.modes[key].qps;
        if (!(Number.isFinite(v) && v > 0)) return;
        const y = top + row * rowHeight + b * barHeight;
        out.push(`<rect x="${left}" y="${y}" width="${Math.max(1, x(v)).toFixed(1)}" height="${barHeight - 1}" fill="${colours[b]}"><title>${escapeXml(`${s.name}, ${key}: ${Math.round(v)} QPS`)}</title></rect>`);
        out.push(`<text x="${(left + Math.max(1, x(v)) + 3).toFixed(1)}" y="${y + barHeight - 1}" font-size="9" fill="#333">${qpsText(v)}</text>`);
      });
    });
  });
  shown.forEach((s, row) => {
    const ours = s.name.startsWith('ours') ? ' font-weight="bold"' : '';
    out.push(`<text x="${labelWidth - 8}" y="${top + row * rowHeight + barHeight + 3}" text-anchor="end"${ours}>${escapeXml(s.name)}</text>`);
  });
  const legendY = height - 12;
  ['unseen queries', 'repeated queries'].forEach((label, i) => {
    out.push(`<rect x="${labelWidth + i * 140}" y="${legendY - 9}" width="10" height="10" fill="${colours[i]}"/>`);
    out.push(`<text x="${labelWidth + i * 140 + 14}" y="${legendY}">${label}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** Replaces the text between the two markers of `readme` with `block` (the markers stay). */
export function replaceBetween(readme, start, end, block) {
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`markers ${start} ... ${end} not found in the README`);
  return `${readme.slice(0, from + start.length)}\n${block}\n${readme.slice(to)}`;
}
