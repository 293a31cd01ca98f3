/**
 * Power loss: a writer (test/fixtures/crash-writer.mjs, on the built package) acknowledges insertMany batches under
 * the lazy-disk shim and is SIGKILLed; every byte it did not fsync is then dropped, as an OS crash or a power cut
 * drops the page cache. With the default durability every acknowledged document must be there and the database must
 * open; with `durability: 'relaxed'` acknowledged documents are lost, which shows the shim drops what a disk would.
 * The same for `vectordb-local serve` and its `--durability` flag, with a Data API client over HTTP.
 */
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { VectorDB, type JsonObject } from '../../src/index.js';
import { CRASH_COLLECTION } from '../fixtures/crash-docs.mjs';
import { tempDir } from '../support/temp.js';
import { buildPackage, finish, ROOT } from '../durability/built-package.js';
import { canBuildShim, dropUnsynced, startUnderShim, type Dropped } from './lazy-disk.js';

interface PowerCut {
  readonly acked: string[];
  readonly dropped: Dropped;
}

/** Runs the writer under the shim, cuts the power once `killAfter` documents are acknowledged. */
async function writeUntilPowerCut(dir: string, killAfter: number, durability: 'full' | 'relaxed'): Promise<PowerCut> {
  const { child, disk } = startUnderShim('crash-writer.mjs', [dir, 'many', '0', durability], dir);
  child.stdin.end();
  const done = finish(child, 120_000);
  const acked: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('ack ')) continue;
    acked.push(line.slice(4));
    if (acked.length === killAfter) child.kill('SIGKILL');
  }
  const result = await done;
  expect(result.hung, 'the writer hung').toBe(false);
  expect(result.signal, `the writer ended by itself (code ${result.code}): ${result.stderr}`).toBe('SIGKILL');
  return { acked, dropped: dropUnsynced(disk) };
}

/** The ids present after the power cut (none when the collection itself was lost). */
async function presentIds(dir: string): Promise<Set<string>> {
  const db = new VectorDB('token', dir, undefined, { limits: { maxCountDocuments: 1_000_000 } });
  try {
    const names = (await db.command({ findCollections: {} }, { keyspace: 'default_keyspace' })).status as { collections: string[] };
    if (!names.collections.includes(CRASH_COLLECTION)) return new Set();
    const ids = new Set<string>();
    let pageState: string | null = null;
    do {
      const response = await db.command({ find: { projection: { _id: 1 }, options: pageState ? { pageState } : {} } } as JsonObject, { collection: CRASH_COLLECTION });
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      const data = response.data as { documents: { _id: string }[]; nextPageState: string | null };
      for (const doc of data.documents) ids.add(doc._id);
      pageState = data.nextPageState;
    } while (pageState !== null);
    return ids;
  } finally {
    await db.close();
  }
}

describe.skipIf(!canBuildShim())('power loss (unsynced bytes dropped after SIGKILL)', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it.each([60, 300])('keeps every acknowledged document with the default durability (cut after %i)', async (killAfter) => {
    const dir = tempDir('power-loss-');
    const cut = await writeUntilPowerCut(dir, killAfter, 'full');
    const present = await presentIds(dir);
    const lost = cut.acked.filter((id) => !present.has(id));
    expect(lost, `${lost.length} of ${cut.acked.length} acknowledged documents lost`).toEqual([]);
  }, 180_000);

  it('loses acknowledged documents with durability relaxed, and still opens', async () => {
    const dir = tempDir('power-loss-relaxed-');
    const cut = await writeUntilPowerCut(dir, 300, 'relaxed');
    expect(cut.dropped.bytes).toBeGreaterThan(0);
    const present = await presentIds(dir);
    const lost = cut.acked.filter((id) => !present.has(id));
    expect(lost.length).toBeGreaterThan(0);
  }, 180_000);

  /** `serve` under the shim: acknowledges `count` documents over HTTP, then loses its power. */
  async function serveUntilPowerCut(dir: string, count: number, flags: readonly string[]): Promise<PowerCut> {
    const main = path.join(ROOT, 'dist', 'cli', 'main.js');
    const { child, disk } = startUnderShim(main, ['serve', '--data', dir, '--port', '0', '--token', 'power-token', ...flags], dir);
    child.stdin.end();
    const done = finish(child, 120_000);
    let printed = '';
    const url = await new Promise<string>((resolve, reject) => {
      const seen = (chunk: Buffer): void => {
        printed += chunk.toString();
        const match = /endpoint:\s+(http:\/\/\S+)/.exec(printed);
        if (match) resolve(match[1]!);
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.once('exit', () => reject(new Error(`serve exited: ${printed}`)));
    });
    const db = new VectorDB('power-token', url);
    const acked: string[] = [];
    try {
      await db.command({ createCollection: { name: CRASH_COLLECTION } }, { keyspace: 'default_keyspace' });
      const docs = await db.collection(CRASH_COLLECTION);
      for (let i = 0; i < count; i += 20) {
        const batch = Array.from({ length: 20 }, (_, k) => ({ _id: `s${i + k}`, n: i + k }));
        await docs.insertMany(batch);
        acked.push(...batch.map((d) => d._id));
      }
    } finally {
      child.kill('SIGKILL');
      await db.close().catch(() => undefined);
    }
    await done;
    return { acked, dropped: dropUnsynced(disk) };
  }

  it('serve keeps every acknowledged document by default, and --durability relaxed is what it says', async () => {
    const full = tempDir('power-serve-');
    const kept = await serveUntilPowerCut(full, 200, []);
    const presentFull = await presentIds(full);
    expect(kept.acked.filter((id) => !presentFull.has(id))).toEqual([]);

    const relaxed = tempDir('power-serve-relaxed-');
    const cut = await serveUntilPowerCut(relaxed, 200, ['--durability', 'relaxed']);
    const presentRelaxed = await presentIds(relaxed);
    expect(cut.acked.filter((id) => !presentRelaxed.has(id)).length).toBeGreaterThan(0);
  }, 180_000);

  it('refuses a durability that is neither full nor relaxed', async () => {
    expect(() => new VectorDB('token', tempDir(), undefined, { durability: 'fast' as 'full' })).toThrow(/durability must be 'full' or 'relaxed'/);
    expect(() => new VectorDB('token', 'http://127.0.0.1:1', undefined, { durability: 'relaxed' })).toThrow(/embedded databases only/);
  });
});
