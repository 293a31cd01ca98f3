/**
 * The resolvers of one collection, each a Data API command (or a short sequence of them): the query is `find`
 * (paging.ts), insert `insertOne` / `findOneAndReplace` with upsert, update `findOneAndUpdate`, delete
 * `findOneAndDelete`. Filters, limits and errors are therefore exactly the Data API's.
 */
import type { GraphQLFieldResolver, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import type { CommandResponse } from '../commands/index.js';
import type { JsonObject, JsonValue } from '../query/json.js';
import { argumentError, graphqlErrorOf, orThrow } from './errors.js';
import { readPage } from './paging.js';
import { FILTER_OPERATORS } from './shared-types.js';

/** Runs one Data API command on this collection. */
export type CollectionRunner = (command: JsonObject) => Promise<CommandResponse>;

export interface CollectionBinding {
  readonly run: CollectionRunner;
  /** Called with every document read or written, so new fields reach the schema. */
  readonly observe: (doc: JsonObject) => void;
  /** GraphQL field name -> document field name. */
  readonly fields: ReadonlyMap<string, string>;
  readonly defaultPageSize: number;
}

type Resolver = GraphQLFieldResolver<unknown, unknown, Record<string, unknown>>;
interface MutationResult {
  applied: boolean;
  value: JsonObject | null;
  document: JsonObject | null;
}

const ALL_FIELDS: JsonObject = { '*': 1 };

export function collectionResolvers(binding: CollectionBinding): { query: Resolver; insert: Resolver; bulkInsert: Resolver; update: Resolver; delete: Resolver } {
  const { run, observe } = binding;
  const toDocument = (value: unknown): JsonObject => {
    const doc: JsonObject = {};
    for (const [gql, v] of Object.entries(value ?? {})) if (v !== undefined) doc[binding.fields.get(gql) ?? gql] = v as JsonValue;
    return doc;
  };
  const conditions = (value: unknown, filter: unknown): JsonObject[] => {
    const out: JsonObject[] = [];
    for (const [field, v] of Object.entries(toDocument(value))) out.push({ [field]: v });
    for (const [gql, ops] of Object.entries(filter ?? {})) {
      const field = binding.fields.get(gql) ?? gql;
      const clause: JsonObject = {};
      for (const [op, v] of Object.entries(ops ?? {})) if (v !== undefined) clause[FILTER_OPERATORS[op]!] = v as JsonValue;
      if (Object.keys(clause).length > 0) out.push({ [field]: clause });
    }
    return out;
  };

  const insertOne = async (doc: JsonObject, ifNotExists: boolean): Promise<MutationResult> => {
    if (!ifNotExists && doc._id !== undefined) {
      const { _id, ...replacement } = doc;
      const response = orThrow(await run({ findOneAndReplace: { filter: { _id }, replacement, projection: ALL_FIELDS, options: { upsert: true, returnDocument: 'after' } } }));
      return written(dataDocument(response));
    }
    const response = await run({ insertOne: { document: doc } });
    const error = response.errors?.[0];
    if (error?.errorCode === 'DOCUMENT_ALREADY_EXISTS' && ifNotExists) {
      const existing = orThrow(await run({ findOne: { filter: { _id: doc._id! }, projection: ALL_FIELDS } }));
      return { applied: false, value: dataDocument(existing), document: dataDocument(existing) };
    }
    if (error !== undefined) throw graphqlErrorOf(error);
    const id = (response.status?.insertedIds as JsonValue[] | undefined)?.[0];
    return written({ ...doc, _id: id ?? doc._id ?? null });
  };
  const written = (doc: JsonObject | null): MutationResult => {
    if (doc) observe(doc);
    return { applied: true, value: doc, document: doc };
  };

  return {
    query: async (_source, args, _context, info) => {
      const options = (args.options ?? {}) as { limit?: number; pageSize?: number; pageState?: string; includeSimilarity?: boolean };
      const all = conditions(args.value, args.filter);
      if (args.where !== undefined && args.where !== null) all.push(args.where as JsonObject);
      const orderBy = (args.orderBy ?? []) as JsonObject[];
      const vector = args.vector as number[] | undefined | null;
      let sort: JsonObject | undefined;
      if (vector) sort = { $vector: vector };
      for (const clause of orderBy) sort = { ...(sort ?? {}), ...clause }; // with a vector: the Data API's own error
      const page = await readPage((find) => run(find), {
        filter: combine(all),
        sort,
        projection: selects(info, ['x24_vector', '_document']) ? ALL_FIELDS : undefined,
        limit: options.limit ?? undefined,
        pageSize: options.pageSize ?? binding.defaultPageSize,
        pageState: options.pageState ?? undefined,
        includeSimilarity: options.includeSimilarity ?? true,
      });
      for (const doc of page.documents) observe(doc);
      return { values: page.documents, pageState: page.pageState };
    },
    insert: async (_source, args) => insertOne(documentOf(toDocument(args.value), args.document), args.ifNotExists === true),
    bulkInsert: async (_source, args) => {
      const docs = [...((args.values ?? []) as unknown[]).map((v) => toDocument(v)), ...((args.documents ?? []) as JsonObject[])];
      if (docs.length === 0) throw argumentError('bulkInsert needs values or documents');
      const results: MutationResult[] = [];
      for (const doc of docs) results.push(await insertOne(doc, args.ifNotExists === true));
      return results;
    },
    update: async (_source, args) => {
      const { _id, ...fields } = toDocument(args.value);
      if (_id === undefined) throw argumentError('update needs value._id: the document to update');
      const set = { ...fields, ...((args.set ?? {}) as JsonObject) };
      if (Object.keys(set).length === 0) throw argumentError('update needs fields to set: in value (besides _id) or in set');
      const condition = conditions(undefined, args.ifCondition);
      const guarded = args.ifExists === true || condition.length > 0;
      const response = orThrow(
        await run({
          findOneAndUpdate: { filter: combine([{ _id }, ...condition]), update: { $set: set }, projection: ALL_FIELDS, options: { returnDocument: 'after', upsert: !guarded } },
        }),
      );
      const doc = dataDocument(response);
      if (doc) observe(doc);
      return { applied: doc !== null, value: doc, document: doc };
    },
    delete: async (_source, args) => {
      const all = conditions(args.value, args.ifCondition);
      if (all.length === 0) throw argumentError('delete needs value: the _id (or fields) of the document to delete');
      const response = orThrow(await run({ findOneAndDelete: { filter: combine(all), projection: ALL_FIELDS } }));
      const doc = dataDocument(response);
      const guarded = args.ifExists === true || args.ifCondition != null;
      return { applied: guarded ? doc !== null : true, value: doc, document: doc };
    },
  };
}

/** Conditions ANDed: one object when their fields differ, `$and` otherwise. */
export function combine(conditions: JsonObject[]): JsonObject {
  if (conditions.length === 0) return {};
  if (conditions.length === 1) return conditions[0]!;
  const merged: JsonObject = {};
  for (const c of conditions) {
    for (const key of Object.keys(c)) {
      if (key in merged || key.startsWith('$')) return { $and: conditions };
      merged[key] = c[key]!;
    }
  }
  return merged;
}

function documentOf(fromValue: JsonObject, document: unknown): JsonObject {
  const doc = { ...((document ?? {}) as JsonObject), ...fromValue };
  if (Object.keys(doc).length === 0) throw argumentError('insert needs value or document');
  return doc;
}

function dataDocument(response: CommandResponse): JsonObject | null {
  return (response.data as { document?: JsonObject | null } | undefined)?.document ?? null;
}

/** Whether the query selects one of `names` under `values` (fragments count as yes). */
function selects(info: GraphQLResolveInfo, names: readonly string[]): boolean {
  const visit = (set: SelectionSetNode | undefined, depth: number): boolean => {
    for (const node of set?.selections ?? []) {
      if (node.kind === 'FragmentSpread') return true;
      if (node.kind === 'InlineFragment') {
        if (visit(node.selectionSet, depth)) return true;
      } else if (depth === 0 ? node.name.value === 'values' && visit(node.selectionSet, 1) : names.includes(node.name.value)) {
        return true;
      }
    }
    return false;
  };
  return info.fieldNodes.some((node) => visit(node.selectionSet, 0));
}
