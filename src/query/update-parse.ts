/**
 * Update clause parsing (protocol section 8): checks the clause's shape, operators, arguments, special
 * targets (`_id`, `$vector`, `$vectorize`, `$lexical`) and path conflicts, and returns an immutable plan
 * of actions in application order. Applying the plan is update-apply.ts's job.
 */
import { VectorDbError, describeValue, jsonTypeName, type ErrorCode } from '../errors/index.js';
import { ejsonKeyOf, isObject, joinPath, splitPath, type JsonObject, type JsonValue } from './json.js';
import { isExactNumber, type AnyNumber } from './exact-number.js';
import { decodeVector } from './vector-value.js';

export type UpdateOperatorName =
  | '$addToSet'
  | '$currentDate'
  | '$inc'
  | '$max'
  | '$min'
  | '$mul'
  | '$pop'
  | '$push'
  | '$rename'
  | '$set'
  | '$setOnInsert'
  | '$unset';

/** The order operators are applied in (the Data API's enum order), whatever the clause's key order. */
export const OPERATOR_ORDER: readonly UpdateOperatorName[] = Object.freeze([
  '$addToSet',
  '$currentDate',
  '$inc',
  '$max',
  '$min',
  '$mul',
  '$pop',
  '$push',
  '$rename',
  '$set',
  '$setOnInsert',
  '$unset',
]);

/** Recognised by the Data API but not supported for collections (other `$x` names are "unrecognized"). */
const RECOGNISED_UNSUPPORTED = new Set(['$pullAll']);

export interface UpdateTarget {
  /** The path as sent (escaped form); used in messages and for path-sorted application. */
  readonly path: string;
  readonly segments: readonly string[];
}

export type UpdateAction =
  /** `vector`: for a `$set`/`$setOnInsert` of `$vectorize` text, the vector computed for it (see Update.withVectors). */
  | { readonly kind: '$set' | '$setOnInsert'; readonly target: UpdateTarget; readonly value: JsonValue; readonly vector?: readonly number[] }
  | { readonly kind: '$min' | '$max'; readonly target: UpdateTarget; readonly value: JsonValue }
  | { readonly kind: '$unset' | '$currentDate'; readonly target: UpdateTarget }
  | { readonly kind: '$inc' | '$mul'; readonly target: UpdateTarget; readonly value: AnyNumber }
  | { readonly kind: '$rename'; readonly target: UpdateTarget; readonly to: UpdateTarget }
  | { readonly kind: '$push'; readonly target: UpdateTarget; readonly values: readonly JsonValue[]; readonly position: number | undefined }
  | { readonly kind: '$addToSet'; readonly target: UpdateTarget; readonly values: readonly JsonValue[] }
  | { readonly kind: '$pop'; readonly target: UpdateTarget; readonly first: boolean };

export interface UpdatePlan {
  /** Actions in application order: operators in OPERATOR_ORDER, each operator's actions sorted by path. */
  readonly actions: readonly UpdateAction[];
  readonly touchesVector: boolean;
  /** The non-blank texts `$set`/`$setOnInsert` give `$vectorize`: an embedding provider computes their vectors. */
  readonly vectorizeTexts: readonly string[];
}

/** The update codes whose message is just `${reason}`. */
type ReasonCode = Extract<ErrorCode, `UNSUPPORTED_UPDATE_${'OPERATION' | 'OPERATION_PARAM' | 'OPERATION_PATH' | 'OPERATION_MODIFIER' | 'DATA_TYPE'}`>;

const error = (code: ReasonCode, reason: string): VectorDbError => VectorDbError.of(code, { reason });

