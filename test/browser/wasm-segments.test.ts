/**
 * A page's vector collection that outgrows one WebAssembly heap (issue 31), in real headless Chromium
 * (test/browser/harness.js) through the browser bundle: with each heap's room lowered (the page's global
 * VECTORDB_WASM_HEAP_BYTES) to about 500 vectors, 2,000 documents of 128 dimensions are refused with
 * VECTOR_INDEX_CAPACITY when the page may have one heap (VECTORDB_WASM_HEAPS), and answered, unfiltered
 * and filtered, as an exact scan answers them when the graph spreads over as many heaps as it needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, openPage, servePage } from './harness.js';
import { makeDocuments } from './scenario.js';
import { similarityScore } from '../../src/vector-index/metric.js';
import { WASM_HEAP_ENV, WASM_HEAPS_ENV, wasmBytesPerElement } from '../../src/vector-index/wasm-capacity.js';

const DIM = 128;
const DOCUMENTS = makeDocuments(2000, DIM);
const QUERY = makeDocuments(1, DIM, 7)[0]!.$vector;
const HEAP_BYTES = 96 * 2 ** 20 + 500 * wasmBytesPerElement(DIM, 16);

type Doc = (typeof DOCUMENTS)[number];

/** The exact top 10 ids by cosine among the documents `allowed` keeps. */
function exactTop10(allowed: (d: Doc) => boolean = () => true): string[] {
  return DOCUMENTS.filter(allowed)
    .map((d) => ({ id: d._id, score: similarityScore('cosine', QUERY, d.$vector) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 10)
    .map((h) => h.id);
}

const overlap = (a: readonly string[], b: readonly string[]): number => a.filter((id) => b.includes(id)).length;

describe('a vector collection over several WebAssembly heaps in headless Chromium', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let server: Awaited<ReturnType<typeof servePage>>;
  let page: Page;
  const pageErrors: Error[] = [];

  beforeAll(async () => {
    [server, chromium] = await Promise.all([servePage(), launchChromium()]);
    page = await openPage(chromium.context, server.url, pageErrors);
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  const setKnobs = (heaps: number | undefined): Promise<void> =>
    page.evaluate(
      ([names, bytes, count]) => {
        const g = globalThis as Record<string, unknown>;
        g[names[0]!] = bytes;
        if (count === null) delete g[names[1]!];
        else g[names[1]!] = count;
      },
      [[WASM_HEAP_ENV, WASM_HEAPS_ENV], HEAP_BYTES, heaps ?? null] as const,
    );

  it('with one heap allowed, the graph cannot hold the collection: VECTOR_INDEX_CAPACITY, no crash', async () => {
    await setKnobs(1);
    await page.evaluate(() => window.vdb.open('one-heap'));
    // Refused when the graph is made (it asks for room for 1,024) or when it fills, never a crash.
    const outcome = await page.evaluate(
      async ([docs, q]) => {
        try {
          await window.vdb.load(docs);
          await window.vdb.query(q);
          return 'answered';
        } catch (e) {
          return String((e as Error).message);
        }
      },
      [DOCUMENTS, QUERY] as const,
    );
    expect(outcome).toMatch(/^VECTOR_INDEX_CAPACITY: .*hnswlib-wasm.*at most 1 \(VECTORDB_WASM_HEAPS\)/);
    await page.evaluate(() => window.vdb.close());
  });

  it('with heaps as needed, the same collection answers as an exact scan does', async () => {
    await setKnobs(undefined);
    await page.evaluate(() => window.vdb.open('many-heaps'));
    await page.evaluate((docs) => window.vdb.load(docs), DOCUMENTS);
    const answers = await page.evaluate((q) => window.vdb.query(q), QUERY);
    expect(answers.all).toBe(2000);
    const vector = answers.vector.map(([id]) => id);
    expect(overlap(vector, exactTop10())).toBeGreaterThanOrEqual(9);
    const allowed = (d: Doc): boolean => d.category === 'c3' && d.n >= 1000;
    const filtered = answers.filteredVector.map(([id]) => id);
    expect(filtered).toHaveLength(10);
    expect(filtered.every((id) => allowed(DOCUMENTS[Number(id.slice(4))]!))).toBe(true);
    expect(overlap(filtered, exactTop10(allowed))).toBeGreaterThanOrEqual(9);
    await page.evaluate(() => window.vdb.close());
    expect(pageErrors).toEqual([]);
  });
});
