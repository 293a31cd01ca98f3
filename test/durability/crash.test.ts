/**
 * The crash test: a child process (test/fixtures/crash-writer.mjs, on the built package) inserts documents one
 * by one or in insertMany batches and prints each acknowledged id; we SIGKILL it mid-stream, reopen the directory
 * and check that every acknowledged document is present and whole, that every present document is whole, and that
 * index-based filters agree with full scans. Kills happen after a number of acknowledgements, never after a delay.
 */
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { VectorDB, type JsonObject } from '../../src/index.js';
import { CRASH_COLLECTION, crashDocument, crashId, crashVector } from '../fixtures/crash-docs.mjs';
import { tempDir } from '../support/temp.js';
import { buildPackage, finish, startFixture } from './built-package.js';

type Doc = Record<string, unknown> & { _id: string; seq: number };

interface CrashRun {
  /** Ids acknowledged by the child before it died, in order. */
  readonly acked: string[];
}

/** Runs the writer from `start` and kills it with SIGKILL once `killAfter` acknowledgements have been read. */
async function writeUntilKilled(dir: string, mode: 'one' | 'many', start: number, killAfter: number): Promise<CrashRun> {
  const child = startFixture('crash-writer.mjs', [dir, mode, String(start)]);
  child.stdin.end();
  const done = finish(child, 120_000);
  const acked: string[] = [];
  let killed = false;
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    if (!line.startsWith('ack ')) continue;
    acked.push(line.slice(4));
    if (!killed && acked.length >= killAfter) {
      killed = true;
      child.kill('SIGKILL');
    }
  }
  const result = await done;
  expect(result.hung, 'the writer hung').toBe(false);
  expect(result.signal, `the writer ended by itself (code ${result.code}): ${result.stderr}`).toBe('SIGKILL');
  expect(acked.length).toBeGreaterThanOrEqual(killAfter);
  return { acked };
}

async function findAll(db: VectorDB, body: Record<string, unknown> = {}): Promise<Doc[]> {
  const all: Doc[] = [];
  let pageState: string | null = null;
  do {
    const response = await db.command({ find: { ...body, options: pageState ? { pageState } : {} } } as JsonObject, { collection: CRASH_COLLECTION });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const data = response.data as { documents: Doc[]; nextPageState: string | null };
    all.push(...data.documents);
    pageState = data.nextPageState;
  } while (pageState !== null);
  return all;
}

const idsOf = (docs: readonly Doc[]): string[] => docs.map((d) => d._id).sort();

function cosineScore(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return (1 + dot / Math.sqrt(na * nb)) / 2;
}

/**
 * Reopens the directory and checks it after a crash: every acknowledged id present and whole, every present
 * document whole, nothing beyond the batch in flight, counts consistent, and indexes agreeing with full scans.
 * Returns the sequence numbers present.
 */
