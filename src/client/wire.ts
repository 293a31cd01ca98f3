/**
 * Conversion between client values and the JSON the Data API takes. Outgoing: Dates become
 * `{"$date": ms}`, typed arrays become arrays, `toJSON()` is honoured, undefined members and functions are
 * dropped (as JSON.stringify does), bigints and BigNumbers are held as exact-number.ts says. Incoming (typed results only): `{"$date": ms}` becomes a Date.
 * Internal to the client (not exported by the package).
 */
import { isNumberLike, normalizeNumber } from '../query/exact-number.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';

/** Converts a client value to JSON; throws a TypeError naming the path for what JSON cannot hold. */
export function toJson(value: unknown, path = 'value', ancestors: object[] = []): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} is not a JSON number`);
    return value;
  }
  // A bigint or BigNumber (any copy of bignumber.js): a number when a double names it exactly, else kept exact.
  if (typeof value === 'bigint' || isNumberLike(value)) return normalizeNumber(value as bigint);
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new TypeError(`${path}: invalid Date`);
    return { $date: ms };
  }
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return typedArrayJson(value as unknown as ArrayLike<number | bigint>);
  if (typeof value !== 'object') throw new TypeError(`${path}: a ${typeof value} cannot be sent as JSON`);
  if (ancestors.includes(value)) throw new TypeError(`${path}: circular reference`);
  const inside = [...ancestors, value];
  if (Array.isArray(value)) return arrayJson(value as readonly unknown[], path, inside);
  const withToJson = value as { toJSON?: unknown };
  if (typeof withToJson.toJSON === 'function') return toJson((withToJson.toJSON as () => unknown).call(value), path, inside);
  const out: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    out[key] = toJson(member, `${path}.${key}`, inside);
  }
  return out;
}

/** Arrays of finite numbers the client made itself (query vectors): sent as they are, not copied again. */
const WIRE_READY = new WeakSet<readonly number[]>();

/** Marks a new array of finite numbers, owned by the client, as its own JSON. @internal */
export function wireReady(values: number[]): number[] {
  WIRE_READY.add(values);
  return values;
}

/**
 * An array's JSON. Finite numbers (every element of a vector) are taken as they are, without a path
 * string per element: a 384-number vector cost ~9 us through the general path, a tenth of a query.
 */
function arrayJson(items: readonly unknown[], path: string, inside: object[]): JsonValue[] {
  if (WIRE_READY.has(items as readonly number[])) return items as number[];
  const out = new Array<JsonValue>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'number' && Number.isFinite(item)) out[i] = item;
    else out[i] = item === undefined || typeof item === 'function' ? null : toJson(item, `${path}[${i}]`, inside);
  }
  return out;
}

/** A typed array's values as numbers (a loop: Array.from of a Float32Array is ten times slower). */
function typedArrayJson(values: ArrayLike<number | bigint>): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < out.length; i++) out[i] = Number(values[i]);
  return out;
}

/** {@link toJson} for values that must be JSON objects (documents, filters, updates). */
export function toJsonObject(value: unknown, what: string): JsonObject {
  const json = toJson(value, what);
  if (!isObject(json)) throw new TypeError(`${what} must be an object`);
  return json;
}

/** Parses a JSON string argument (the seed's `insertOne(String json)` forms) into an object or array. */
export function parseJson(text: string, what: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new TypeError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

/** A JSON value with every `{"$date": ms}` wrapper turned into a Date (typed results). */
export function reviveDates(value: JsonValue): unknown {
  if (Array.isArray(value)) return value.map(reviveDates);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$date' && typeof value.$date === 'number') return new Date(value.$date);
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = reviveDates(value[key]!);
  return out;
}

/**
 * Rejects members of a query or options object that its type does not have: from plain JS,
 * `find({ category: 'x' })` (a filter passed where the query goes) would otherwise run with no filter,
 * and `{ upsrt: true }` would not upsert.
 */
export function rejectUnknownMembers(object: unknown, known: ReadonlySet<string>, what: string): void {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) throw new TypeError(`${what} must be an object`);
  for (const key of Object.keys(object)) {
    if (known.has(key)) continue;
    const hint = known.has('filter') ? ` (to filter on '${key}', pass { filter: { ${JSON.stringify(key)}: ... } })` : '';
    throw new TypeError(`${what} has no member '${key}': it takes ${[...known].join(', ')}${hint}`);
  }
}
