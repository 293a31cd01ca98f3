/**
 * Vector search hits whose bodies are not cached (bodyCacheBytes 0 here; a collection larger than its hit
 * cache in use) are read from LevelDB: at once (KvStore.getManyNow, no await) when a page has few of them,
 * through LevelDB's threads when it has many. Both answer the documents a brute-force ranking finds, in its
 * order, with its `$similarity`, and what a database with the default caches answers: after updates, deletes,
 * replaces and inserts, and after reopening. A damaged body is DATABASE_CORRUPTED either way.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { KvStore, bytesToString, keys } from '../../src/storage/index.js';
import { dataApiSimilarity } from '../../src/vector-index/metric.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const TARGET = { ...KS, collection: 'docs' };
const DIM = 4;
const opened: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined);
});

async function run(db: Database, command: JsonObject): Promise<JsonObject> {
  const response = (await executeCommand(db, command, TARGET)) as unknown as JsonObject;
  expect(response.errors).toBeUndefined();
  return response;
}

/** Deterministic vectors spread over the sphere (no two at the same distance from the queries below). */
function vectorOf(i: number): number[] {
  return [Math.cos(i * 0.61), Math.sin(i * 0.61), Math.cos(i * 1.37) * 0.8, ((i * 7919) % 101) / 101 - 0.5];
}

const DOCS: JsonObject[] = Array.from({ length: 90 }, (_, i) => ({ _id: `d${i}`, n: i, title: `document ${i}`, $vector: vectorOf(i) }));

async function openDb(dir: string, bodyCacheBytes?: number): Promise<Database> {
  const db = await Database.open(dir, { vectorBackend: 'wasm', ...(bodyCacheBytes === undefined ? {} : { bodyCacheBytes }) });
  opened.push(db);
  return db;
}

