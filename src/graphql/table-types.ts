/**
 * Table column types in GraphQL, as Stargate's CQL-first schema models them (FieldTypeCache and friends): scalars
 * (cql-scalars.ts), lists and sets as lists, maps as `[Entry<K>Key<V>Value]` of `{key, value}`, a user-defined type
 * `x` as `xUdt` / `xUdtInput`, vectors as `[Float]`; filter inputs `<T>FilterInput` (`List<T>FilterInput` with
 * `contains`, maps with `containsKey`, `contains`, `containsEntry`). Also converts values between the Data API's
 * JSON and these shapes. Types are shared across the tables of one schema through SharedTypes.named.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLString,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  isNamedType,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLType,
} from 'graphql';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';
import { cqlScalar } from './cql-scalars.js';
import { GraphQLJSON } from './json-scalar.js';
import { fieldName } from './names.js';
import { comparisonFields, type FilterScalar, type SharedTypes } from './shared-types.js';

/** A column type as listTables (explain) describes it, normalized: element types as objects too. */
export interface ColumnShape {
  readonly type: string;
  readonly keyType?: ColumnShape;
  readonly valueType?: ColumnShape;
  readonly udtName?: string;
  readonly fields?: Readonly<Record<string, ColumnShape>>;
}

export function columnShape(raw: JsonValue | undefined): ColumnShape {
  if (typeof raw === 'string') return { type: raw };
  if (!isObject(raw) || typeof raw.type !== 'string') return { type: 'unknown' };
  const fields = isObject(raw.definition) && isObject(raw.definition.fields) ? raw.definition.fields : undefined;
  return {
    type: raw.type,
    ...(raw.keyType !== undefined ? { keyType: columnShape(raw.keyType) } : {}),
    ...(raw.valueType !== undefined ? { valueType: columnShape(raw.valueType) } : {}),
    ...(typeof raw.udtName === 'string' ? { udtName: raw.udtName } : {}),
    ...(fields ? { fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, columnShape(v)])) } : {}),
  };
}

const COLLECTIONS = new Set(['list', 'set', 'map']);

/** Whether a column can be filtered and sorted on (not a vector, a user-defined type or a type we do not know). */
export function isComparable(shape: ColumnShape): boolean {
  return shape.type !== 'vector' && shape.type !== 'userDefined' && (COLLECTIONS.has(shape.type) || cqlScalar(shape.type) !== undefined);
}

export function isScalar(shape: ColumnShape): boolean {
  return cqlScalar(shape.type) !== undefined;
}

export class TableTypes {
  constructor(private readonly shared: SharedTypes) {}

  output(shape: ColumnShape): GraphQLOutputType {
    return this.#build(shape, false) as GraphQLOutputType;
  }

  input(shape: ColumnShape): GraphQLInputType {
    return this.#build(shape, true) as GraphQLInputType;
  }

  /** The `<T>FilterInput` of a column, or undefined when the column cannot be filtered on. */
  filter(shape: ColumnShape): GraphQLInputObjectType | undefined {
    if (!isComparable(shape)) return undefined;
    const input = this.input(shape);
    // String, Float and Boolean share the collections' filters (theirs add `exists`, which a table refuses).
    if (input === GraphQLString || input === GraphQLFloat || input === GraphQLBoolean) return this.shared.filterInput(input.name as FilterScalar);
    const name = `${filterName(input)}FilterInput`;
    return this.shared.named(name, () => {
      const fields = comparisonFields(input);
      if (shape.type === 'list' || shape.type === 'set') fields.contains = { type: this.input(shape.valueType!), description: 'The column holds this element.' };
      if (shape.type === 'map') {
        fields.containsKey = { type: this.input(shape.keyType!), description: 'The map has this key.' };
        fields.contains = { type: this.input(shape.valueType!), description: 'The map has this value.' };
        fields.containsEntry = { type: (input as GraphQLList<GraphQLInputType>).ofType, description: 'The map has this key with this value.' };
      }
      return new GraphQLInputObjectType({ name, description: 'Conditions on a column; several are ANDed.', fields });
    });
  }

