/**
 * A native-rows graph whose level-0 block outgrows its reserved range and moves (native/src/graph_growth.h: the
 * copy past 4 GiB, about 30M elements, brought within reach by VECTORDB_GRAPH_RESERVE_BYTES), or grows by realloc
 * (0: no range, as under an address-space limit). Each case runs graph-reserve-probe.mjs in a child with the
 * variable set (the addon reads it once). Grown through several moves, one insert thread, the graph is the very
 * one built uncapped (every element's links, every answer), each vector finds itself, searches on the JS thread
 * while each batch inserts return whole hit lists, a resize meanwhile is refused, and a save and load gives the
 * same graph, which grows on past its own range; a collection's bulk load does the same through the engine; and
 * a search's JS filter cannot resize, change or dispose the graph it walks (it crashed the process). Needs the
 * built dist/ and the addon (skipped without it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../src/vector-index/native-addon.js';

const addon = loadNativeAddon();
const PROBE = fileURLToPath(new URL('./graph-reserve-probe.mjs', import.meta.url));
const LONG = process.env.VECTORDB_LONG_TESTS === '1';
/** A cap of 16 KiB: about 110 elements at M 16 (144 bytes each), so growing to 2,000 moves the block 4-5 times. */
const SMALL = '16384';

/** Whether this process's address space is unlimited (Linux: /proc/self/limits): graphs reserve only then. */
function addressSpaceUnlimited(): boolean {
  try {
    return /^Max address space\s+unlimited/m.test(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return false;
  }
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vdb-moves-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The probe's JSON for `what`, in a child whose reservation is `reserve` (undefined: the default). */
function probe(what: string, reserve: string | undefined, extra: Record<string, string> = {}): any {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.VECTORDB_GRAPH_RESERVE_BYTES;
  if (reserve !== undefined) env.VECTORDB_GRAPH_RESERVE_BYTES = reserve;
  const child = spawnSync(process.execPath, [PROBE, what, join(dir, `${what}-${reserve ?? 'default'}-${Object.values(extra).join('-')}`)], { encoding: 'utf8', env, maxBuffer: 1 << 28 });
  expect(child.signal, child.stderr).toBeNull(); // SIGSEGV: a walk read memory a resize freed
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!);
}

/**
 * What every growth run must show, capped or not: nothing lost, nothing wrong seen while it grew; `exact`: every
 * vector finds itself first (a small graph; a large one finds nearly all).
 */
function expectSound(run: any, n: number, exact = true): void {
  const { single, loaded, twoThreads } = run;
  expect(single.count).toBe(n);
  expect(single.changed).toBe(0); // every resize kept every element, link and answer
  if (exact) expect(single.found).toBe(n); // recall 1.0 of self-queries
  else expect(single.found).toBeGreaterThanOrEqual(Math.floor(n * 0.99));
  for (const seen of [single, twoThreads]) {
    expect(seen.refused).toBe(seen.resizes + 1); // a resize while a batch inserts is refused, every time
    expect(seen.searches).toBeGreaterThan(seen.resizes); // at least one search beside each batch
    expect(seen.bad).toBe(0);
    // A search may run while its own vector is still being linked (how often depends on the threads' timing: 98.9 %
    // found in one CI run), so this is a floor; a broken copy shows in `changed`, `found` and `loadedSame`.
    expect(seen.self).toBeGreaterThanOrEqual(Math.floor(seen.searches * 0.95));
  }
  expect(run.loadedSame).toBe(true);
  expect(loaded.count).toBe(n + 500);
  expect(loaded.bad).toBe(0);
  expect(loaded.found).toBeGreaterThanOrEqual(Math.floor((n + 500) * 0.99));
  expect(twoThreads.count).toBe(n);
  expect(twoThreads.outOfStep).toBe(0);
  expect(twoThreads.found).toBeGreaterThanOrEqual(Math.floor(n * 0.98));
}

describe.skipIf(addon === null || process.platform === 'win32')('a native graph whose level-0 block moves as it grows', () => {
  it('past a capped range (several moves) and by realloc: the same graph as uncapped, found, searched meanwhile, saved and loaded', { timeout: 120_000 }, () => {
    const n = 2000;
    const uncapped = probe('graph', undefined);
    expectSound(uncapped, n);
    if (addressSpaceUnlimited()) {
      expect(uncapped.single.inPlace).toBe(true);
      expect(uncapped.single.moves).toBe(0);
    }
    const capped = probe('graph', SMALL);
    expectSound(capped, n);
    expect(capped.single.inPlace).toBe(true);
    expect(capped.single.moves).toBeGreaterThanOrEqual(3);
    expect(capped.loaded.moves).toBeGreaterThanOrEqual(1);
    expect(capped.twoThreads.moves).toBeGreaterThanOrEqual(3);
    expect(capped.state).toBe(uncapped.state);
    const realloc = probe('graph', '0');
    expectSound(realloc, n);
    expect(realloc.single.inPlace).toBe(false);
    expect(realloc.state).toBe(uncapped.state);
  });

  it("a collection's bulk load through the engine, capped and by realloc: every document found, searched meanwhile, reopened the same", { timeout: 120_000 }, () => {
    for (const reserve of [SMALL, '0']) {
      const run = probe('collection', reserve);
      expect(run.backend).toBe('native-rows');
      if (reserve === SMALL) expect(run.moves).toBeGreaterThanOrEqual(1);
      expect(run.found).toBeGreaterThanOrEqual(Math.floor(run.n * 0.99));
      expect(run.seen.self).toBeGreaterThanOrEqual(Math.floor(run.seen.searches * 0.95));
      expect(run.reopenedSame).toBe(true);
    }
  });

  it("a search's JS filter cannot resize, change or dispose the graph it walks (ours and hnswlib's search)", { timeout: 60_000 }, () => {
    for (const reserve of [undefined, SMALL]) {
      const run = probe('reentry', reserve);
      for (const search of [run.ours, run.hnswlib]) {
        expect(search.tried).toEqual(['resize: refused', 'markDelete: refused', 'dispose: refused']);
        expect(search).toMatchObject({ k: 10, first: 5, capacity: 3001, count: 3000 });
      }
    }
  });

  it.skipIf(!LONG)('past a range of a few MiB (30,000 elements, two moves): the same graph as uncapped', { timeout: 900_000 }, () => {
    const n = 30_000;
    const extra = { PROBE_N: String(n) };
    const uncapped = probe('graph', undefined, extra);
    expectSound(uncapped, n, false);
    const capped = probe('graph', String(2 << 20), extra);
    expectSound(capped, n, false);
    expect(capped.single.moves).toBeGreaterThanOrEqual(2);
    expect(capped.single.found).toBe(uncapped.single.found);
    expect(capped.state).toBe(uncapped.state);
  });
});
