/**
 * Shreds a document for storage: validates it (field names, EJSON, limits, `_id`, `$vector`) and computes
 * its secondary index entries, in one walk. Nothing is written here; the caller puts the result in one batch.
 * Index entries follow the Data API's shredding: every indexed path with an atomic value, every element of an
 * array under the array's own path, and a hash for every array and sub-document (exact equality).
 */
import { createHash } from 'node:crypto';
import { VectorDbError, describeValue, jsonTypeName } from '../errors/index.js';
import { ejsonKeyOf, isObject, joinPath, type Document, type JsonObject, type JsonValue } from '../query/json.js';
import { decodeVector, isZeroVector, type VectorForm } from '../query/vector-value.js';
import { SEP, encodeIndexScalar, type IndexScalar } from '../storage/keys.js';
import type { CollectionOptions } from './collection-schema.js';
import { generateId, idKey, validateEjson, validateId } from './document-id.js';
import type { Limits } from './limits.js';

export interface ShreddedDocument {
  readonly id: JsonValue;
  /** Storage key of the id. */
  readonly key: string;
  /** The document with `_id` first, as it will be stored and returned. */
  readonly doc: Document;
  readonly vector: Float32Array | null;
  readonly vectorForm: VectorForm | null;
  /** `path\0typed value` strings; the engine prefixes the collection and appends the doc key. */
  readonly indexEntries: readonly string[];
}

export interface ShredContext {
  readonly keyspace: string;
  readonly collectionName: string;
  readonly options: CollectionOptions;
  readonly limits: Limits;
  readonly isIndexed: (path: string) => boolean;
}

/** Validates and shreds a document; generates `_id` if missing. Throws VectorDbError on any violation. */
export function shredDocument(raw: unknown, ctx: ShredContext): ShreddedDocument {
  if (!isObject(raw)) {
    throw VectorDbError.of('SHRED_BAD_DOCUMENT_TYPE', { type: jsonTypeName(raw) });
  }
  const id = raw._id === undefined ? generateId(ctx.options.defaultId?.type) : raw._id;
  validateId(id);
  const doc: Document = { _id: id };
  for (const [name, value] of Object.entries(raw)) if (name !== '_id') doc[name] = value;

  const size = JSON.stringify(doc).length;
  if (size > ctx.limits.maxDocumentChars) {
    throw limitViolation(`document size (${size} chars) exceeds maximum allowed (${ctx.limits.maxDocumentChars})`);
  }

  const walker = new Walker(ctx);
  let vector: Float32Array | null = null;
  let vectorForm: VectorForm | null = null;
  for (const [name, value] of Object.entries(doc)) {
    if (name === '$vector') {
      const decoded = checkVector(value, ctx);
      vector = decoded?.values ?? null;
      vectorForm = decoded?.form ?? null;
      continue;
    }
    if (name === '$vectorize') throw VectorDbError.of('VECTORIZE_FEATURE_NOT_AVAILABLE');
    if (name !== '_id') {
      checkFieldName(name);
      const bytes = Buffer.byteLength(JSON.stringify(value));
      if (bytes > ctx.limits.maxAttributeValueBytes) {
        throw limitViolation(
          `value of attribute '${name}' is ${bytes} bytes, exceeds maximum allowed (${ctx.limits.maxAttributeValueBytes} bytes)`,
        );
      }
    }
    walker.walk(value, [name], 1);
  }
  return { id, key: idKey(id), doc, vector, vectorForm, indexEntries: walker.entries };
}

const UNLIMITED = new Proxy({}, { get: () => Number.POSITIVE_INFINITY }) as Limits;

/** The index entries of an already stored document (no limits re-checked: they held when it was written). */
export function indexEntriesOf(doc: Document, ctx: ShredContext): readonly string[] {
  const walker = new Walker({ ...ctx, limits: UNLIMITED });
  for (const [name, value] of Object.entries(doc)) {
    if (name !== '$vector' && name !== '$vectorize') walker.walk(value, [name], 1);
  }
  return walker.entries;
}

function checkVector(value: JsonValue | undefined, ctx: ShredContext): ReturnType<typeof decodeVector> {
  if (value === null || value === undefined) return null;
  const settings = ctx.options.vector;
  if (!settings) {
    throw VectorDbError.of('VECTOR_SEARCH_NOT_SUPPORTED', { keyspace: ctx.keyspace, collection: ctx.collectionName });
  }
  const decoded = decodeVector(value);
  if (decoded === null) return null;
  if (decoded.values.length !== settings.dimension) {
    throw VectorDbError.of('INVALID_VECTOR_LENGTH', { actual: decoded.values.length, expected: settings.dimension, collection: ctx.collectionName });
  }
  if (settings.metric === 'cosine' && isZeroVector(decoded.values)) {
    throw zeroVectorError();
  }
  return decoded;
}

export function zeroVectorError(): VectorDbError {
  return VectorDbError.of('INVALID_DATABASE_QUERY', {
    reason: 'Zero and near-zero vectors cannot be indexed or queried with cosine similarity: send a vector with at least one non-zero component.',
  });
}

