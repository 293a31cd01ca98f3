/**
 * find, findOne, countDocuments and estimatedDocumentCount: option rules of the Data API (limit, skip
 * only with a regular sort, no pageState with a sort, vector search limits), projection of the results,
 * `$similarity` and `status.sortVector`.
 */
import { VectorDbError } from '../errors/index.js';
import type { FoundDocument } from '../engine/collections/collection.js';
import { copyNestedValues, type JsonObject, type JsonValue } from '../query/json.js';
import type { Projection } from '../query/projection.js';
import type { SortSpec } from '../query/sort.js';
import { INDEX_OPTION_BOUNDS } from '../engine/collections/schema.js';
import { CommandBody, invalid, type Options } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';
import { QueryParts } from './query-parts.js';

const FIND_FIELDS: readonly string[] = ['filter', 'projection', 'sort', 'options'];
/** `efSearch` is ours (not the Data API's): a vector search's HNSW candidate list size for this query. */
const FIND_OPTIONS: readonly string[] = ['limit', 'skip', 'pageState', 'pagingState', 'includeSimilarity', 'includeSortVector', 'efSearch'];

const find: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('find', raw, FIND_FIELDS);
  const options = body.options(FIND_OPTIONS);
  const collection = ctx.collection();
  const parts = new QueryParts(ctx, collection, body);
  const filter = parts.filter();
  const sorting = parts.sort();
  const sort = sorting instanceof Promise ? await sorting : sorting; // awaited only for a `$vectorize` sort
  const projection = parts.projection();
  const limit = options.integer('limit', 1, 'limit should be greater than `0`');
  const skip = options.integer('skip', 0, 'skip should be greater than or equal to `0`');
  const pageState = options.string('pageState') ?? options.string('pagingState');
  const includeSimilarity = options.boolean('includeSimilarity', false);
  const includeSortVector = options.boolean('includeSortVector', false);
  const efSearch = efSearchOption(options, sort);
  if (skip !== undefined && sort.kind === 'none') throw invalid('options.skip', skip, 'skip options should be used with sort clause');
  if (sort.kind === 'vector') {
    if (skip !== undefined) throw invalid('options.skip', skip, 'skip options should not be used with vector search');
    const max = collection.limits.maxVectorSearchLimit;
    if (limit !== undefined && limit > max) throw invalid('options.limit', limit, `limit options should not be greater than ${max} for vector search`);
  }
  if (sort.kind === 'lexical' && skip !== undefined) throw invalid('options.skip', skip, 'skip options should not be used with lexical sort');
  if (pageState && sort.kind !== 'none') {
    throw VectorDbError.of('SORT_CLAUSE_INVALID', { reason: "'pageState' is not supported with non-empty sort clause" });
  }
  const withSimilarity = includeSimilarity && sort.kind === 'vector';
  const shared = sharedRead(sort, projection);
  // Named properties, not spreads: this runs for every find, and spreads into a literal go through the runtime.
  const withVector = projection.includesVector;
  const result = await collection.select({ filter, sort, limit, skip, pageState: pageState || undefined, withVector, efSearch, shared, withSimilarity });
  const documents = new Array<JsonObject>(result.documents.length);
  for (let i = 0; i < documents.length; i++) documents[i] = projectRead(result.documents[i]!, projection, withSimilarity, shared);
  const data = { documents, nextPageState: result.nextPageState };
  return includeSortVector ? { data, status: { sortVector: sortVectorOf(sort) } } : { data };
};

const findOne: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('findOne', raw, ['filter', 'projection', 'sort', 'options']);
  const options = body.options(['includeSimilarity', 'includeSortVector', 'efSearch']);
  const parts = new QueryParts(ctx, ctx.collection(), body);
  const filter = parts.filter();
  const sort = await parts.sort();
  const projection = parts.projection();
  const includeSimilarity = options.boolean('includeSimilarity', false);
  const includeSortVector = options.boolean('includeSortVector', false);
  const efSearch = efSearchOption(options, sort);
  const withSimilarity = includeSimilarity && sort.kind === 'vector';
  const shared = sharedRead(sort, projection);
  const found = await ctx.collection().selectOne(filter, sort, { withVector: projection.includesVector, efSearch, shared, withSimilarity });
  return {
    data: { document: found === null ? null : projectRead(found, projection, withSimilarity, shared) },
    ...(includeSortVector ? { status: { sortVector: sortVectorOf(sort) } } : {}),
  };
};

const countDocuments: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('countDocuments', raw, ['filter', 'options']);
  body.noOptions();
  const collection = ctx.collection();
  const { count, moreData } = await collection.countDocuments(new QueryParts(ctx, collection, body).filter());
  const status: JsonObject = { count };
  if (moreData) status.moreData = true;
  return { status };
};

const estimatedDocumentCount: CommandHandler = async (raw, ctx) => {
  new CommandBody('estimatedDocumentCount', raw, ['options']).noOptions();
  return { status: { count: await ctx.collection().estimatedDocumentCount() } };
};

/** Applies the projection; `$similarity` goes last when asked for on a vector search. */
export function project(found: FoundDocument, projection: Projection, withSimilarity: boolean): JsonObject {
  return projection.apply(found.doc, withSimilarity ? found.similarity : undefined);
}

/**
 * Whether to read with `shared: true`: only a vector search's documents without `$vector` can be its cached
 * bodies (others are read fresh, or copied to restore `$vector`), so only those need their own copy here.
 */
function sharedRead(sort: SortSpec, projection: Projection): boolean {
  return sort.kind === 'vector' && !projection.includesVector;
}

/** `project`; for documents read with `shared: true` (maybe the store's cached bodies) the output gets its own values. */
function projectRead(found: FoundDocument, projection: Projection, withSimilarity: boolean, shared: boolean): JsonObject {
  const projected = project(found, projection, withSimilarity);
  return shared ? copyNestedValues(projected) : projected;
}

/** find's `options.efSearch`: an integer within the collection knob's range, and only with a `$vector` sort. */
function efSearchOption(options: Options, sort: SortSpec): number | undefined {
  const [min, max] = INDEX_OPTION_BOUNDS.efSearch;
  const efSearch = options.integer('efSearch', min, `efSearch should be from ${min} to ${max}`);
  if (efSearch === undefined) return undefined;
  if (efSearch > max) throw invalid('options.efSearch', efSearch, `efSearch should be from ${min} to ${max}`);
  if (sort.kind !== 'vector') throw invalid('options.efSearch', efSearch, 'efSearch applies only to a vector search (a `$vector` sort)');
  return efSearch;
}

function sortVectorOf(sort: SortSpec): JsonValue {
  return sort.kind === 'vector' ? Array.from(sort.vector) : null;
}

export const READ_COMMANDS: Record<string, CommandSpec> = {
  find: { level: 'collection', run: find },
  findOne: { level: 'collection', run: findOne },
  countDocuments: { level: 'collection', run: countDocuments },
  estimatedDocumentCount: { level: 'collection', run: estimatedDocumentCount },
};
