/**
 * JSON values as the Data API sees them: documents, EJSON wrappers ($date, $uuid, $objectId, $binary),
 * key-order-sensitive equality and dotted paths. Shared by filter, projection, sort and update.
 * Pure functions only: no storage, no protocol envelopes.
 */
import { ExactDecimal, compareNumbers, isExactNumber, type ExactNumber } from './exact-number.js';

/** Numbers no double names exactly are a bigint or an ExactDecimal (see exact-number.ts). */
export type JsonPrimitive = string | number | boolean | null | ExactNumber;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}
/** A stored document: `_id` first, EJSON wrappers kept as sent. */
export type Document = JsonObject;

export const EJSON_KEYS = ['$date', '$uuid', '$objectId', '$binary'] as const;
export type EjsonKey = (typeof EJSON_KEYS)[number];

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ExactDecimal);
}

/** The EJSON key of a single-key wrapper object, or undefined for any other value. */
export function ejsonKeyOf(value: unknown): EjsonKey | undefined {
  if (!isObject(value)) return undefined;
  // Runs on every object a filter or projection walks (a document's root too): count the own keys up
  // to two without Object.keys' array.
  let only: string | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (only !== undefined) return undefined;
    only = key;
  }
  return only !== undefined && only.charCodeAt(0) === 36 /* $ */ && (EJSON_KEYS as readonly string[]).includes(only) ? (only as EjsonKey) : undefined;
}

export function isDateValue(value: unknown): value is { $date: number } {
  return ejsonKeyOf(value) === '$date' && typeof (value as JsonObject).$date === 'number';
}

/**
 * The value a scalar compares as: `$uuid` and `$objectId` wrappers compare as their bare string
 * (the Data API indexes them as strings); `$date` stays a wrapper (dates are their own type).
 */
export function comparableScalar(value: JsonValue): JsonValue {
  const key = ejsonKeyOf(value);
  if (key === '$uuid' || key === '$objectId') return (value as JsonObject)[key] as JsonValue;
  return value;
}

/** The Data API's value types, in ascending cross-type sort order. */
export type ValueKind = 'missing' | 'null' | 'number' | 'string' | 'boolean' | 'date' | 'array' | 'object';

export function kindOf(value: JsonValue | undefined): ValueKind {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default: {
      if (value instanceof ExactDecimal) return 'number';
      const key = ejsonKeyOf(value);
      if (key === '$date') return 'date';
      if (key === '$uuid' || key === '$objectId') return 'string';
      return 'object';
    }
  }
}

/**
 * Exact JSON equality, sensitive to array order and object key order (the Data API hashes
 * sub-documents in key order). `$uuid`/`$objectId` wrappers equal their bare strings.
 */
export function jsonEquals(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  // Numbers are held in one form per value (a number whenever a double names it), so only two exact ones can be equal.
  if (isExactNumber(a) || isExactNumber(b)) return isExactNumber(a) && isExactNumber(b) && compareNumbers(a, b) === 0;
  const ca = comparableScalar(a);
  const cb = comparableScalar(b);
  if (ca !== a || cb !== b) return ca === cb;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i], b[i])) return false;
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (!jsonEquals(a[ka[i]!], b[kb[i]!])) return false;
  }
  return true;
}

/** The Data API's JsonNodeComparator type order: null < number < string < object < array < boolean (EJSON wrappers are objects). */
function jsonNodeRank(value: JsonValue): number {
  if (value === null) return 0;
  if (Array.isArray(value)) return 3;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 1;
    case 'string':
      return 2;
    case 'boolean':
      return 4;
    default:
      return value instanceof ExactDecimal ? 1 : 2.5;
  }
}

const sign = <T extends number | string>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Compares like the Data API's JsonNodeComparator ($min/$max, and the `_id` tie-breaker of a sort): by
 * type rank, then within the type. Arrays compare element by element, then by length; objects entry by
 * entry in key order (name, then value), then by size. So `{"$date": 1} < {"$date": 2}`, and any date
 * sorts above every number and string.
 */
