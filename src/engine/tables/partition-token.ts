/**
 * A partition's place in a table's row keys (key format 2): the Murmur3Partitioner token of its partition
 * key, serialized as Cassandra serializes it (each stored value in its CQL type's bytes; a composite
 * partition key as CompositeType: per column a 2-byte length, the bytes, and a 0 byte), written as 16
 * hex digits of token + 2^63 so that key order is token order (signed). tables/store.ts puts it first.
 */
import type { JsonObject, JsonValue } from '../../query/json.js';
import { daysFromCivil } from './key-codec.js';
import { murmur3Token } from './murmur3.js';
import type { ColumnType, TableRecord } from './schema.js';

const encoder = new TextEncoder();

/** The token part of the row keys of a partition, from the stored values of its partition columns. */
export function partitionTokenPart(row: JsonObject, record: TableRecord): string {
  return tokenKeyPart(partitionToken(row, record));
}

export function partitionToken(row: JsonObject, record: TableRecord): bigint {
  const columns = record.primaryKey.partitionBy;
  const parts = columns.map((column) => valueBytes(row[column]!, record.columns[column]!));
  if (parts.length === 1) return murmur3Token(parts[0]!);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length + 3, 0));
  let at = 0;
  for (const part of parts) {
    out[at] = part.length >> 8;
    out[at + 1] = part.length & 0xff;
    out.set(part, at + 2);
    at += part.length + 3; // the end-of-component byte stays 0
  }
  return murmur3Token(out);
}

/** A signed 64-bit token as 16 hex digits whose order is the tokens' order. */
export function tokenKeyPart(token: bigint): string {
  return (token + (1n << 63n)).toString(16).padStart(16, '0');
}

/** A stored value (tables/values.ts forms) as its CQL type serializes it. */
export function valueBytes(value: JsonValue, type: ColumnType): Uint8Array {
  switch (type.type) {
    case 'text':
    case 'varchar':
    case 'ascii':
      return encoder.encode(value as string);
    case 'boolean':
      return Uint8Array.of(value ? 1 : 0);
    case 'tinyint':
      return fixed(BigInt(value as number), 1);
    case 'smallint':
      return fixed(BigInt(value as number), 2);
    case 'int':
      return fixed(BigInt(value as number), 4);
    case 'bigint':
    case 'timestamp':
      return fixed(BigInt(value as string | number), 8);
    case 'varint':
      return twosComplement(BigInt(value as string));
    case 'decimal':
      return decimalBytes(value as string);
    case 'float':
    case 'double': {
      const width = type.type === 'float' ? 4 : 8;
      const view = new DataView(new ArrayBuffer(width));
      const n = typeof value === 'number' ? value : Number(value);
      if (width === 4) view.setFloat32(0, n);
      else view.setFloat64(0, n);
      return new Uint8Array(view.buffer);
    }
    case 'date': {
      // SimpleDateType: days since the epoch, centred on 2^31, unsigned.
      const [, year, month, day] = /^([+-]?\d+)-(\d{2})-(\d{2})$/.exec(value as string)!;
      return fixed(BigInt(daysFromCivil(Number(year), Number(month), Number(day))) + (1n << 31n), 4);
    }
    case 'time': {
      const [hms, fraction = ''] = (value as string).split('.');
      const [h, m, s] = hms!.split(':').map((p) => BigInt(p));
      return fixed(((h! * 60n + m!) * 60n + s!) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0') || '0'), 8);
    }
    case 'uuid':
    case 'timeuuid':
      return hexBytes((value as string).replaceAll('-', ''));
    case 'inet':
      return inetBytes(value as string);
    case 'blob':
      return Uint8Array.from(atob(value as string), (c) => c.charCodeAt(0));
    default:
      // Not a partition key type (collections, vectors, durations, user-defined types): never asked.
      return encoder.encode(JSON.stringify(value));
  }
}

function fixed(n: bigint, width: number): Uint8Array {
  const out = new Uint8Array(width);
  let v = BigInt.asUintN(width * 8, n);
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Java's BigInteger.toByteArray: the shortest big-endian two's complement. */
function twosComplement(n: bigint): Uint8Array {
  let width = 1;
  while (n < -(1n << BigInt(width * 8 - 1)) || n >= 1n << BigInt(width * 8 - 1)) width++;
  return fixed(n, width);
}

/** DecimalType: a 4-byte scale, then the unscaled value as a varint. */
function decimalBytes(text: string): Uint8Array {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace(/^-/, '').split('.');
  const unscaled = BigInt(whole + fraction) * (negative ? -1n : 1n);
  const digits = twosComplement(unscaled);
  const out = new Uint8Array(4 + digits.length);
  out.set(fixed(BigInt(fraction.length), 4));
  out.set(digits, 4);
  return out;
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

/** An address as stored (dotted IPv4, or eight IPv6 groups) in its 4 or 16 bytes. */
function inetBytes(text: string): Uint8Array {
  if (!text.includes(':')) return Uint8Array.from(text.split('.').map(Number));
  return hexBytes(text.split(':').map((group) => group.padStart(4, '0')).join(''));
}
