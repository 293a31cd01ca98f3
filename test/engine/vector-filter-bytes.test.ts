/**
 * A repeated one-equality filter on native-rows (vector-select.ts equalityLabels, postings.ts equalNow,
 * slot-filter.ts SlotBytes): the graph's byte filter is made once and kept while neither the filter's
 * postings entry nor the graph's slots change, and made again after each write that changes either: an
 * update moving a hit out of the category, an insert into it (pending, then in the graph), a delete. The
 * answers match the exact filtered top 10 throughout. A range's candidates (the planner's, cached until the
 * next write) keep theirs too. Real LevelDB in a temp dir; a few seconds.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { HnswSlotTable } from '../../src/vector-index/hnsw-slots.js';
import { nativeRowsAvailable } from '../../src/vector-index/native-rows-backend.js';
import { tempDir } from '../support/temp.js';
import { clustered, naiveTopK, row } from '../vector-index/data.js';

const DIM = 16;
const N = 6000;
const K = 10;
/** Half the collection: past the exact scan's reach at this ef (rank.ts filterStrategy), so the graph reads bytes. */
const EF = 64;
const ALL = clustered(17, N + 1, DIM, 12, 0.3);
const vectorOf = (i: number): number[] => Array.from(row(ALL, i, DIM));
const QUERY = row(ALL, N, DIM);

const open: VectorDB[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of open.splice(0)) await db.close().catch(() => undefined);
});

async function loaded() {
  const db = new VectorDB('test-token', tempDir(), undefined, { vectorBackend: 'native-rows', limits: { maxInsertManyDocuments: 1000 } });
  await db.connect();
  open.push(db);
  const collection = await db.createCollection({ name: 'c', options: { vector: { dimension: DIM, metric: 'euclidean' } } });
  await collection.insertMany(Array.from({ length: N }, (_, i) => ({ _id: i, cat: i % 2, $vector: vectorOf(i) })), { chunkSize: 1000 });
  await collection.waitForIndex();
  return collection;
}

describe.skipIf(!nativeRowsAvailable())('a repeated filter\'s byte filter', () => {
  it('is made once while nothing changes, again after each write that does, and answers the exact top 10', async () => {
    const collection = await loaded();

    // The exact answer over the documents as they are: id -> [cat, vector].
    const docs = new Map<number | string, [number, number[]]>(Array.from({ length: N }, (_, i) => [i, [i % 2, vectorOf(i)]]));
    const exact = (): (number | string)[] => {
      const ids = [...docs.keys()].filter((id) => docs.get(id)![0] === 1);
      const data = Float32Array.from(ids.flatMap((id) => docs.get(id)![1]));
      return naiveTopK('euclidean', QUERY, data, DIM, ids.map((_, i) => i), K).map((hit) => ids[hit.label]!);
    };
    const marks = vi.spyOn(HnswSlotTable.prototype, 'markSlots');
    const search = async (): Promise<(number | string)[]> => (await collection.findVector(QUERY, { filter: { cat: 1 }, limit: K, efSearch: EF, projection: { _id: 1 } })).map((d) => d._id as number | string);

    const first = await search();
    expect(first).toEqual(exact());
    expect(marks).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) expect(await search()).toEqual(first);
    expect(marks).toHaveBeenCalledTimes(1);

    // The nearest leaves the category: its postings entry changes.
    await collection.updateOne({ _id: first[0] }, { $set: { cat: 0 } });
    docs.get(first[0] as number)![0] = 0;
    const afterUpdate = await search();
    expect(afterUpdate).not.toContain(first[0]);
    expect(afterUpdate).toEqual(exact());
    expect(marks).toHaveBeenCalledTimes(2);
    expect(await search()).toEqual(afterUpdate);
    expect(marks).toHaveBeenCalledTimes(2);

    // A new document on the query joins it: first while pending (scanned), then from the graph.
    await collection.insertOne({ _id: 'new', cat: 1, $vector: Array.from(QUERY) });
    docs.set('new', [1, Array.from(QUERY)]);
    expect((await search())[0]).toBe('new');
    await collection.waitForIndex();
    const indexed = await search();
    expect(indexed).toEqual(exact());
    expect(indexed[0]).toBe('new');

    // A delete.
    const marked = marks.mock.calls.length;
    await collection.deleteOne({ _id: indexed[1] });
    docs.delete(indexed[1] as number);
    const afterDelete = await search();
    expect(afterDelete).not.toContain(indexed[1]);
    expect(afterDelete).toEqual(exact());
    expect(marks.mock.calls.length).toBeGreaterThan(marked);
  });

  it('is kept for a range\'s cached candidates until a write', async () => {
    const collection = await loaded();
    const marks = vi.spyOn(HnswSlotTable.prototype, 'markSlots');
    const search = async (): Promise<(number | string)[]> => (await collection.findVector(QUERY, { filter: { cat: { $gte: 1 } }, limit: K, efSearch: EF, projection: { _id: 1 } })).map((d) => d._id as number | string);
    const first = await search();
    for (let i = 0; i < 3; i++) expect(await search()).toEqual(first);
    expect(marks).toHaveBeenCalledTimes(1);
    await collection.updateOne({ _id: first[0] }, { $set: { cat: 0 } });
    const after = await search();
    expect(after).not.toContain(first[0]);
    expect(after.slice(0, K - 1)).toEqual(first.slice(1));
    expect(marks).toHaveBeenCalledTimes(2);
  });
});
