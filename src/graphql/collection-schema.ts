/**
 * The GraphQL part of one collection: type `<c>` (inferred fields, `_id`, `_document`, `_similarity`),
 * `<c>Input`, `<c>FilterInput`, `<c>Order`, `<c>Result`, `<c>MutationResult`, the query field and the four
 * mutations. Resolvers live in collection-resolvers.ts; this file only shapes types.
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLInputObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import type { JsonObject, JsonValue } from '../query/json.js';
import { collectionResolvers, type CollectionBinding } from './collection-resolvers.js';
import type { FieldType } from './field-model.js';
import { GraphQLJSON } from './json-scalar.js';
import { entityName, fieldName } from './names.js';
import type { EntityPart } from './schema-parts.js';
import type { FilterScalar, SharedTypes } from './shared-types.js';

/** Our own fields on every collection type: a document field with one of these names is skipped. */
const OWN_FIELDS = new Set(['_id', '_document', '_similarity']);

export interface CollectionShape {
  readonly name: string;
  readonly fields: readonly (readonly [string, FieldType])[];
  readonly vector: boolean;
}

export function collectionPart(shape: CollectionShape, shared: SharedTypes, binding: Omit<CollectionBinding, 'fields'>): EntityPart {
  const g = entityName(shape.name);
  const warnings: string[] = [];
  const fields = new Map<string, FieldType>();
  if (shape.vector) fields.set('$vector', 'Vector');
  for (const [name, type] of shape.fields) {
    const gql = fieldName(name);
    if (OWN_FIELDS.has(gql)) {
      warnings.push(`Collection '${shape.name}': field '${name}' is skipped because its GraphQL name '${gql}' is one of the schema's own fields; read it through _document.`);
      continue;
    }
    fields.set(name, type);
  }
  const gqlFields = [...fields.entries()].map(([name, type]) => [fieldName(name), name, type] as const);

  const objectType: GraphQLObjectType = new GraphQLObjectType({
    name: g,
    description: `A document of collection '${shape.name}'. Fields inferred from its documents; _document has every field.`,
    fields: () => {
      const out: GraphQLFieldConfigMap<JsonObject, unknown> = {
        _id: { type: new GraphQLNonNull(GraphQLID), resolve: (doc) => idOf(doc._id) },
      };
      for (const [gql, name, type] of gqlFields) out[gql] = { type: outputType(type), resolve: (doc) => fieldValue(doc[name], type) };
      out._document = { type: GraphQLJSON, description: 'The whole stored document.', resolve: (doc) => withoutSimilarity(doc) };
      out._similarity = { type: GraphQLFloat, description: 'Similarity to the query vector (vector searches only).', resolve: (doc) => doc.$similarity ?? null };
      return out;
    },
  });
  const inputFields: GraphQLInputFieldConfigMap = { _id: { type: GraphQLID } };
  for (const [gql, , type] of gqlFields) inputFields[gql] = { type: inputType(type) };
  const input = new GraphQLInputObjectType({ name: `${g}Input`, description: `The fields of a document of '${shape.name}'.`, fields: inputFields });

  const filterFields: GraphQLInputFieldConfigMap = { _id: { type: shared.filterInput('ID') } };
  for (const [gql, , type] of gqlFields) {
    const scalar = filterScalarOf(type);
    if (scalar !== undefined) filterFields[gql] = { type: shared.filterInput(scalar) };
  }
  const filterInput = new GraphQLInputObjectType({ name: `${g}FilterInput`, fields: filterFields });

  const orderValues: Record<string, { value: JsonObject }> = { _id_DESC: { value: { _id: -1 } }, _id_ASC: { value: { _id: 1 } } };
  for (const [gql, name, type] of gqlFields) {
    if (type === 'String' || type === 'Float' || type === 'Boolean') {
      orderValues[`${gql}_DESC`] = { value: { [name]: -1 } };
      orderValues[`${gql}_ASC`] = { value: { [name]: 1 } };
    }
  }
  const order = new GraphQLEnumType({ name: `${g}Order`, values: orderValues });
  const result = new GraphQLObjectType({
    name: `${g}Result`,
    fields: {
      values: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objectType))) },
      pageState: { type: GraphQLString, description: 'Present when more documents exist: pass it as options.pageState.' },
    },
  });
  const mutationResult = new GraphQLObjectType({
    name: `${g}MutationResult`,
    fields: {
      applied: { type: new GraphQLNonNull(GraphQLBoolean), description: 'False when ifNotExists, ifExists or ifCondition stopped the change.' },
      value: { type: objectType, description: 'The document after the change (before it, for a delete).' },
      document: { type: GraphQLJSON },
    },
  });

  const resolve = collectionResolvers({ ...binding, fields: new Map(gqlFields.map(([gql, name]) => [gql, name])) });
  const mutationArgs = { ifCondition: { type: filterInput } };
  return {
    name: shape.name,
    typeNames: [g, input.name, filterInput.name, order.name, result.name, mutationResult.name],
    rootNames: { query: [g], mutation: [`insert${g}`, `bulkInsert${g}`, `update${g}`, `delete${g}`] },
    warnings,
    query: {
      [g]: {
        type: result,
        description: `Documents of '${shape.name}': value (equality), filter (operators) and where (a native Data API filter) are ANDed.`,
        args: {
          value: { type: input },
          filter: { type: filterInput },
          where: { type: GraphQLJSON, description: 'A Data API filter, e.g. {"price": {"$gt": 10}}.' },
          orderBy: { type: new GraphQLList(order) },
          vector: { type: new GraphQLList(new GraphQLNonNull(GraphQLFloat)), description: 'Sort by similarity to this vector; fills _similarity.' },
          options: { type: shared.queryOptions },
        },
        resolve: resolve.query,
      },
    },
    mutation: {
      [`insert${g}`]: {
        type: mutationResult,
        description: 'Inserts a document; without ifNotExists an existing _id is replaced (Stargate insert semantics).',
        args: { value: { type: input }, document: { type: GraphQLJSON }, ifNotExists: { type: GraphQLBoolean } },
        resolve: resolve.insert,
      },
      [`bulkInsert${g}`]: {
        type: new GraphQLList(mutationResult),
        args: {
          values: { type: new GraphQLList(new GraphQLNonNull(input)) },
          documents: { type: new GraphQLList(new GraphQLNonNull(GraphQLJSON)) },
          ifNotExists: { type: GraphQLBoolean },
        },
        resolve: resolve.bulkInsert,
      },
      [`update${g}`]: {
        type: mutationResult,
        description: 'Sets the given fields of the document value._id; without ifExists or ifCondition a missing document is created.',
        args: { value: { type: new GraphQLNonNull(input) }, set: { type: GraphQLJSON }, ifExists: { type: GraphQLBoolean }, ...mutationArgs },
        resolve: resolve.update,
      },
      [`delete${g}`]: {
        type: mutationResult,
        description: 'Deletes one document matching value (and ifCondition).',
        args: { value: { type: new GraphQLNonNull(input) }, ifExists: { type: GraphQLBoolean }, ...mutationArgs },
        resolve: resolve.delete,
      },
    },
  };
}

