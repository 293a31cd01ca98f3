/**
 * Column values of tables: the one place that validates and coerces a JSON value to a column's type
 * (as the Data API accepts it) into its stored form, and turns a stored value back into the JSON the
 * Data API returns. Stored forms: exact numbers (bigint, varint, decimal) as canonical strings, timestamps
 * as epoch ms, blobs and vectors as base64 (vectors as the Data API's $binary float32 text), sets sorted and
 * unique, maps as [key, value] pairs sorted by key.
 */
import { ExactDecimal, approximate, exactText, isExactNumber } from '../../query/exact-number.js';
import { isObject, type JsonObject, type JsonValue } from '../../query/json.js';
import { decodeBinaryVector, encodeBinaryVector } from '../../query/vector-value.js';
import { float32Numbers } from '../collections/stored-vector.js';
import { shortestFloat32 } from '../../vector-index/index.js';
import { encodeKeyPart } from './key-codec.js';
import type { ColumnType, ScalarType, TypeLookup } from './schema.js';

/** Why a value does not fit its column (the caller names the column and picks the error code). */
export class ValueProblem extends Error {}

const INT_RANGES: Partial<Record<ScalarType, readonly [number, number]>> = {
  tinyint: [-128, 127],
  smallint: [-32768, 32767],
  int: [-2147483648, 2147483647],
};
const BIGINT_MAX = 2n ** 63n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Four-digit years, or a sign and five or more digits (as java.time's ISO form). */
const DATE = /^(-?\d{4}|[+-]\d{5,})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{0,9}))?)?$/;
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const TEXT_KEYS = new Set(['text', 'ascii', 'varchar']);

/** A JSON value as stored for `type`; null (or an empty list, set or map) means no value. */
export function coerceValue(value: JsonValue | undefined, type: ColumnType, types: TypeLookup): JsonValue | null {
  if (value === undefined || value === null) return null;
  switch (type.type) {
    case 'list':
    case 'set': {
      if (!Array.isArray(value)) throw new ValueProblem(`a ${type.type} needs a JSON array`);
      const items = value.map((item) => {
        const coerced = coerceValue(item, type.valueType, types);
        if (coerced === null) throw new ValueProblem(`a ${type.type} cannot hold null`);
        return coerced;
      });
      if (items.length === 0) return null;
      return type.type === 'set' ? sortedUnique(items.map((item) => [item, keyOf(item, type.valueType)] as const)).map(([item]) => item) : items;
    }
    case 'map': {
      const entries: [JsonValue, JsonValue][] = [];
      if (Array.isArray(value) && value.length === 0) throw new ValueProblem('an empty map is written as {} (an empty array is not a map)');
      const pairs: JsonValue[][] = Array.isArray(value)
        ? value.map((pair) => (Array.isArray(pair) && pair.length === 2 ? pair : badPair()))
        : isObject(value) && !isEjson(value)
          ? Object.entries(value)
          : badPair();
      for (const [k, v] of pairs) {
        const key = coerceValue(k, type.keyType, types);
        const item = coerceValue(v, type.valueType, types);
        if (key === null || item === null) throw new ValueProblem('map keys and values cannot be null');
        entries.push([key, item]);
      }
      if (entries.length === 0) return null;
      const keyed = entries.map((entry) => [entry, keyOf(entry[0], type.keyType)] as const);
      return sortedUnique(keyed, true).map(([entry]) => entry);
    }
    case 'vector':
      return coerceVector(value, type.dimension);
    case 'userDefined': {
      const fields = types(type.udtName) ?? {};
      if (!isObject(value)) throw new ValueProblem(`the user-defined type ${type.udtName} needs a JSON object`);
      const out: JsonObject = {};
      for (const [field, raw] of Object.entries(value)) {
        const fieldType = fields[field];
        if (!fieldType) throw new ValueProblem(`the user-defined type ${type.udtName} has no field '${field}' (fields: ${Object.keys(fields).join(', ')})`);
        const coerced = coerceValue(raw, fieldType, types);
        if (coerced !== null) out[field] = coerced;
      }
      return out; // a value whose fields are all null is still a value (CQL)
    }
    default:
      return coerceScalar(value, type.type);
  }
}

function badPair(): never {
  throw new ValueProblem('a map needs a JSON object or an array of [key, value] pairs');
}

