/**
 * Applies a parsed update plan to a copy of a document: path location and creation (numeric segments
 * index arrays, writes past the end pad with null), then each operator's semantics (protocol section 8,
 * the Data API's PathMatchLocator and *Operation classes). Never mutates the input document.
 */
import { VectorDbError } from '../errors/index.js';
import { cloneJson, compareJsonNodes, ejsonKeyOf, isArrayIndex, isObject, type Document, type JsonObject, type JsonValue } from './json.js';
import type { UpdateAction, UpdatePlan } from './update-parse.js';
import { MAX_NUMBER_CHARS, exactText, isExactNumber, type AnyNumber } from './exact-number.js';
import { decimalAdd, decimalMultiply, sameJson, typeLabel } from './update-values.js';

export interface ApplyContext {
  readonly isInsert: boolean;
  readonly now: number;
}

export interface ApplyResult {
  readonly doc: Document;
  readonly modified: boolean;
}

/** Where a path ends in a document: the container holding the last segment, and the value there. */
interface Location {
  readonly parent: JsonObject | JsonValue[];
  readonly key: string | number;
  readonly value: JsonValue | undefined;
}

/** A plain object we may add properties to (EJSON wrappers are values, not sub-documents). */
function isContainerObject(value: JsonValue | undefined): value is JsonObject {
  return isObject(value) && ejsonKeyOf(value) === undefined;
}

function own(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** Locates an existing path without creating anything; undefined when its parent is missing. */
function find(doc: JsonObject, segments: readonly string[]): Location | undefined {
  let node: JsonValue | undefined = doc;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    let location: Location;
    if (isContainerObject(node)) {
      location = { parent: node, key: segment, value: own(node, segment) };
    } else if (Array.isArray(node) && isArrayIndex(segment)) {
      const index = Number(segment);
      location = { parent: node, key: index, value: node[index] };
    } else {
      return undefined;
    }
    if (i === segments.length - 1) return location;
    node = location.value;
  }
  return undefined;
}

function cannotCreate(path: string, segment: string, node: JsonValue): VectorDbError {
  return VectorDbError.of('UNSUPPORTED_UPDATE_OPERATION_PATH', {
    reason: `cannot create field ('${segment}') in path '${path}'; only Object nodes have properties (got ${typeLabel(node)})`,
  });
}

/** Locates a path, creating missing intermediate objects (and null padding inside arrays). */
function findOrCreate(doc: JsonObject, path: string, segments: readonly string[]): Location {
  let node: JsonValue = doc;
  for (let i = 0; ; i++) {
    const segment = segments[i]!;
    let location: Location;
    if (isContainerObject(node)) {
      location = { parent: node, key: segment, value: own(node, segment) };
    } else if (Array.isArray(node) && isArrayIndex(segment)) {
      const index = Number(segment);
      location = { parent: node, key: index, value: node[index] };
    } else {
      throw cannotCreate(path, segment, node);
    }
    if (i === segments.length - 1) return location;
    if (location.value === undefined) {
      const created: JsonObject = {};
      setValue(location, created);
      node = created;
    } else {
      node = location.value;
    }
  }
}

function setValue(location: Location, value: JsonValue): void {
  const { parent, key } = location;
  if (Array.isArray(parent)) {
    const index = key as number;
    while (parent.length < index) parent.push(null);
    parent[index] = value;
  } else {
    parent[key as string] = value;
  }
}

/** Removes a value; an array element becomes null so that later indexes do not move. */
function removeValue(location: Location): void {
  const { parent, key } = location;
  if (Array.isArray(parent)) parent[key as number] = null;
  else delete parent[key as string];
}

function targetError(op: string, path: string, expected: string, value: JsonValue): VectorDbError {
  return VectorDbError.of('UNSUPPORTED_UPDATE_OPERATION_TARGET', {
    reason: `${op} requires target to be ${expected}; value at '${path}' of type ${typeLabel(value)}`,
  });
}

function finiteResult(op: string, path: string, value: AnyNumber): AnyNumber {
  if (typeof value !== 'number' && exactText(value).length > MAX_NUMBER_CHARS) {
    throw VectorDbError.of('UNSUPPORTED_UPDATE_OPERATION_PARAM', {
      reason: `${op} result for '${path}' is out of the range of numbers a document holds (${MAX_NUMBER_CHARS} characters)`,
    });
  }
  return value;
}

/** The `$vector` going with new `$vectorize` text: null for null or blank text, else the one computed for it. */
function vectorOfText(text: JsonValue, vector: readonly number[] | undefined): JsonValue {
  if (typeof text !== 'string' || text.trim() === '') return null;
  if (vector === undefined) throw VectorDbError.of('VECTORIZE_FEATURE_NOT_AVAILABLE'); // no provider computed it
  return [...vector];
}

