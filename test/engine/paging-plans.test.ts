/**
 * Reads of a page of matches (find pages, countDocuments, deleteMany, updateMany) choose between the
 * planner's candidates, one equality clause's index runs read in key order, and a scan. Whichever serves
 * each page, the pages together are exactly the matches, in storage order, with none twice, also while
 * writes happen between pages and when ids sort differently in JavaScript than in LevelDB.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { DocumentStore } from '../../src/engine/collections/document-store.js';
import { parseFilter } from '../../src/query/filter.js';
import type { JsonObject, JsonValue } from '../../src/query/json.js';
import { compareKeys } from '../../src/storage/keys.js';
import { KvStore } from '../../src/storage/kv-store.js';
import { tempDir } from '../support/temp.js';

const KS = { keyspace: 'default_keyspace' };
const TARGET = { ...KS, collection: 'c' };
/** More matches than the planner collects for a page (1,000) when an equality gives index runs. */
const N = 1500;
let db: Database;

/** Ids of every kind: numbers sort before strings, and U+E000 before an emoji in LevelDB but not in JS. */
function idOf(i: number): JsonValue {
  if (i % 5 === 0) return i;
  if (i % 7 === 0) return `\uE000${String(i).padStart(4, '0')}`;
  if (i % 11 === 0) return `\u{1F600}${String(i).padStart(4, '0')}`;
  return `id${String(i).padStart(4, '0')}`;
}

function docOf(i: number): JsonObject {
  return { _id: idOf(i), g: i % 10 < 7 ? 'a' : 'b', tags: i % 2 === 0 ? ['x', 'y'] : ['y'], n: i };
}