function isEjson(value: JsonObject): boolean {
  return Object.keys(value).length === 1 && Object.keys(value)[0]!.startsWith('$');
}

/** Items sorted by their key encoding, later duplicates winning (a map's later entry replaces an earlier one). */
function sortedUnique<T>(keyed: readonly (readonly [T, string])[], lastWins = false): (readonly [T, string])[] {
  const byKey = new Map<string, readonly [T, string]>();
  for (const item of keyed) if (lastWins || !byKey.has(item[1])) byKey.set(item[1], item);
  return [...byKey.values()].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
}

function keyOf(value: JsonValue, type: ColumnType): string {
  return type.type === 'userDefined' ? JSON.stringify(value) : encodeKeyPart(value, type.type as ScalarType);
}

function coerceVector(value: JsonValue, dimension: number): JsonValue {
  let values: number[];
  if (Array.isArray(value)) {
    if (value.some((v) => typeof v !== 'number' || !Number.isFinite(v))) throw new ValueProblem('a vector needs an array of finite numbers');
    values = (value as number[]).map((v) => Math.fround(v));
  } else if (isObject(value) && typeof value.$binary === 'string') {
    try {
      values = Array.from(decodeBinaryVector(value.$binary));
    } catch (error) {
      throw new ValueProblem(`bad $binary vector: ${(error as Error).message}`);
    }
  } else throw new ValueProblem('a vector needs an array of numbers or a {"$binary": ...} object');
  if (values.length !== dimension) throw new ValueProblem(`the vector has ${values.length} dimensions, the column ${dimension}`);
  // Stored as the $binary text (float32, big-endian, base64): a row with a vector parses fast.
  return encodeBinaryVector(values);
}

function coerceScalar(value: JsonValue, type: ScalarType): JsonValue {
  switch (type) {
    case 'text':
    case 'varchar':
      return text(value);
    case 'ascii': {
      const s = text(value);
      if (/[^\u0000-\u007f]/.test(s)) throw new ValueProblem('ascii holds only characters U+0000 to U+007F');
      return s;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw new ValueProblem('boolean needs true or false');
      return value;
    case 'tinyint':
    case 'smallint':
    case 'int': {
      const [min, max] = INT_RANGES[type]!;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ValueProblem(`${type} needs an integer from ${min} to ${max}`);
      return value;
    }
    case 'bigint':
    case 'varint': {
      const n = integerOf(value);
      if (type === 'bigint' && (n >= BIGINT_MAX || n < -BIGINT_MAX)) throw new ValueProblem('bigint needs an integer of 64 bits');
      return n.toString();
    }
    case 'decimal':
      if (isExactNumber(value)) return canonicalDecimal(exactText(value)); // digits a double cannot hold, kept
      if (typeof value !== 'number') throw new ValueProblem('decimal needs a finite JSON number');
      return canonicalDecimal(value);
    case 'float':
    case 'double': {
      if (typeof value === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(value)) return value;
      if (isExactNumber(value)) return type === 'float' ? Math.fround(approximate(value)) : approximate(value);
      if (typeof value !== 'number') throw new ValueProblem(`${type} needs a number (or "NaN", "Infinity", "-Infinity")`);
      return type === 'float' ? Math.fround(value) : value;
    }
    case 'date':
      return canonicalDate(text(value));
    case 'time':
      return canonicalTime(text(value));
    case 'timestamp':
      return timestampOf(value);
    case 'duration':
      return canonicalDuration(text(value));
    case 'uuid':
    case 'timeuuid': {
      const raw = isObject(value) && typeof value.$uuid === 'string' ? value.$uuid : value;
      const s = text(raw).toLowerCase();
      if (!UUID.test(s)) throw new ValueProblem(`${type} needs a UUID string such as "123e4567-e89b-12d3-a456-426614174000"`);
      if (type === 'timeuuid' && s[14] !== '1') throw new ValueProblem('timeuuid needs a version 1 (time-based) UUID');
      return s;
    }
    case 'inet':
      return canonicalInet(text(value));
    case 'blob': {
      if (!isObject(value) || typeof value.$binary !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value.$binary)) throw new ValueProblem('blob needs {"$binary": "<base64>"}');
      return value.$binary;
    }
  }
}

