/**
 * A collection's query planner: turns a parsed filter into the smallest candidate set the secondary indexes can
 * give (or "scan everything"). Indexes only narrow; the full filter always decides on each candidate.
 * $eq, $in, $all, ranges (merged per path), $exists:true and `_id` lookups are indexable; $ne, $nin,
 * $size, $exists:false are not. Index paths drop numeric segments (see shredder.ts), so every probe here
 * reads a superset of the documents the clause can match; a probe reads an index path only when the
 * shredder files that path (isFiled), whatever the filter's own path is allowed. The same plan runs over
 * LevelDB's index (sets of document keys) or a vector collection's in-memory postings (sets of labels), both
 * read through a CandidateSource (engine/planner.ts).
 */
import type { Filter, FilterNode } from '../../query/filter.js';
import { ejsonKeyOf, isObject, type JsonValue } from '../../query/json.js';
import { HIGH, SEP, TYPE_TAG, compareKeys, encodeIndexScalar, sortKeys, type IndexScalar } from '../../storage/keys.js';
import { idKey, validateId } from './document-id.js';
import type { DocumentStore } from './document-store.js';
import type { IndexBounds, IndexRun } from '../changes.js';
import type { CandidateSource } from '../planner.js';
import { indexPathOf, indexScalarOf, isFiled } from './shredder.js';

/** Candidate document keys, or `scan` when no indexed clause narrows the filter. */
export type CandidatePlan = { readonly kind: 'keys'; readonly keys: readonly string[] } | { readonly kind: 'scan' };

export interface PlanContext {
  readonly store: DocumentStore;
  readonly isIndexed: (path: string) => boolean;
  /** Above this many candidates an index range is not worth reading (a scan is as good). */
  readonly maxCandidates: number;
  /** The documents holding every analyzed term, in key order (a lexical collection's inverted index). */
  readonly lexicalMatch?: LexicalMatch | undefined;
}

/** Reads the keys of the documents holding every term, in key order. */
export type LexicalMatch = (terms: readonly string[]) => Promise<readonly string[]>;

interface SourceContext<S> {
  readonly source: CandidateSource<S>;
  readonly isIndexed: (path: string) => boolean;
  readonly maxCandidates: number;
}

export type Compare = Extract<FilterNode, { kind: 'compare' }>;
type RangeOp = '$gt' | '$gte' | '$lt' | '$lte';

/**
 * Plans a filter; the returned keys are in storage order (key order = unsorted paging order). An `_id`
 * clause decides alone; else a `$lexical` match reads its terms' postings (however many documents hold them:
 * a scan would analyze every document) and the other clauses narrow those.
 */
export async function planCandidates(filter: Filter, ctx: PlanContext): Promise<CandidatePlan> {
  if (filter.isEmpty) return { kind: 'scan' };
  if (filter.idLookup !== undefined) return { kind: 'keys', keys: idKeys(filter.idLookup) };
  const source = { source: storeSource(ctx.store), isIndexed: ctx.isIndexed, maxCandidates: ctx.maxCandidates };
  if (filter.lexical !== undefined && ctx.lexicalMatch !== undefined) {
    const matched = await ctx.lexicalMatch(filter.lexical.terms);
    if (matched.length === 0) return { kind: 'keys', keys: matched };
    // As in andCandidates: the other clauses' index reads are worth it while they stay near the postings' size.
    const others = await candidatesOf(filter.root, { ...source, maxCandidates: Math.max(64, matched.length * INTERSECT_FACTOR) });
    return { kind: 'keys', keys: others === undefined ? matched : matched.filter((key) => others.has(key)) };
  }
  const set = await candidatesOf(filter.root, source);
  return set === undefined ? { kind: 'scan' } : { kind: 'keys', keys: sortKeys([...set]) };
}

/** The candidates of a filter from any source; undefined when no indexed clause narrows it (scan). */
export async function planFrom<S>(filter: Filter, ctx: SourceContext<S>): Promise<S | undefined> {
  if (filter.isEmpty) return undefined;
  if (filter.idLookup !== undefined) return ctx.source.ids(idKeys(filter.idLookup));
  return candidatesOf(filter.root, ctx);
}

