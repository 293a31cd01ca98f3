/**
 * Filter evaluation: a FilterNode tree becomes a mingo Query whose $and/$or are mingo's and whose
 * comparisons are our own query operators in a private mingo Context. mingo's built-in comparisons are
 * never used (they follow MongoDB: null matches missing, paths traverse arrays, ranges look inside arrays).
 */
import type { Context } from 'mingo/core';
import type { Query } from 'mingo/query';
import type { AnyObject, Options } from 'mingo/types';
import { ExactDecimal, compareNumbers, isExactNumber, toJsonText, type AnyNumber } from './exact-number.js';
import type { ComparisonOp, FilterNode } from './filter-types.js';
import { ejsonKeyOf, isObject, jsonEquals, valueAtPath, type Document, type JsonObject, type JsonValue } from './json.js';
import { mingoModules } from './deferred-packages.js';

type Value = JsonValue | undefined;
type ValueTest = (value: Value) => boolean;

/**
 * What each of our mingo operators receives: the path is ours to resolve, mingo's selector is only a
 * label. A class instance, so mingo's cloneDeep of the condition passes it through by reference (a
 * plain-object clone would turn an own `__proto__` key of a literal into a prototype).
 */
class Operand {
  constructor(
    readonly segments: readonly string[],
    readonly value: JsonValue,
  ) {}

  /** mingo writes its condition into messages with JSON.stringify, which cannot write exact numbers. */
  toJSON(): string {
    return toJsonText(this.value);
  }
}

/**
 * `$eq` / `$in`: a present null only for null; a scalar equals the value or an element of an array at
 * the path; arrays and sub-documents only by exact (ordered, key-order-sensitive) equality of the whole
 * value. `$uuid`/`$objectId` compare as their bare strings, `$date` as its own type.
 */
function equalsAny(literals: readonly JsonValue[]): ValueTest {
  const scalars = new Set<JsonValue>();
  const dates = new Set<JsonValue>();
  const arrays: JsonValue[] = [];
  const objects: JsonObject[] = [];
  let hasNull = false;
  for (const lit of literals) {
    if (lit === null) hasNull = true;
    else if (Array.isArray(lit)) arrays.push(lit);
    else if (!isObject(lit)) scalars.add(scalarKey(lit));
    else {
      const key = ejsonKeyOf(lit);
      if (key === '$date') dates.add(lit.$date!);
      else if (key === '$uuid' || key === '$objectId') scalars.add(lit[key]!);
      else objects.push(lit);
    }
  }
  // An atomic value (or array element): strings/numbers/booleans and EJSON wrappers; never null, arrays or objects.
  const atomHit = (x: JsonValue): boolean => {
    if (x === null || Array.isArray(x)) return false;
    if (!isObject(x)) return scalars.has(scalarKey(x));
    const key = ejsonKeyOf(x);
    if (key === '$date') return dates.has(x.$date!);
    if (key === '$uuid' || key === '$objectId') return scalars.has(x[key]!);
    return false;
  };
  return (v) => {
    if (v === undefined) return false;
    if (v === null) return hasNull;
    if (Array.isArray(v)) {
      for (const a of arrays) if (jsonEquals(v, a)) return true;
      for (const element of v) if (atomHit(element)) return true;
      return false;
    }
    if (atomHit(v)) return true;
    if (typeof v === 'object' && ejsonKeyOf(v) === undefined) {
      for (const o of objects) if (jsonEquals(v, o)) return true;
    }
    return false;
  };
}

/** Set members compare by SameValueZero: an ExactDecimal object joins as its digits (no string can collide: prefixed by NUL and a tag). */
const scalarKey = (value: JsonValue): JsonValue => (value instanceof ExactDecimal ? `\u0000decimal:${value.toFixed()}` : value);

type RangeKind = 'number' | 'string' | 'boolean' | 'date';

/** The comparable form of a value of one range type; undefined for any other type (arrays included). */
function rangeKey(v: Value, kind: RangeKind): AnyNumber | string | undefined {
  switch (kind) {
    case 'number':
      return typeof v === 'number' || isExactNumber(v) ? v : undefined;
    case 'boolean':
      return typeof v === 'boolean' ? Number(v) : undefined; // false < true
    case 'string': {
      if (typeof v === 'string') return v;
      const key = isObject(v) ? ejsonKeyOf(v) : undefined;
      return key === '$uuid' || key === '$objectId' ? ((v as JsonObject)[key] as string) : undefined;
    }
    case 'date': {
      if (!isObject(v) || ejsonKeyOf(v) !== '$date') return undefined;
      return typeof v.$date === 'number' ? v.$date : undefined;
    }
  }
}

