/**
 * Projection: parses a find command's `projection` clause (protocol section 6) into an immutable plan
 * and applies it to stored documents. Pure: no storage; the caller supplies `$similarity`.
 * Mirrors the Data API's DocumentProjector/ProjectionLayer, except that EJSON wrappers are values.
 */
import { VectorDbError, describeValue, jsonTypeName } from '../errors/index.js';
import { ejsonKeyOf, isObject, joinPath, splitPath, type Document, type JsonObject, type JsonValue } from './json.js';

export interface Projection {
  /**
   * Returns a new document: `_id` first, then the projected fields in the document's order, and
   * `$similarity` appended last when given. Containers on projected paths are new; untouched
   * sub-values are shared with the input (neither is mutated).
   */
  apply(doc: Document, similarity?: number): Document;
  /** Whether `$vector` is returned (so the engine knows it must load it). */
  readonly includesVector: boolean;
}

/** Root fields that are toggled rather than projected; they never decide inclusion vs exclusion. */
type SpecialField = '_id' | '$vector' | '$vectorize' | '$lexical';
const SPECIAL_FIELDS: readonly string[] = ['_id', '$vector', '$vectorize', '$lexical'];

type Slicer = (values: JsonValue[]) => JsonValue[];

/** One level of the projection trie: a terminal (projected path, maybe sliced) or a branch. */
interface Layer {
  readonly path: string;
  readonly terminal: boolean;
  readonly slicer?: Slicer;
  readonly children: Map<string, Layer>;
}

interface CollectedPath {
  readonly segments: readonly string[];
  readonly slicer?: Slicer;
}

const paramError = (reason: string): VectorDbError => VectorDbError.of('UNSUPPORTED_PROJECTION_PARAM', { reason });

/** `undefined`, `null` and `{}` give the default projection (everything but `$vector`, `$vectorize`, `$lexical`). */
export function parseProjection(raw: unknown): Projection {
  if (raw === undefined || raw === null) return DEFAULT_PROJECTION;
  if (!isObject(raw)) {
    throw VectorDbError.of('UNSUPPORTED_PROJECTION_DEFINITION', {
      reason: `definition must be an Object, was ${jsonTypeName(raw)}`,
    });
  }
  const keys = Object.keys(raw);
  if (keys.length === 0) return DEFAULT_PROJECTION;
  if (keys.length === 1 && keys[0] === '*') {
    return includeFlag('*', raw['*']) ? INCLUDE_ALL : EXCLUDE_ALL;
  }
  // `{"_id": 1}` (what clients send for "just the ids") shows what the default shows: no Collector for it.
  if (keys.length === 1 && keys[0] === '_id' && includeFlag('_id', raw._id)) return DEFAULT_PROJECTION;
  return new Collector().collect(raw, []).build();
}

function includeFlag(path: string, value: JsonValue | undefined): boolean {
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'boolean') return value;
  throw paramError(`path ('${path}') value must be Number or Boolean, was ${jsonTypeName(value)}`);
}

/** Walks the clause once, checking its shape and that it is either inclusive or exclusive. */
class Collector {
  private readonly paths: CollectedPath[] = [];
  private readonly slices: CollectedPath[] = [];
  private inclusions = 0;
  private exclusions = 0;
  private readonly toggles = new Map<SpecialField, boolean>();