function outputType(type: FieldType): GraphQLOutputType {
  return graphqlTypeOf(type) as GraphQLOutputType;
}

function inputType(type: FieldType): GraphQLInputType {
  return graphqlTypeOf(type) as GraphQLInputType;
}

function graphqlTypeOf(type: FieldType): GraphQLOutputType & GraphQLInputType {
  switch (type) {
    case 'String':
      return GraphQLString;
    case 'Float':
      return GraphQLFloat;
    case 'Boolean':
      return GraphQLBoolean;
    case '[String]':
      return new GraphQLList(GraphQLString);
    case '[Float]':
      return new GraphQLList(GraphQLFloat);
    case '[Boolean]':
      return new GraphQLList(GraphQLBoolean);
    case 'Vector':
      return new GraphQLList(new GraphQLNonNull(GraphQLFloat));
    case 'JSON':
      return GraphQLJSON;
  }
}

/** Lists filter by element (the Data API matches an array field by its elements); vectors are not filtered. */
function filterScalarOf(type: FieldType): FilterScalar | undefined {
  if (type === 'Vector') return undefined;
  if (type === 'JSON') return 'JSON';
  return type.replace(/[[\]]/g, '') as FilterScalar;
}

/** A value that does not fit the field's type (a document not yet sampled) is null; the schema widens next time. */
function fieldValue(value: JsonValue | undefined, type: FieldType): JsonValue {
  if (value === undefined || value === null) return null;
  const fits = (v: JsonValue, scalar: string): boolean => (scalar === 'Float' ? typeof v === 'number' : scalar === 'String' ? typeof v === 'string' : typeof v === 'boolean');
  switch (type) {
    case 'JSON':
      return value;
    case 'Vector':
      return Array.isArray(value) && value.every((v) => typeof v === 'number') ? value : null;
    case '[String]':
    case '[Float]':
    case '[Boolean]':
      return Array.isArray(value) && value.every((v) => v === null || fits(v, type.slice(1, -1))) ? value : null;
    default:
      return fits(value, type) ? value : null;
  }
}

/** `_id` as an ID: strings and numbers as they are, `{"$uuid": ...}` / `{"$objectId": ...}` by their text. */
function idOf(id: JsonValue | undefined): string | number | null {
  if (typeof id === 'string' || typeof id === 'number') return id;
  if (id !== null && typeof id === 'object' && !Array.isArray(id)) {
    const inner = Object.values(id)[0];
    if (typeof inner === 'string' || typeof inner === 'number') return inner;
  }
  return id === undefined ? null : JSON.stringify(id);
}

function withoutSimilarity(doc: JsonObject): JsonObject {
  if (!('$similarity' in doc)) return doc;
  const { $similarity: _, ...rest } = doc;
  return rest;
}
