/**
 * How a table read finds its candidate rows, in row key order (partitions in token order, tables/partition-token.ts): one key (the full primary key with $eq),
 * one partition's key range (every partition column with $eq, narrowed by leading clustering columns),
 * a secondary index's entries ($eq / $in on an indexed column, $in / $all on an indexed collection: the keys'
 * entries intersected, smallest first, for $all), a text index's postings for $match (the rows holding every
 * token, from memory when hot: engine/lexical-candidates.ts, as a collection's $match), or a scan of the table,
 * with the Data API's warnings when a filter makes it read every row.
 */
import { VectorDbError } from '../../errors/index.js';
import { keys } from '../../storage/index.js';
import { keysWithEveryTerm } from '../lexical-candidates.js';
import { filterColumns, isEmptyFilter, requiredConditions, type Condition, type TableFilter } from './filter.js';
import type { JsonObject } from '../../query/json.js';
import { primaryKeyColumns, type TableIndex, type TableRecord } from './schema.js';
import type { StoredRow, TableStore } from './store.js';
import type { TextIndex } from './text-postings.js';

export interface RowPlan {
  readonly kind: 'key' | 'partition' | 'index' | 'scan';
  /** Candidate rows (a superset of the matches) in row key order, strictly after `afterKey`. */
  rows(afterKey?: string): AsyncIterable<StoredRow>;
  readonly warnings: VectorDbError[];
}

/** A text index's postings with their statistics loaded (Table loads them under its write mutex). */
export type TextIndexOf = (index: TableIndex) => Promise<TextIndex>;

const READ_SLICE = 64;

export function planRows(filter: TableFilter, record: TableRecord, store: TableStore, textIndexOf: TextIndexOf): RowPlan {
  const warnings = planWarnings(filter, record);
  const required = requiredConditions(filter);
  // Each column's $eq operand in stored form: the row key (its token first) is computed from them.
  const equal: JsonObject = {};
  for (const c of required) if (c.operator === '$eq' && c.target === 'value' && !c.analysis && c.stored?.length && !Object.hasOwn(equal, c.column)) equal[c.column] = c.stored[0]!;
  const keyColumns = primaryKeyColumns(record);
  if (keyColumns.every((column) => Object.hasOwn(equal, column))) {
    const key = store.rowKeyOf(equal);
    return {
      kind: 'key',
      warnings,
      rows: async function* (afterKey) {
        if (afterKey !== undefined && keys.compareKeys(afterKey, key) >= 0) return;
        const row = await store.get(key);
        if (row) yield { key, row };
      },
    };
  }
  const { partitionBy } = record.primaryKey;
  if (partitionBy.every((column) => Object.hasOwn(equal, column))) {
    let leading = 0;
    while (leading < keyColumns.length && Object.hasOwn(equal, keyColumns[leading]!)) leading++;
    const range = store.prefixRange(equal, leading);
    return { kind: 'partition', warnings, rows: (afterKey) => store.scan(afterKey, range) };
  }
  for (const condition of required) {
    const index = record.indexes.find((i) => i.kind !== 'vector' && i.column === condition.column && usesIndex(condition, i));
    if (!index) continue;
    if (condition.operator === '$match') return { kind: 'index', warnings, rows: (afterKey) => matchRows(store, () => textIndexOf(index), condition.terms!, afterKey) };
    // $all needs every key: the rows in each key's entries; $in and $eq any of them.
    return { kind: 'index', warnings, rows: (afterKey) => indexRows(store, index, condition.keys, condition.operator === '$all', afterKey) };
  }
  return { kind: 'scan', warnings, rows: (afterKey) => store.scan(afterKey) };
}

function usesIndex(condition: Condition, index: TableIndex): boolean {
  if (condition.operator === '$match' || index.kind === 'text') return condition.operator === '$match' && index.kind === 'text';
  if (condition.target === 'value') return index.target === undefined && (condition.operator === '$eq' || condition.operator === '$in');
  return index.target === condition.target && (condition.operator === '$in' || condition.operator === '$all');
}

async function* indexRows(store: TableStore, index: TableIndex, values: readonly string[], every: boolean, afterKey: string | undefined): AsyncGenerator<StoredRow> {
  const lists = await Promise.all(values.map((value) => store.indexLookup(index, value)));
  const found = every ? intersection(lists) : new Set(lists.flat());
  yield* rowsOf(store, keys.sortKeys([...found]), afterKey);
}

/** The rows whose text in the index's column holds every term (the postings give their keys in row key order). */
async function* matchRows(store: TableStore, text: () => Promise<TextIndex>, terms: readonly string[], afterKey: string | undefined): AsyncGenerator<StoredRow> {
  yield* rowsOf(store, await keysWithEveryTerm((await text()).store, terms), afterKey);
}

/** The rows of `rowKeys` (in row key order) after `afterKey`, read a slice at a time; those gone are skipped. */
async function* rowsOf(store: TableStore, rowKeys: readonly string[], afterKey: string | undefined): AsyncGenerator<StoredRow> {
  const sorted = afterKey === undefined ? rowKeys : rowKeys.filter((key) => keys.compareKeys(key, afterKey) > 0);
  for (let i = 0; i < sorted.length; i += READ_SLICE) {
    const slice = sorted.slice(i, i + READ_SLICE);
    const rows = await store.getMany(slice);
    for (let j = 0; j < slice.length; j++) if (rows[j]) yield { key: slice[j]!, row: rows[j]! };
  }
}

/** The row keys in every list: the smallest list's keys, kept while each next-larger list has them. */
function intersection(lists: readonly (readonly string[])[]): Set<string> {
  const [smallest, ...others] = [...lists].sort((a, b) => a.length - b.length);
  let found = new Set(smallest ?? []);
  for (const list of others) {
    if (found.size === 0) break;
    const next = new Set<string>();
    for (const key of list) if (found.has(key)) next.add(key);
    found = next;
  }
  return found;
}

/** ZERO_FILTER_OPERATIONS for an empty filter; MISSING_INDEX for columns neither in the primary key nor indexed. */
function planWarnings(filter: TableFilter, record: TableRecord): VectorDbError[] {
  const primaryKey = `(${primaryKeyColumns(record).join(', ')})`;
  const indexedColumns = record.indexes.filter((i) => i.kind !== 'vector').map((i) => i.column);
  const indexed = indexedColumns.join(', ') || '(none)';
  if (isEmptyFilter(filter)) return [VectorDbError.warning('ZERO_FILTER_OPERATIONS', { keyspace: record.keyspace, table: record.name, primaryKey, indexedColumns: indexed })];
  const keyColumns = new Set(primaryKeyColumns(record));
  const unindexed = filterColumns(filter).filter((column) => !keyColumns.has(column) && !indexedColumns.includes(column));
  if (unindexed.length === 0) return [];
  return [VectorDbError.warning('MISSING_INDEX', { keyspace: record.keyspace, table: record.name, primaryKey, indexedColumns: indexed, unindexedFilters: unindexed.join(', ') })];
}
