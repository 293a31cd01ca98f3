/**
 * The GraphQL part of one table, by Stargate's CQL-first DmlSchemaBuilder: type `<t>` (one field per column, and
 * `_similarity` when the table has a vector column), `<t>Input`, `<t>FilterInput`, `<t>Order`, `<t>Result`
 * (`values`, `pageState`), `<t>MutationResult` (`applied`, `value`); the query field and `insert<t>`,
 * `bulkInsert<t>`, `update<t>`, `delete<t>`. Resolvers live in table-resolvers.ts; this file only shapes types.
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
} from 'graphql';
import type { JsonObject } from '../query/json.js';
import { GraphQLJSON } from './json-scalar.js';
import { entityName, fieldName } from './names.js';
import type { EntityPart } from './schema-parts.js';
import type { SharedTypes } from './shared-types.js';
import { tableResolvers, type TableBinding, type TableColumn } from './table-resolvers.js';
import { isScalar, TableTypes, toGraphqlValue, type ColumnShape } from './table-types.js';

export interface TableShape {
  readonly name: string;
  readonly columns: readonly (readonly [string, ColumnShape])[];
  readonly primaryKey: readonly string[];
}

export function tablePart(shape: TableShape, shared: SharedTypes, binding: Omit<TableBinding, 'columns' | 'primaryKey'>): EntityPart {
  const g = entityName(shape.name);
  const types = new TableTypes(shared);
  const warnings: string[] = [];
  const columns: TableColumn[] = shape.columns.map(([name, type]) => ({ name, gql: fieldName(name), type }));
  const hasVector = columns.some((c) => c.type.type === 'vector');
  const withSimilarity = hasVector && !columns.some((c) => c.gql === '_similarity');

  const objectType = new GraphQLObjectType<JsonObject>({
    name: g,
    description: `A row of table '${shape.name}'.`,
    fields: () => {
      const out: GraphQLFieldConfigMap<JsonObject, unknown> = {};
      for (const c of columns) out[c.gql] = { type: types.output(c.type), resolve: (row) => toGraphqlValue(row[c.name], c.type) };
      if (withSimilarity) out._similarity = { type: GraphQLFloat, description: 'Similarity to the query vector (vector searches only).', resolve: (row) => row.$similarity ?? null };
      return out;
    },
  });
  const inputFields: GraphQLInputFieldConfigMap = {};
  for (const c of columns) inputFields[c.gql] = { type: types.input(c.type) };
  const input = new GraphQLInputObjectType({
    name: `${g}Input`,
    description: `The input type for the table '${shape.name}'. Its primary key: ${shape.primaryKey.join(', ')}.`,
    fields: inputFields,
  });
  const filterFields: GraphQLInputFieldConfigMap = {};
  for (const c of columns) {
    const filter = types.filter(c.type);
    if (filter !== undefined) filterFields[c.gql] = { type: filter };
  }
  if (Object.keys(filterFields).length === 0) warnings.push(`Table '${shape.name}': no column can be filtered on.`);
  const filterInput = new GraphQLInputObjectType({ name: `${g}FilterInput`, fields: filterFields });
  const orderValues: Record<string, { value: JsonObject }> = {};
  for (const c of columns) {
    if (!isScalar(c.type)) continue;
    orderValues[`${c.gql}_DESC`] = { value: { [c.name]: -1 } };
    orderValues[`${c.gql}_ASC`] = { value: { [c.name]: 1 } };
  }
  const order = new GraphQLEnumType({ name: `${g}Order`, values: orderValues });
  const result = new GraphQLObjectType({
    name: `${g}Result`,
    fields: {
      pageState: { type: GraphQLString, description: 'Present when more rows exist: pass it as options.pageState.' },
      values: { type: new GraphQLList(new GraphQLNonNull(objectType)) },
    },
  });
  const mutationResult = new GraphQLObjectType({
    name: `${g}MutationResult`,
    fields: {
      applied: { type: GraphQLBoolean, description: 'False when ifNotExists, ifExists or ifCondition stopped the change.' },
      value: { type: objectType, description: 'The row after the change (before it, for a delete; the existing row when not applied).' },
    },
  });
  const mutationOptions = shared.named(
    'MutationOptions',
    () =>
      new GraphQLInputObjectType({
        name: 'MutationOptions',
        description: "Stargate's mutation options: consistency levels are accepted and have no effect on one node; ttl is not supported by Data API tables.",
        fields: {
          consistency: { type: enumOf(shared, 'MutationConsistency', ['LOCAL_ONE', 'LOCAL_QUORUM', 'ALL']), defaultValue: 'LOCAL_QUORUM' },
          serialConsistency: { type: enumOf(shared, 'SerialConsistency', ['SERIAL', 'LOCAL_SERIAL']), defaultValue: 'SERIAL' },
          ttl: { type: GraphQLInt },
        },
      }),
  );

  const resolve = tableResolvers({ ...binding, columns, primaryKey: shape.primaryKey });
  const conditional = { ifExists: { type: GraphQLBoolean }, ifCondition: { type: filterInput }, options: { type: mutationOptions } };
  const typeNames = [g, input.name, filterInput.name, result.name, mutationResult.name, ...(Object.keys(orderValues).length > 0 ? [order.name] : [])];
  return {
    name: shape.name,
    typeNames,
    rootNames: { query: [g], mutation: [`insert${g}`, `bulkInsert${g}`, `update${g}`, `delete${g}`] },
    warnings,
    query: {
      [g]: {
        type: result,
        description: `Rows of table '${shape.name}': value (equality), filter (operators) and where (a native Data API filter) are ANDed.`,
        args: {
          value: { type: input },
          filter: { type: filterInput },
          where: { type: GraphQLJSON, description: 'A Data API filter, e.g. {"price": {"$gt": 10}}.' },
          ...(Object.keys(orderValues).length > 0 ? { orderBy: { type: new GraphQLList(order) } } : {}),
          ...(hasVector
            ? {
                vector: { type: new GraphQLList(new GraphQLNonNull(GraphQLFloat)), description: 'Sort by similarity to this vector (an indexed vector column); fills _similarity.' },
                vectorColumn: { type: GraphQLString, description: 'The vector column to sort on (default: the only one).' },
              }
            : {}),
          options: { type: shared.queryOptions },
        },
        resolve: resolve.query,
      },
    },
    mutation: {
      [`insert${g}`]: {
        type: mutationResult,
        description: 'Inserts a row; without ifNotExists an existing row of the same primary key is overwritten (CQL upsert).',
        args: { value: { type: new GraphQLNonNull(input) }, ifNotExists: { type: GraphQLBoolean }, options: { type: mutationOptions } },
        resolve: resolve.insert,
      },
      [`bulkInsert${g}`]: {
        type: new GraphQLList(mutationResult),
        args: { values: { type: new GraphQLList(new GraphQLNonNull(input)) }, ifNotExists: { type: GraphQLBoolean }, options: { type: mutationOptions } },
        resolve: resolve.bulkInsert,
      },
      [`update${g}`]: {
        type: mutationResult,
        description: 'Sets the given columns (null unsets) of the row whose primary key value gives; without ifExists or ifCondition a missing row is created.',
        args: { value: { type: new GraphQLNonNull(input) }, ...conditional },
        resolve: resolve.update,
      },
      [`delete${g}`]: {
        type: mutationResult,
        description: 'Deletes the row whose primary key value gives (if ifCondition holds).',
        args: { value: { type: new GraphQLNonNull(input) }, ...conditional },
        resolve: resolve.delete,
      },
    },
  };
}

function enumOf(shared: SharedTypes, name: string, values: readonly string[]): GraphQLEnumType {
  return shared.named(name, () => new GraphQLEnumType({ name, values: Object.fromEntries(values.map((v) => [v, { value: v }])) }));
}
