/**
 * The pure parts of `npm run bench:peers` (bench/peers/report.js, bench/lib/exact.js): medians, recall,
 * the summary of a system's bursts, the markdown table and the SVG chart. The peers themselves never run
 * in `npm test` (they are installed on first use of the bench only).
 */
import { describe, expect, it } from 'vitest';

interface Burst {
  qps: number;
  cpuQps: number;
  recallSum: number;
  checked: number;
}
interface Summary {
  name: string;
  setting: string;
  loadMs: number;
  reopenMs: number;
  modes: Record<string, { qps: number; cpuQps: number; recall: number; bursts: number }>;
  error?: string;
}
interface Report {
  median(values: number[]): number;
  MODES: { key: string }[];
  summarize(system: object): Summary;
  markdownTable(summaries: Summary[], workload: object): string;
  svgChart(summaries: Summary[], workload: object): string;
  replaceBetween(text: string, start: string, end: string, block: string): string;
  comparisons(summaries: Summary[]): string;
}
interface Exact {
  exactTopK(q: Float32Array, data: Float32Array, dim: number, n: number, k: number, rows?: Uint32Array): number[];
  recallOf(found: number[], truth: number[]): number;
}
// Plain JS modules of the bench (not compiled): loaded by URL, typed by the interfaces above.
const load = async <T>(path: string): Promise<T> => (await import(new URL(path, import.meta.url).href)) as T;
const report = await load<Report>('../../bench/peers/report.js');
const exact = await load<Exact>('../../bench/lib/exact.js');

const workload = { n: 20_000, dim: 384, k: 10, rounds: 3, burstMs: 1000 };
const burst = (qps: number, recallSum = 10, checked = 10): Burst => ({ qps, cpuQps: qps * 2, recallSum, checked });
const system = (name: string, qps: number[]) => ({
  name,
  loadMs: 12_345,
  rssMb: 200.4,
  rssGcMb: 180.2,
  ...(name.startsWith('ours') ? { cachedBytes: 12.5 * 2 ** 20 } : {}),
  diskBytes: 31_500_000,
  calibration: { unfiltered: { setting: 'ef 16' }, filtered: { setting: 'ef 10' } },
  reopens: [{ ms: 80, rssMb: 90 }, { ms: 60, rssMb: 95 }, { ms: 70, rssMb: 91 }],
  bursts: Object.fromEntries(report.MODES.map((m, i) => [m.key, qps.map((q) => burst(q * (i + 1), 9, 10))])),
});