async function verify(dir: string, acknowledged: ReadonlySet<string>, attemptedBelow: number): Promise<number[]> {
  const db = new VectorDB('token', dir, undefined, { limits: { maxCountDocuments: 1_000_000 } });
  try {
    const all = await findAll(db, { projection: { '*': 1 } });
    const ids = all.map((d) => d._id);
    expect(new Set(ids).size, 'a document was returned twice').toBe(ids.length);

    // Every present document is whole: deep-equal to what the writer sent for its sequence number.
    for (const doc of all) {
      expect(typeof doc.seq).toBe('number');
      expect(doc).toEqual(crashDocument(doc.seq));
      expect(Object.keys(doc)[0]).toBe('_id');
      expect(doc.seq).toBeLessThan(attemptedBelow);
    }

    // Every acknowledged document is present.
    const present = new Set(ids);
    const missing = [...acknowledged].filter((id) => !present.has(id));
    expect(missing, 'acknowledged documents lost in the crash').toEqual([]);

    // Counts agree with the scan.
    expect(await db.command({ countDocuments: { filter: {} } }, { collection: CRASH_COLLECTION })).toEqual({ status: { count: all.length } });
    expect(await db.command({ estimatedDocumentCount: {} }, { collection: CRASH_COLLECTION })).toEqual({ status: { count: all.length } });

    // Index-based filters agree with full scans (the scan above, filtered here).
    const expectFilter = async (filter: JsonObject, predicate: (d: Doc) => boolean): Promise<void> => {
      const expected = idsOf(all.filter(predicate));
      expect(idsOf(await findAll(db, { filter })), JSON.stringify(filter)).toEqual(expected);
      expect(await db.command({ countDocuments: { filter } }, { collection: CRASH_COLLECTION })).toEqual({ status: { count: expected.length } });
    };
    for (let g = 0; g < 7; g++) await expectFilter({ group: g }, (d) => d.group === g);
    await expectFilter({ label: 'label-5' }, (d) => d.label === 'label-5');
    await expectFilter({ 'nested.even': true }, (d) => (d.nested as { even: boolean }).even);
    await expectFilter({ 'nested.tags': 'u3' }, (d) => (d.nested as { tags: string[] }).tags.includes('u3'));
    const middle = Math.floor(attemptedBelow / 2);
    await expectFilter({ seq: { $gte: middle } }, (d) => d.seq >= middle);
    await expectFilter({ seq: { $lt: 50 } }, (d) => d.seq < 50);
    await expectFilter({ when: { $gt: { $date: 1_700_000_000_000 + middle * 1000 } } }, (d) => d.seq > middle);
    const someIds = [crashId(0), crashId(middle), crashId(attemptedBelow - 1), crashId(attemptedBelow + 5)];
    await expectFilter({ _id: { $in: someIds } }, (d) => someIds.includes(d._id));
    await expectFilter({ $vector: { $exists: true } }, () => true);

    // The vector sort sees exactly the present documents' vectors.
    const query = [1, 2, 3, 4];
    const response = await db.command(
      { find: { sort: { $vector: query }, projection: { seq: 1 }, options: { limit: 10, includeSimilarity: true } } },
      { collection: CRASH_COLLECTION },
    );
    expect(response.errors).toBeUndefined();
    const nearest = (response.data as unknown as { documents: { _id: string; seq: number; $similarity: number }[] }).documents;
    const best = all.map((d) => cosineScore(query, crashVector(d.seq))).sort((a, b) => b - a).slice(0, 10);
    expect(nearest).toHaveLength(Math.min(10, all.length));
    nearest.forEach((doc, i) => {
      expect(present.has(doc._id)).toBe(true);
      expect(doc.$similarity).toBeCloseTo(best[i]!, 5);
    });

    return all.map((d) => d.seq).sort((a, b) => a - b);
  } finally {
    await db.close();
  }
}

describe('crash test: SIGKILL while inserting', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it.each([
    ['insertOne', 'one', 150],
    ['insertOne', 'one', 300],
    ['insertMany', 'many', 120],
    ['insertMany', 'many', 400],
  ] as const)('%s (mode %s), killed after %i acknowledgements: every acknowledged document survives whole', async (_label, mode, killAfter) => {
    const dir = tempDir('vectordb-crash-');
    const { acked } = await writeUntilKilled(dir, mode, 0, killAfter);
    // The writer works sequentially: at most one request (≤ 20 documents) was in flight past the last ack.
    const present = await verify(dir, new Set(acked), acked.length + 20);
    expect(present.length).toBeGreaterThanOrEqual(acked.length);
    expect(present.slice(0, acked.length)).toEqual(acked.map((_, i) => i));
  });

  it('crash, recover, write more, crash again: both generations survive', async () => {
    const dir = tempDir('vectordb-crash-');
    const first = await writeUntilKilled(dir, 'one', 0, 200);
    const afterFirst = await verify(dir, new Set(first.acked), first.acked.length + 20);
    const next = afterFirst.at(-1)! + 1;

    const second = await writeUntilKilled(dir, 'many', next, 250);
    const acknowledged = new Set([...first.acked, ...second.acked]);
    const afterSecond = await verify(dir, acknowledged, next + second.acked.length + 20);
    expect(afterSecond.slice(0, afterFirst.length)).toEqual(afterFirst);
    expect(afterSecond.length).toBeGreaterThanOrEqual(acknowledged.size);
  });
});
