/**
 * Sort: parses a command's `sort` clause (protocol sections 7.1 and 7.3) into a plan, and orders
 * documents by the Data API's cross-type value order. Pure: vector dimensions, the sort row limit
 * and the vector index itself are the engine's business.
 */
import { VectorDbError, jsonTypeName } from '../errors/index.js';
import { comparableScalar, compareJsonNodes, isDateValue, isObject, kindOf, splitPath, valueAtPath, type Document, type JsonValue } from './json.js';
import { decodeVector, queryVectorArray } from './vector-value.js';
import { compareNumbers, toJsonText, type AnyNumber } from './exact-number.js';

export interface SortField {
  /** The path as sent (escaped form, `&.` / `&&`). */
  readonly path: string;
  readonly segments: readonly string[];
  readonly direction: 1 | -1;
}

export type SortSpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'fields'; readonly fields: readonly SortField[] }
  /** `raw` is the `$vector` value as sent (array or `{"$binary": ...}`). */
  | { readonly kind: 'vector'; readonly vector: Float32Array; readonly raw: JsonValue }
  /** `{"$lexical": text}`: BM25 best first, over the documents holding every analyzed term. */
  | { readonly kind: 'lexical'; readonly text: string };

export interface SortOptions {
  /** Whether the collection's indexing covers a path (given as sent, escaped form). */
  isIndexed(path: string): boolean;
  /** Whether the collection has lexical search; else `lexicalDisabled()` is thrown for a `$lexical` sort. */
  lexicalEnabled?: boolean;
  lexicalDisabled?: () => Error;
}

const NONE: SortSpec = Object.freeze({ kind: 'none' });

const invalid = (reason: string): VectorDbError => VectorDbError.of('SORT_CLAUSE_INVALID', { reason });

/**
 * `undefined`, `null` and `{}` mean no sort. `$vectorize` fails with VECTORIZE_FEATURE_NOT_AVAILABLE
 * (there are no embedding providers); `$lexical` needs a lexical-enabled collection, a string, and no other key.
 */
export function parseSort(raw: unknown, options: SortOptions): SortSpec {
  if (raw === undefined || raw === null) return NONE;
  if (!isObject(raw)) throw invalid(`sort clause must be submitted as a JSON Object, was ${jsonTypeName(raw)}`);
  const keys = Object.keys(raw);
  if (keys.length === 0) return NONE;

  if ('$vector' in raw || '$vectorize' in raw) {
    if (keys.length > 1) throw invalid('vector search cannot be used with other sort expressions');
    if ('$vectorize' in raw) throw VectorDbError.of('VECTORIZE_FEATURE_NOT_AVAILABLE');
    const value = raw.$vector!;
    const decoded = decodeVector(value, queryVectorArray);
    if (decoded === null) {
      throw VectorDbError.of('SHRED_BAD_VECTOR_VALUE', { reason: 'sort by $vector needs a vector, got null' });
    }
    return Object.freeze({ kind: 'vector', vector: decoded.values, raw: value });
  }
  if ('$lexical' in raw) {
    if (!options.lexicalEnabled) throw options.lexicalDisabled?.() ?? VectorDbError.of('LEXICAL_NOT_ENABLED_FOR_COLLECTION', { keyspace: '', collection: '' });
    if (keys.length > 1) throw invalid("when sorting by field '$lexical' no other sort expressions allowed");
    const text = raw.$lexical;
    if (typeof text !== 'string') throw invalid(`when sorting by field '$lexical', value must be String, not ${jsonTypeName(text)}`);
    return Object.freeze({ kind: 'lexical', text });
  }

  const fields: SortField[] = [];
  for (const path of keys) {
    const segments = parsePath(path);
    fields.push(Object.freeze({ path, segments, direction: parseDirection(path, raw[path]!) }));
  }
  // Indexing is checked once the whole clause is known to be well-formed.
  for (const field of fields) {
    if (!options.isIndexed(field.path)) throw VectorDbError.of('SORT_CLAUSE_PATH_UNINDEXED', { path: field.path });
  }
  return Object.freeze({ kind: 'fields', fields: Object.freeze(fields) });
}

function parsePath(path: string): readonly string[] {
  const segments = splitPath(path);
  if (segments === undefined) {
    throw VectorDbError.of('SORT_CLAUSE_PATH_INVALID', {
      path,
      reason: "empty path segment, or '&' not followed by '.' or '&' (escape a dot in a name as '&.' and '&' as '&&')",
    });
  }
  if (segments.some((s) => s.startsWith('$'))) {
    throw VectorDbError.of('SORT_CLAUSE_PATH_INVALID', {
      path,
      reason: "path cannot start with '$' (except for pseudo-fields '$lexical', '$vector' and '$vectorize')",
    });
  }
  return Object.freeze(segments);
}

function parseDirection(path: string, value: JsonValue): 1 | -1 {
  if (value === 1 || value === -1) return value;
  // A vector on any other path than `$vector` is a misplaced vector search, not a bad direction.
  if (Array.isArray(value) || (isObject(value) && '$binary' in value)) {
    throw invalid(`vector sort is only supported on '$vector', not on path '${path}'`);
  }
  throw VectorDbError.of('SORT_CLAUSE_VALUE_INVALID', { path });
}

/** Ranks of the Data API's ascending cross-type order. Arrays and objects sort among strings. */
const RANK = { missing: 0, null: 1, number: 2, string: 3, boolean: 4, date: 5 } as const;

function rankOf(value: JsonValue | undefined): number {
  const kind = kindOf(value);
  return kind === 'array' || kind === 'object' ? RANK.string : RANK[kind];
}

/** A string's own value; `$uuid`/`$objectId` their bare string; arrays and objects their JSON text. */
function stringKey(value: JsonValue): string {
  const scalar = comparableScalar(value);
  return typeof scalar === 'string' ? scalar : toJsonText(value);
}

const sign = <T extends number | string>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The Data API's cross-type order: missing < null < numbers < strings < booleans < dates (arrays and
 * objects among strings, by their JSON text). Strings by UTF-16 code units, `$date` by epoch ms,
 * `$uuid`/`$objectId` as their strings.
 */
export function compareValues(a: JsonValue | undefined, b: JsonValue | undefined): number {
  const ra = rankOf(a);
  const rb = rankOf(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case RANK.number:
      return typeof a === 'number' && typeof b === 'number' ? sign(a, b) : compareNumbers(a as AnyNumber, b as AnyNumber);
    case RANK.string:
      return sign(stringKey(a!), stringKey(b!));
    case RANK.boolean:
      return sign(Number(a), Number(b));
    case RANK.date:
      return sign(dateMs(a!), dateMs(b!));
    default:
      return 0;
  }
}

function dateMs(value: JsonValue): number {
  return isDateValue(value) ? value.$date : Number.NaN;
}

/**
 * Orders documents by the fields in priority order; a descending field reverses the whole order
 * (missing values last). Ties are broken by `_id` ascending, whatever the directions, in the Data API's
 * JSON order (null < numbers < strings < `$date`/`$uuid`/`$objectId` objects < booleans).
 */
export function documentComparator(fields: readonly SortField[]): (a: Document, b: Document) => number {
  return (a, b) => {
    for (const field of fields) {
      const c = compareValues(valueAtPath(a, field.segments), valueAtPath(b, field.segments));
      if (c !== 0) return field.direction === 1 ? c : -c;
    }
    return compareJsonNodes(a._id ?? null, b._id ?? null);
  };
}
