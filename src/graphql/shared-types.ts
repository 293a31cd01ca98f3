/**
 * The types every keyspace schema shares: `<Scalar>FilterInput` (Stargate's `eq notEq gt gte lt lte in`, plus
 * `exists`) and `QueryOptions` (`limit pageSize pageState includeSimilarity`). Built once per schema.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLString,
  type GraphQLInputType,
  type GraphQLNamedType,
} from 'graphql';
import { GraphQLJSON } from './json-scalar.js';

export type FilterScalar = 'String' | 'Float' | 'Boolean' | 'ID' | 'JSON';

const SCALARS: Record<FilterScalar, GraphQLInputType> = {
  String: GraphQLString,
  Float: GraphQLFloat,
  Boolean: GraphQLBoolean,
  ID: GraphQLID,
  JSON: GraphQLJSON,
};

/** GraphQL filter operator -> Data API operator. */
export const FILTER_OPERATORS: Readonly<Record<string, string>> = {
  eq: '$eq',
  notEq: '$ne',
  gt: '$gt',
  gte: '$gte',
  lt: '$lt',
  lte: '$lte',
  in: '$in',
  exists: '$exists',
};

/** Stargate's basic comparisons of a filter input: `eq notEq gt gte lt lte` of the type, `in` of a list of it. */
export function comparisonFields(type: GraphQLInputType): Record<string, { type: GraphQLInputType; description?: string }> {
  return { eq: { type }, notEq: { type }, gt: { type }, gte: { type }, lt: { type }, lte: { type }, in: { type: new GraphQLList(type) } };
}

export interface SharedTypes {
  filterInput(scalar: FilterScalar): GraphQLInputObjectType;
  /** The one type of this name in the schema, built on first use (tables share map entries, UDTs, filters). */
  named<T extends GraphQLNamedType>(name: string, build: () => T): T;
  readonly queryOptions: GraphQLInputObjectType;
}

export function sharedTypes(defaultPageSize: number): SharedTypes {
  const types = new Map<string, GraphQLNamedType>();
  const named = <T extends GraphQLNamedType>(name: string, build: () => T): T => {
    let type = types.get(name);
    if (type === undefined) {
      type = build();
      types.set(name, type);
    }
    return type as T;
  };
  const filterInput = (scalar: FilterScalar): GraphQLInputObjectType =>
    named(`${scalar}FilterInput`, () => {
      const t = SCALARS[scalar];
      return new GraphQLInputObjectType({
        name: `${scalar}FilterInput`,
        description: `Conditions on a ${scalar} field; several are ANDed. The Data API's $eq $ne $gt $gte $lt $lte $in $exists.`,
        fields: { ...comparisonFields(t), exists: { type: GraphQLBoolean } },
      });
    });
  const queryOptions = new GraphQLInputObjectType({
    name: 'QueryOptions',
    fields: {
      limit: { type: GraphQLInt, description: 'At most this many documents in all pages together.' },
      pageSize: { type: GraphQLInt, defaultValue: defaultPageSize, description: `Documents per page (default ${defaultPageSize}, the Data API's page size).` },
      pageState: { type: GraphQLString, description: 'The pageState of the previous page, to read the next one.' },
      includeSimilarity: { type: GraphQLBoolean, description: 'Fill _similarity on a vector search (default true).' },
    },
  });
  return { filterInput, named, queryOptions };
}
