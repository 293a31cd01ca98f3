/**
 * Filter parsing: raw filter JSON -> frozen FilterNode tree with `$not` pushed down, validated with the
 * Data API's rules and error codes (data-api-protocol.md 5.1, 5.2, 10). Knows nothing of evaluation.
 */
import { VectorDbError, describeValue, jsonTypeName } from '../errors/index.js';
import {
  DEFAULT_MAX_FILTER_CLAUSES,
  DEFAULT_MAX_IN_VALUES,
  type ComparisonOp,
  type FilterNode,
  type FilterOptions,
} from './filter-types.js';
import { joinPath, splitPath, type JsonValue } from './json.js';
import { isExactNumber, normalizeNumber } from './exact-number.js';

/** A root-level `$eq` clause that seeds an upserted document. */
export interface SeedClause {
  readonly path: string;
  readonly segments: readonly string[];
  readonly value: JsonValue;
}

type CompareNode = Extract<FilterNode, { kind: 'compare' }>;

const USER_OPS = ['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$all', '$size'] as const;
type UserOp = (typeof USER_OPS)[number];
const ID_OPS: ReadonlySet<string> = new Set(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists']);
const SPECIAL_FIELDS: ReadonlySet<string> = new Set(['$vector', '$vectorize']);

const INVERSE: Readonly<Record<ComparisonOp, ComparisonOp>> = {
  $eq: '$ne',
  $ne: '$eq',
  $in: '$nin',
  $nin: '$in',
  $gt: '$lte',
  $gte: '$lt',
  $lt: '$gte',
  $lte: '$gt',
  $exists: '$exists',
  $all: '$notAll',
  $notAll: '$all',
  $size: '$sizeNe',
  $sizeNe: '$size',
};

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const OBJECT_ID_RE = /^[0-9a-fA-F]{24}$/;

interface ParseState {
  readonly options: FilterOptions;
  readonly maxInValues: number;
  idClauses: number;
  /** Inside a `$not` (how deep). */
  notDepth: number;
  /** The text of the filter's `{"$lexical": {"$match": text}}`. */
  lexical?: string;
}

const invalid = (reason: string): VectorDbError => VectorDbError.of('FILTER_INVALID_EXPRESSION', { reason });
const dataType = (reason: string): VectorDbError => VectorDbError.of('FILTER_UNSUPPORTED_DATA_TYPE', { reason });
const unsupported = (operator: string, hint: string): VectorDbError =>
  VectorDbError.of('FILTER_UNSUPPORTED_OPERATOR', { operator, hint });

/** Parses and validates a raw filter. The returned root is always a frozen `and` node. */
export function parseFilterTree(raw: unknown, options: FilterOptions): { root: FilterNode; seed: readonly SeedClause[]; lexical?: string } {
  if (raw === null || raw === undefined) return { root: group('and', []), seed: [] };
  if (!isPlainObject(raw)) throw dataType(`filter must be a JSON Object, command had ${jsonTypeName(raw)}`);
  const state: ParseState = { options, maxInValues: options.maxInValues ?? DEFAULT_MAX_IN_VALUES, idClauses: 0, notDepth: 0 };
  const items = parseConjunction(raw, state, false, true);
  if (state.idClauses > 1) throw VectorDbError.of('FILTER_MULTIPLE_ID_FILTER');
  const root = group('and', items);
  const count = countCompares(root);
  const max = options.maxClauses ?? DEFAULT_MAX_FILTER_CLAUSES;
  if (count > max) throw VectorDbError.of('FILTER_FIELDS_LIMIT_VIOLATION', { count, max });
  checkIndexed(root, options);
  // Seeds: only comparisons sitting directly at root level (a single-clause $not lands there too, as in the Data API).
  const seed = items
    .filter((n): n is CompareNode => n.kind === 'compare' && n.op === '$eq')
    .map(({ path, segments, value }) => Object.freeze({ path, segments, value }));
  return state.lexical === undefined ? { root, seed: Object.freeze(seed) } : { root, seed: Object.freeze(seed), lexical: state.lexical };
}

/** The keys of one filter object, implicitly AND-ed; `$and`/`$or`/`$not` stay one item each. */
/** `top`: the clauses hold for the whole filter (the root and the root's `$and`s), where a `$lexical` match may be. */
function parseConjunction(obj: Record<string, unknown>, state: ParseState, directlyInOr: boolean, top = false): FilterNode[] {
  const items: FilterNode[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined) continue; // as JSON.stringify would drop it
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) throw dataType(`'${key}' operator must have an Array of Objects, got ${jsonTypeName(value)}`);
      const children = value.map((element: unknown, i) => {
        if (!isPlainObject(element)) {
          throw dataType(`element ${i} of '${key}' must be an Object, got ${jsonTypeName(element)}`);
        }
        return group('and', parseConjunction(element, state, key === '$or', top && key === '$and'));
      });
      items.push(group(key === '$and' ? 'and' : 'or', children));
    } else if (key === '$not') {
      if (!isPlainObject(value)) throw invalid(`'$not' operator must have an Object value, got ${jsonTypeName(value)}`);
      state.notDepth++;
      items.push(invert(group('and', parseConjunction(value, state, false))));
      state.notDepth--;
    } else if (key === '$lexical') {
      parseLexical(value, state, top);
    } else if (key.startsWith('$') && !SPECIAL_FIELDS.has(key)) {
      if (Array.isArray(value)) throw invalid(`cannot filter on '${key}' by array type`);
      throw invalid(`filter expression path ('${key}') cannot start with '$'`);
    } else {
      items.push(...parseField(key, value, state, directlyInOr));
    }
  }
  return items;
}