/** Ranges compare only values of the literal's type at exactly the path (JS `<` on strings is UTF-16 order). */
function range(op: '$gt' | '$gte' | '$lt' | '$lte', literal: JsonValue): ValueTest {
  let kind: RangeKind;
  if (typeof literal === 'number' || isExactNumber(literal)) kind = 'number';
  else if (typeof literal === 'boolean') kind = 'boolean';
  else if (typeof literal === 'string') kind = 'string';
  else kind = ejsonKeyOf(literal) === '$date' ? 'date' : 'string';
  const target = rangeKey(literal, kind)!;
  // Numbers of any held form compare exactly; every other kind (and two plain numbers) with JS operators.
  const order =
    kind === 'number'
      ? (x: AnyNumber | string): number => (typeof x === 'number' && typeof target === 'number' ? (x < target ? -1 : x > target ? 1 : 0) : compareNumbers(x as AnyNumber, target as AnyNumber))
      : (x: AnyNumber | string): number => (x < target ? -1 : x > target ? 1 : 0);
  switch (op) {
    case '$gt':
      return (v) => { const x = rangeKey(v, kind); return x !== undefined && order(x) > 0; };
    case '$gte':
      return (v) => { const x = rangeKey(v, kind); return x !== undefined && order(x) >= 0; };
    case '$lt':
      return (v) => { const x = rangeKey(v, kind); return x !== undefined && order(x) < 0; };
    case '$lte':
      return (v) => { const x = rangeKey(v, kind); return x !== undefined && order(x) <= 0; };
  }
}

/**
 * `$all`: every value is "contained": an element of the array at the path (objects and arrays as
 * elements allowed), or equal to an atomic (non-array, non-sub-document) value there.
 */
function containsAll(literals: readonly JsonValue[]): ValueTest {
  return (v) => {
    if (v === undefined) return false;
    if (Array.isArray(v)) return literals.every((lit) => v.some((element) => jsonEquals(element, lit)));
    if (isObject(v) && ejsonKeyOf(v) === undefined) return false;
    return literals.every((lit) => jsonEquals(v, lit));
  };
}

/** Contains none of the values (each value tested as `$all` would test it alone); missing fields match. */
function containsNone(literals: readonly JsonValue[]): ValueTest {
  const each = literals.map((lit) => containsAll([lit]));
  return (v) => each.every((test) => !test(v));
}

const not = (test: ValueTest): ValueTest => (v) => !test(v);
const isSpecialField = (segments: readonly string[]): boolean =>
  segments.length === 1 && (segments[0] === '$vector' || segments[0] === '$vectorize');

const BUILDERS: Readonly<Record<ComparisonOp, (value: JsonValue, segments: readonly string[]) => ValueTest>> = {
  $eq: (value) => equalsAny([value]),
  $ne: (value) => not(equalsAny([value])), // missing fields match
  $in: (value) => equalsAny(value as JsonValue[]),
  $nin: (value) => not(equalsAny(value as JsonValue[])),
  $gt: (value) => range('$gt', value),
  $gte: (value) => range('$gte', value),
  $lt: (value) => range('$lt', value),
  $lte: (value) => range('$lte', value),
  $exists: (value, segments) => {
    // `$vector: null` means "no vector" (data-api-protocol.md 4.3), so it does not exist.
    if (isSpecialField(segments)) return (v) => (v !== undefined && v !== null) === value;
    return (v) => (v !== undefined) === value;
  },
  $all: (value) => containsAll(value as JsonValue[]),
  $notAll: (value) => containsNone(value as JsonValue[]),
  $size: (value) => (v) => Array.isArray(v) && v.length === value,
  $sizeNe: (value) => (v) => Array.isArray(v) && v.length !== value,
};

type QueryOps = NonNullable<NonNullable<Parameters<typeof Context.init>[0]>['query']>;
type MingoQueryOp = QueryOps[`$${string}`];

function mingoOperator(build: (value: JsonValue, segments: readonly string[]) => ValueTest): MingoQueryOp {
  return (_selector: string, operand: unknown, _options: Options) => {
    if (!(operand instanceof Operand)) throw new TypeError('filter operators take an Operand built by compileFilter');
    const { segments, value } = operand;
    const test = build(value, segments);
    return (doc: AnyObject) => test(valueAtPath(doc as JsonObject, segments));
  };
}

let context: Context | undefined;

/** Our operators in a private mingo Context, made at the first filter mingo evaluates (mingo loads then). */
function mingoContext(): Context {
  if (context === undefined) {
    const { Context, $and, $or } = mingoModules();
    const queryOps: QueryOps = { $and, $or };
    for (const [name, build] of Object.entries(BUILDERS)) queryOps[name as ComparisonOp] = mingoOperator(build);
    context = Context.init({ query: queryOps });
  }
  return context;
}

/** mingo rejects `$`-prefixed field keys, and ours are only labels, so `$vector` gets a prefix. */
const label = (path: string): string => (path.startsWith('$') ? `#${path}` : path);

function toCondition(node: FilterNode): AnyObject {
  switch (node.kind) {
    case 'and':
      return { $and: node.children.map(toCondition) };
    case 'or':
      return { $or: node.children.map(toCondition) };
    case 'compare': {
      return { [label(node.path)]: { [node.op]: new Operand(node.segments, node.value) } };
    }
  }
}

/** Compiles the tree once; the returned test runs per candidate document. */
export function compileFilter(root: FilterNode): (doc: Document) => boolean {
  // One comparison (e.g. findOne by `_id`): mingo would only wrap the same operator test, at ~10 µs per compile.
  const only = root.kind === 'and' && root.children.length === 1 ? root.children[0]! : undefined;
  if (only?.kind === 'compare') {
    const { segments } = only;
    const test = BUILDERS[only.op](only.value, segments);
    return (doc) => test(valueAtPath(doc, segments));
  }
  const { Query: MingoQuery } = mingoModules();
  const query: Query = new MingoQuery(toCondition(root), { context: mingoContext() });
  return (doc) => query.test(doc);
}