/** Applies one action to `doc` in place; returns true for `$push` (which always counts as a change). */
function applyAction(doc: JsonObject, action: UpdateAction, context: ApplyContext): boolean {
  const { path, segments } = action.target;
  switch (action.kind) {
    case '$set':
    case '$setOnInsert': {
      if (action.kind === '$setOnInsert' && !context.isInsert) return false;
      const location = findOrCreate(doc, path, segments);
      if (!sameJson(location.value, action.value)) {
        setValue(location, cloneJson(action.value));
        // A new vector makes any `$vectorize` text stale; new text brings its own vector.
        if (path === '$vector') delete doc.$vectorize;
        if (path === '$vectorize') doc.$vector = vectorOfText(action.value, action.vector);
      }
      return false;
    }
    case '$unset': {
      const location = find(doc, segments);
      if (location !== undefined && location.value !== undefined) removeValue(location);
      // `$vector` and `$vectorize` go together.
      if (path === '$vector') delete doc.$vectorize;
      if (path === '$vectorize') delete doc.$vector;
      return false;
    }
    case '$inc':
    case '$mul': {
      const location = findOrCreate(doc, path, segments);
      const old = location.value;
      if (old === undefined) {
        setValue(location, action.kind === '$inc' ? action.value : 0);
      } else if (typeof old === 'number' || isExactNumber(old)) {
        const result = action.kind === '$inc' ? decimalAdd(old, action.value) : decimalMultiply(old, action.value);
        setValue(location, finiteResult(action.kind, path, result));
      } else {
        throw targetError(action.kind, path, 'Number', old);
      }
      return false;
    }
    case '$min':
    case '$max': {
      const location = findOrCreate(doc, path, segments);
      const old = location.value;
      const c = old === undefined ? 0 : compareJsonNodes(old, action.value);
      if (old === undefined || (action.kind === '$min' ? c > 0 : c < 0)) setValue(location, cloneJson(action.value));
      return false;
    }
    case '$rename': {
      const source = find(doc, segments);
      if (source === undefined || source.value === undefined) return false;
      if (Array.isArray(source.parent)) {
        throw VectorDbError.of('UNSUPPORTED_UPDATE_OPERATION_PATH', { reason: `$rename does not allow Array field as source ('${path}')` });
      }
      removeValue(source);
      const destination = findOrCreate(doc, action.to.path, action.to.segments);
      if (Array.isArray(destination.parent)) {
        throw VectorDbError.of('UNSUPPORTED_UPDATE_OPERATION_PATH', {
          reason: `$rename does not allow Array field as destination ('${action.to.path}')`,
        });
      }
      setValue(destination, source.value);
      return false;
    }
    case '$push':
    case '$addToSet': {
      const location = findOrCreate(doc, path, segments);
      let array: JsonValue[];
      if (location.value === undefined) {
        array = [];
        setValue(location, array);
      } else if (Array.isArray(location.value)) {
        array = location.value;
      } else {
        throw targetError(action.kind, path, 'Array', location.value);
      }
      if (action.kind === '$addToSet') {
        for (const value of action.values) if (!array.some((e) => sameJson(e, value))) array.push(cloneJson(value));
        return false;
      }
      const values = action.values.map((v) => cloneJson(v));
      if (action.position === undefined) {
        array.push(...values);
      } else {
        // Negative positions count from the end; both directions are clamped to the array.
        const at = action.position < 0 ? Math.max(0, array.length + action.position) : Math.min(action.position, array.length);
        array.splice(at, 0, ...values);
      }
      return true;
    }
    case '$pop': {
      const location = find(doc, segments);
      if (location === undefined || location.value === undefined) return false;
      if (!Array.isArray(location.value)) throw targetError('$pop', path, 'Array', location.value);
      if (action.first) location.value.shift();
      else location.value.pop();
      return false;
    }
    case '$currentDate': {
      const location = findOrCreate(doc, path, segments);
      const now: JsonObject = { $date: context.now };
      if (!sameJson(location.value, now)) setValue(location, now);
      return false;
    }
  }
}

/** Keeps `_id` the first property (a `$setOnInsert` of `_id` on an upsert appends it). */
function idFirst(doc: JsonObject): JsonObject {
  if (doc._id === undefined || Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

export function applyUpdatePlan(plan: UpdatePlan, input: Document, context: ApplyContext): ApplyResult {
  const working = cloneJson(input);
  let pushed = false;
  for (const action of plan.actions) pushed = applyAction(working, action, context) || pushed;
  const doc = idFirst(working);
  return { doc, modified: pushed || !sameJson(input, doc) };
}
