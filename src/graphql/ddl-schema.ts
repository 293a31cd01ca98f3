/**
 * The `/api/graphql-schema` schema (Stargate's DDL endpoint, for collections): keyspaces and their
 * collections, createKeyspace / dropKeyspace / createCollection / dropCollection. Each resolver is the Data
 * API command of the same name (findKeyspaces, findCollections, createCollection, deleteCollection, ...).
 */
import {
  GraphQLBoolean,
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
import type { CommandRunner } from './service.js';

interface CollectionInfo {
  name: string;
  options?: JsonObject;
}

export function ddlSchema(run: CommandRunner): GraphQLSchema {
  const collectionsOf = async (keyspace: string): Promise<CollectionInfo[]> =>
    (orThrow(await run({ findCollections: { options: { explain: true } } }, { keyspace })).status?.collections ?? []) as unknown as CollectionInfo[];
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
        dropCollection: {
          type: GraphQLBoolean,
          args: { keyspaceName: { type: new GraphQLNonNull(GraphQLString) }, name: { type: new GraphQLNonNull(GraphQLString) } },
          resolve: async (_s, args: { keyspaceName: string; name: string }) => done(await run({ deleteCollection: { name: args.name } }, { keyspace: args.keyspaceName })),
        },
      },
    }),
  });
}