export function compareJsonNodes(a: JsonValue, b: JsonValue): number {
  const ra = jsonNodeRank(a);
  const rb = jsonNodeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (ra === 1) return compareNumbers(a as number | ExactNumber, b as number | ExactNumber);
  if (typeof a === 'string') return sign(a, b as typeof a);
  if (typeof a === 'boolean') return sign(Number(a), Number(b));
  if (Array.isArray(a)) {
    const other = b as JsonValue[];
    for (let i = 0; i < Math.min(a.length, other.length); i++) {
      const c = compareJsonNodes(a[i]!, other[i]!);
      if (c !== 0) return c;
    }
    return sign(a.length, other.length);
  }
  if (isObject(a) && isObject(b)) {
    const ea = Object.entries(a);
    const eb = Object.entries(b);
    for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
      const [ka, va] = ea[i]!;
      const [kb, vb] = eb[i]!;
      const c = ka === kb ? compareJsonNodes(va, vb) : sign(ka, kb);
      if (c !== 0) return c;
    }
    return sign(ea.length, eb.length);
  }
  return 0;
}

/** Deep copy of a JSON value (documents are copied before they are changed). */
export function cloneJson<T extends JsonValue>(value: T): T {
  return copyJson(value);
}

/**
 * Deep copy of a parsed JSON value, same key order: several times faster than structuredClone or a
 * JSON.parse of the text for the small documents a query returns, for handing out copies of cached
 * bodies. Spread copies own properties as data properties, so an own `__proto__` key stays a field
 * (and a parsed document has no inherited enumerable properties for the key loop to meet).
 */
export function copyJson<T extends JsonValue>(value: T): T {
  if (typeof value !== 'object' || value === null || value instanceof ExactDecimal) return value;
  if (Array.isArray(value)) {
    const out = value.slice();
    for (let i = 0; i < out.length; i++) {
      const item = out[i]!;
      if (typeof item === 'object' && item !== null) out[i] = copyJson(item);
    }
    return out as T;
  }
  const out: JsonObject = { ...value };
  for (const key in out) {
    const member = out[key]!;
    if (typeof member === 'object' && member !== null) out[key] = copyJson(member);
  }
  return out as T;
}

/**
 * Gives a new object its own copy of every nested value, in place: a projection of a shared body (a cache's)
 * is a new top-level object whose containers may still be the body's. Cheaper than copying the body first
 * when the projection drops fields, and free for flat documents.
 */
export function copyNestedValues(doc: JsonObject): JsonObject {
  for (const key in doc) {
    const member = doc[key]!;
    if (typeof member === 'object' && member !== null) doc[key] = copyJson(member);
  }
  return doc;
}

/**
 * Splits a dotted path into segments. `&.` escapes a dot and `&&` an ampersand inside a name;
 * a lone `&` or an empty segment is invalid (returns undefined).
 */
export function splitPath(path: string): string[] | undefined {
  if (path.length === 0) return undefined;
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const ch = path[i];
    if (ch === '&') {
      const next = path[i + 1];
      if (next !== '.' && next !== '&') return undefined;
      current += next;
      i++;
    } else if (ch === '.') {
      if (current.length === 0) return undefined;
      segments.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current.length === 0) return undefined;
  segments.push(current);
  return segments;
}

/** Joins segments back into a path, escaping `.` and `&` inside names. */
export function joinPath(segments: readonly string[]): string {
  return segments.map((s) => s.replace(/&/g, '&&').replace(/\./g, '&.')).join('.');
}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/**
 * The value at a path by the Data API's rules: object properties by name, array elements only by
 * a numeric segment. A path never runs through an array implicitly (`items.a` does not reach
 * `items[0].a`). Returns undefined when missing.
 */
export function valueAtPath(doc: JsonValue | undefined, segments: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = doc;
  for (const segment of segments) {
    if (node === undefined || node === null) return undefined;
    if (Array.isArray(node)) {
      if (!ARRAY_INDEX.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (isObject(node)) {
      if (ejsonKeyOf(node) !== undefined) return undefined;
      node = Object.prototype.hasOwnProperty.call(node, segment) ? node[segment] : undefined;
    } else {
      return undefined;
    }
  }
  return node;
}

export function isArrayIndex(segment: string): boolean {
  return ARRAY_INDEX.test(segment);
}
