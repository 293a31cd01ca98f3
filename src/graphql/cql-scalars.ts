/**
 * Stargate's CQL scalars (reference/graphql.md 1.5: Uuid, TimeUuid, Inet, Date, Duration, BigInt, Ascii, Decimal,
 * Varint, Float32, Blob, SmallInt, TinyInt, Timestamp, Time), as table columns use them. Parsing turns a GraphQL
 * value into the JSON the Data API takes for the column (a blob's `{"$binary": ...}`, big integers exact);
 * serializing turns the Data API's JSON back. The Data API command validates the value itself.
 */
import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLScalarType, GraphQLString, Kind, type ValueNode } from 'graphql';
import { ExactDecimal, isExactNumber } from '../query/exact-number.js';
import type { JsonValue } from '../query/json.js';

type Parse = (value: unknown) => JsonValue;

function scalar(name: string, description: string, parse: Parse, serialize: (value: unknown) => unknown): GraphQLScalarType {
  return new GraphQLScalarType({
    name,
    description,
    serialize,
    parseValue: parse,
    parseLiteral: (node: ValueNode) => parse(literal(node)),
  });
}

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
      return node.value;
    case Kind.INT:
      return BigInt(node.value);
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.BOOLEAN:
      return node.value;
    default:
      return undefined;
  }
}

function needString(name: string): Parse {
  return (value) => {
    if (typeof value !== 'string') throw new TypeError(`${name} needs a string`);
    return value;
  };
}

/** An integer given as a GraphQL Int or a string: a number when a double holds it exactly, else a bigint. */
function needInteger(name: string): Parse {
  return (value) => {
    let n: bigint;
    if (typeof value === 'bigint') n = value;
    else if (typeof value === 'number' && Number.isInteger(value)) n = BigInt(value);
    else if (typeof value === 'string' && /^[+-]?\d+$/.test(value)) n = BigInt(value);
    else throw new TypeError(`${name} needs an integer literal or a string of digits`);
    return Number.isSafeInteger(Number(n)) ? Number(n) : (n as unknown as JsonValue);
  };
}

function needNumber(name: string, integer: boolean): Parse {
  return (value) => {
    const n = typeof value === 'bigint' ? Number(value) : value;
    if (typeof n !== 'number' || (integer && !Number.isInteger(n))) throw new TypeError(`${name} needs ${integer ? 'an integer' : 'a number'}`);
    return n;
  };
}

/** Exact numbers out as their digits (Stargate sends bigint, varint and decimal as strings). */
function digits(value: unknown): string {
  if (isExactNumber(value)) return value.toString();
  return String(value);
}

const text = (value: unknown): unknown => value;

export const CQL_SCALARS = {
  uuid: scalar('Uuid', 'A CQL `uuid` as a string, e.g. "fe86cad0-1965-11eb-84e6-ab660d2e8c9e".', needString('Uuid'), text),
  timeuuid: scalar('TimeUuid', 'A CQL `timeuuid` (a version 1 UUID) as a string.', needString('TimeUuid'), text),
  inet: scalar('Inet', 'A CQL `inet` as a string: an IPv4 or IPv6 address, e.g. "127.0.0.1", "::1".', needString('Inet'), text),
  date: scalar('Date', 'A CQL `date` as a string, e.g. "2020-10-21".', needString('Date'), text),
  duration: scalar('Duration', 'A CQL `duration` as a string, e.g. "1h4m48s20ms" or "PT1H4M48.02S".', needString('Duration'), text),
  bigint: scalar('BigInt', 'A CQL `bigint` (64-bit signed integer): an integer literal or a string in, a string out.', needInteger('BigInt'), digits),
  varint: scalar('Varint', 'A CQL `varint` (arbitrary-precision integer): an integer literal or a string in, a string out.', needInteger('Varint'), digits),
  decimal: scalar(
    'Decimal',
    'A CQL `decimal` as a string, e.g. "1.5", "1e-3" (exact: no rounding through a double).',
    (value) => {
      if (typeof value === 'number') return value;
      if (typeof value === 'bigint') return new ExactDecimal(value.toString()) as unknown as JsonValue;
      if (typeof value !== 'string' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) throw new TypeError('Decimal needs a decimal number as a string, e.g. "1.5"');
      return new ExactDecimal(value) as unknown as JsonValue;
    },
    digits,
  ),
  ascii: scalar('Ascii', 'A CQL `ascii` string (characters U+0000 to U+007F only).', needString('Ascii'), text),
  float: scalar('Float32', 'A CQL `float` (32-bit IEEE-754) as a floating-point literal.', needNumber('Float32', false), (value) => value),
  blob: scalar(
    'Blob',
    'A CQL `blob` as a base64 string, e.g. "yv4=" (0xCAFE).',
    (value) => {
      if (typeof value !== 'string') throw new TypeError('Blob needs a base64 string');
      return { $binary: value };
    },
    (value) => (value !== null && typeof value === 'object' && '$binary' in value ? (value as { $binary: string }).$binary : value),
  ),
  smallint: scalar('SmallInt', 'A CQL `smallint` (16-bit signed integer).', needNumber('SmallInt', true), (value) => value),
  tinyint: scalar('TinyInt', 'A CQL `tinyint` (8-bit signed integer).', needNumber('TinyInt', true), (value) => value),
  timestamp: scalar(
    'Timestamp',
    'A CQL `timestamp`: an ISO-8601 string ("2011-02-03T04:05:00Z") or epoch milliseconds in; an ISO-8601 string out.',
    (value) => {
      if (typeof value === 'string') return value;
      const ms = typeof value === 'bigint' ? Number(value) : value;
      if (typeof ms !== 'number' || !Number.isInteger(ms)) throw new TypeError('Timestamp needs an ISO-8601 string or epoch milliseconds');
      return { $date: ms };
    },
    text,
  ),
  time: scalar('Time', 'A CQL `time` as a string, e.g. "10:15:30.123456789".', needString('Time'), text),
} as const;

/** The GraphQL scalar of a CQL scalar type name (text/varchar String, int Int, double Float, boolean Boolean). */
export function cqlScalar(type: string): GraphQLScalarType | undefined {
  switch (type) {
    case 'text':
    case 'varchar':
      return GraphQLString;
    case 'int':
      return GraphQLInt;
    case 'double':
      return GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    default:
      return (CQL_SCALARS as Record<string, GraphQLScalarType>)[type];
  }
}

/** Type names the CQL scalars take: an entity named like one is skipped. */
export const CQL_SCALAR_NAMES: readonly string[] = Object.values(CQL_SCALARS).map((s) => s.name);