describe('bench:peers report', () => {
  it('takes medians of odd and even counts, ignoring what is not a number', () => {
    expect(report.median([5, 1, 3])).toBe(3);
    expect(report.median([4, 1, 3, 2])).toBe(2.5);
    expect(report.median([Number.NaN, 7])).toBe(7);
    expect(report.median([])).toBeNaN();
  });

  it('computes recall@k and exact top k (ties: the smaller row first)', () => {
    const dim = 2;
    const data = Float32Array.from([1, 0, 0, 1, 0.6, 0.8, 0.8, 0.6, 1, 0]);
    const q = Float32Array.from([1, 0]);
    expect(exact.exactTopK(q, data, dim, 5, 3)).toEqual([0, 4, 3]);
    expect(exact.exactTopK(q, data, dim, 5, 2, Uint32Array.from([1, 2]))).toEqual([2, 1]);
    expect(exact.recallOf([0, 3, 9], [0, 4, 3])).toBeCloseTo(2 / 3);
    expect(exact.recallOf([], [])).toBe(1);
  });

  it('summarizes a system: median QPS per mode, recall over every checked query, median reopen', () => {
    const s = report.summarize(system('ours-native', [300, 100, 200]));
    expect(s.modes['unfiltered-unseen']).toMatchObject({ qps: 200, recall: 0.9, bursts: 3 });
    expect(s.modes['filtered-repeat'].qps).toBe(800);
    expect(s.reopenMs).toBe(70);
    expect(s.setting).toBe('ef 16');
    const empty = report.summarize({ name: 'x' });
    expect(empty.modes['unfiltered-unseen'].qps).toBeNaN();
    expect(empty.modes['unfiltered-unseen'].recall).toBeNaN();
  });

  it('reads a run from before the RSS after GC was measured apart (its RSS was taken after a GC)', () => {
    const old = report.summarize({ name: 'hnswlib-node', rssMb: 150 }) as Summary & { rssGcMb: number; cacheMb: number };
    expect(old.rssGcMb).toBe(150);
    expect(old.cacheMb).toBeNaN();
  });

  it('renders the markdown table, a failed system on its own row', () => {
    const table = report.markdownTable([report.summarize(system('ours-native', [2500.4])), report.summarize({ name: 'vectra', error: 'vectra (run) exited with 1\nstack' })], workload);
    const lines = table.split('\n');
    expect(lines[0]).toContain('20,000 x 384');
    const columns = lines[2].split('|').length;
    expect(lines[3]).toMatch(/^\|---\|---\|---:/);
    const row = lines.find((l) => l.startsWith('| ours-native'));
    expect(row).toBe('| ours-native | ef 16 | 12.3 | 2,500 | 5,001 | 0.900 | 7,501 | 10,002 | 0.900 | ef 10 | 70 | 200 | 180 | 12.5 | 91 | 31.5 |');
    expect(row!.split('|').length).toBe(columns);
    const failed = lines.find((l) => l.startsWith('| vectra'));
    expect(failed).toContain('failed: vectra (run) exited with 1');
    expect(failed).not.toContain('stack');
    expect(failed!.split('|').length).toBe(columns);
  });

  it('draws an SVG bar per measured QPS on a log scale, names escaped', () => {
    const svg = report.svgChart([report.summarize(system('a<b', [10])), report.summarize(system('fast', [10_000]))], workload);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('a&lt;b');
    expect(svg).not.toContain('a<b');
    const bars = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="8"[^>]*><title>([^<]+)<\/title>/g)];
    expect(bars).toHaveLength(8);
    const width = (title: string) => Number(bars.find((b) => b[2].startsWith(title))![1]);
    // 1000x the QPS is 3 decades further on the same axis, whatever the axis' ends.
    const decade = (width('fast, unfiltered-unseen') - width('a&lt;b, unfiltered-unseen')) / 3;
    expect(decade).toBeGreaterThan(10);
    expect(width('fast, filtered-unseen') - width('fast, unfiltered-unseen')).toBeCloseTo(decade * Math.log10(3), 0);
  });

  it("compares each of our systems with raw hnswlib-node and with the fastest peers (issue 20's targets)", () => {
    const lines = report
      .comparisons([
        report.summarize(system('ours-native', [800])),
        report.summarize(system('hnswlib-node', [1000])),
        report.summarize(system('orama', [100])),
        report.summarize(system('js-loop', [2000])),
        report.summarize({ name: 'vectra', error: 'failed' }),
      ])
      .split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("ours-native: 0.80x raw hnswlib-node's unfiltered QPS (unseen; target >= 0.8x; per CPU second 0.80x)");
    // js-loop and hnswlib are not "other stores" for the unfiltered comparison, but count for the filtered one.
    expect(lines[0]).toContain("8.00x the fastest other store's (orama)");
    expect(lines[0]).toContain("filtered 1 % 0.40x the fastest other system's (js-loop");
    // RSS after a GC; without our body caches: (180.2 - 12.5) / 180.2.
    expect(lines[0]).toContain("RSS after GC 1.00x, 0.93x without its body caches (target <= 1.5x) and disk 1.00x raw hnswlib-node's");
  });

  it('compares QPS as the median of the per-round ratios (bursts seconds apart), not the ratio of the medians', () => {
    const line = report.comparisons([report.summarize(system('ours-native', [100, 300, 200])), report.summarize(system('hnswlib-node', [50, 200, 1000]))]);
    // Rounds: 2x, 1.5x, 0.2x: median 1.5x (the medians alone, 200 / 200, would say 1.00x).
    expect(line).toContain("ours-native: 1.50x raw hnswlib-node's unfiltered QPS");
  });

  it('replaces the README block between its markers, and refuses without them', () => {
    const text = 'a\n<!-- s -->\nold\n<!-- e -->\nb';
    expect(report.replaceBetween(text, '<!-- s -->', '<!-- e -->', 'new')).toBe('a\n<!-- s -->\nnew\n<!-- e -->\nb');
    expect(() => report.replaceBetween('nothing', '<!-- s -->', '<!-- e -->', 'x')).toThrow(/markers/);
  });
});