  collect(definition: JsonObject, parent: readonly string[]): this {
    for (const [key, value] of Object.entries(definition)) {
      if (key.length === 0) throw paramError('empty paths (and path segments) not allowed');
      if (parent.length === 0 && SPECIAL_FIELDS.includes(key)) {
        this.toggles.set(key as SpecialField, includeFlag(key, value));
        continue;
      }
      if (key.startsWith('$')) {
        if (parent.length === 0) throw paramError(`path ('${key}') cannot start with '$' (no root-level operators)`);
        if (key !== '$slice') {
          throw paramError(`unrecognized/unsupported projection operator '${key}' (only '$slice' supported)`);
        }
        this.slices.push({ segments: parent, slicer: parseSlice(joinPath(parent), value) });
        continue;
      }
      if (key === '*') throw paramError("wildcard ('*') only allowed as the only root-level path");
      const segments = splitPath(key);
      if (segments === undefined) {
        throw paramError(`path ('${key}') is not valid: empty segment, or '&' not followed by '.' or '&'`);
      }
      const bad = segments.find((s) => s.startsWith('$'));
      if (bad !== undefined) throw paramError(`path ('${key}') segment '${bad}' cannot start with '$'`);
      const full = [...parent, ...segments];
      if (isObject(value)) {
        this.collect(value, full);
      } else if (typeof value === 'number' || typeof value === 'boolean') {
        this.add(full, typeof value === 'number' ? value !== 0 : value);
      } else {
        throw paramError(
          `path ('${joinPath(full)}') value must be Number, Boolean or Object, was ${jsonTypeName(value)}`,
        );
      }
    }
    return this;
  }

  private add(segments: readonly string[], include: boolean): void {
    const path = joinPath(segments);
    if (include && this.exclusions > 0) throw paramError(`cannot include '${path}' on exclusion projection`);
    if (!include && this.inclusions > 0) throw paramError(`cannot exclude '${path}' on inclusion projection`);
    if (include) this.inclusions++;
    else this.exclusions++;
    this.paths.push({ segments });
  }

  build(): Projection {
    // No paths and no special field shown but `_id` (`{"_id": 1}`, `{"$vector": 0}`): the default's output.
    if (this.paths.length === 0 && this.slices.length === 0 && [...this.toggles].every(([field, show]) => field === '_id' ? show : !show)) {
      return DEFAULT_PROJECTION;
    }
    const root: Layer = { path: '', terminal: false, children: new Map() };
    for (const p of this.paths) addPath(root, p);
    // Slices go in after plain paths (as in the Data API); they never make a projection inclusive.
    for (const s of this.slices) addPath(root, s);
    return new TrieProjection(root, this.inclusions > 0, this.toggles);
  }
}

function addPath(root: Layer, entry: CollectedPath): void {
  const fullPath = joinPath(entry.segments);
  let layer = root;
  const last = entry.segments.length - 1;
  for (let i = 0; i < last; i++) {
    const segment = entry.segments[i]!;
    let next = layer.children.get(segment);
    if (next === undefined) {
      next = { path: fullPath, terminal: false, children: new Map() };
      layer.children.set(segment, next);
    } else if (next.terminal) {
      throw conflict(next.path, fullPath);
    }
    layer = next;
  }
  const segment = entry.segments[last]!;
  const existing = layer.children.get(segment);
  if (existing !== undefined) throw conflict(fullPath, existing.path);
  layer.children.set(segment, { path: fullPath, terminal: true, slicer: entry.slicer, children: new Map() });
}

const conflict = (a: string, b: string): VectorDbError =>
  paramError(`projection path conflict between '${a}' and '${b}'`);

/** `$slice`: `n` (first n, or last |n| if negative) or `[skip, count]` (negative skip counts from the end). */
function parseSlice(path: string, value: JsonValue | undefined): Slicer {
  if (typeof value === 'number' && Number.isInteger(value)) {
    return value >= 0 ? (a) => a.slice(0, value) : (a) => a.slice(Math.max(0, a.length + value));
  }
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number' && Number.isInteger(v))) {
    const [skip, count] = value as [number, number];
    if (count < 0) {
      throw paramError(
        `path ('${path}') has unsupported parameter for '$slice' (${describeValue(value)}): second Number (entries to return) must not be negative`,
      );
    }
    return (a) => {
      const start = skip >= 0 ? Math.min(skip, a.length) : Math.max(0, a.length + skip);
      return a.slice(start, start + count);
    };
  }
  throw paramError(
    `path ('${path}') has unsupported parameter for '$slice' (${describeValue(value)}): only an integer Number or an Array of 2 integer Numbers accepted`,
  );
}

