/**
 * The graph's insert threads run below the JS thread's priority (native/src/thread_priority.h, issue 31): while
 * an addAsync runs, each of its threads ("vdb-insert" in /proc) has the JS thread's nice plus 10 (capped at 19),
 * or plus VECTORDB_INSERT_NICE (0: the same), read from /proc/self/task/<tid>/stat by insert-priority-probe.cjs.
 * Linux only (nice is per thread there; elsewhere the threads keep their priority); skipped where the addon was
 * not built.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../src/vector-index/native-addon.js';
import { clustered } from './data.js';

const addon = loadNativeAddon();
const linux = process.platform === 'linux';
if (addon !== null && !linux) console.warn('insert thread priority is Linux-only: its test is skipped here');

interface Seen {
  js: number;
  insert: number[];
  count: number;
}
const probePath = fileURLToPath(new URL('./insert-priority-probe.cjs', import.meta.url));
const { probe } = createRequire(import.meta.url)(probePath) as { probe: (addon: unknown, data: Float32Array, dim: number, n: number) => Promise<Seen> };
const addonPath = fileURLToPath(new URL('../../native/build/vectordb_native.node', import.meta.url));

const DIM = 16;
const N = 4_000;

/** The probe in a fresh node process with `env` added. */
const probeInChild = (env: Record<string, string>): Seen =>
  JSON.parse(execFileSync(process.execPath, [probePath, addonPath, String(DIM), String(N)], { encoding: 'utf8', env: { ...process.env, ...env } }));

describe.skipIf(addon === null || !linux)('native addon: insert threads below the JS thread', () => {
  it('an addAsync inserts on threads of nice +10 over the JS thread, every vector inserted', async () => {
    const seen = await probe(addon, clustered(3, N, DIM), DIM, N);
    expect(seen.count).toBe(N);
    expect(seen.insert.length).toBeGreaterThan(0);
    expect(seen.insert.length).toBeLessThanOrEqual(2);
    for (const nice of seen.insert) expect(nice).toBe(Math.min(19, seen.js + 10));
  });

  it("VECTORDB_INSERT_NICE sets the step; 0 keeps the JS thread's priority", () => {
    const five = probeInChild({ VECTORDB_INSERT_NICE: '5' });
    expect(five.count).toBe(N);
    expect(five.insert.length).toBeGreaterThan(0);
    for (const nice of five.insert) expect(nice).toBe(Math.min(19, five.js + 5));
    const same = probeInChild({ VECTORDB_INSERT_NICE: '0' });
    expect(same.insert.length).toBeGreaterThan(0);
    for (const nice of same.insert) expect(nice).toBe(same.js);
  });
});