async function seeded(bodyCacheBytes?: number): Promise<{ db: Database; dir: string }> {
  const dir = tempDir();
  const db = await openDb(dir, bodyCacheBytes);
  await executeCommand(db, { createCollection: { name: 'docs', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, KS);
  for (let from = 0; from < DOCS.length; from += 20) await run(db, { insertMany: { documents: DOCS.slice(from, from + 20) } });
  await caughtUp(db);
  return { db, dir };
}

async function caughtUp(db: Database): Promise<void> {
  await (await db.collection('default_keyspace', 'docs').vectors())!.waitForIndex();
}

/** What a find with `projection: {_id: 1}` returns for `docs`, ranked by brute force. */
function bruteForce(docs: readonly JsonObject[], query: number[], k: number): JsonObject[] {
  return docs
    .filter((doc) => Array.isArray(doc.$vector))
    .map((doc) => ({ doc, s: dataApiSimilarity('cosine', doc.$vector as number[], query) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map(({ doc, s }) => {
      const { $vector: _, ...rest } = doc;
      return { ...rest, $similarity: s };
    });
}

const QUERIES = Array.from({ length: 6 }, (_, q) => vectorOf(1000 + q * 13));
/** 10 hits: read at once; 40: more than KvStore reads at once, read through LevelDB's threads. */
const LIMITS = [10, 40];

async function answers(db: Database): Promise<JsonObject[][]> {
  const out: JsonObject[][] = [];
  for (const query of QUERIES) {
    for (const limit of LIMITS) {
      const found = await run(db, { find: { sort: { $vector: query }, projection: { _id: 1 }, options: { limit, includeSimilarity: true, efSearch: 200 } } });
      out.push((found.data as JsonObject).documents as JsonObject[]);
    }
  }
  return out;
}

function expectRanked(got: JsonObject[][], docs: readonly JsonObject[]): void {
  let at = 0;
  for (const query of QUERIES) {
    for (const limit of LIMITS) {
      const want = bruteForce(docs, query, limit);
      const page = got[at++]!;
      expect(page.map((d) => d._id)).toEqual(want.map((d) => d._id));
      for (let i = 0; i < want.length; i++) {
        const { $similarity, ...rest } = page[i]!;
        const { $similarity: wanted, ...wantRest } = want[i]!;
        expect(rest).toEqual(wantRest);
        expect($similarity as number).toBeCloseTo(wanted as number, 5);
      }
    }
  }
}

describe('vector hits read from LevelDB (bodies not cached)', () => {
  it('are the nearest documents in order, as with the default caches, after writes and after reopening', async () => {
    const uncached = await seeded(0);
    const cached = await seeded();
    let docs = DOCS.map((doc) => ({ ...doc }));
    const check = async (): Promise<void> => {
      const got = await answers(uncached.db);
      expectRanked(got, docs);
      expect(got).toEqual(await answers(cached.db));
      expect(await answers(uncached.db)).toEqual(got); // again: nothing kept in between changes the answer
    };
    await check();

    const writes: JsonObject[] = [
      { updateOne: { filter: { _id: 'd3' }, update: { $set: { title: 'changed' } } } }, // same vector, same label
      { deleteOne: { filter: { _id: 'd5' } } },
      { findOneAndReplace: { filter: { _id: 'd8' }, replacement: { title: 'replaced', $vector: vectorOf(500) } } },
      { findOneAndReplace: { filter: { _id: 'd9' }, replacement: { title: 'no vector now' } } },
      { updateOne: { filter: { _id: 'd11' }, update: { $set: { $vector: vectorOf(700) } } } },
      { insertOne: { document: { _id: 'new', n: -1, title: 'inserted', $vector: vectorOf(1000) } } },
    ];
    for (const db of [uncached.db, cached.db]) for (const write of writes) await run(db, write);
    docs = docs.filter((doc) => doc._id !== 'd5');
    const at = (id: string) => docs.findIndex((doc) => doc._id === id);
    docs[at('d3')] = { ...docs[at('d3')]!, title: 'changed' };
    docs[at('d8')] = { _id: 'd8', title: 'replaced', $vector: vectorOf(500) };
    docs[at('d9')] = { _id: 'd9', title: 'no vector now' };
    docs[at('d11')] = { ...docs[at('d11')]!, $vector: vectorOf(700) };
    docs.push({ _id: 'new', n: -1, title: 'inserted', $vector: vectorOf(1000) });
    await caughtUp(uncached.db);
    await caughtUp(cached.db);
    await check();

    await uncached.db.close();
    uncached.db = await openDb(uncached.dir, 0);
    await caughtUp(uncached.db);
    await check();
  });

  it('a damaged body is DATABASE_CORRUPTED, whether the hits are read at once or not', async () => {
    const { db } = await seeded(0);
    const nearest = bruteForce(DOCS, QUERIES[0]!, 1)[0]!._id as string;
    let damaged = false;
    for await (const chunk of db.kvStore.rawEntryChunks({ gte: keys.docPrefix(1), lt: keys.docPrefix(1) + keys.HIGH })) {
      for (const [key, value] of chunk) {
        if (damaged || !key.endsWith(`s${nearest}`)) continue;
        const changed = Uint8Array.from(value);
        changed[changed.length - 2]! ^= 0x04;
        await db.kvStore.rawBatch([{ type: 'put', key, value: changed }]);
        damaged = true;
      }
    }
    expect(damaged).toBe(true);
    for (const limit of LIMITS) {
      const response = (await executeCommand(db, { find: { sort: { $vector: QUERIES[0]! }, options: { limit } } }, TARGET)) as unknown as JsonObject;
      expect((response.errors as JsonObject[] | undefined)?.[0]).toMatchObject({ errorCode: 'DATABASE_CORRUPTED' });
    }
  });
});

describe('KvStore.getManyNow', () => {
  const stores = async () => {
    const made = [await KvStore.open(tempDir()), await KvStore.open(tempDir(), 'memory')];
    opened.push(...made);
    return made;
  };
  const text = (value: Uint8Array | undefined) => (value === undefined ? undefined : bytesToString(value));

  it('answers as getMany does, at once, and sees every committed write', async () => {
    for (const kv of await stores()) {
      expect(kv.syncReads).toBe(true);
      await kv.batch([{ type: 'put', key: 'a', value: '1' }, { type: 'put', key: 'b', value: '2' }]);
      const now = kv.getManyNow(['a', 'x', 'b']);
      expect(Array.isArray(now)).toBe(true);
      expect(now!.map(text)).toEqual(['1', undefined, '2']);
      expect(now!.map(text)).toEqual((await kv.getMany(['a', 'x', 'b'])).map(text));
      expect(kv.getManyNow(['a'])!.map(text)).toEqual(['1']); // from the row cache now
      await kv.batch([{ type: 'put', key: 'a', value: '3' }, { type: 'del', key: 'b' }]);
      expect(kv.getManyNow(['a', 'b'])!.map(text)).toEqual(['3', undefined]);
      // Read without filling the row cache: still the latest value.
      expect(kv.getManyNow(['a'], { fillCache: false })!.map(text)).toEqual(['3']);
    }
  });

  it('leaves many keys to getMany (undefined)', async () => {
    const [kv] = await stores();
    const many = Array.from({ length: 100 }, (_, i) => `k${i}`);
    expect(kv!.getManyNow(many)).toBeUndefined();
  });
});