function parseField(path: string, value: unknown, state: ParseState, directlyInOr: boolean): CompareNode[] {
  const segments = splitPath(path);
  if (segments === undefined) {
    throw invalid(`filter path '${path}' is not valid: escape '.' as '&.' and '&' as '&&' inside names; empty segments are not allowed`);
  }
  const isId = path === '_id';
  if (isId && directlyInOr) {
    throw invalid("cannot filter on '_id' field within '$or', ID field can not be used with '$or' operator");
  }
  const ops: [string, unknown][] = isOperatorMap(value) ? Object.entries(value) : [['$eq', value]];
  const nodes: CompareNode[] = [];
  for (const [op, operand] of ops) {
    if (operand === undefined) continue;
    if (!op.startsWith('$')) throw invalid(`cannot mix operators and field names in the value of '${path}' (found '${op}')`);
    if (!(USER_OPS as readonly string[]).includes(op)) throw unsupportedOperator(op, path);
    if (SPECIAL_FIELDS.has(path) && op !== '$exists') {
      throw invalid(`cannot filter on '${path}' field using operator '${op}': only '$exists' is supported`);
    }
    if (isId && !ID_OPS.has(op)) {
      throw unsupported(op, ": '_id' supports only $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte and $exists");
    }
    nodes.push(compare(path, segments, op as UserOp, checkOperand(op as UserOp, operand, isId, state)));
  }
  if (isId) state.idClauses += nodes.length;
  return nodes;
}

/**
 * `{"$lexical": {"$match": "words"}}`: every analyzed word present. Only `$match`, only a string, not under
 * `$not`, on a lexical-enabled collection; one per filter, at its top level (not inside `$or`).
 */
function parseLexical(value: unknown, state: ParseState, top: boolean): void {
  const options = state.options.lexical;
  if (options === undefined || options.analyzer === undefined) throw options?.disabled() ?? VectorDbError.of('LEXICAL_NOT_ENABLED_FOR_COLLECTION', { keyspace: '', collection: '' });
  const [op, operand] = isOperatorMap(value) ? (Object.entries(value)[0] ?? ['$eq', value]) : ['$eq', value];
  if (op !== '$match' || Object.keys(value as object).length > 1) {
    throw invalid(`cannot filter on '$lexical' field using operator '${op === '$match' ? Object.keys(value as object).find((k) => k !== '$match') : op}': only '$match' is supported`);
  }
  if (typeof operand !== 'string') throw invalid(`'$match' operator must have \`String\` value, was \`${jsonTypeName(operand)}\``);
  if (state.notDepth > 0) throw invalid("cannot use '$not' to invert '$match' operator");
  if (!top) throw invalid("'$match' on '$lexical' can only be used at the top level of a filter (or in a top-level '$and'), not inside '$or'");
  if (state.lexical !== undefined) throw invalid("a filter can have only one '$match' on '$lexical'");
  state.lexical = operand;
}