class TrieProjection implements Projection {
  readonly includesVector: boolean;

  constructor(
    private readonly root: Layer,
    private readonly inclusion: boolean,
    private readonly toggles: ReadonlyMap<SpecialField, boolean>,
  ) {
    this.includesVector = toggles.get('$vector') === true;
  }

  apply(doc: Document, similarity?: number): Document {
    const out: JsonObject = {};
    // `_id` is kept unless explicitly excluded, the other special fields only if explicitly included,
    // whichever the mode.
    if (doc._id !== undefined && this.toggles.get('_id') !== false) out._id = doc._id;
    // A key loop, not Object.entries: no pair arrays per field of every result.
    const keys = Object.keys(doc);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === '_id') continue;
      if (isSpecialField(key)) {
        if (this.toggles.get(key as SpecialField) === true) setField(out, key, doc[key]!);
        continue;
      }
      const projected = projectEntry(this.root, key, doc[key]!, this.inclusion);
      if (projected !== undefined) setField(out, key, projected);
    }
    return withSimilarity(out, similarity);
  }
}

/** The value kept for `key` under `layer`, or undefined when the property is dropped. */
function projectEntry(layer: Layer, key: string, value: JsonValue, inclusion: boolean): JsonValue | undefined {
  const next = layer.children.get(key);
  if (next === undefined) return inclusion ? undefined : value;
  if (next.terminal) {
    if (next.slicer !== undefined) return Array.isArray(value) ? next.slicer(value) : value;
    return inclusion ? value : undefined;
  }
  return projectValue(next, value, inclusion);
}

/**
 * Applies a branch layer to a value: objects are projected property by property, arrays element by
 * element; atomic values (and EJSON wrappers) reached by a longer path are kept as they are, as the
 * Data API does (`{"a.b":1}` on `{"a":5}` keeps `a`).
 */
function projectValue(layer: Layer, value: JsonValue, inclusion: boolean): JsonValue {
  if (Array.isArray(value)) return value.map((e) => projectValue(layer, e, inclusion));
  if (!isObject(value) || ejsonKeyOf(value) !== undefined) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const projected = projectEntry(layer, key, child, inclusion);
    if (projected !== undefined) setField(out, key, projected);
  }
  return out;
}

function withSimilarity(out: JsonObject, similarity: number | undefined): JsonObject {
  if (similarity !== undefined) {
    delete out.$similarity;
    out.$similarity = similarity;
  }
  return out;
}

/**
 * Default projection: the whole document minus `$vector`, `$vectorize` and `$lexical` (`_id` first).
 * Every query without a projection runs this per document: a key loop, no entry pairs.
 */
const DEFAULT_PROJECTION: Projection = Object.freeze({
  includesVector: false,
  apply(doc: Document, similarity?: number): Document {
    const out: JsonObject = {};
    if (doc._id !== undefined) out._id = doc._id;
    const keys = Object.keys(doc);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!isSpecialField(key)) setField(out, key, doc[key]!);
    }
    return withSimilarity(out, similarity);
  },
});

/** `{"*": 1}`: everything, including `$vector`, `$vectorize` and `$lexical`. */
const INCLUDE_ALL: Projection = Object.freeze({
  includesVector: true,
  apply(doc: Document, similarity?: number): Document {
    const out: JsonObject = {};
    if (doc._id !== undefined) out._id = doc._id;
    const keys = Object.keys(doc);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key !== '_id') setField(out, key, doc[key]!);
    }
    return withSimilarity(out, similarity);
  },
});

function isSpecialField(key: string): boolean {
  return key === '_id' || key === '$vector' || key === '$vectorize' || key === '$lexical';
}

/** Sets an own property (plain assignment of `__proto__` would change the prototype instead). */
function setField(out: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** `{"*": 0}`: empty documents (plus `$similarity` when asked for). */
const EXCLUDE_ALL: Projection = Object.freeze({
  includesVector: false,
  apply(_doc: Document, similarity?: number): Document {
    return withSimilarity({}, similarity);
  },
});
