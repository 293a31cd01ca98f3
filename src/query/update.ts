/**
 * Update operators (protocol section 8): the public face of update-parse.ts (clause -> plan, with all
 * parse-time errors) and update-apply.ts (plan x document -> new document). Pure: limits of the
 * resulting document and vector dimensions are validated by the engine.
 */
import type { Document } from './json.js';
import { applyUpdatePlan } from './update-apply.js';
import { parseUpdatePlan, type UpdateAction, type UpdatePlan } from './update-parse.js';

export { OPERATOR_ORDER, type UpdateOperatorName } from './update-parse.js';

export interface UpdateResult {
  readonly doc: Document;
  /** True only if the document actually changed (a `$push` always counts as a change). */
  readonly modified: boolean;
}

export interface UpdateContext {
  /** The document is being created by an upsert: `$setOnInsert` applies (and may set `_id`). */
  readonly isInsert: boolean;
  /** Epoch ms written by `$currentDate`. */
  readonly now: number;
}

export interface Update {
  /** True when the clause has no actions (`{}` or only empty operators): a no-op. */
  readonly isEmpty: boolean;
  /**
   * Applies the operators to a copy of `doc` (never mutates it), operators in the Data API's order and
   * each operator's paths in sorted order; `_id` stays the first property. Throws
   * UNSUPPORTED_UPDATE_OPERATION_TARGET / _PATH when the document does not fit the operators.
   */
  apply(doc: Document, context: UpdateContext): UpdateResult;
  /** True if any operator targets `$vector` (or `$vectorize`, whose `$unset` drops `$vector`). */
  readonly touchesVector: boolean;
  /** The non-blank texts `$set`/`$setOnInsert` give `$vectorize`, whose vectors `withVectors` must supply. */
  readonly vectorizeTexts: readonly string[];
  /** The same update, setting `$vector` to the vector of its `$vectorize` text wherever it sets that text. */
  withVectors(vectors: ReadonlyMap<string, readonly number[]>): Update;
}

/**
 * Parses an update clause. Throws UNSUPPORTED_UPDATE_* errors for a bad shape, unknown operators, bad
 * arguments, path conflicts and illegal targets (`_id`, `$vector`, `$vectorize`, `$lexical`).
 *
 * @example
 * const update = parseUpdate({ $inc: { count: 1 }, $set: { 'a.b': 'x' } });
 * const { doc, modified } = update.apply({ _id: 1, count: 2 }, { isInsert: false, now: Date.now() });
 * // doc = { _id: 1, count: 3, a: { b: 'x' } }, modified = true
 */
export function parseUpdate(raw: unknown): Update {
  return updateOf(parseUpdatePlan(raw));
}

function updateOf(plan: UpdatePlan): Update {
  return Object.freeze({
    isEmpty: plan.actions.length === 0,
    touchesVector: plan.touchesVector,
    vectorizeTexts: plan.vectorizeTexts,
    apply: (doc: Document, context: UpdateContext): UpdateResult => applyUpdatePlan(plan, doc, context),
    withVectors: (vectors: ReadonlyMap<string, readonly number[]>): Update => {
      const actions = plan.actions.map((a): UpdateAction => {
        if ((a.kind !== '$set' && a.kind !== '$setOnInsert') || a.target.path !== '$vectorize' || typeof a.value !== 'string') return a;
        const vector = vectors.get(a.value);
        return vector === undefined ? a : Object.freeze({ ...a, vector });
      });
      return updateOf(Object.freeze({ ...plan, actions: Object.freeze(actions) }));
    },
  });
}
