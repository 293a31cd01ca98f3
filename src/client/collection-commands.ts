/**
 * The Data API commands behind VectorDBCollection's reads, updates and deletes, as functions of the
 * collection's channel: one page of `find`, `findOne`, the updateMany and deleteMany loops, the
 * findOneAnd... commands, and the small argument helpers of the overloads.
 * Internal to the client (not exported by the package).
 */
import type { JsonObject } from '../query/json.js';
import { vectorArray } from './documents.js';
import { filterJson, type FilterLike } from './filter.js';
import type { CollectionChannel } from './inserts.js';
import { ProgressMeter, type ProgressListener } from './progress.js';
import { toDocumentResult, type FindAndUpdateResult, type Page, type ResultMapping } from './results.js';
import { queryParts, type SelectQuery } from './select-query.js';
import type { DocumentId, Projection, UpdateResult, Vector } from './types.js';
import { updateQueryOf, type UpdateQuery, type UpdateQueryLike } from './update-query.js';
import { rejectUnknownMembers, toJson, toJsonObject } from './wire.js';

/** The parts of a vector search besides its limit. */
export interface VectorQueryOptions {
  filter?: FilterLike;
  includeSimilarity?: boolean;
  projection?: Projection;
  efSearch?: number;
}

export async function findOneJson(channel: CollectionChannel, query: SelectQuery): Promise<JsonObject | undefined> {
  const options: JsonObject = {};
  if (query.includeSimilarity) options.includeSimilarity = true;
  if (query.efSearch !== undefined) options.efSearch = query.efSearch;
  const response = await channel.run({ findOne: { ...queryParts(query), options } });
  const data = response.data as { document: JsonObject | null } | undefined;
  return data?.document ?? undefined;
}

export async function findPageJson(channel: CollectionChannel, query: SelectQuery): Promise<Page<JsonObject>> {
  const options: JsonObject = {};
  if (query.limit !== undefined) options.limit = query.limit;
  if (query.skip !== undefined) options.skip = query.skip;
  if (query.pageState) options.pageState = query.pageState;
  if (query.includeSimilarity) options.includeSimilarity = true;
  if (query.efSearch !== undefined) options.efSearch = query.efSearch;
  const response = await channel.run({ find: { ...queryParts(query), options } });
  const data = response.data as { documents: JsonObject[]; nextPageState: string | null };
  return { results: data.documents, pageState: data.nextPageState ?? null };
}

export async function updateOne(channel: CollectionChannel, query: UpdateQuery): Promise<UpdateResult> {
  const command: JsonObject = { filter: filterJson(query.filter), update: updateJson(query, 'updateOne'), options: { upsert: query.upsert ?? false } };
  if (query.sort) command.sort = toJson(query.sort, 'sort');
  const response = await channel.run({ updateOne: command });
  return updateResultOf(response.status ?? {});
}

/** updateMany, repeated while the server reports a next page of matches; progress after each page. */
export async function updateMany(channel: CollectionChannel, query: UpdateQuery, onProgress?: ProgressListener): Promise<UpdateResult> {
  const meter = new ProgressMeter(onProgress);
  const filter = filterJson(query.filter);
  const operators = updateJson(query, 'updateMany');
  const total: UpdateResult = { matchedCount: 0, modifiedCount: 0 };
  let pageState: string | undefined;
  do {
    const commandOptions: JsonObject = { upsert: query.upsert ?? false };
    if (pageState) commandOptions.pageState = pageState;
    const status = (await channel.run({ updateMany: { filter, update: operators, options: commandOptions } })).status ?? {};
    const page = updateResultOf(status);
    total.matchedCount += page.matchedCount;
    total.modifiedCount += page.modifiedCount;
    if (page.upsertedId !== undefined) total.upsertedId = page.upsertedId;
    meter.add(page.matchedCount);
    pageState = typeof status.nextPageState === 'string' ? status.nextPageState : undefined;
  } while (pageState);
  return total;
}

