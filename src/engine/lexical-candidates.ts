/**
 * A `$match` filter's candidates, for both wings (a collection's `{"$lexical": {"$match": text}}`, a table's
 * `{column: {"$match": text}}` on its text index): the keys of the documents (rows) holding every analyzed
 * term (the terms' postings intersected, smallest first), in key order, the order an unsorted read pages by.
 * Reads the terms' postings only, from memory when hot (the postings BM25 ranking keeps: lexical-postings.ts);
 * the planner narrows them by the rest of the filter, and every candidate is still checked against the whole
 * filter when it is read (a write racing the read can only add candidates to check).
 */
import { forEachInEvery } from './lexical-postings.js';
import type { LexicalStore } from './lexical-store.js';

/** The keys of the documents (rows) holding every term (none for no term: an empty match matches nothing). */
export async function keysWithEveryTerm(store: LexicalStore, terms: readonly string[]): Promise<string[]> {
  if (terms.length === 0) return [];
  const { lists } = await store.everyTermPostings(terms);
  let walked = -1;
  const held = new Uint8Array(Math.min(...lists.map((list) => list.ordinals.length)));
  forEachInEvery(lists, (at, smallest) => {
    walked = smallest;
    held[at[smallest]!] = 1;
  });
  if (walked < 0) return [];
  // Postings are ascending by ordinal; the keys' order is their order as LevelDB lists them (byKey).
  const { table, ordinals, byKey } = lists[walked]!;
  const found: string[] = [];
  for (let i = 0; i < ordinals.length; i++) {
    const p = byKey === undefined ? i : byKey[i]!;
    if (held[p] === 1) found.push(table.keyOf(ordinals[p]!));
  }
  return found;
}
