/**
 * Row reads on a table: find (paging, projection, sort on columns, vector sort on a vector column with
 * includeSimilarity / includeSortVector, lexical sort on a text-indexed column) and findOne, each with the
 * projectionSchema of what it returns and the Data API's warnings when the filter reads the whole table.
 */
import { VectorDbError, describeValue } from '../errors/index.js';
import type { RowSort, Table } from '../engine/tables/table.js';
import { parseTableFilter } from '../engine/tables/filter.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';
import { decodeVector, queryVectorArray } from '../query/vector-value.js';
import { CommandBody, invalid, type Options } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';
import { projectedColumns, projectionSchema, rowToWire } from './table-wire.js';
import { vectorizeRowSort } from './table-vectorize.js';

function parseRowSort(table: Table, raw: JsonValue | undefined): RowSort {
  if (raw === undefined || (isObject(raw) && Object.keys(raw).length === 0)) return { kind: 'none' };
  if (!isObject(raw)) throw VectorDbError.of('SORT_CLAUSE_INVALID', { reason: `the sort must be an object, got ${describeValue(raw)}` });
  const record = table.record;
  const entries = Object.entries(raw);
  const columns: [string, 1 | -1][] = [];
  for (const [column, value] of entries) {
    if (column === '$vectorize') throw VectorDbError.of('VECTORIZE_FEATURE_NOT_AVAILABLE');
    const type = record.columns[column];
    if (!type) throw VectorDbError.of('UNKNOWN_TABLE_COLUMNS', { keyspace: record.keyspace, table: record.name, unknownColumns: column, allColumns: Object.keys(record.columns).join(', ') });
    if (type.type === 'vector') {
      if (entries.length > 1) throw VectorDbError.of('SORT_CLAUSE_INVALID', { reason: 'a vector sort cannot be combined with other sort columns' });
      const decoded = decodeVector(value, queryVectorArray);
      if (!decoded) throw VectorDbError.of('SORT_CLAUSE_INVALID', { reason: `the vector sort on '${column}' needs an array of numbers or a $binary vector` });
      if (decoded.values.length !== type.dimension) {
        throw VectorDbError.of('INVALID_VECTOR_LENGTH', { actual: decoded.values.length, expected: type.dimension, collection: `${record.name}.${column}` });
      }
      return { kind: 'vector', column, vector: decoded.values };
    }
    if (typeof value === 'string') {
      // A lexical sort: the column's text index ranks the rows holding the text's tokens (BM25).
      if (!record.indexes.some((i) => i.kind === 'text' && i.column === column)) {
        const indexedColumns = record.indexes.filter((i) => i.kind === 'text').map((i) => i.column).join(', ') || '(none)';
        throw VectorDbError.of('CANNOT_LEXICAL_SORT_NON_INDEXED_COLUMNS', { keyspace: record.keyspace, table: record.name, indexedColumns, sortColumn: column });
      }
      if (entries.length > 1) {
        throw VectorDbError.of('CANNOT_SORT_ON_SPECIAL_WITH_OTHERS', { lexicalColumns: entries.filter(([, v]) => typeof v === 'string').map(([c]) => c).join(', '), regularColumns: entries.filter(([, v]) => typeof v !== 'string').map(([c]) => c).join(', ') || '[None]' });
      }
      return { kind: 'lexical', column, query: value };
    }
    if (value !== 1 && value !== -1) throw VectorDbError.of('SORT_CLAUSE_VALUE_INVALID', { path: column });
    columns.push([column, value]);
  }
  return { kind: 'columns', columns };
}

function readOptions(options: Options) {
  return {
    includeSimilarity: options.boolean('includeSimilarity', false),
    includeSortVector: options.boolean('includeSortVector', false),
  };
}

function sortVectorStatus(sort: RowSort, include: boolean): JsonObject {
  return include ? { sortVector: sort.kind === 'vector' ? Array.from(sort.vector) : null } : {};
}

const find: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('find', raw, ['filter', 'projection', 'sort', 'options']);
  const options = body.options(['limit', 'skip', 'pageState', 'pagingState', 'includeSimilarity', 'includeSortVector']);
  const table = ctx.table();
  const filter = parseTableFilter(body.get('filter'), table.record, table.types);
  const sort = parseRowSort(table, await vectorizeRowSort(ctx, table, body.get('sort')));
  const columns = projectedColumns(table, body.get('projection'));
  const limit = options.integer('limit', 1, 'limit should be greater than `0`');
  const skip = options.integer('skip', 0, 'skip should be greater than or equal to `0`');
  const pageState = options.string('pageState') ?? options.string('pagingState');
  const { includeSimilarity, includeSortVector } = readOptions(options);
  if (skip !== undefined && sort.kind === 'lexical') throw VectorDbError.of('CANNOT_LEXICAL_SORT_WITH_SKIP_OPTION');
  if (skip !== undefined && sort.kind !== 'columns') throw invalid('options.skip', skip, 'skip options should be used with a sort clause on columns');
  if ((sort.kind === 'vector' || sort.kind === 'lexical') && limit !== undefined && limit > table.limits.maxVectorSearchLimit) {
    throw invalid('options.limit', limit, `limit options should not be greater than ${table.limits.maxVectorSearchLimit} for vector search`);
  }
  if (pageState && sort.kind !== 'none') throw VectorDbError.of('SORT_CLAUSE_INVALID', { reason: "'pageState' is not supported with non-empty sort clause" });
  const withSimilarity = includeSimilarity && sort.kind === 'vector';
  const page = await table.select({ filter, sort, limit, skip, pageState: pageState || undefined, withSimilarity });
  return {
    data: { documents: page.rows.map((found) => rowToWire(table, found.row, columns, withSimilarity ? found.similarity : undefined)), nextPageState: page.nextPageState },
    status: { projectionSchema: projectionSchema(table, columns, withSimilarity), ...sortVectorStatus(sort, includeSortVector) },
    warnings: page.warnings,
  };
};

const findOne: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('findOne', raw, ['filter', 'projection', 'sort', 'options']);
  const options = body.options(['includeSimilarity', 'includeSortVector']);
  const table = ctx.table();
  const filter = parseTableFilter(body.get('filter'), table.record, table.types);
  const sort = parseRowSort(table, await vectorizeRowSort(ctx, table, body.get('sort')));
  const columns = projectedColumns(table, body.get('projection'));
  const { includeSimilarity, includeSortVector } = readOptions(options);
  const withSimilarity = includeSimilarity && sort.kind === 'vector';
  const page = await table.select({ filter, sort, limit: 1, withSimilarity });
  const found = page.rows[0];
  return {
    data: { document: found ? rowToWire(table, found.row, columns, withSimilarity ? found.similarity : undefined) : null },
    status: { projectionSchema: projectionSchema(table, columns, withSimilarity), ...sortVectorStatus(sort, includeSortVector) },
    warnings: page.warnings,
  };
};

export const TABLE_READ_COMMANDS: Record<string, CommandSpec> = {
  find: { level: 'collection', run: find },
  findOne: { level: 'collection', run: findOne },
};