/** findOneAndUpdate / findOneAndReplace: the counts and the (mapped) document. */
export async function findOneAndChange(
  channel: CollectionChannel,
  name: 'findOneAndUpdate' | 'findOneAndReplace',
  change: JsonObject,
  query: UpdateQuery,
  as: ResultMapping<unknown> | undefined,
): Promise<FindAndUpdateResult<unknown>> {
  const options: JsonObject = { upsert: query.upsert ?? false, returnDocument: query.returnDocument ?? 'before' };
  const response = await channel.run({ [name]: { ...queryParts(query), ...change, options } });
  const document = (response.data as { document: JsonObject | null } | undefined)?.document ?? undefined;
  return { ...updateResultOf(response.status ?? {}), document: mapOne(document, as) };
}

/** deleteMany, repeated while the server reports more; -1 when the filter is empty (truncation). */
export async function deleteMany(channel: CollectionChannel, filter: JsonObject, onProgress?: ProgressListener): Promise<number> {
  const meter = new ProgressMeter(onProgress);
  let deleted = 0;
  for (;;) {
    const response = await channel.run({ deleteMany: { filter } });
    const count = response.status?.deletedCount as number;
    if (count === -1) return -1;
    deleted += count;
    meter.add(count);
    if (response.status?.moreData !== true) return deleted;
  }
}

/** Splits a trailing class or mapper off an overload's arguments. */
export function splitMapping(args: readonly unknown[]): [unknown[], ResultMapping<unknown> | undefined] {
  const last = args.at(-1);
  return typeof last === 'function' ? [args.slice(0, -1), last as ResultMapping<unknown>] : [[...args], undefined];
}

export function mapOne(json: JsonObject | undefined, as: ResultMapping<unknown> | undefined): unknown {
  return json === undefined || as === undefined ? json : toDocumentResult(json, as);
}

/**
 * The query of findVector / findOneByVector. Every member is there (undefined when not given): one object
 * shape for every vector query, so the code reading it stays monomorphic (spreads of optional members made
 * a shape per combination, and property loads missed their caches: ~2 us a query in a perf profile).
 */
export function vectorQuery(vector: Vector, options: VectorQueryOptions & { limit?: number | undefined }): SelectQuery {
  return {
    sort: { $vector: vectorArray(vector) },
    filter: options.filter,
    projection: options.projection,
    includeSimilarity: options.includeSimilarity === true ? true : undefined,
    efSearch: options.efSearch,
    limit: options.limit,
  };
}

const FIND_ONE_AND_CHANGE_OPTIONS: ReadonlySet<string> = new Set(['sort', 'projection', 'upsert', 'returnDocument']);

/** The query of findOneAndUpdate/Replace: (query, as?) or (filter, change, options). */
export function changeArgs(first: unknown, second: unknown, options: object, field: 'update' | 'replacement'): [UpdateQuery, ResultMapping<unknown> | undefined] {
  if (second === undefined || typeof second === 'function') return [updateQueryOf(first as UpdateQueryLike), second as ResultMapping<unknown> | undefined];
  rejectUnknownMembers(options, FIND_ONE_AND_CHANGE_OPTIONS, `findOneAnd${field === 'update' ? 'Update' : 'Replace'} options`);
  return [{ filter: first as FilterLike, [field]: second, ...options }, undefined];
}

export function updateJson(query: UpdateQuery, method: string): JsonObject {
  if (query.update === undefined) throw new TypeError(`${method}: the query needs update operators (update: { $set: ... } or UpdateQuery.builder().set(...))`);
  return toJsonObject(query.update, 'update');
}

function updateResultOf(status: JsonObject): UpdateResult {
  const result: UpdateResult = { matchedCount: (status.matchedCount as number) ?? 0, modifiedCount: (status.modifiedCount as number) ?? 0 };
  if (status.upsertedId !== undefined) result.upsertedId = status.upsertedId as DocumentId;
  return result;
}