  #build(shape: ColumnShape, input: boolean): GraphQLType {
    switch (shape.type) {
      case 'list':
      case 'set':
        return new GraphQLList(this.#build(shape.valueType!, input));
      case 'vector':
        return new GraphQLList(GraphQLFloat);
      case 'map': {
        const key = this.#build(shape.keyType!, input);
        const value = this.#build(shape.valueType!, input);
        const name = `Entry${typeName(key)}Key${typeName(value)}Value${input ? 'Input' : ''}`;
        const fields = { key: { type: new GraphQLNonNull(key) }, value: { type: value } } as never;
        return new GraphQLList(
          this.shared.named(name, () =>
            input ? new GraphQLInputObjectType({ name, description: 'A key/value entry of a map.', fields }) : new GraphQLObjectType({ name, description: 'A key/value entry of a map.', fields }),
          ),
        );
      }
      case 'userDefined': {
        const name = `${fieldName(shape.udtName!)}Udt${input ? 'Input' : ''}`;
        return this.shared.named(name, () => {
          const fields: Record<string, { type: never; resolve?: (v: JsonObject) => unknown }> = {};
          for (const [field, type] of Object.entries(shape.fields ?? {})) {
            fields[fieldName(field)] = { type: this.#build(type, input) as never, ...(input ? {} : { resolve: (v: JsonObject) => toGraphqlValue(v[field], type) }) };
          }
          if (Object.keys(fields).length === 0) fields._empty = { type: GraphQLJSON as never };
          const description = `The user-defined type '${shape.udtName}'.`;
          return input ? new GraphQLInputObjectType({ name, description, fields }) : new GraphQLObjectType({ name, description, fields });
        });
      }
      default:
        return cqlScalar(shape.type) ?? GraphQLJSON;
    }
  }
}

/** Stargate's composite names: a named type by its name, a list as `List<element>`. */
function typeName(type: GraphQLType): string {
  if (isNamedType(type)) return type.name;
  if (type instanceof GraphQLList) return `List${typeName(type.ofType as GraphQLType)}`;
  return typeName((type as GraphQLNonNull<GraphQLType>).ofType);
}

/** FieldFilterInputTypeCache's name: an input object loses its `Input` suffix. */
function filterName(type: GraphQLType): string {
  if (type instanceof GraphQLList) return `List${filterName(type.ofType as GraphQLType)}`;
  const name = typeName(type);
  return type instanceof GraphQLInputObjectType && name.endsWith('Input') ? name.slice(0, -5) : name;
}

/** A Data API value as the GraphQL field shows it: maps become `{key, value}` entries. */
export function toGraphqlValue(value: JsonValue | undefined, shape: ColumnShape): unknown {
  if (value === undefined || value === null) return null;
  switch (shape.type) {
    case 'list':
    case 'set':
      return Array.isArray(value) ? value.map((v) => toGraphqlValue(v, shape.valueType!)) : null;
    case 'map': {
      const pairs = Array.isArray(value) ? (value as JsonValue[][]) : isObject(value) ? Object.entries(value) : [];
      return pairs.map(([key, v]) => ({ key: toGraphqlValue(key, shape.keyType!), value: toGraphqlValue(v, shape.valueType!) }));
    }
    default:
      return value; // scalars serialize themselves; a UDT's fields resolve through its type
  }
}

/** A GraphQL input value as the Data API takes it: map entries become `[key, value]` pairs. */
export function toWireValue(value: unknown, shape: ColumnShape): JsonValue {
  if (value === undefined || value === null) return null;
  switch (shape.type) {
    case 'list':
    case 'set':
      return (value as unknown[]).map((v) => toWireValue(v, shape.valueType!));
    case 'map':
      // An empty map is written as {} (the Data API reads [] as a list).
      return (value as { key: unknown; value: unknown }[]).length === 0 ? {} : (value as { key: unknown; value: unknown }[]).map((e) => [toWireValue(e.key, shape.keyType!), toWireValue(e.value, shape.valueType!)]);
    case 'userDefined': {
      const out: JsonObject = {};
      for (const [field, type] of Object.entries(shape.fields ?? {})) {
        const v = (value as Record<string, unknown>)[fieldName(field)];
        if (v !== undefined) out[field] = toWireValue(v, type);
      }
      return out;
    }
    default:
      return value as JsonValue;
  }
}
