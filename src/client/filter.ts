/**
 * The filter builder: an immutable `Filter` whose `where(path)` starts a condition; every operator method
 * returns a new Filter with the condition added, so chained conditions accumulate (AND). Conditions on one
 * path merge into one operator object (`{ price: { $gt: 1, $lt: 5 } }`); conflicting ones go into `$and`.
 * Dates are sent as instants (`{"$date": ms}`).
 */
import type { JsonObject, JsonValue } from '../query/json.js';
import type { JsonDocument } from './documents.js';
import type { DocumentFilter } from './typed-queries.js';
import type { DataObject, DataValue, DocumentId } from './types.js';
import { parseJson, toJson, toJsonObject } from './wire.js';

/** A filter as a plain object: `{ category: 'lighting', price: { $lt: 30 } }` (Dates allowed). */
export type FilterObject = DataObject;

/**
 * A {@link Filter} or a plain filter object: accepted wherever a filter is. For a typed collection the plain
 * object is typed from its document type (see {@link DocumentFilter}).
 */
export type FilterLike<T = JsonDocument> = Filter | DocumentFilter<T>;

/** One condition of a Filter. @internal */
export interface FilterClause {
  /** A document path, or `$and` / `$or` / `$not` / any top-level key of a raw filter. */
  readonly path: string;
  /** Undefined: `{path: value}` as is (implicit equality, or a raw entry). */
  readonly operator: string | undefined;
  readonly value: JsonValue;
}

let addClause: (filter: Filter, clause: FilterClause) => Filter;
let concat: (a: Filter, b: Filter) => Filter;

/**
 * A filter. Start with `Filter.where(path)` (or `new Filter().where(path)`), chain more conditions, combine
 * with `and` / `or` / `not`; pass it (or a plain object) wherever a filter is taken.
 * @example
 * const cheapLights = Filter.where('category').isEqualsTo('lighting').where('price').isLessThan(30);
 * // { category: 'lighting', price: { $lt: 30 } }
 * const recent = Filter.where('added').isGreaterOrEqualsThan(new Date('2024-01-01'));
 * // { added: { $gte: { $date: 1704067200000 } } }
 */
export class Filter {
  #clauses: readonly FilterClause[] = Object.freeze([]);

  /**
   * An empty filter, or one made from a plain filter object or a JSON string.
   * @example new Filter({ category: 'lighting' }).where('price').isLessThan(30)
   */
  constructor(source?: FilterLike | string) {
    if (source === undefined) return;
    if (source instanceof Filter) {
      this.#clauses = source.#clauses;
      return;
    }
    const json = typeof source === 'string' ? toJsonObject(parseJson(source, 'filter'), 'filter') : toJsonObject(source, 'filter');
    this.#clauses = Object.freeze(Object.entries(json).map(([path, value]) => ({ path, operator: undefined, value })));
  }

  static {
    addClause = (filter, clause) => {
      const next = new Filter();
      next.#clauses = Object.freeze([...filter.#clauses, clause]);
      return next;
    };
    concat = (a, b) => {
      const next = new Filter();
      next.#clauses = Object.freeze([...a.#clauses, ...b.#clauses]);
      return next;
    };
  }

  /** A filter with one condition on `path`. @example Filter.where('price').isLessThan(30) */
  static where(path: string): FilterCondition<Filter> {
    return new Filter().where(path);
  }

  /** All of these filters. @example Filter.and(Filter.where('a').isEqualsTo(1), { b: 2 }) // { $and: [{ a: 1 }, { b: 2 }] } */
  static and(...filters: FilterLike[]): Filter {
    return new Filter().and(...filters);
  }

  /** Any of these filters. @example Filter.or({ color: 'red' }, { color: 'blue' }) // { $or: [...] } */
  static or(...filters: FilterLike[]): Filter {
    return new Filter().or(...filters);
  }

  /** Documents this filter does not match. @example Filter.not({ color: 'red' }) // { $not: { color: 'red' } } */
  static not(filter: FilterLike): Filter {
    return new Filter().not(filter);
  }

