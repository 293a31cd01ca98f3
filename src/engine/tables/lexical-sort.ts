/**
 * A table's lexical sort: the rows holding every token of the query (and matching the filter), best BM25 score
 * first (ties in row key order). The terms' postings in the text index (from memory when hot) give the
 * candidates and their scores, with the index's exact statistics (text-postings.ts, ranked by
 * engine/lexical-ranking.ts as a collection's are); then the rows are read in that order until `k` pass the
 * filter, or, for a filter naming a primary key or a partition, those rows are read and ranked. Nothing else
 * is read.
 */
import { queryTerms } from '../../query/analyzers.js';
import { rankTerms } from '../lexical-ranking.js';
import { matchOn, matchesRow, type TableFilter } from './filter.js';
import type { RowPlan } from './plan.js';
import type { TableRecord } from './schema.js';
import type { StoredRow, TableStore } from './store.js';
import type { TextIndex } from './text-postings.js';
import type { FoundRow } from './types.js';

export interface LexicalSortRequest {
  /** The sort column's text index, its statistics loaded. */
  readonly text: TextIndex;
  readonly store: TableStore;
  readonly record: TableRecord;
  readonly filter: TableFilter;
  readonly query: string;
  readonly k: number;
  /** The filter's read plan. */
  readonly plan: RowPlan;
  /** The rows of a plan that match a filter, in row key order (Table). */
  readonly matching: (filter: TableFilter, plan: RowPlan) => AsyncIterable<StoredRow>;
}

/** Rows read per round while the filter turns some down. */
const MIN_READ = 16;

export async function lexicalSort(request: LexicalSortRequest): Promise<FoundRow[]> {
  const { text, store, record, plan, k } = request;
  const terms = queryTerms(request.query, text.analyzer);
  if (terms.length === 0 || k <= 0) return [];
  const { ranking, mark } = await rankTerms(text.store, terms);
  // A row changed since its postings were read is checked again: the filter and every token.
  const match: TableFilter = { kind: 'condition', condition: matchOn(text.index.column, terms, text.analyzer) };
  const filter: TableFilter = { kind: 'all', parts: [request.filter, match] };
  if (plan.kind === 'key' || plan.kind === 'partition') {
    const rank = new Map(ranking.next(Infinity).map((hit, at) => [ranking.table.keyOf(hit.ordinal), at]));
    const found: { at: number; row: FoundRow }[] = [];
    for await (const row of request.matching(filter, plan)) {
      const at = rank.get(row.key);
      if (at !== undefined) found.push({ at, row });
    }
    return found
      .sort((a, b) => a.at - b.at)
      .slice(0, k)
      .map((hit) => hit.row);
  }
  const found: FoundRow[] = [];
  while (found.length < k) {
    const round = ranking.next(Math.max(MIN_READ, (k - found.length) * 2)).map((hit) => ranking.table.keyOf(hit.ordinal));
    if (round.length === 0) break;
    const rows = await store.getMany(round);
    // With no write seen since the postings were read, the rows hold the terms: only the filter is checked.
    const check = text.store.unchangedSince(mark) ? request.filter : filter;
    for (let i = 0; i < round.length && found.length < k; i++) {
      const row = rows[i];
      if (row && matchesRow(check, row, record)) found.push({ key: round[i]!, row });
    }
  }
  return found;
}