/** LevelDB's secondary index as a source of document keys. */
function storeSource(store: DocumentStore): CandidateSource<Set<string>> {
  return {
    range: (indexPath, bounds, cap) => store.indexKeys(indexPath, bounds, cap),
    ids: (keys) => new Set(keys),
    unionAll: (sets) => {
      const union = new Set<string>();
      for (const set of sets) for (const key of set) union.add(key);
      return union;
    },
    intersect,
    size: (set) => set.size,
  };
}

/** A plan's keys after `afterKey` in storage order (the rest of a page's candidates). */
export function keysAfter(plan: Extract<CandidatePlan, { kind: 'keys' }>, afterKey: string | undefined): readonly string[] {
  return afterKey === undefined ? plan.keys : plan.keys.filter((key) => compareKeys(key, afterKey) > 0);
}

/**
 * Index runs whose documents include every match of the filter, from one equality clause at its root
 * (`$eq`, the first value of `$all`, or each value of a short `$in`): merged, they give the candidates in
 * key order, so a page of matches is read without collecting every candidate first. `whole`: the clause
 * is the whole filter, so the planner could find no smaller candidate set.
 */
export function keyOrderedRuns(filter: Filter, ctx: Pick<PlanContext, 'isIndexed'>): { runs: IndexRun[]; whole: boolean } | undefined {
  const root = filter.root;
  const clauses = root.kind === 'and' ? root.children : [root];
  for (const clause of clauses) {
    if (clause.kind !== 'compare' || clause.path === '_id' || clause.path.startsWith('$')) continue;
    const values = runValues(clause);
    const runs: IndexRun[] = [];
    for (const value of values) {
      const probe = leafProbe([...clause.segments], value, ctx);
      if (probe === undefined) break;
      runs.push({ indexPath: probe.indexPath, value: encodeIndexScalar(probe.scalar) });
    }
    // A `$lexical` match is no clause of the root, and narrows further: the planner reads its postings.
    if (runs.length > 0 && runs.length === values.length) return { runs, whole: clauses.length === 1 && filter.lexical === undefined };
  }
  return undefined;
}

/** At most this many `$in` values are merged in key order (else the planner or a scan decides). */
const MAX_RUNS = 16;

/** The values whose documents include every match of an equality clause ([] when it is not one). */
function runValues(clause: Compare): readonly JsonValue[] {
  const { op, value } = clause;
  if (op === '$eq') return [value];
  if (!Array.isArray(value)) return [];
  if (op === '$all') return value.slice(0, 1);
  return op === '$in' && value.length <= MAX_RUNS ? value : [];
}

function idKeys(ids: readonly JsonValue[]): string[] {
  const keys = new Set<string>();
  for (const id of ids) {
    try {
      // An id no document can have (an impossible type, an unpaired surrogate whose UTF-8 key would be
      // another id's) matches nothing.
      validateId(id);
      keys.add(idKey(id));
    } catch {
      continue;
    }
  }
  return sortKeys([...keys]);
}

async function candidatesOf<S>(node: FilterNode, ctx: SourceContext<S>): Promise<S | undefined> {
  switch (node.kind) {
    case 'and':
      return andCandidates(node.children, ctx);
    case 'or': {
      const sets: S[] = [];
      for (const child of node.children) {
        const set = await candidatesOf(child, ctx);
        if (set === undefined) return undefined;
        sets.push(set);
      }
      return cappedUnion(sets, ctx);
    }
    case 'compare':
      return compareCandidates(node, ctx);
  }
}

/** The union of sets, or undefined when it has more than maxCandidates members. */
function cappedUnion<S>(sets: readonly S[], ctx: SourceContext<S>): S | undefined {
  const union = ctx.source.unionAll(sets);
  return ctx.source.size(union) > ctx.maxCandidates ? undefined : union;
}

/**
 * Candidates of an AND: equalities are probed first (usually the most selective), ranges on one path
 * are merged into one range, and each later probe is read only up to a few times the best set so far;
 * a probe that completes is intersected in. Reading index keys is far cheaper than fetching documents.
 */