export function parseUpdatePlan(raw: unknown): UpdatePlan {
  if (!isObject(raw)) {
    throw error('UNSUPPORTED_UPDATE_DATA_TYPE', `update data type for UpdateClause must be JSON Object, was: ${jsonTypeName(raw)}`);
  }
  const clauses = new Map<UpdateOperatorName, JsonObject>();
  for (const [name, args] of Object.entries(raw)) {
    if (!name.startsWith('$')) throw error('UNSUPPORTED_UPDATE_OPERATION', `Invalid update operator '${name}' (must start with '$')`);
    if (!(OPERATOR_ORDER as readonly string[]).includes(name)) {
      const verb = RECOGNISED_UNSUPPORTED.has(name) ? 'Unsupported' : 'Unrecognized';
      throw error('UNSUPPORTED_UPDATE_OPERATION', `${verb} update operator '${name}'`);
    }
    if (!isObject(args)) {
      throw error('UNSUPPORTED_UPDATE_DATA_TYPE', `update data type for Operator '${name}' must be JSON Object, was: ${jsonTypeName(args)}`);
    }
    clauses.set(name as UpdateOperatorName, args);
  }
  for (const op of ['$set', '$unset'] as const) {
    const args = clauses.get(op);
    if (args !== undefined && '$vector' in args && '$vectorize' in args) {
      throw VectorDbError.of('INVALID_USAGE_OF_VECTORIZE', {
        reason: `'$vector' and '$vectorize' cannot be used together in '${op}'`,
      });
    }
  }

  const actions: UpdateAction[] = [];
  for (const op of OPERATOR_ORDER) {
    const args = clauses.get(op);
    if (args === undefined) continue;
    const parsed = Object.entries(args).map(([path, arg]) => parseAction(op, parseTarget(op, path), arg));
    // Within an operator, actions apply in path order (this decides e.g. how arrays get padded).
    parsed.sort((a, b) => (a.target.path < b.target.path ? -1 : a.target.path > b.target.path ? 1 : 0));
    actions.push(...parsed.map((a) => Object.freeze(a)));
  }
  checkConflicts(actions);
  const touchesVector = actions.some((a) => a.target.segments[0] === '$vector' || a.target.segments[0] === '$vectorize');
  const vectorizeTexts = actions.flatMap((a) => ((a.kind === '$set' || a.kind === '$setOnInsert') && a.target.path === '$vectorize' && typeof a.value === 'string' && a.value.trim() !== '' ? [a.value] : []));
  return Object.freeze({ actions: Object.freeze(actions), touchesVector, vectorizeTexts: Object.freeze(vectorizeTexts) });
}

const SPECIAL_TARGET_OPERATORS: readonly UpdateOperatorName[] = ['$set', '$setOnInsert', '$unset'];

/** Validates one path an operator writes to (or reads from, for `$rename`'s source). */
function parseTarget(op: UpdateOperatorName, path: string): UpdateTarget {
  const segments = splitPath(path);
  if (segments === undefined) {
    throw error('UNSUPPORTED_UPDATE_OPERATION_PATH', `invalid path '${path}': empty segment (''), or '&' not followed by '.' or '&'`);
  }
  const first = segments[0]!;
  if (first === '_id' && !(op === '$setOnInsert' && segments.length === 1)) {
    throw VectorDbError.of('UNSUPPORTED_UPDATE_OPERATOR_FOR_DOC_ID', { operator: op });
  }
  if (first === '$vector' || first === '$vectorize' || first === '$lexical') {
    if (segments.length > 1) throw error('UNSUPPORTED_UPDATE_OPERATION_PATH', `cannot update inside '${first}' (path '${path}')`);
    if (!SPECIAL_TARGET_OPERATORS.includes(op)) {
      const code =
        first === '$vector'
          ? 'UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTOR'
          : first === '$vectorize'
            ? 'UNSUPPORTED_UPDATE_OPERATOR_FOR_VECTORIZE'
            : 'UNSUPPORTED_UPDATE_OPERATOR_FOR_LEXICAL';
      throw VectorDbError.of(code, { operator: op });
    }
  } else if (segments.some((s) => s.startsWith('$'))) {
    throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `${op} requires field names, found '${path}' (names starting with '$' are operators or modifiers)`);
  }
  return Object.freeze({ path, segments: Object.freeze(segments) });
}

