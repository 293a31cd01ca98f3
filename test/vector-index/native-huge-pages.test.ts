/**
 * The addon asks for 2 MiB pages for its large blocks (native/src/huge_pages.h): the row store's blocks and
 * hnswlib's level-0 block, which searches and inserts read anywhere (with 4 KiB pages, nearly every read also
 * misses the TLB: at 1M x 128 the graph search ran at 0.65x raw hnswlib-node's). Linux gives them to advised
 * memory when transparent huge pages are in "madvise" mode; in "always" mode every process has them, so the
 * test runs only in "madvise" mode, where it fails without the advice. VECTORDB_HUGE_PAGES=0 advises none (a VM
 * with free page reporting faults each huge page in again from its host: bench/README.md's 1M x 384 reopen); the
 * addon reads it once, so that case runs in a child.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../src/vector-index/native-addon.js';

const addon = loadNativeAddon();

function thpMode(): string | undefined {
  try {
    return /\[(\w+)\]/.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** Anonymous memory of this process in huge pages (kB). */
function anonHugeKb(): number {
  const line = readFileSync('/proc/self/smaps_rollup', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('AnonHugePages:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0);
}

const mode = thpMode();
if (addon !== null && mode !== 'madvise') console.warn(`transparent huge pages are "${mode ?? 'absent'}" here, not "madvise": the huge page test is skipped`);

describe.skipIf(addon === null || mode !== 'madvise')('native addon: huge pages for its large blocks', () => {
  it('the rows of a 40 MB store and a graph over them sit mostly in huge pages', () => {
    const dim = 256;
    const n = 40_000;
    const before = anonHugeKb();
    const rows = new addon!.Rows(dim, 2);
    const values = new Float32Array(dim);
    for (let i = 0; i < n; i++) {
      for (let d = 0; d < dim; d++) values[d] = Math.sin(i * 7 + d);
      rows.write(rows.take(), values, 0);
    }
    const afterRows = anonHugeKb();
    // 40,000 rows of 1,028 bytes: 39 MiB, in blocks of 1,024 << b rows (the last one 16 MiB, partly used).
    expect(afterRows - before).toBeGreaterThanOrEqual(16 * 1024);
    // A graph of 200,000 slots: its level-0 block (148 bytes a slot with M 16: 28 MiB) fills as elements come.
    const graph = new addon!.Graph(rows, 200_000, 16, 20, 100);
    const inGraph = 20_000; // 2.8 MiB of level 0: at least one whole huge page
    const slots = Uint32Array.from({ length: inGraph }, (_, i) => i);
    graph.add(slots, slots, inGraph);
    expect(anonHugeKb() - afterRows).toBeGreaterThanOrEqual(2 * 1024);
    graph.dispose();
  });
});

/** A child's mappings advised for huge pages (smaps' VmFlags `hg`) before and after it makes a graph of 100,000 slots. */
const ADVISED_CHILD = `
const { readFileSync } = require('node:fs');
const a = require(${JSON.stringify(new URL('../../native/build/vectordb_native.node', import.meta.url).pathname)});
const advised = () => (readFileSync('/proc/self/smaps', 'utf8').match(/^VmFlags:.* hg( |$)/gm) ?? []).length;
const before = advised();
const graph = new a.Graph(new a.Rows(16, 0), 100000, 16, 100, 1);
console.log(JSON.stringify({ before, after: advised() }));
graph.dispose();
`;

function advisedMappings(env: Record<string, string>): { before: number; after: number } {
  const run = spawnSync(process.execPath, ['-e', ADVISED_CHILD], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { before: number; after: number };
}

describe.skipIf(addon === null || mode === undefined)('native addon: VECTORDB_HUGE_PAGES', () => {
  it('advises a large graph block by default and nothing with VECTORDB_HUGE_PAGES=0', () => {
    const byDefault = advisedMappings({});
    expect(byDefault.after).toBeGreaterThan(byDefault.before);
    const off = advisedMappings({ VECTORDB_HUGE_PAGES: '0' });
    expect(off.after).toBe(off.before);
  });
});