async function andCandidates<S>(children: readonly FilterNode[], ctx: SourceContext<S>): Promise<S | undefined> {
  const probes: ((cap: number) => Promise<S | undefined>)[] = [];
  const ranges = new Map<string, Compare[]>();
  for (const child of children) {
    if (child.kind === 'compare' && isRangeOp(child.op) && child.path !== '_id') {
      const group = ranges.get(child.path) ?? [];
      group.push(child);
      ranges.set(child.path, group);
    } else if (child.kind === 'compare' && (child.op === '$eq' || child.op === '$in' || child.op === '$all')) {
      probes.unshift((cap) => candidatesOf(child, { ...ctx, maxCandidates: cap }));
    } else {
      probes.push((cap) => candidatesOf(child, { ...ctx, maxCandidates: cap }));
    }
  }
  for (const group of ranges.values()) probes.push((cap) => mergedRangeCandidates(group, { ...ctx, maxCandidates: cap }));
  const { source } = ctx;
  let best: S | undefined;
  for (const probe of probes) {
    const set = await probe(best === undefined ? ctx.maxCandidates : Math.max(64, source.size(best) * INTERSECT_FACTOR));
    if (set !== undefined) best = best === undefined ? set : source.intersect(best, set);
    if (best !== undefined && source.size(best) === 0) break;
  }
  return best;
}

/** A probe is read to completion only while it has at most this many times the best set's keys. */
const INTERSECT_FACTOR = 8;

function intersect(a: Set<string>, b: Set<string>): Set<string> {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const out = new Set<string>();
  for (const key of small) if (large.has(key)) out.add(key);
  return out;
}

async function compareCandidates<S>(node: Compare, ctx: SourceContext<S>): Promise<S | undefined> {
  const { path, op, value } = node;
  if (path === '_id' && (op === '$eq' || op === '$in')) return ctx.source.ids(idKeys(op === '$eq' ? [value] : Array.isArray(value) ? value : []));
  if (path.startsWith('$')) return undefined;
  switch (op) {
    case '$eq':
      return equalityCandidates(node.segments, value, ctx);
    case '$in': {
      if (!Array.isArray(value)) return undefined;
      const sets: S[] = [];
      for (const v of value) {
        const set = await equalityCandidates(node.segments, v, ctx);
        if (set === undefined) return undefined;
        sets.push(set);
      }
      return cappedUnion(sets, ctx);
    }
    case '$all':
      // Every value must be contained: any one of them narrows (the first is as good as any).
      return Array.isArray(value) && value.length > 0 ? equalityCandidates(node.segments, value[0]!, ctx) : undefined;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return mergedRangeCandidates([node], ctx);
    case '$exists': {
      const indexPath = filedPath(node.segments, ctx);
      return value === true && indexPath !== undefined ? ctx.source.range(indexPath, { gte: '' }, ctx.maxCandidates) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Documents that may equal `value` at the path: an atomic value reads its own entry; an array or
 * sub-document reads the entry of its first atomic leaf (present in every document that holds it).
 */
async function equalityCandidates<S>(segments: readonly string[], value: JsonValue, ctx: SourceContext<S>): Promise<S | undefined> {
  const probe = leafProbe([...segments], value, ctx);
  if (probe === undefined) return undefined;
  const encoded = encodeIndexScalar(probe.scalar) + SEP;
  return ctx.source.range(probe.indexPath, { gte: encoded, lt: encoded + HIGH }, ctx.maxCandidates);
}

/** A filter's one index entry (see singleEquality); null when it is not such a filter. */
const equalities = new WeakMap<Filter, IndexEntry | null>();

/** One index entry: its path, its encoded value, and the two as the entry's name (`path SEP value`). */
export interface IndexEntry {
  readonly indexPath: string;
  readonly value: string;
  readonly entry: string;
}

/**
 * The index entry of a filter that is one `$eq` on a filed path (`{cat: 5}`, `{"a.b": "x"}`): its index
 * path and encoded value, from which candidatesOf would read exactly that one entry; undefined for any
 * other filter (which goes through the planner). Remembered per parsed filter (parsed filters are shared
 * per filter text), so a repeated filter costs a WeakMap lookup.
 */
export function singleEquality(filter: Filter, isIndexed: (path: string) => boolean): IndexEntry | undefined {
  let known = equalities.get(filter);
  if (known === undefined) {
    known = null;
    const root = filter.root;
    const node = root.kind === 'and' && root.children.length === 1 ? root.children[0]! : root;
    if (node.kind === 'compare' && node.op === '$eq' && node.path !== '_id' && !node.path.startsWith('$') && filter.idLookup === undefined && filter.lexical === undefined) {
      const value = node.value;
      const atomic = !Array.isArray(value) && (!isObject(value) || ejsonKeyOf(value) !== undefined);
      const indexPath = atomic ? filedPath(node.segments, { isIndexed }) : undefined;
      if (indexPath !== undefined) {
        const encoded = encodeIndexScalar(indexScalarOf(value));
        known = { indexPath, value: encoded, entry: indexPath + SEP + encoded };
      }
    }
    equalities.set(filter, known);
  }
  return known ?? undefined;
}

/** The index path of the segments when its entries are filed (else the clause cannot use the index). */
function filedPath(segments: readonly string[], ctx: Pick<PlanContext, 'isIndexed'>): string | undefined {
  const indexPath = indexPathOf(segments);
  return isFiled(indexPath, ctx.isIndexed) ? indexPath : undefined;
}

/** The first atomic leaf of the value whose index path is filed. */
function leafProbe(segments: string[], value: JsonValue, ctx: Pick<PlanContext, 'isIndexed'>): { indexPath: string; scalar: IndexScalar } | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const probe = leafProbe([...segments, String(i)], value[i]!, ctx);
      if (probe) return probe;
    }
    return undefined;
  }
  if (isObject(value) && ejsonKeyOf(value) === undefined) {
    for (const [name, child] of Object.entries(value)) {
      const probe = leafProbe([...segments, name], child, ctx);
      if (probe) return probe;
    }
    return undefined;
  }
  const indexPath = filedPath(segments, ctx);
  return indexPath === undefined ? undefined : { indexPath, scalar: indexScalarOf(value) };
}

