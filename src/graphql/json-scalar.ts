/**
 * `JSON`, the schema's one custom scalar: whole documents, native filters and update clauses pass through it
 * unchanged (gateways leave it alone, reference/graphql.md 3). Literals in a query become plain JSON values.
 */
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import type { JsonObject, JsonValue } from '../query/json.js';

export const GraphQLJSON = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value: a whole document, a Data API filter or update clause.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => literalValue(node, variables ?? undefined),
});

function literalValue(node: ValueNode, variables: Record<string, unknown> | undefined): JsonValue {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((item) => literalValue(item, variables));
    case Kind.OBJECT: {
      const out: JsonObject = {};
      for (const field of node.fields) out[field.name.value] = literalValue(field.value, variables);
      return out;
    }
    case Kind.VARIABLE:
      return (variables?.[node.name.value] ?? null) as JsonValue;
  }
}