function text(value: JsonValue): string {
  if (typeof value !== 'string') throw new ValueProblem('needs a string');
  return value;
}

/** A JSON number that is an integer (the Data API takes no strings for bigint and varint). */
function integerOf(value: JsonValue): bigint {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'bigint') return value;
  if (value instanceof ExactDecimal && value.isInteger()) return BigInt(value.toFixed());
  throw new ValueProblem('needs an integer JSON number');
}

/** A decimal's canonical text: no leading zeros, no trailing fractional zeros, no exponent. */
export function canonicalDecimal(value: JsonValue): string {
  const raw = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  const match = typeof raw === 'string' ? DECIMAL.exec(raw) : null;
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new ValueProblem('decimal needs a finite number');
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead);
  point -= lead;
  digits = digits.replace(/0+$/, '');
  if (digits === '') return '0';
  const body = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign === '-' ? `-${body}` : body;
}

function canonicalDate(s: string): string {
  const match = DATE.exec(s);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw new ValueProblem('date needs "YYYY-MM-DD" (a sign and more digits for years past 9999)');
  return s;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function canonicalTime(s: string): string {
  const match = TIME.exec(s);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59 || Number(match[3] ?? 0) > 59) throw new ValueProblem('time needs "HH:MM:SS[.fffffffff]"');
  const fraction = (match[4] ?? '').replace(/0+$/, '');
  const seconds = `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
  return fraction ? `${seconds}.${fraction}` : seconds;
}

function timestampOf(value: JsonValue): number {
  const ms = isObject(value) && typeof value.$date === 'number' ? value.$date : typeof value === 'string' && /^[+-]?\d{4,}-\d{2}-\d{2}(T|$)/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms) || !Number.isInteger(ms)) throw new ValueProblem('timestamp needs an ISO-8601 date-time such as "2024-01-31T12:00:00.000Z"');
  return ms;
}

const DURATION_UNITS: Record<string, [field: 'months' | 'days' | 'nanos', per: bigint]> = {
  y: ['months', 12n], mo: ['months', 1n], w: ['days', 7n], d: ['days', 1n], h: ['nanos', 3_600_000_000_000n],
  m: ['nanos', 60_000_000_000n], s: ['nanos', 1_000_000_000n], ms: ['nanos', 1_000_000n], us: ['nanos', 1000n], 'µs': ['nanos', 1000n], ns: ['nanos', 1n],
};

/** A duration (Cassandra's "1h30m" form or ISO-8601's "PT1H30M") in the Data API's canonical ISO-8601 form. */
function canonicalDuration(s: string): string {
  const negative = s.startsWith('-');
  const body = negative ? s.slice(1) : s;
  const total = { months: 0n, days: 0n, nanos: 0n };
  const add = (unit: string, amount: string) => {
    const [field, per] = DURATION_UNITS[unit]!;
    total[field] += BigInt(amount) * per;
  };
  const iso = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,9}))?S)?)?$/.exec(body);
  if (iso && body !== 'P' && !body.endsWith('T')) {
    ['y', 'mo', 'w', 'd', 'h', 'm', 's'].forEach((unit, i) => iso[i + 1] !== undefined && add(unit, iso[i + 1]!));
    if (iso[8]) add('ns', iso[8].padEnd(9, '0'));
  } else {
    const parts = body.toLowerCase().match(/\d+(y|mo|w|d|h|ms|us|µs|ns|m|s)/g);
    if (!parts || parts.join('') !== body.toLowerCase()) throw new ValueProblem('duration needs a form such as "1h30m" or "PT1H30M"');
    for (const part of parts) {
      const [, amount, unit] = /^(\d+)(.+)$/.exec(part)!;
      add(unit!, amount!);
    }
  }
  // The Data API's (ISO-8601) form: PnYnMnDTnHnMn.fffffffffS, zero parts left out.
  const years = total.months / 12n;
  const months = total.months % 12n;
  let date = '';
  if (years) date += `${years}Y`;
  if (months) date += `${months}M`;
  if (total.days) date += `${total.days}D`;
  const hours = total.nanos / 3_600_000_000_000n;
  const minutes = (total.nanos / 60_000_000_000n) % 60n;
  const seconds = (total.nanos / 1_000_000_000n) % 60n;
  const fraction = (total.nanos % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  let time = '';
  if (hours) time += `${hours}H`;
  if (minutes) time += `${minutes}M`;
  if (seconds || fraction) time += fraction ? `${seconds}.${fraction}S` : `${seconds}S`;
  const out = date === '' && time === '' ? 'PT0S' : `P${date}${time ? `T${time}` : ''}`;
  return negative && out !== 'PT0S' ? `-${out}` : out;
}

/**
 * An address as java.net.InetAddress prints it: IPv4 dotted quads (from the inet_aton forms "127.1" and
 * "192.168.36095" too, "localhost" as 127.0.0.1, an IPv4-mapped IPv6 address as its IPv4 part), IPv6 as
 * eight lowercase groups without leading zeros and without "::".
 */
function canonicalInet(s: string): string {
  if (s === 'localhost') return '127.0.0.1';
  const v4 = ipv4Of(s);
  if (v4 !== undefined) return v4;
  if (!isIpv6(s)) throw new ValueProblem('inet needs an IPv4 or IPv6 address');
  const [head = '', tail] = s.split('::');
  const part = (text: string): string[] => (text === '' ? [] : text.split(':').flatMap((g) => (g.includes('.') ? v4Groups(g) : [g])));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right].map((g) => parseInt(g, 16));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  return groups.map((g) => g.toString(16)).join(':');
}

function v4Groups(dotted: string): string[] {
  const bytes = dotted.split('.').map(Number);
  return [((bytes[0]! << 8) | bytes[1]!).toString(16), ((bytes[2]! << 8) | bytes[3]!).toString(16)];
}

/** IPv4 in the inet_aton forms a, a.b, a.b.c, a.b.c.d (decimal parts; the last fills the remaining bytes). */
function ipv4Of(s: string): string | undefined {
  if (!/^\d+(\.\d+){0,3}$/.test(s)) return undefined;
  const parts = s.split('.').map(Number);
  const last = parts.pop()!;
  const lastBytes = 4 - parts.length;
  if (parts.some((p) => p > 255) || last >= 2 ** (8 * lastBytes)) throw new ValueProblem('inet needs an IPv4 or IPv6 address');
  const bytes = [...parts];
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return bytes.join('.');
}

function isIpv6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(':')) return false;
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  const last = groups.at(-1) ?? '';
  const v4 = IPV4.test(last);
  const hex = v4 ? groups.slice(0, -1) : groups;
  if (hex.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = hex.length + (v4 ? 2 : 0);
  return halves.length === 2 ? count < 8 : count === 8;
}

/** A stored value as the Data API returns it. */
export function valueToWire(value: JsonValue, type: ColumnType, types: TypeLookup): JsonValue {
  switch (type.type) {
    case 'list':
    case 'set':
      return (value as JsonValue[]).map((item) => valueToWire(item, type.valueType, types));
    case 'map': {
      const entries = value as [JsonValue, JsonValue][];
      const wire = entries.map(([k, v]) => [valueToWire(k, type.keyType, types), valueToWire(v, type.valueType, types)] as [JsonValue, JsonValue]);
      return TEXT_KEYS.has(type.keyType.type) ? Object.fromEntries(wire) : wire;
    }
    case 'userDefined': {
      const fields = types(type.udtName) ?? {};
      const out: JsonObject = {};
      for (const [field, v] of Object.entries(value as JsonObject)) if (fields[field]) out[field] = valueToWire(v, fields[field]!, types);
      return out;
    }
    case 'bigint':
    case 'varint':
    case 'decimal': {
      // Stored as canonical text; written back as a number, exact (bigint, ExactDecimal) when a double would round it.
      const n = Number(value);
      if (type.type === 'decimal') return canonicalDecimal(n) === value ? n : new ExactDecimal(value as string);
      return Number.isSafeInteger(n) ? n : BigInt(value as string);
    }
    case 'timestamp':
      return new Date(value as number).toISOString();
    case 'float':
      return typeof value === 'number' ? shortestFloat32(value) : value;
    case 'vector':
      // Components as Java prints a float (0.123123, not 0.12312299758195877), as the Data API writes them.
      return float32Numbers(decodeBinaryVector(value));
    case 'blob':
      return { $binary: value as string };
    default:
      return value;
  }
}
