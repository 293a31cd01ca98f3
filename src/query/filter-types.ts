/**
 * The parsed filter's shapes, shared by parsing (filter-parse.ts), evaluation (filter-eval.ts) and
 * filter.ts: comparison operators, the FilterNode tree, the parse options and their default limits.
 */
import type { JsonValue } from './json.js';
import type { Analyzer } from './analyzers.js';

/**
 * Comparison operators after parsing. `$notAll` and `$sizeNe` only come out of `$not` inversion:
 * `$notAll` = contains NONE of the values, as the Data API inverts ALL to NOT-ANY (reference 5.3; not
 * the logical negation "misses at least one"; missing fields match, as for `$nin`); `$sizeNe` = the value IS an array whose length differs (non-arrays never match, just as
 * inverted ranges never match missing fields).
 */
export type ComparisonOp =
  | '$eq'
  | '$ne'
  | '$in'
  | '$nin'
  | '$gt'
  | '$gte'
  | '$lt'
  | '$lte'
  | '$exists'
  | '$all'
  | '$notAll'
  | '$size'
  | '$sizeNe';

export type FilterNode =
  | { readonly kind: 'and'; readonly children: readonly FilterNode[] }
  | { readonly kind: 'or'; readonly children: readonly FilterNode[] }
  | {
      readonly kind: 'compare';
      /** The path as written (escaped form, e.g. `a&.b.c`). */
      readonly path: string;
      /** The unescaped segments of `path`. */
      readonly segments: readonly string[];
      readonly op: ComparisonOp;
      readonly value: JsonValue;
    };

export interface FilterOptions {
  /** False when the collection's indexing (deny/allow) excludes the path: filtering on it is FILTER_PATH_UNINDEXED (for _id: only $eq/$in allowed, else FILTER_ID_NOT_INDEXED). */
  isIndexed(path: string): boolean;
  /** Default 64 -> FILTER_FIELDS_LIMIT_VIOLATION. */
  maxClauses?: number;
  /** Default 100 values per `$in`/`$nin`. */
  maxInValues?: number;
  /** `$lexical` matching: the collection's analyzer (undefined: lexical disabled, `disabled()` is the error to throw). */
  lexical?: { readonly analyzer: Analyzer | undefined; disabled(): Error };
}

export const DEFAULT_MAX_FILTER_CLAUSES = 64;
export const DEFAULT_MAX_IN_VALUES = 100;