function unsupportedOperator(op: string, path?: string): VectorDbError {
  if (op === '$not') return unsupported(op, ': use a filter-level $not instead, e.g. {"$not": {"field": {"$gt": 1}}}');
  if (op === '$match') return invalid(`'$match' operator can only be used with the '$lexical' field, not '${path ?? ''}'`);
  return unsupported(op, `: supported operators are ${USER_OPS.join(', ')}`);
}

/** Validates one operator's operand and returns it as JSON. */
function checkOperand(op: UserOp, operand: unknown, isId: boolean, state: ParseState): JsonValue {
  const literal = (v: unknown): JsonValue => (isId ? checkIdLiteral(v) : checkLiteral(v));
  switch (op) {
    case '$eq':
    case '$ne':
      return literal(operand);
    case '$in':
    case '$nin':
      if (!Array.isArray(operand)) throw invalid(`'${op}' operator must have \`Array\` value, got ${jsonTypeName(operand)}`);
      if (operand.length > state.maxInValues) throw invalid(`'${op}' operator must have at most ${state.maxInValues} values`);
      return operand.map(literal);
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const ok =
        (typeof operand === 'number' && Number.isFinite(operand)) ||
        isExactNumber(operand) ||
        typeof operand === 'string' ||
        typeof operand === 'boolean' ||
        (isPlainObject(operand) && ejsonKey(operand) !== undefined && ejsonKey(operand) !== '$binary');
      if (!ok) {
        throw invalid(`'${op}' operator must have \`Date\` or \`Number\` or \`String\` or \`Boolean\` value, got ${describeValue(operand)}`);
      }
      return literal(operand);
    }
    case '$exists':
      if (typeof operand !== 'boolean') throw invalid(`'$exists' operator must have \`Boolean\` value, got ${describeValue(operand)}`);
      return operand;
    case '$all':
      if (!Array.isArray(operand)) throw invalid(`'$all' operator must have \`Array\` value, got ${jsonTypeName(operand)}`);
      if (operand.length === 0) throw invalid("'$all' operator must have at least one value");
      return operand.map(literal);
    case '$size':
      if (typeof operand !== 'number' || !Number.isInteger(operand) || operand < 0) {
        throw invalid(`'$size' operator must have integer value >= 0, got ${describeValue(operand)}`);
      }
      return operand;
  }
}

/** A literal value: JSON only; objects are EJSON wrappers or sub-documents without `$` keys. */
function checkLiteral(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (isExactNumber(value)) return normalizeNumber(value); // 5n is the number 5
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(`unsupported number ${String(value)} in filter value`);
    return value;
  }
  if (Array.isArray(value)) return value.map(checkLiteral);
  if (!isPlainObject(value)) throw invalid(`unsupported value of type ${typeof value} in filter value`);
  const keys = Object.keys(value);
  if (keys.length > 0 && isEjsonFirst(keys[0]!)) return checkEjson(value);
  for (const key of keys) if (key.startsWith('$')) throw invalid(`invalid use of '${key}' operator`);
  // fromEntries defines own properties, so a `__proto__` field name stays a field.
  return Object.fromEntries(keys.map((key) => [key, checkLiteral(value[key])]));
}

/** `_id` literals use document-id typing (data-api-protocol.md 4.1). */
function checkIdLiteral(value: unknown): JsonValue {
  if (value === '') throw VectorDbError.of('SHRED_BAD_DOCID_VALUE', { reason: 'empty String not allowed' });
  if (Array.isArray(value) || (isPlainObject(value) && (ejsonKey(value) === undefined || ejsonKey(value) === '$binary'))) {
    throw VectorDbError.of('SHRED_BAD_DOCID_TYPE', { type: `${jsonTypeName(value)}: ${describeValue(value)}` });
  }
  return checkLiteral(value);
}

