/**
 * A `{"$lexical": {"$match": text}}` filter's candidates from the collection's inverted index: the documents
 * holding every analyzed term (the terms' postings intersected, smallest first), in key order, the order an
 * unsorted read pages by. Reads the terms' postings only; the planner narrows them by the rest of the filter,
 * and every candidate is still checked against the whole filter when it is read.
 */
import type { LexicalIndex } from './lexical-index.js';

/** The keys of the documents holding every term (none for no term: an empty match matches nothing). */
export async function documentsWithEveryTerm(index: LexicalIndex, terms: readonly string[]): Promise<string[]> {
  if (terms.length === 0) return [];
  const lists = await Promise.all(terms.map((term) => index.postings(term)));
  lists.sort((a, b) => a.size - b.size);
  const [smallest, ...others] = lists;
  const found: string[] = [];
  // A term's postings are read in LevelDB order, which is the documents' key order.
  for (const key of smallest!.keys()) if (others.every((list) => list.has(key))) found.push(key);
  return found;
}