  /** A filter from a plain object or JSON string. @example Filter.of('{"color": "red"}') */
  static of(source: FilterLike | string): Filter {
    return new Filter(source);
  }

  /** The filter `{ _id: id }`. @example Filter.findById('lamp') */
  static findById(id: DocumentId): Filter {
    return Filter.where('_id').isEqualsTo(id);
  }

  /**
   * Starts a condition on a path (dotted for sub-documents: `'address.city'`); adds to the conditions so far.
   * @example new Filter().where('a').isEqualsTo(1).where('b').exists()
   */
  where(path: string): FilterCondition<Filter> {
    if (typeof path !== 'string' || path.length === 0) throw new TypeError('Filter.where: path must be a non-empty string');
    return new FilterCondition(path, (clause) => addClause(this, clause));
  }

  /** This filter and all of these. @example Filter.where('a').isEqualsTo(1).and({ b: 2 }, { c: 3 }) */
  and(...filters: FilterLike[]): Filter {
    return addClause(this, { path: '$and', operator: undefined, value: logicalOperands('and', filters) });
  }

  /** This filter and any of these. @example Filter.where('stock').isGreaterThan(0).or({ color: 'red' }, { color: 'blue' }) */
  or(...filters: FilterLike[]): Filter {
    return addClause(this, { path: '$or', operator: undefined, value: logicalOperands('or', filters) });
  }

  /** This filter and not that one. @example Filter.where('a').exists().not({ a: null }) */
  not(filter: FilterLike): Filter {
    return addClause(this, { path: '$not', operator: undefined, value: filterJson(filter) });
  }

  /** True when there is no condition (matches every document). @example new Filter().isEmpty // true */
  get isEmpty(): boolean {
    return this.#clauses.length === 0;
  }

  /** The filter as Data API JSON. @example Filter.where('a').isGreaterThan(1).where('a').isLessThan(5).toJSON() // { a: { $gt: 1, $lt: 5 } } */
  toJSON(): JsonObject {
    const out: JsonObject = {};
    const overflow: JsonObject[] = [];
    for (const { path, operator, value } of this.#clauses) {
      const existing = out[path];
      if (operator === undefined) {
        if (existing === undefined) out[path] = value;
        else if (path === '$and' && Array.isArray(existing) && Array.isArray(value)) out[path] = [...existing, ...value];
        else overflow.push({ [path]: value });
      } else if (existing === undefined) {
        out[path] = { [operator]: value };
      } else if (isOperatorObject(existing) && !(operator in existing)) {
        out[path] = { ...existing, [operator]: value };
      } else {
        overflow.push({ [path]: { [operator]: value } });
      }
    }
    if (overflow.length > 0) out.$and = [...((out.$and as JsonValue[] | undefined) ?? []), ...overflow];
    return out;
  }

  /** The filter's JSON text. @example String(Filter.where('a').isEqualsTo(1)) // '{"a":1}' */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }
}

/**
 * A condition being built on one path; each method completes it and returns what `where` was called on
 * (a Filter, or a query builder).
 */
export class FilterCondition<R> {
  readonly #path: string;
  readonly #complete: (clause: FilterClause) => R;

  /** @internal */
  constructor(path: string, complete: (clause: FilterClause) => R) {
    this.#path = path;
    this.#complete = complete;
  }

