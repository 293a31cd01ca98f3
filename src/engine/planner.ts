/**
 * The query planner: turns a parsed filter into the smallest candidate set the secondary indexes can
 * give (or "scan everything"). Indexes only narrow; the full filter always decides on each candidate.
 * $eq, $in, $all, ranges, $exists:true and `_id` lookups are indexable; $ne, $nin, $size, $exists:false are not.
 */
import type { Filter, FilterNode } from '../query/filter.js';
import { isObject, type JsonValue } from '../query/json.js';
import { HIGH, SEP, TYPE_TAG, encodeIndexScalar } from '../storage/keys.js';
import { idKey } from './document-id.js';
import type { DocumentStore, IndexBounds } from './document-store.js';
import { indexScalarOf } from './shredder.js';

/** Candidate document keys, or `scan` when no indexed clause narrows the filter. */
export type CandidatePlan = { readonly kind: 'keys'; readonly keys: readonly string[] } | { readonly kind: 'scan' };

export interface PlanContext {
  readonly store: DocumentStore;
  readonly isIndexed: (path: string) => boolean;
  /** Above this many candidates an index range is not worth reading (a scan is as good). */
  readonly maxCandidates: number;
}

/** Plans a filter; the returned keys are sorted (key order = unsorted paging order). */
export async function planCandidates(filter: Filter, ctx: PlanContext): Promise<CandidatePlan> {
  if (filter.isEmpty) return { kind: 'scan' };
  if (filter.idLookup !== undefined) {
    const keys = [...new Set(filter.idLookup.map((id) => safeIdKey(id)).filter((k): k is string => k !== undefined))];
    return { kind: 'keys', keys: keys.sort() };
  }
  const set = await candidatesOf(filter.root, ctx);
  return set === undefined ? { kind: 'scan' } : { kind: 'keys', keys: [...set].sort() };
}

function safeIdKey(id: JsonValue): string | undefined {
  try {
    return idKey(id);
  } catch {
    return undefined; // an id of an impossible type matches nothing
  }
}

async function candidatesOf(node: FilterNode, ctx: PlanContext): Promise<Set<string> | undefined> {
  switch (node.kind) {
    case 'and': {
      // The most selective indexable child wins; sets of the others are not needed (the filter decides).
      let best: Set<string> | undefined;
      for (const child of node.children) {
        const set = await candidatesOf(child, { ...ctx, maxCandidates: best ? best.size : ctx.maxCandidates });
        if (set !== undefined && (best === undefined || set.size < best.size)) best = set;
        if (best !== undefined && best.size === 0) break;
      }
      return best;
    }
    case 'or': {
      const union = new Set<string>();
      for (const child of node.children) {
        const set = await candidatesOf(child, ctx);
        if (set === undefined) return undefined;
        for (const key of set) union.add(key);
        if (union.size > ctx.maxCandidates) return undefined;
      }
      return union;
    }
    case 'compare':
      return compareCandidates(node, ctx);
  }
}

async function compareCandidates(node: Extract<FilterNode, { kind: 'compare' }>, ctx: PlanContext): Promise<Set<string> | undefined> {
  const { path, op, value } = node;
  if (path === '_id' && (op === '$eq' || op === '$in')) {
    const ids = op === '$eq' ? [value] : Array.isArray(value) ? value : [];
    return new Set(ids.map(safeIdKey).filter((k): k is string => k !== undefined));
  }
  if (path.startsWith('$') || !ctx.isIndexed(path)) return undefined;
  const read = (bounds: IndexBounds) => ctx.store.indexKeys(path, bounds, ctx.maxCandidates);
  switch (op) {
    case '$eq':
      return read(equalBounds(value));
    case '$in':
    case '$all': {
      if (!Array.isArray(value)) return undefined;
      if (op === '$all') return value.length > 0 ? read(equalBounds(value[0]!)) : undefined;
      const union = new Set<string>();
      for (const v of value) {
        const set = await read(equalBounds(v));
        if (set === undefined) return undefined;
        for (const key of set) union.add(key);
        if (union.size > ctx.maxCandidates) return undefined;
      }
      return union;
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const bounds = rangeBounds(op, value);
      return bounds === undefined ? undefined : read(bounds);
    }
    case '$exists':
      return value === true ? read({ gte: '' }) : undefined;
    default:
      return undefined;
  }
}

function equalBounds(value: JsonValue): IndexBounds {
  const encoded = encodeIndexScalar(indexScalarOf(value)) + SEP;
  return { gte: encoded, lt: encoded + HIGH };
}

/** Bounds of a same-type range: the type tag brackets it, so other types never enter. */
function rangeBounds(op: '$gt' | '$gte' | '$lt' | '$lte', value: JsonValue): IndexBounds | undefined {
  if (value === null || Array.isArray(value) || (isObject(value) && !('$date' in value))) return undefined;
  const scalar = indexScalarOf(value);
  const encoded = encodeIndexScalar(scalar);
  const tag = TYPE_TAG[scalar.type];
  switch (op) {
    case '$gt':
      return { gt: encoded + SEP + HIGH, lt: tag + HIGH };
    case '$gte':
      return { gte: encoded + SEP, lt: tag + HIGH };
    case '$lt':
      return { gte: tag, lt: encoded + SEP };
    case '$lte':
      return { gte: tag, lt: encoded + SEP + HIGH };
  }
}