function checkEjson(value: Record<string, unknown>): JsonValue {
  const keys = Object.keys(value);
  const key = keys[0]!;
  if (keys.length !== 1) throw invalid(`invalid use of '${key}': an EJSON value must be the only property of its Object`);
  const inner = value[key];
  if (key === '$date') {
    if (typeof inner !== 'number' || !Number.isSafeInteger(inner)) {
      throw invalid(`'$date' value has to be an epoch timestamp (integer milliseconds), instead got ${describeValue(inner)}`);
    }
  } else if (key === '$uuid') {
    if (typeof inner !== 'string' || !UUID_RE.test(inner)) {
      throw invalid(`'$uuid' value has to be 36-character UUID String, instead got ${describeValue(inner)}`);
    }
  } else if (key === '$objectId') {
    if (typeof inner !== 'string' || !OBJECT_ID_RE.test(inner)) {
      throw invalid(`'$objectId' value has to be 24-digit hexadecimal ObjectId String, instead got ${describeValue(inner)}`);
    }
  } else {
    throw invalid(`'${key}' values cannot be used in filters`);
  }
  return { [key]: inner as JsonValue };
}

/** Walks the final tree: unindexed paths, including each nested path of sub-document/array literals. */
function checkIndexed(node: FilterNode, options: FilterOptions): void {
  if (node.kind !== 'compare') {
    for (const child of node.children) checkIndexed(child, options);
    return;
  }
  if (SPECIAL_FIELDS.has(node.path)) return;
  if (node.path === '_id') {
    if ((node.op === '$eq' || node.op === '$in') || options.isIndexed('_id')) return;
    throw VectorDbError.of('FILTER_ID_NOT_INDEXED', { operator: node.op });
  }
  if (!options.isIndexed(node.path)) throw VectorDbError.of('FILTER_PATH_UNINDEXED', { path: node.path });
  if (node.op !== '$exists' && node.op !== '$size' && node.op !== '$sizeNe') {
    checkNestedIndexed(node.value, node.segments, options);
  }
}

/** Arrays (literals, or the lists of $in/$nin/$all) are transparent: their elements sit at the same path. */
function checkNestedIndexed(value: JsonValue, segments: readonly string[], options: FilterOptions): void {
  if (Array.isArray(value)) {
    for (const v of value) checkNestedIndexed(v, segments, options);
  } else if (isPlainObject(value) && ejsonKey(value) === undefined) {
    for (const [key, v] of Object.entries(value)) {
      const child = [...segments, key];
      const path = joinPath(child);
      if (!options.isIndexed(path)) throw VectorDbError.of('FILTER_PATH_UNINDEXED', { path });
      checkNestedIndexed(v as JsonValue, child, options);
    }
  }
}

function compare(path: string, segments: readonly string[], op: ComparisonOp, value: JsonValue): CompareNode {
  return Object.freeze({ kind: 'compare', path, segments: Object.freeze([...segments]), op, value: deepFreeze(value) });
}

/**
 * Builds an and/or node, flattening children of the same kind. Empty groups are dropped: the Data API
 * skips logical expressions without comparisons, so `{"$or": []}` imposes no condition. A non-root group
 * with one child is that child.
 */
function group(kind: 'and' | 'or', children: readonly FilterNode[]): FilterNode {
  const flat: FilterNode[] = [];
  for (const child of children) {
    if (child.kind === 'compare') flat.push(child);
    else if (child.children.length === 0) continue;
    else if (child.kind === kind) flat.push(...child.children);
    else flat.push(child);
  }
  return Object.freeze({ kind, children: Object.freeze(flat) });
}

/** `$not` pushed down: operators inverted, and/or swapped (De Morgan). */
function invert(node: FilterNode): FilterNode {
  if (node.kind === 'compare') {
    const value = node.op === '$exists' ? !(node.value as boolean) : node.value;
    return compare(node.path, node.segments, INVERSE[node.op], value);
  }
  const inverted = node.children.map(invert);
  if (inverted.length === 1) return inverted[0]!;
  return group(node.kind === 'and' ? 'or' : 'and', inverted);
}

function countCompares(node: FilterNode): number {
  return node.kind === 'compare' ? 1 : node.children.reduce((sum, child) => sum + countCompares(child), 0);
}

function isOperatorMap(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const first = Object.keys(value)[0];
  return first !== undefined && first.startsWith('$') && !isEjsonFirst(first);
}

/** An object whose first key is an EJSON key is a typed literal (validated by checkEjson), never an operator map. */
function isEjsonFirst(key: string): boolean {
  return key === '$date' || key === '$uuid' || key === '$objectId' || key === '$binary';
}

function ejsonKey(value: Record<string, unknown>): string | undefined {
  const keys = Object.keys(value);
  return keys.length === 1 && isEjsonFirst(keys[0]!) ? keys[0] : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function deepFreeze<T extends JsonValue>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