  #op(operator: string | undefined, value: JsonValue): R {
    return this.#complete({ path: this.#path, operator, value });
  }

  /** Equal to the value (an array also matches an array field containing it). @example Filter.where('color').isEqualsTo('red') */
  isEqualsTo(value: DataValue): R {
    const json = toJson(value, this.#path);
    return isOperatorObject(json) || (isPlainObject(json) && !isEjson(json)) ? this.#op('$eq', json) : this.#op(undefined, json);
  }

  /** Not equal (also matches documents without the field). @example Filter.where('color').isNotEqualsTo('red') */
  isNotEqualsTo(value: DataValue): R {
    return this.#op('$ne', toJson(value, this.#path));
  }

  /** Greater than (numbers, strings, Dates). @example Filter.where('price').isGreaterThan(10) */
  isGreaterThan(value: DataValue): R {
    return this.#op('$gt', toJson(value, this.#path));
  }

  /** Greater than or equal. @example Filter.where('added').isGreaterOrEqualsThan(new Date('2024-01-01')) */
  isGreaterOrEqualsThan(value: DataValue): R {
    return this.#op('$gte', toJson(value, this.#path));
  }

  /** Less than. @example Filter.where('added').isLessThan(new Date()) */
  isLessThan(value: DataValue): R {
    return this.#op('$lt', toJson(value, this.#path));
  }

  /** Less than or equal. @example Filter.where('price').isLessOrEqualsThan(30) */
  isLessOrEqualsThan(value: DataValue): R {
    return this.#op('$lte', toJson(value, this.#path));
  }

  /** Equal to one of the values. @example Filter.where('color').isInArray(['red', 'blue']) */
  isInArray(values: readonly DataValue[]): R {
    return this.#op('$in', arrayOperand('isInArray', this.#path, values));
  }

  /** Equal to none of the values. @example Filter.where('color').isNotInArray(['red', 'blue']) */
  isNotInArray(values: readonly DataValue[]): R {
    return this.#op('$nin', arrayOperand('isNotInArray', this.#path, values));
  }

  /** The field exists (or, with false, does not). @example Filter.where('discount').exists() */
  exists(exists = true): R {
    return this.#op('$exists', exists);
  }

  /** An array of this many elements. @example Filter.where('tags').hasSize(2) */
  hasSize(size: number): R {
    if (!Number.isInteger(size) || size < 0) throw new TypeError(`hasSize: size must be a non-negative integer, got ${String(size)}`);
    return this.#op('$size', size);
  }

  /** An array containing every one of the values, in any order. @example Filter.where('tags').isAnArrayContaining('sale', 'new') */
  isAnArrayContaining(...values: DataValue[]): R {
    return this.#op('$all', arrayOperand('isAnArrayContaining', this.#path, values));
  }

  /** An array equal to this one (same elements, same order). @example Filter.where('tags').isAnArrayExactlyEqualsTo(['a', 'b']) */
  isAnArrayExactlyEqualsTo(values: readonly DataValue[]): R {
    return this.#op(undefined, arrayOperand('isAnArrayExactlyEqualsTo', this.#path, values));
  }

  /** A sub-document equal to this object (same fields, same order). @example Filter.where('size').hasSubFieldsEqualsTo({ w: 10, h: 20 }) */
  hasSubFieldsEqualsTo(fields: DataObject): R {
    return this.#op('$eq', toJsonObject(fields, this.#path));
  }
}

/** The JSON of a filter argument (a Filter or a plain object). @internal */
export function filterJson(filter: FilterLike | undefined): JsonObject {
  if (filter === undefined || filter === null) return {};
  if (filter instanceof Filter) return filter.toJSON();
  return toJsonObject(filter, 'filter');
}

/** Adds a condition made by a FilterCondition to any filter argument. @internal */
export function conditionOn<R>(base: FilterLike | undefined, path: string, finish: (filter: Filter) => R): FilterCondition<R> {
  return new FilterCondition(path, (clause) => finish(addClause(new Filter(base), clause)));
}

/** Every condition of both filters. @internal */
export function mergeFilters(a: FilterLike | undefined, b: FilterLike): Filter {
  return a === undefined ? new Filter(b) : concat(new Filter(a), new Filter(b));
}

function logicalOperands(name: string, filters: readonly FilterLike[]): JsonValue[] {
  if (filters.length === 0) throw new TypeError(`Filter.${name}: pass at least one filter`);
  return filters.map((f) => filterJson(f));
}

function arrayOperand(method: string, path: string, values: readonly DataValue[]): JsonValue[] {
  if (!Array.isArray(values)) throw new TypeError(`${method}: pass an array of values`);
  return values.map((v, i) => toJson(v, `${path}[${i}]`));
}

function isPlainObject(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEjson(value: JsonObject): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && ['$date', '$uuid', '$objectId', '$binary'].includes(keys[0]!);
}

function isOperatorObject(value: JsonValue | undefined): value is JsonObject {
  if (value === undefined || !isPlainObject(value) || isEjson(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}
