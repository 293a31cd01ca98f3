/**
 * A keyspace schema is assembled from one part per entity (collections: collections/schema.ts; tables:
 * tables/schema.ts; service.ts lists both). Parts whose type or root field names clash with ones already taken
 * are skipped with a warning, as Stargate does.
 */
import {
  GraphQLBoolean,
  GraphQLList,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { CQL_SCALAR_NAMES } from './cql-scalars.js';

export interface EntityPart {
  /** The database name (a collection's, a table's). */
  readonly name: string;
  readonly typeNames: readonly string[];
  readonly rootNames: { readonly query: readonly string[]; readonly mutation: readonly string[] };
  readonly query: GraphQLFieldConfigMap<unknown, unknown>;
  readonly mutation: GraphQLFieldConfigMap<unknown, unknown>;
  readonly warnings: readonly string[];
}

/** Names the shared part of the schema already uses. */
const TAKEN_TYPES = ['Query', 'Mutation', 'QueryOptions', 'MutationOptions', 'MutationConsistency', 'SerialConsistency', 'JSON', 'String', 'Float', 'Int', 'Boolean', 'ID', ...CQL_SCALAR_NAMES];

/** The shared filter inputs a part's own `<name>FilterInput` could take (a table named `ListInt`, say). */
const SHARED_FILTER = new RegExp(`^(List)*(String|Float|Boolean|ID|JSON|Int|${CQL_SCALAR_NAMES.join('|')}|Entry\\w+)FilterInput$`);

export function assembleSchema(parts: readonly EntityPart[], warnings: readonly string[]): GraphQLSchema {
  const types = new Set(TAKEN_TYPES);
  const roots = new Set(['conversionWarnings', 'keyspaceEmptyMutation']);
  const all = [...warnings];
  const query: GraphQLFieldConfigMap<unknown, unknown> = {};
  const mutation: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const part of parts) {
    const clash = [...part.typeNames.filter((n) => types.has(n) || SHARED_FILTER.test(n)), ...[...part.rootNames.query, ...part.rootNames.mutation].filter((n) => roots.has(n))];
    if (clash.length > 0) {
      all.push(`'${part.name}' is skipped: its GraphQL names clash with names already in the schema (${clash.join(', ')}).`);
      continue;
    }
    for (const n of part.typeNames) types.add(n);
    for (const n of [...part.rootNames.query, ...part.rootNames.mutation]) roots.add(n);
    Object.assign(query, part.query);
    Object.assign(mutation, part.mutation);
    all.push(...part.warnings);
  }
  query.conversionWarnings = {
    type: new GraphQLList(GraphQLString),
    description: 'Fields widened to JSON and why, names skipped, and other schema-generation notes.',
    resolve: () => all,
  };
  if (Object.keys(mutation).length === 0) {
    mutation.keyspaceEmptyMutation = { type: GraphQLBoolean, description: 'Placeholder: the keyspace has no collection.', resolve: () => null };
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
  });
}