function isRangeOp(op: string): op is RangeOp {
  return op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte';
}

/** One index range for all range clauses on a path; undefined when they mix types or none is indexable. */
async function mergedRangeCandidates<S>(group: readonly Compare[], ctx: SourceContext<S>): Promise<S | undefined> {
  const first = group[0]!;
  const indexPath = first.path.startsWith('$') ? undefined : filedPath(first.segments, ctx);
  const bounds = rangeBounds(group);
  return bounds === undefined || indexPath === undefined ? undefined : ctx.source.range(indexPath, bounds, ctx.maxCandidates);
}

/**
 * The index bounds of range clauses on one path (same-type only, as ranges never cross types);
 * undefined when they mix types or compare with something that is not a scalar.
 */
export function rangeBounds(group: readonly Compare[]): IndexBounds | undefined {
  let type: IndexScalar['type'] | undefined;
  let lower: { encoded: string; inclusive: boolean } | undefined;
  let upper: { encoded: string; inclusive: boolean } | undefined;
  for (const clause of group) {
    const value = clause.value;
    if (!isRangeOp(clause.op) || value === null || Array.isArray(value) || (isObject(value) && ejsonKeyOf(value) === undefined)) return undefined;
    const scalar = indexScalarOf(value);
    if (type !== undefined && scalar.type !== type) return undefined;
    type = scalar.type;
    const encoded = encodeIndexScalar(scalar);
    const op = clause.op;
    if (op === '$gt' || op === '$gte') {
      if (!lower || encoded > lower.encoded || (encoded === lower.encoded && op === '$gt')) lower = { encoded, inclusive: op === '$gte' };
    } else if (!upper || encoded < upper.encoded || (encoded === upper.encoded && op === '$lt')) {
      upper = { encoded, inclusive: op === '$lte' };
    }
  }
  if (type === undefined) return undefined;
  const tag = TYPE_TAG[type];
  const bounds: { gte?: string; gt?: string; lt?: string } = {};
  if (lower) {
    if (lower.inclusive) bounds.gte = lower.encoded + SEP;
    else bounds.gt = lower.encoded + SEP + HIGH;
  } else {
    bounds.gte = tag;
  }
  bounds.lt = upper ? (upper.inclusive ? upper.encoded + SEP + HIGH : upper.encoded + SEP) : tag + HIGH;
  return bounds;
}

/** The range clauses on `path` at the filter's root (an implicit AND), for bounded index walks. */
export function rootRangeClauses(root: FilterNode, path: string): Compare[] {
  if (root.kind !== 'and') return [];
  return root.children.filter((c): c is Compare => c.kind === 'compare' && c.path === path && isRangeOp(c.op));
}
