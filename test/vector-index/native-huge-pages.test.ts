/**
 * VECTORDB_HUGE_PAGES (native/src/huge_pages.h): by default a graph's large blocks are advised for 2 MiB pages
 * (Linux: madvise MADV_HUGEPAGE, shown as `hg` in /proc/self/smaps' VmFlags); `0` advises none (a VM with free
 * page reporting faults each huge page in again from its host: bench/README.md's 1M x 384 reopen). The addon
 * reads the variable once, so each case runs in a child. Skipped without the addon or off Linux.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../src/vector-index/native-addon.js';

const ADDON = new URL('../../native/build/vectordb_native.node', import.meta.url).pathname;
const supported = loadNativeAddon() !== null && existsSync('/proc/self/smaps') && existsSync('/sys/kernel/mm/transparent_hugepage');

/** The child: mappings advised for huge pages before and after a graph with room for 100,000 elements is made. */
const CHILD = `
const { readFileSync } = require('node:fs');
const a = require(${JSON.stringify(ADDON)});
const advised = () => (readFileSync('/proc/self/smaps', 'utf8').match(/^VmFlags:.* hg( |$)/gm) ?? []).length;
const before = advised();
const rows = new a.Rows(16, 0);
const graph = new a.Graph(rows, 100000, 16, 100, 1);
console.log(JSON.stringify({ before, after: advised(), graph: typeof graph }));
`;

function advisedMappings(env: Record<string, string>): { before: number; after: number } {
  const run = spawnSync(process.execPath, ['-e', CHILD], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { before: number; after: number };
}

describe.skipIf(!supported)('huge pages for the native graph (VECTORDB_HUGE_PAGES)', () => {
  it('advises a large graph block by default and nothing with VECTORDB_HUGE_PAGES=0', () => {
    const byDefault = advisedMappings({});
    expect(byDefault.after).toBeGreaterThan(byDefault.before);
    const off = advisedMappings({ VECTORDB_HUGE_PAGES: '0' });
    expect(off.after).toBe(off.before);
  });
});
