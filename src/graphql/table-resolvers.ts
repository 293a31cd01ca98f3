/**
 * The resolvers of one table, each a Data API table command (or a short sequence): the query is `find`
 * (paging.ts), insert `insertOne`, update `updateOne` ($set / $unset), delete `deleteOne`; ifNotExists, ifExists
 * and ifCondition read the row first with `findOne`. Values, filters and errors are therefore the Data API's.
 */
import type { GraphQLFieldResolver } from 'graphql';
import type { CommandResponse } from '../commands/index.js';
import type { JsonObject, JsonValue } from '../query/json.js';
import { combine } from './collection-resolvers.js';
import { argumentError, orThrow } from './errors.js';
import { readPage } from './paging.js';
import { FILTER_OPERATORS } from './shared-types.js';
import { toWireValue, type ColumnShape } from './table-types.js';

export type TableRunner = (command: JsonObject) => Promise<CommandResponse>;

export interface TableColumn {
  readonly name: string;
  /** The GraphQL field name. */
  readonly gql: string;
  readonly type: ColumnShape;
}

export interface TableBinding {
  readonly run: TableRunner;
  readonly columns: readonly TableColumn[];
  readonly primaryKey: readonly string[];
  readonly defaultPageSize: number;
}

type Resolver = GraphQLFieldResolver<unknown, unknown, Record<string, unknown>>;
interface MutationResult {
  applied: boolean;
  value: JsonObject | null;
}

export function tableResolvers(binding: TableBinding): { query: Resolver; insert: Resolver; bulkInsert: Resolver; update: Resolver; delete: Resolver } {
  const { run, primaryKey } = binding;
  const byGql = new Map(binding.columns.map((c) => [c.gql, c]));
  /** A GraphQL `<t>Input` as a row of Data API values; null stays null (an unset in updates). */
  const toRow = (value: unknown): JsonObject => {
    const row: JsonObject = {};
    for (const [gql, v] of Object.entries(value ?? {})) {
      const column = byGql.get(gql)!;
      if (v !== undefined) row[column.name] = toWireValue(v, column.type);
    }
    return row;
  };
  const conditions = (filter: unknown): JsonObject[] => {
    const out: JsonObject[] = [];
    for (const [gql, ops] of Object.entries(filter ?? {})) {
      const column = byGql.get(gql)!;
      for (const [op, v] of Object.entries(ops ?? {})) if (v !== undefined) out.push({ [column.name]: condition(op, v, column.type) });
    }
    return out;
  };
  /** The primary key columns of a value, all of them required (a table row is addressed by its whole key). */
  const keyOf = (row: JsonObject, what: string): JsonObject => {
    const missing = primaryKey.filter((c) => row[c] === undefined || row[c] === null);
    if (missing.length > 0) throw argumentError(`${what} needs the whole primary key in value: missing ${missing.join(', ')}`);
    return Object.fromEntries(primaryKey.map((c) => [c, row[c]!]));
  };
  const findRow = async (filter: JsonObject): Promise<JsonObject | null> =>
    ((orThrow(await run({ findOne: { filter } })).data as { document?: JsonObject | null } | undefined)?.document ?? null);
  const options = (args: Record<string, unknown>): void => {
    if ((args.options as { ttl?: number } | undefined)?.ttl != null) throw argumentError('options.ttl is not supported: Data API tables have no per-row TTL');
  };
  const insert = async (value: unknown, ifNotExists: boolean): Promise<MutationResult> => {
    const row = toRow(value);
    const key = keyOf(row, 'insert');
    if (ifNotExists) {
      const existing = await findRow(key);
      if (existing) return { applied: false, value: existing };
    }
    const document = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null));
    orThrow(await run({ insertOne: { document } }));
    return { applied: true, value: await findRow(key) };
  };

  return {
    query: async (_source, args) => {
      const options = (args.options ?? {}) as { limit?: number; pageSize?: number; pageState?: string; includeSimilarity?: boolean };
      const all = [...Object.entries(toRow(args.value)).map(([column, v]) => ({ [column]: v })), ...conditions(args.filter)];
      if (args.where !== undefined && args.where !== null) all.push(args.where as JsonObject);
      let sort: JsonObject | undefined;
      for (const clause of (args.orderBy ?? []) as JsonObject[]) sort = { ...(sort ?? {}), ...clause };
      const vector = args.vector as number[] | null | undefined;
      if (vector) {
        if (sort !== undefined) throw argumentError('vector and orderBy cannot be combined: a vector search is ordered by similarity');
        sort = { [vectorColumn(binding.columns, args.vectorColumn as string | null | undefined)]: vector };
      }
      const page = await readPage((find) => run(find), {
        filter: combine(all),
        sort,
        projection: undefined,
        limit: options.limit ?? undefined,
        pageSize: options.pageSize ?? binding.defaultPageSize,
        pageState: options.pageState ?? undefined,
        includeSimilarity: options.includeSimilarity ?? true,
        vectorSort: Boolean(vector),
      });
      return { values: page.documents, pageState: page.pageState };
    },
    insert: async (_source, args) => {
      options(args);
      return insert(args.value, args.ifNotExists === true);
    },
    bulkInsert: async (_source, args) => {
      options(args);
      const values = (args.values ?? []) as unknown[];
      if (values.length === 0) throw argumentError('bulkInsert needs values');
      const results: MutationResult[] = [];
      for (const value of values) results.push(await insert(value, args.ifNotExists === true));
      return results;
    },
    update: async (_source, args) => {
      options(args);
      const row = toRow(args.value);
      const key = keyOf(row, 'update');
      const set: JsonObject = {};
      const unset: JsonObject = {};
      for (const [column, v] of Object.entries(row)) if (!primaryKey.includes(column)) (v === null ? unset : set)[column] = v === null ? '' : v;
      if (Object.keys(set).length + Object.keys(unset).length === 0) throw argumentError('update needs columns to set in value, besides the primary key');
      const condition = conditions(args.ifCondition);
      if (args.ifExists === true || condition.length > 0) {
        if (!(await findRow(combine([key, ...condition])))) return { applied: false, value: await findRow(key) };
      }
      const update: JsonObject = { ...(Object.keys(set).length > 0 ? { $set: set } : {}), ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) };
      orThrow(await run({ updateOne: { filter: key, update } }));
      return { applied: true, value: await findRow(key) };
    },
    delete: async (_source, args) => {
      options(args);
      const key = keyOf(toRow(args.value), 'delete');
      const condition = conditions(args.ifCondition);
      const before = await findRow(key);
      if ((args.ifExists === true && before === null) || (condition.length > 0 && !(await findRow(combine([key, ...condition]))))) return { applied: false, value: before };
      orThrow(await run({ deleteOne: { filter: key } }));
      return { applied: true, value: before };
    },
  };
}