function checkFieldName(name: string): void {
  if (name.length === 0) throw VectorDbError.of('SHRED_BAD_FIELD_NAME', { name, reason: 'is empty' });
  if (name.startsWith('$')) throw VectorDbError.of('SHRED_BAD_FIELD_NAME', { name, reason: "starts with '$'" });
  if (name.includes('\u0000')) throw VectorDbError.of('SHRED_BAD_FIELD_NAME', { name, reason: 'contains the NUL character' });
}

function limitViolation(reason: string): VectorDbError {
  return VectorDbError.of('SHRED_DOC_LIMIT_VIOLATION', { reason });
}

/** Canonical form for hashing: `$uuid`/`$objectId` become their strings so hashes agree with jsonEquals. */
function canonical(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(canonical);
  if (isObject(value)) {
    const key = ejsonKeyOf(value);
    if (key === '$uuid' || key === '$objectId') return value[key] as JsonValue;
    if (key !== undefined) return value;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = canonical(v);
    return out;
  }
  return value;
}

/** Key-order-sensitive hash of an array or sub-document (used for exact-equality index entries). */
export function hashValue(value: JsonValue): string {
  return createHash('sha1').update(JSON.stringify(canonical(value))).digest('base64url').slice(0, 20);
}

/** The index scalar of an atomic value, or a hash for arrays and sub-documents. */
export function indexScalarOf(value: JsonValue): IndexScalar {
  if (value === null) return { type: 'null' };
  if (typeof value === 'number') return { type: 'number', value };
  if (typeof value === 'string') return { type: 'string', value };
  if (typeof value === 'boolean') return { type: 'boolean', value };
  const key = ejsonKeyOf(value);
  if (key === '$date') return { type: 'date', value: (value as JsonObject).$date as number };
  if (key === '$uuid' || key === '$objectId') return { type: 'string', value: (value as JsonObject)[key] as string };
  return { type: 'hash', value: hashValue(value) };
}

export function indexEntry(path: string, scalar: IndexScalar): string {
  return `${path}${SEP}${encodeIndexScalar(scalar)}`;
}

class Walker {
  readonly entries: string[] = [];
  #indexedProperties = 0;
  readonly #ctx: ShredContext;

  constructor(ctx: ShredContext) {
    this.#ctx = ctx;
  }

  walk(value: JsonValue, segments: string[], depth: number): void {
    const { limits, isIndexed } = this.#ctx;
    const path = joinPath(segments);
    if (path.length > limits.maxPathLength) {
      throw limitViolation(`field path length (${path.length}) exceeds maximum allowed (${limits.maxPathLength}) (path ends with '${segments.at(-1)}')`);
    }
    const indexed = isIndexed(path);
    if (isObject(value) && ejsonKeyOf(value) !== undefined) {
      validateEjson(value);
      if (indexed) this.#add(path, indexScalarOf(value));
      return;
    }
    if (isObject(value) || Array.isArray(value)) {
      if (depth > limits.maxDocumentDepth) throw limitViolation(`document depth exceeds maximum allowed (${limits.maxDocumentDepth})`);
      if (isObject(value)) {
        for (const name of Object.keys(value)) checkFieldName(name);
      }
      const size = Array.isArray(value) ? value.length : Object.keys(value).length;
      if (indexed) {
        if (Array.isArray(value) && size > limits.maxArrayLength) {
          throw limitViolation(`number of elements an indexable Array (field '${path}') has (${size}) exceeds maximum allowed (${limits.maxArrayLength})`);
        }
        if (!Array.isArray(value) && size > limits.maxObjectProperties) {
          throw limitViolation(`number of properties an indexable Object (field '${path}') has (${size}) exceeds maximum allowed (${limits.maxObjectProperties})`);
        }
        this.#indexedProperties += size;
        if (this.#indexedProperties > limits.maxIndexedProperties) {
          throw limitViolation(`total number of indexed properties (${this.#indexedProperties}) in document exceeds maximum allowed (${limits.maxIndexedProperties})`);
        }
        this.#add(path, indexScalarOf(value));
      }
      if (Array.isArray(value)) {
        value.forEach((element, i) => {
          // Elements are indexed under the array's own path too ("array contains").
          if (indexed) this.#add(path, indexScalarOf(element));
          this.walk(element, [...segments, String(i)], depth + 1);
        });
      } else {
        for (const [name, child] of Object.entries(value)) this.walk(child, [...segments, name], depth + 1);
      }
      return;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw VectorDbError.of('SHRED_BAD_DOCUMENT_TYPE', { type: `non-finite number at '${path}': ${describeValue(value)}` });
    }
    if (indexed) {
      if (typeof value === 'string') {
        const bytes = Buffer.byteLength(value);
        if (bytes > limits.maxIndexedStringBytes) {
          throw limitViolation(`indexed String value (field '${path}') length (${bytes} bytes) exceeds maximum allowed (${limits.maxIndexedStringBytes} bytes)`);
        }
      }
      this.#add(path, indexScalarOf(value));
    }
  }

  #add(path: string, scalar: IndexScalar): void {
    this.entries.push(indexEntry(path, scalar));
  }
}