function parseAction(op: UpdateOperatorName, target: UpdateTarget, arg: JsonValue): UpdateAction {
  switch (op) {
    case '$set':
    case '$setOnInsert':
      if (target.path === '$vector') decodeVector(arg); // shape errors now, not after a partial update
      if (target.path === '$vectorize' && arg !== null && typeof arg !== 'string') {
        throw VectorDbError.of('INVALID_VECTORIZE_VALUE_TYPE', { errorMessage: `needs to be String, not ${jsonTypeName(arg)}` });
      }
      return { kind: op, target, value: arg };
    case '$min':
    case '$max':
      return { kind: op, target, value: arg };
    case '$unset':
      return { kind: op, target };
    case '$inc':
    case '$mul':
      if (typeof arg !== 'number' && !isExactNumber(arg)) throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `${op} requires numeric parameter, got: ${jsonTypeName(arg)}`);
      return { kind: op, target, value: arg };
    case '$rename': {
      if (typeof arg !== 'string') throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `$rename requires String parameter for 'to', got: ${jsonTypeName(arg)}`);
      const to = parseTarget(op, arg);
      if (joinPath(to.segments) === joinPath(target.segments)) {
        throw error('UNSUPPORTED_UPDATE_OPERATION_PATH', `$rename requires that 'source' and 'destination' differ ('${target.path}')`);
      }
      return { kind: op, target, to };
    }
    case '$push':
    case '$addToSet':
      return parseArrayAdd(op, target, arg);
    case '$pop':
      if (typeof arg !== 'number') throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `$pop requires Number argument (-1 or 1), instead got: ${jsonTypeName(arg)}`);
      if (arg !== 1 && arg !== -1) throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `$pop requires argument of -1 or 1, instead got: ${arg}`);
      return { kind: op, target, first: arg === -1 };
    case '$currentDate':
      if (arg !== true && !(isObject(arg) && Object.keys(arg).length === 1 && arg.$type === 'date')) {
        throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `$currentDate requires argument of either \`true\` or \`{"$type":"date"}\`, got: \`${describeValue(arg)}\``);
      }
      return { kind: op, target };
  }
}

/** `$push`/`$addToSet` take a value, or modifiers: `$each` (both) and `$position` (`$push` only). */
function parseArrayAdd(op: '$push' | '$addToSet', target: UpdateTarget, arg: JsonValue): UpdateAction {
  // An EJSON wrapper (`{"$date": ...}`) is a value to add, not a modifier object.
  const hasModifier = isObject(arg) && ejsonKeyOf(arg) === undefined && Object.keys(arg).some((k) => k.startsWith('$'));
  if (!hasModifier) return op === '$push' ? { kind: op, target, values: [arg], position: undefined } : { kind: op, target, values: [arg] };
  let each: JsonValue[] | undefined;
  let position: number | undefined;
  for (const [modifier, value] of Object.entries(arg as JsonObject)) {
    if (modifier === '$each') {
      if (!Array.isArray(value)) throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `${op} modifier $each requires Array argument, found: ${jsonTypeName(value)}`);
      each = value;
    } else if (modifier === '$position' && op === '$push') {
      if (typeof value !== 'number') throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `$push modifier $position requires (integral) Number argument, found: ${jsonTypeName(value)}`);
      if (!Number.isInteger(value)) throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `$push modifier $position requires Integer Number argument, instead got: ${value}`);
      position = value;
    } else {
      const supported = op === '$push' ? '$each and $position currently' : '$each modifier';
      throw error('UNSUPPORTED_UPDATE_OPERATION_MODIFIER', `${op} only supports ${supported}; trying to use '${modifier}'`);
    }
  }
  if (each === undefined) throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `${op} modifiers can only be used with $each modifier; none included`);
  return op === '$push' ? { kind: op, target, values: each, position } : { kind: op, target, values: each };
}

/**
 * Two actions may not write the same path, nor a path and one of its sub-paths (`a` vs `a.b`), in the
 * same or different operators. `$rename`'s destination counts as a path it writes.
 */
function checkConflicts(actions: readonly UpdateAction[]): void {
  const owners = new Map<string, { op: string; path: string }>();
  const written: { key: string; segments: readonly string[]; op: string; path: string }[] = [];
  const claim = (target: UpdateTarget, op: string): void => {
    const key = joinPath(target.segments);
    const previous = owners.get(key);
    if (previous !== undefined) {
      throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `Update operators '${previous.op}' and '${op}' must not refer to same path: '${target.path}'`);
    }
    owners.set(key, { op, path: target.path });
    written.push({ key, segments: target.segments, op, path: target.path });
  };
  for (const action of actions) {
    claim(action.target, action.kind);
    if (action.kind === '$rename') claim(action.to, action.kind);
  }
  written.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const entry of written) {
    for (let n = 1; n < entry.segments.length; n++) {
      const parent = owners.get(joinPath(entry.segments.slice(0, n)));
      if (parent !== undefined) {
        throw error('UNSUPPORTED_UPDATE_OPERATION_PARAM', `Update operator path conflict due to overlap: '${parent.path}' (${parent.op}) vs '${entry.path}' (${entry.op})`);
      }
    }
  }
}
