/**
 * The `/api/graphql-schema` schema (Stargate's DDL endpoint): keyspaces, their collections and tables (Stargate's
 * `Table { name columns { kind name type } }`, the type as the Data API describes it), createKeyspace /
 * dropKeyspace / createCollection / dropCollection / createTable / dropTable. Each resolver is the Data API
 * command of the same name (findKeyspaces, findCollections, listTables, createTable, deleteCollection, ...).
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from 'graphql';
import type { JsonObject } from '../query/json.js';
import { orThrow } from './errors.js';
import { GraphQLJSON } from './json-scalar.js';
import type { CommandRunner } from './command-runner.js';

interface TableInfo {
  name: string;
  definition: { columns: JsonObject; primaryKey: { partitionBy: string[]; partitionSort: JsonObject } };
}

interface CollectionInfo {
  name: string;
  options?: JsonObject;
}

export function ddlSchema(run: CommandRunner): GraphQLSchema {
  const collectionsOf = async (keyspace: string): Promise<CollectionInfo[]> =>
    (orThrow(await run({ findCollections: { options: { explain: true } } }, { keyspace })).status?.collections ?? []) as unknown as CollectionInfo[];
  const tablesOf = async (keyspace: string): Promise<TableInfo[]> =>
    (orThrow(await run({ listTables: { options: { explain: true } } }, { keyspace })).status?.tables ?? []) as unknown as TableInfo[];
  const keyspaceNames = async (): Promise<string[]> => (orThrow(await run({ findKeyspaces: {} }, {})).status?.keyspaces ?? []) as string[];

  const vectorOptions = new GraphQLObjectType({
    name: 'VectorOptions',
    fields: { dimension: { type: GraphQLInt }, metric: { type: GraphQLString } },
  });
  const collection = new GraphQLObjectType<CollectionInfo>({
    name: 'Collection',
    fields: {
      name: { type: new GraphQLNonNull(GraphQLString) },
      vector: { type: vectorOptions, resolve: (c) => c.options?.vector ?? null },
      options: { type: GraphQLJSON, description: 'The collection options, as findCollections explains them.', resolve: (c) => c.options ?? {} },
    },
  });
  const columnKind = new GraphQLEnumType({ name: 'ColumnKind', values: { PARTITION: {}, CLUSTERING: {}, REGULAR: {} } });
  const column = new GraphQLObjectType<{ kind: string; name: string; type: JsonObject }>({
    name: 'Column',
    fields: {
      kind: { type: columnKind },
      name: { type: new GraphQLNonNull(GraphQLString) },
      type: { type: GraphQLJSON, description: 'The column type as listTables describes it, e.g. {"type": "map", "keyType": "text", "valueType": "int"}.' },
    },
  });
  const table = new GraphQLObjectType<TableInfo>({
    name: 'Table',
    fields: {
      name: { type: new GraphQLNonNull(GraphQLString) },
      columns: {
        type: new GraphQLList(new GraphQLNonNull(column)),
        resolve: (t) => {
          const { partitionBy, partitionSort } = t.definition.primaryKey;
          const kind = (name: string) => (partitionBy.includes(name) ? 'PARTITION' : name in partitionSort ? 'CLUSTERING' : 'REGULAR');
          return Object.entries(t.definition.columns).map(([name, type]) => ({ kind: kind(name), name, type }));
        },
      },
      definition: { type: GraphQLJSON, description: 'The table definition, as listTables (explain) gives it.', resolve: (t) => t.definition },
    },
  });
  const keyspace = new GraphQLObjectType<{ name: string }>({
    name: 'Keyspace',
    fields: {
      name: { type: new GraphQLNonNull(GraphQLString) },
      collections: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(collection))), resolve: (k) => collectionsOf(k.name) },
      collection: {
        type: collection,
        args: { name: { type: new GraphQLNonNull(GraphQLString) } },
        resolve: async (k, args: { name: string }) => (await collectionsOf(k.name)).find((c) => c.name === args.name) ?? null,
      },
      tables: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(table))), resolve: (k) => tablesOf(k.name) },
      table: {
        type: table,
        args: { name: { type: new GraphQLNonNull(GraphQLString) } },
        resolve: async (k, args: { name: string }) => (await tablesOf(k.name)).find((t) => t.name === args.name) ?? null,
      },
    },
  });
  const done = (response: Parameters<typeof orThrow>[0]): boolean => (orThrow(response), true);
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        keyspaces: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(keyspace))), resolve: async () => (await keyspaceNames()).map((name) => ({ name })) },
        keyspace: {
          type: keyspace,
          args: { name: { type: new GraphQLNonNull(GraphQLString) } },
          resolve: async (_s, args: { name: string }) => ((await keyspaceNames()).includes(args.name) ? { name: args.name } : null),
        },
      },
    }),
    mutation: new GraphQLObjectType({
      name: 'Mutation',
      fields: {
        createKeyspace: {
          type: GraphQLBoolean,
          args: { name: { type: new GraphQLNonNull(GraphQLString) }, ifNotExists: { type: GraphQLBoolean } },
          resolve: async (_s, args: { name: string; ifNotExists?: boolean }) => {
            if (args.ifNotExists && (await keyspaceNames()).includes(args.name)) return false;
            return done(await run({ createKeyspace: { name: args.name } }, {}));
          },
        },
        dropKeyspace: {
          type: GraphQLBoolean,
          args: { name: { type: new GraphQLNonNull(GraphQLString) }, ifExists: { type: GraphQLBoolean } },
          resolve: async (_s, args: { name: string; ifExists?: boolean }) => {
            if (args.ifExists && !(await keyspaceNames()).includes(args.name)) return false;
            return done(await run({ dropKeyspace: { name: args.name } }, {}));
          },
        },
        createCollection: {
          type: GraphQLBoolean,
          description: 'createCollection: with dimension, a vector collection (metric cosine unless given).',
          args: {
            keyspaceName: { type: new GraphQLNonNull(GraphQLString) },
            name: { type: new GraphQLNonNull(GraphQLString) },
            dimension: { type: GraphQLInt },
            metric: { type: GraphQLString },
            options: { type: GraphQLJSON, description: 'Other createCollection options (indexing, defaultId).' },
          },
          resolve: async (_s, args: { keyspaceName: string; name: string; dimension?: number; metric?: string; options?: JsonObject }) => {
            const options: JsonObject = { ...(args.options ?? {}) };
            if (args.dimension != null) options.vector = { dimension: args.dimension, ...(args.metric ? { metric: args.metric } : {}) };
            return done(await run({ createCollection: { name: args.name, ...(Object.keys(options).length ? { options } : {}) } }, { keyspace: args.keyspaceName }));
          },
        },
        createTable: {
          type: GraphQLBoolean,
          description: "createTable with the Data API's definition (columns, primaryKey).",
          args: {
            keyspaceName: { type: new GraphQLNonNull(GraphQLString) },
            tableName: { type: new GraphQLNonNull(GraphQLString) },
            definition: { type: new GraphQLNonNull(GraphQLJSON), description: 'e.g. {"columns": {"id": "text", "n": "int"}, "primaryKey": "id"}' },
            ifNotExists: { type: GraphQLBoolean },
          },
          resolve: async (_s, args: { keyspaceName: string; tableName: string; definition: JsonObject; ifNotExists?: boolean }) =>
            done(await run({ createTable: { name: args.tableName, definition: args.definition, ...(args.ifNotExists ? { options: { ifNotExists: true } } : {}) } }, { keyspace: args.keyspaceName })),
        },
        dropTable: {
          type: GraphQLBoolean,
          args: { keyspaceName: { type: new GraphQLNonNull(GraphQLString) }, tableName: { type: new GraphQLNonNull(GraphQLString) }, ifExists: { type: GraphQLBoolean } },
          resolve: async (_s, args: { keyspaceName: string; tableName: string; ifExists?: boolean }) =>
            done(await run({ dropTable: { name: args.tableName, ...(args.ifExists ? { options: { ifExists: true } } : {}) } }, { keyspace: args.keyspaceName })),
        },
        dropCollection: {
          type: GraphQLBoolean,
          args: { keyspaceName: { type: new GraphQLNonNull(GraphQLString) }, name: { type: new GraphQLNonNull(GraphQLString) } },
          resolve: async (_s, args: { keyspaceName: string; name: string }) => done(await run({ deleteCollection: { name: args.name } }, { keyspace: args.keyspaceName })),
        },
      },
    }),
  });
}