async function insert(docs: JsonObject[]): Promise<void> {
  for (let i = 0; i < docs.length; i += 100) {
    const r = await executeCommand(db, { insertMany: { documents: docs.slice(i, i + 100) } }, TARGET);
    expect(r.errors).toBeUndefined();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

beforeEach(async () => {
  db = await Database.open(tempDir(), { limits: { maxInsertManyDocuments: 100 } });
  await executeCommand(db, { createCollection: { name: 'c' } }, KS);
  await insert(Array.from({ length: N }, (_, i) => docOf(i)));
  return () => db.close();
});

/** The ids of the stored documents matching the filter, in storage (LevelDB key) order. */
async function truth(filter: JsonObject): Promise<JsonValue[]> {
  const collection = db.collection('default_keyspace', 'c');
  const parsed = parseFilter(filter, { isIndexed: collection.isIndexed });
  const store = new DocumentStore(db.kvStore, collection.record.cid);
  const ids: JsonValue[] = [];
  for await (const stored of store.scan()) if (parsed.matches(stored.doc)) ids.push(stored.doc._id!);
  return ids;
}

async function page(filter: JsonObject, pageState?: string): Promise<{ ids: JsonValue[]; next: string | null }> {
  const r = await executeCommand(db, { find: { filter, options: pageState ? { pageState } : {} } }, TARGET);
  expect(r.errors).toBeUndefined();
  const data = r.data as { documents: JsonObject[]; nextPageState: string | null };
  return { ids: data.documents.map((d) => d._id!), next: data.nextPageState };
}

async function allPages(filter: JsonObject, between?: (pageNumber: number) => Promise<void>): Promise<JsonValue[]> {
  const ids: JsonValue[] = [];
  let state: string | undefined;
  for (let n = 0; ; n++) {
    const { ids: got, next } = await page(filter, state);
    ids.push(...got);
    if (next === null) return ids;
    state = next;
    await between?.(n);
  }
}

describe('pages of matches', () => {
  const cases: [string, JsonObject][] = [
    ['an equality with 1,050 matches (index runs)', { g: 'a' }],
    ['an $in whose values share documents (runs merged without repeats)', { tags: { $in: ['x', 'y'] } }],
    ['an equality and a range (runs, the range decided per document)', { g: 'a', n: { $gte: 300, $lt: 1400 } }],
    ['a range with 1,400 matches (the planner keys)', { n: { $gte: 100 } }],
    ['a clause no index narrows (a scan)', { n: { $ne: 5 } }],
    ['a narrow range (the planner keys)', { n: { $gte: 100, $lt: 160 } }],
  ];
  for (const [name, filter] of cases) {
    it(`${name}: every match once, in storage order`, async () => {
      const expected = await truth(filter);
      expect(expected.length).toBeGreaterThan(20);
      expect(await allPages(filter)).toEqual(expected);
    });
  }

  it('a page of a broad equality reads its index runs, a page of $ne scans', async () => {
    const runs = vi.spyOn(DocumentStore.prototype, 'indexRunKeys');
    const scan = vi.spyOn(DocumentStore.prototype, 'scan');
    await page({ g: 'a' });
    expect(runs).toHaveBeenCalledTimes(1);
    expect(scan).not.toHaveBeenCalled();
    await page({ n: { $ne: 5 } });
    expect(runs).toHaveBeenCalledTimes(1);
    expect(scan).toHaveBeenCalledTimes(1);
  });

  it('a $in page reads its runs as of one moment: a document moving between two of its values is found', async () => {
    await insert([{ _id: 'mover', tags: ['B'] }]);
    // The second run's read starts only after the document moved from B to A (the first run was read before).
    const keysOf = KvStore.prototype.keys;
    let calls = 0;
    vi.spyOn(KvStore.prototype, 'keys').mockImplementation(function (this: KvStore, ...args: Parameters<KvStore['keys']>) {
      calls++;
      if (calls !== 2) return keysOf.apply(this, args);
      const store = this;
      return (async function* () {
        await executeCommand(db, { updateOne: { filter: { _id: 'mover' }, update: { $set: { tags: ['A'] } } } }, TARGET);
        yield* keysOf.apply(store, args);
      })();
    });
    const { ids } = await page({ tags: { $in: ['A', 'B'] } });
    expect(calls).toBe(2);
    expect(ids).toEqual(['mover']);
  });

  it('storage order is LevelDB key order: the ids in U+E000 come before the emoji ones', async () => {
    const ids = await allPages({ g: 'a' });
    const first = (prefix: string) => ids.findIndex((id) => typeof id === 'string' && id.startsWith(prefix));
    expect(first('\uE000')).toBeGreaterThan(0);
    expect(first('\uE000')).toBeLessThan(first('\u{1F600}'));
    expect(compareKeys('s\uE000', 's\u{1F600}')).toBeLessThan(0);
    expect(compareKeys('s\u{1F600}', 's\uE000')).toBeGreaterThan(0);
  });

  it('resumes exactly when the next page is served another way (runs, then the planner keys)', async () => {
    // Page one ends among the U+E000 ids, read from the index runs (1,050 matches); deletes then leave
    // few enough candidates for the planner, whose keys must be ordered and compared as LevelDB orders them.
    await executeCommand(db, { deleteMany: { filter: { g: 'a', n: { $lt: 300 } } } }, TARGET);
    const e000 = Array.from({ length: 1100 }, (_, i) => ({ _id: `\uE000x${String(i).padStart(4, '0')}`, g: 'c', n: i }));
    const emoji = Array.from({ length: 40 }, (_, i) => ({ _id: `\u{1F600}x${String(i).padStart(4, '0')}`, g: 'c', n: i }));
    await insert([...e000, ...emoji]);
    const filter = { g: 'c' };
    const first = await page(filter);
    expect(first.next).not.toBeNull();
    // 200 of the U+E000 documents go: 940 candidates remain, under the planner's 1,000.
    for (let i = 0; i < 10; i++) await executeCommand(db, { deleteMany: { filter: { g: 'c', n: { $gte: 900, $lt: 1100 } } } }, TARGET);
    const rest: JsonValue[] = [];
    let state: string | null = first.next;
    while (state !== null) {
      const next = await page(filter, state);
      rest.push(...next.ids);
      state = next.next;
    }
    const expected = (await truth(filter)).filter((id) => !first.ids.includes(id));
    expect(rest).toEqual(expected);
    expect(rest.filter((id) => String(id).startsWith('\u{1F600}'))).toHaveLength(40);
  });

  it('writes between pages: later inserts are read, deleted documents are not, none twice', async () => {
    const filter = { g: 'a' };
    const seen: JsonValue[] = [];
    let state: string | undefined;
    let added = 0;
    for (let n = 0; ; n++) {
      const { ids, next } = await page(filter, state);
      seen.push(...ids);
      if (next === null) break;
      state = next;
      if (n % 5 === 0) {
        // One new match sorting first (already passed), one sorting last (still ahead), one match deleted ahead.
        await insert([{ _id: -1000 - n, g: 'a' }, { _id: `\u{1F9FF}${String(n).padStart(4, '0')}`, g: 'a' }]);
        added++;
        const ahead = (await truth(filter)).filter((id) => !seen.includes(id) && typeof id === 'string' && id.startsWith('id'));
        if (ahead.length > 0) await executeCommand(db, { deleteOne: { filter: { _id: ahead.at(-1)! } } }, TARGET);
      }
    }
    expect(new Set(seen.map((id) => JSON.stringify(id))).size).toBe(seen.length);
    const now = await truth(filter);
    expect(seen.filter((id) => typeof id === 'string' && id.startsWith('\u{1F9FF}'))).toHaveLength(added);
    expect(seen.filter((id) => typeof id === 'number' && id <= -1000)).toHaveLength(0);
    // Every match that is still stored and sorts after the first page's start was read.
    for (const id of now) if (!(typeof id === 'number' && id <= -1000)) expect(seen).toContainEqual(id);
  });
});

describe('counting, deleting and updating through the same reads', () => {
  it('countDocuments over 1,000 matches stops at the cap; under it counts exactly', async () => {
    expect((await executeCommand(db, { countDocuments: { filter: { g: 'a' } } }, TARGET)).status).toEqual({ count: 1000, moreData: true });
    const b = (await truth({ g: 'b' })).length;
    expect((await executeCommand(db, { countDocuments: { filter: { g: 'b' } } }, TARGET)).status).toEqual({ count: b });
    const xy = (await truth({ tags: { $in: ['x', 'y'] }, g: 'b' })).length;
    expect((await executeCommand(db, { countDocuments: { filter: { tags: { $in: ['x', 'y'] }, g: 'b' } } }, TARGET)).status).toEqual({ count: xy });
  });

  it('deleteMany takes 20 matches per request until none is left', async () => {
    const before = (await truth({ g: 'a' })).length;
    let deleted = 0;
    for (let requests = 0; ; requests++) {
      expect(requests).toBeLessThan(100);
      const r = await executeCommand(db, { deleteMany: { filter: { g: 'a' } } }, TARGET);
      const status = r.status as { deletedCount: number; moreData?: boolean };
      deleted += status.deletedCount;
      if (!status.moreData) break;
      expect(status.deletedCount).toBe(20);
    }
    expect(deleted).toBe(before);
    expect(await truth({ g: 'a' })).toEqual([]);
    expect((await truth({ g: 'b' })).length).toBe(N - before);
  });

  it('updateMany pages through every match once', async () => {
    const expected = (await truth({ g: 'a' })).length;
    let modified = 0;
    let pageState: string | undefined;
    do {
      const r = await executeCommand(db, { updateMany: { filter: { g: 'a' }, update: { $inc: { hits: 1 } }, options: pageState ? { pageState } : {} } }, TARGET);
      const status = r.status as { modifiedCount: number; nextPageState?: string };
      modified += status.modifiedCount;
      pageState = status.nextPageState;
    } while (pageState !== undefined);
    expect(modified).toBe(expected);
    expect((await truth({ hits: 1 })).length).toBe(expected);
    expect(await truth({ hits: { $gt: 1 } })).toEqual([]);
  });
});
