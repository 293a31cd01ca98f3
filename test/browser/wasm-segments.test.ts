/**
 * A page's vector collection that outgrows one WebAssembly heap (issue 31), in real headless Chromium
 * (test/browser/harness.js) through the browser bundle: with each heap's room lowered (the page's global
 * VECTORDB_WASM_HEAP_BYTES) to about 500 vectors, 2,000 documents of 128 dimensions are refused with
 * VECTOR_INDEX_CAPACITY when the page may have one heap (VECTORDB_WASM_HEAPS), and answered, unfiltered
 * and filtered, as an exact scan answers them when the graph spreads over as many heaps as it needs; the
 * graph is saved to IndexedDB as it is serialized (format 3, chunks of their own) and reopened from there.
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

/** The part of IndexedDB the page reads here (the tests compile without DOM types). */
interface RawRequest<T> {
  result: T;
  error: unknown;
  onsuccess: () => void;
  onerror: () => void;
}
interface RawCursor {
  key: unknown;
  value: unknown;
  continue(): void;
}
interface RawDb {
  transaction(store: string): { objectStore(name: string): { openCursor(): RawRequest<RawCursor | null> } };
  close(): void;
}
interface RawIdb {
  open(name: string): RawRequest<RawDb>;
}

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

  it('saves the graph to IndexedDB one segment at a time, in chunks of their own, and reopens from it', async () => {
    // Closing saved the snapshot: format 3 (segments framed as they came), each chunk stored as itself.
    const stored = await page.evaluate(async () => {
      const idb = (globalThis as unknown as { indexedDB: RawIdb }).indexedDB;
      const db = await new Promise<RawDb>((resolve, reject) => {
        const opening = idb.open('many-heaps');
        opening.onsuccess = () => resolve(opening.result);
        opening.onerror = () => reject(opening.error);
      });
      const entries = await new Promise<{ key: string; value: Uint8Array }[]>((resolve, reject) => {
        const out: { key: string; value: Uint8Array }[] = [];
        const cursor = db.transaction('many-heaps').objectStore('many-heaps').openCursor();
        cursor.onsuccess = () => {
          const at = cursor.result;
          if (at === null) return resolve(out);
          // browser-level stores utf8 keys as bytes.
          const key = typeof at.key === 'string' ? at.key : new TextDecoder().decode(at.key as Uint8Array);
          if (key.startsWith('vidx:') || key.startsWith('vmeta:')) out.push({ key, value: at.value as Uint8Array });
          at.continue();
        };
        cursor.onerror = () => reject(cursor.error);
      });
      db.close();
      const meta = entries.find((e) => e.key.startsWith('vmeta:'))!;
      const chunks = entries.filter((e) => e.key.startsWith('vidx:')).sort((a, b) => (a.key < b.key ? -1 : 1));
      const head = chunks[0]!.value;
      const jsonLength = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(8, true);
      return {
        meta: JSON.parse(new TextDecoder().decode(meta.value)) as { chunks: number; bytes: number },
        chunks: chunks.length,
        bytes: chunks.reduce((sum, c) => sum + c.value.byteLength, 0),
        buffers: chunks.reduce((sum, c) => sum + c.value.buffer.byteLength, 0),
        header: JSON.parse(new TextDecoder().decode(head.subarray(12, 12 + jsonLength))) as { format: number; segments?: number },
      };
    });
    expect(stored.header.format).toBe(3);
    expect(stored.header.segments).toBeGreaterThanOrEqual(4);
    expect(stored.chunks).toBe(stored.meta.chunks);
    expect(stored.bytes).toBe(stored.meta.bytes);
    // A chunk cut from a segment's bytes is stored alone, not with the whole segment it was a view of.
    expect(stored.buffers).toBe(stored.bytes);

    await setKnobs(undefined);
    await page.evaluate(() => window.vdb.open('many-heaps'));
    const answers = await page.evaluate((q) => window.vdb.query(q), QUERY);
    expect(answers.all).toBe(2000);
    expect(overlap(answers.vector.map(([id]) => id), exactTop10())).toBeGreaterThanOrEqual(9);
    await page.evaluate(() => window.vdb.close());
    expect(pageErrors).toEqual([]);
  });
});
