/**
 * The collection find's shared suites page, filter and sort over (find.ts, find-clauses.ts): 45 people
 * doc-000..doc-044 with a few typed fields, and the calls those suites make on it.
 */
import { expect } from 'vitest';
import { type Doc, type SuiteDb, createCollection, expectNoErrors, findAll, idTexts, idsOf, insertAll, makeDocs, onCollection, padId } from './helpers.js';

export interface FindData {
  documents: Doc[];
  nextPageState: string | null;
}

/** 45 documents doc-000..doc-044 with a few typed fields to filter and sort on. */
export const PEOPLE = makeDocs(45, (i) => ({
  _id: padId('doc', i),
  n: i,
  parity: i % 2 === 0 ? 'even' : 'odd',
  group: i % 3,
  tags: i % 5 === 0 ? ['five', 'x'] : ['x'],
  address: { city: i < 10 ? 'Paris' : 'Oslo', zip: String(1000 + i) },
  ...(i % 4 === 0 ? { optional: i } : {}),
}));

/** The ids of the people `pred` picks, in key order (what a filter's find returns). */
export const byN = (pred: (d: Doc) => boolean): string[] => idTexts(PEOPLE.filter(pred).map((d) => d._id));

/** The calls on the `people` collection of the suite's database. */
export function peopleCalls(ctx: SuiteDb) {
  const find = (body: Doc = {}) => onCollection(ctx.db, 'people', { find: body });
  /** One page of a find that must succeed, its envelope checked: `{data: {documents, nextPageState}}` and nothing else. */
  const page = async (body: Doc = {}): Promise<FindData> => {
    const response = expectNoErrors(await find(body));
    expect(Object.keys(response)).toEqual(['data']);
    const data = response.data as FindData;
    expect(Object.keys(data).sort()).toEqual(['documents', 'nextPageState']);
    return data;
  };
  /** Creates `people` and inserts PEOPLE. */
  const seed = async (): Promise<void> => {
    await createCollection(ctx.db, 'people');
    await insertAll(ctx.db, 'people', PEOPLE);
  };
  /** The ids every page of a filtered find returns. */
  const ids = async (filter: Doc): Promise<string[]> => idsOf(await findAll(ctx.db, 'people', { filter }));
  return { find, page, seed, ids };
}