/** A GraphQL filter operator on a column as a Data API condition (`contains` on collections as $all / $keys / $values). */
function condition(op: string, value: unknown, type: ColumnShape): JsonValue {
  switch (op) {
    case 'contains':
      return type.type === 'map' ? { $values: { $all: [toWireValue(value, type.valueType!)] } } : { $all: [toWireValue(value, type.valueType!)] };
    case 'containsKey':
      return { $keys: { $all: [toWireValue(value, type.keyType!)] } };
    case 'containsEntry': {
      const entry = value as { key: unknown; value: unknown };
      return { $all: [[toWireValue(entry.key, type.keyType!), toWireValue(entry.value, type.valueType!)]] };
    }
    case 'in':
      return { $in: (value as unknown[]).map((v) => toWireValue(v, type)) };
    default:
      return { [FILTER_OPERATORS[op]!]: toWireValue(value, type) };
  }
}

function vectorColumn(columns: readonly TableColumn[], named: string | null | undefined): string {
  const vectors = columns.filter((c) => c.type.type === 'vector');
  if (named != null) {
    const column = vectors.find((c) => c.name === named || c.gql === named);
    if (!column) throw argumentError(`vectorColumn '${named}' is not a vector column (vector columns: ${vectors.map((c) => c.name).join(', ')})`);
    return column.name;
  }
  if (vectors.length !== 1) throw argumentError(`the table has ${vectors.length} vector columns: name one in vectorColumn`);
  return vectors[0]!.name;
}
