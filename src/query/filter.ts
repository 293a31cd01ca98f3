/**
 * Data API filters: parses a filter clause once into a frozen FilterNode tree ($not pushed down) and a
 * compiled matcher, plus the `_id` lookup and upsert seed the engine needs. Parsing lives in
 * filter-parse.ts, evaluation (mingo with Data API operators) in filter-eval.ts, the shapes they share in
 * filter-types.ts. No storage access.
 */
import { compileFilter } from './filter-eval.js';
import { parseFilterTree, type SeedClause } from './filter-parse.js';
import { cloneJson, isObject, type Document, type JsonObject, type JsonValue } from './json.js';
import type { FilterNode, FilterOptions } from './filter-types.js';
import { queryTerms, tokenize, type Analyzer } from './analyzers.js';

export { DEFAULT_MAX_FILTER_CLAUSES, DEFAULT_MAX_IN_VALUES, type ComparisonOp, type FilterNode, type FilterOptions } from './filter-types.js';

export interface Filter {
  /** Always an `and` node; `$not` already pushed down by inverting operators (De Morgan); frozen. */
  readonly root: FilterNode;
  /** True when the filter has no comparison at all (null / undefined / `{}`, or only empty groups): matches everything. */
  readonly isEmpty: boolean;
  /**
   * The ids of the single `_id` clause when it is `$eq` (one id) or `$in` (its list, possibly empty) at
   * root level (possibly inside a root `$and`), for direct lookups. Values as written: `$uuid`/`$objectId`
   * wrappers are kept (they equal their bare strings). `matches()` must still be applied.
   */
  readonly idLookup: readonly JsonValue[] | undefined;
  /** `{"$lexical": {"$match": text}}` at the top level: the text and its distinct analyzed terms (every one required). */
  readonly lexical?: { readonly text: string; readonly terms: readonly string[] };
  matches(doc: Document): boolean;
}

const seeds = new WeakMap<Filter, readonly SeedClause[]>();

/**
 * Parses and compiles a filter clause.
 * @throws VectorDbError with the Data API's FILTER_* codes (or SHRED_BAD_DOCID_* for bad `_id` literals).
 * @example parseFilter({ age: { $gte: 21 }, tags: 'a' }, { isIndexed: () => true }).matches(doc)
 */
export function parseFilter(raw: unknown, options: FilterOptions): Filter {
  const { root, seed, lexical: text } = parseFilterTree(raw, options);
  const analyzer = options.lexical?.analyzer;
  const lexical = text === undefined || analyzer === undefined ? undefined : Object.freeze({ text, terms: Object.freeze(queryTerms(text, analyzer)) });
  const isEmpty = root.kind === 'and' && root.children.length === 0 && lexical === undefined;
  const test = root.kind === 'and' && root.children.length === 0 ? () => true : compileFilter(root);
  const filter: Filter = Object.freeze({
    root,
    isEmpty,
    idLookup: findIdLookup(root),
    ...(lexical === undefined ? {} : { lexical }),
    matches: lexical === undefined ? (doc: Document) => test(doc) : (doc: Document) => test(doc) && hasEveryTerm(doc, lexical.terms, analyzer!),
  });
  seeds.set(filter, seed);
  return filter;
}

/**
 * Root-level equality clauses (implicit AND, not inside `$or`/`$and`) that seed a document created by
 * an upsert: `_id` first, dotted paths become nested objects; a clause whose parent is not an object
 * in the seed so far is skipped. Returns a fresh object on each call.
 */
export function upsertSeed(filter: Filter): JsonObject {
  const clauses = seeds.get(filter) ?? [];
  const doc: JsonObject = {};
  const ordered = [...clauses.filter((c) => c.path === '_id'), ...clauses.filter((c) => c.path !== '_id')];
  for (const { segments, value } of ordered) {
    let node: JsonObject | undefined = doc;
    for (let i = 0; i < segments.length - 1 && node !== undefined; i++) {
      const key = segments[i]!;
      if (!Object.prototype.hasOwnProperty.call(node, key)) setOwn(node, key, {});
      const next: JsonValue | undefined = node[key];
      node = isObject(next) ? next : undefined;
    }
    const last = segments[segments.length - 1]!;
    if (node !== undefined && !Object.prototype.hasOwnProperty.call(node, last)) setOwn(node, last, cloneJson(value));
  }
  return doc;
}

/** Defines an own property (plain assignment of `__proto__` would change the prototype instead). */
function setOwn(obj: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether the document's `$lexical` holds every term (none: no match, as an empty BM25 query matches nothing). */
export function hasEveryTerm(doc: Document, terms: readonly string[], analyzer: Analyzer): boolean {
  const text = doc.$lexical;
  if (typeof text !== 'string' || terms.length === 0) return false;
  const tokens = new Set(tokenize(text, analyzer));
  return terms.every((t) => tokens.has(t));
}

function findIdLookup(root: FilterNode): readonly JsonValue[] | undefined {
  if (root.kind !== 'and') return undefined;
  for (const child of root.children) {
    if (child.kind !== 'compare' || child.path !== '_id') continue;
    if (child.op === '$eq') return Object.freeze([child.value]);
    if (child.op === '$in') return child.value as readonly JsonValue[];
  }
  return undefined;
}
