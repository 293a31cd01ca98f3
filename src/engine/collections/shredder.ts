/**
 * Shreds a document for storage: validates it (field names, EJSON, limits, `_id`, `$vector`) and computes
 * its secondary index entries, in one walk. Nothing is written here; the caller puts the result in one batch.
 * Index entries are a superset of what filters need, kept small: an entry per atomic value under its
 * path with numeric segments removed (`tags.1` and `items.0.a` index as `tags` and `items.a`, so array
 * elements land under the array's own path), and a `container` marker for each array and sub-document.
 * Equality on arrays and sub-documents is planned through one of their atomic leaves (see planner.ts).
 * Whether a value is filed is decided on that index path (`isFiled`), so the entries under a path are all
 * there or none are: `deny: ["tags.0"]` cannot hide `tags[0]` from a filter on `tags`, and the planner
 * reads a path's entries only when the same rule says they are filed.
 */
import { VectorDbError, describeValue, jsonTypeName } from '../../errors/index.js';
import { ejsonKeyOf, isArrayIndex, isObject, joinPath, type Document, type JsonObject, type JsonValue } from '../../query/json.js';
import { decodeVector, isZeroVector, type VectorForm } from '../../query/vector-value.js';
import { SEP, encodeIndexScalar, type IndexScalar } from '../../storage/keys.js';
import type { CollectionOptions } from './schema.js';
import { generateId, idKey, validateEjson, validateId } from './document-id.js';
import type { Limits } from '../limits.js';
import { ExactDecimal, isExactNumber, toJsonText } from '../../query/exact-number.js';
import type { ShreddedDocument } from '../changes.js';
import { expandHybrid, lexicalOf } from './lexical-shred.js';
import type { ShredContext } from './shred-context.js';

export type { ShreddedDocument } from '../changes.js';
export type { ShredContext } from './shred-context.js';

/** Validates and shreds a document; generates `_id` if missing. Throws VectorDbError on any violation. */
export function shredDocument(raw: unknown, ctx: ShredContext): ShreddedDocument {
  if (!isObject(raw)) {
    throw VectorDbError.of('SHRED_BAD_DOCUMENT_TYPE', { type: jsonTypeName(raw) });
  }
  const id = raw._id === undefined ? generateId(ctx.options.defaultId?.type) : raw._id;
  validateId(id);
  const doc: Document = { _id: id };
  for (const [name, value] of Object.entries(raw)) if (name !== '_id') doc[name] = value;
  if (doc.$hybrid !== undefined) expandHybrid(doc);

  const { size, attributesChars } = documentChars(doc, ctx.limits.maxDocumentChars);
  if (size > ctx.limits.maxDocumentChars) {
    throw limitViolation(`document size (${size} chars) exceeds maximum allowed (${ctx.limits.maxDocumentChars})`);
  }

  const walker = new Walker(ctx);
  let vector: Float32Array | null = null;
  let vectorForm: VectorForm | null = null;
  let lexical: ShreddedDocument['lexical'];
  for (const [name, value] of Object.entries(doc)) {
    if (name === '$lexical') {
      lexical = lexicalOf(value, ctx);
      continue;
    }
    if (name === '$vector') {
      const decoded = checkVector(value, ctx);
      vector = decoded?.values ?? null;
      vectorForm = decoded?.form ?? null;
      continue;
    }
    if (name === '$vectorize') {
      checkVectorize(value, doc);
      continue;
    }
    if (name !== '_id') checkFieldName(name);
    // A document this small cannot hold an attribute over the limit (UTF-8 is at most 3 bytes per char).
    if (name !== '_id' && attributesChars * 3 > ctx.limits.maxAttributeValueBytes) {
      const bytes = Buffer.byteLength(toJsonText(value));
      if (bytes > ctx.limits.maxAttributeValueBytes) {
        // The seed's limit holds whether the field is indexed or not; the Data API has none (only indexed strings).
        throw limitViolation(
          `value of attribute '${name}' is ${bytes} bytes, exceeds maximum allowed (${ctx.limits.maxAttributeValueBytes} bytes); ` +
            `open the database with the limits preset 'data-api' (serve --limits data-api) to store longer values in fields that are not indexed`,
        );
      }
    }
    walker.walkField(name, value);
  }
  walker.checkDocument();
  return { id, key: idKey(id), doc, vector, vectorForm, indexEntries: walker.entries, lexical };
}

/** The most characters JSON gives a finite double (`-0.0000012345678901234567`); a non-finite one is `null`. */
export const MAX_NUMBER_CHARS = 25;

/**
 * The document's JSON length, exact whenever it could pass the limit; and the JSON length of the
 * document without its `$vector`, which bounds every other attribute's text. A `$vector` of numbers is not
 * written out when a bound of MAX_NUMBER_CHARS a component keeps the document under the limit: writing
 * 384 doubles as text took ~30 us a document (a tenth of a bulk load's own time) and ~8 KB of garbage.
 * (`size` is then that bound, which only an error message would show, and none is thrown.)
 */
function documentChars(doc: Document, limit: number): { size: number; attributesChars: number } {
  const vector = doc.$vector;
  if (!Array.isArray(vector) || !vector.every((x) => typeof x === 'number')) {
    const size = toJsonText(doc).length;
    return { size, attributesChars: size };
  }
  const { $vector: _vector, ...attributes } = doc;
  const attributesChars = toJsonText(attributes).length;
  // `,"$vector":` then `[`, the components and their commas, `]` (the document always has an `_id` before).
  const bound = attributesChars + 11 + 2 + Math.max(0, vector.length - 1) + vector.length * MAX_NUMBER_CHARS;
  if (bound <= limit) return { size: bound, attributesChars };
  return { size: toJsonText(doc).length, attributesChars };
}

const UNLIMITED = new Proxy({}, { get: () => Number.POSITIVE_INFINITY }) as Limits;

/** The index entries of an already stored document (no limits re-checked: they held when it was written). */
export function indexEntriesOf(doc: Document, ctx: ShredContext): readonly string[] {
  const walker = new Walker({ ...ctx, limits: UNLIMITED });
  for (const [name, value] of Object.entries(doc)) {
    if (name !== '$vector' && name !== '$vectorize' && name !== '$lexical') walker.walkField(name, value);
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

/**
 * `$vectorize` is stored as given (a string, or null), never indexed; its vector was computed by the command
 * layer (commands/vectorize.ts) and set as `$vector`. Text without one reached here without a provider.
 */
function checkVectorize(value: JsonValue | undefined, doc: Document): void {
  if (value === null) return;
  if (typeof value !== 'string') throw VectorDbError.of('INVALID_VECTORIZE_VALUE_TYPE', { errorMessage: `needs to be String, not ${jsonTypeName(value)}` });
  if (doc.$vector === undefined && value.trim() !== '') throw VectorDbError.of('VECTORIZE_FEATURE_NOT_AVAILABLE');
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

/**
 * The one rule for which index paths (see indexPathOf) have entries: those the indexing policy covers.
 * The shredder files by it and the planner reads by it, so a path's entries are all there or absent.
 */
export function isFiled(indexPath: string, isIndexed: (path: string) => boolean): boolean {
  return isIndexed(indexPath);
}

/**
 * Whether builds before isFiled filed the collection's entries differently in a way reads can miss: they
 * decided on the positional path, so a deny rule naming a position (`tags.0`) kept elements out.
 */
export function deniesPositions(options: CollectionOptions): boolean {
  const indexing = options.indexing;
  return indexing !== undefined && 'deny' in indexing && indexing.deny.some((rule) => rule.split('.').some(isArrayIndex));
}

/** The index scalar of an atomic value, or the container marker for arrays and sub-documents. */
export function indexScalarOf(value: JsonValue): IndexScalar {
  if (value === null) return { type: 'null' };
  if (typeof value === 'number' || isExactNumber(value)) return { type: 'number', value };
  if (typeof value === 'string') return { type: 'string', value };
  if (typeof value === 'boolean') return { type: 'boolean', value };
  const key = ejsonKeyOf(value);
  if (key === '$date') return { type: 'date', value: (value as JsonObject).$date as number };
  if (key === '$uuid' || key === '$objectId') return { type: 'string', value: (value as JsonObject)[key] as string };
  return { type: 'container' };
}

export function indexEntry(path: string, scalar: IndexScalar): string {
  return `${path}${SEP}${encodeIndexScalar(scalar)}`;
}

/**
 * The path an index entry is filed under: the path without its numeric segments, so that positions
 * (`a.0.b`) and numeric-looking keys both map onto the same superset entry (`a.b`).
 */
export function indexPathOf(segments: readonly string[]): string {
  return joinPath(segments.filter((s) => !isArrayIndex(s)));
}

/** Escapes one segment the way joinPath does (`.` and `&` inside a name). */
function escapeSegment(segment: string): string {
  return segment.includes('.') || segment.includes('&') ? joinPath([segment]) : segment;
}

const child = (parent: string, segment: string): string => (parent === '' ? segment : `${parent}.${segment}`);

/** Walks a document once; paths are built incrementally (this is the insert hot path). */
class Walker {
  readonly entries: string[] = [];
  #indexedProperties = 0;
  #rootProperties = 0;
  readonly #ctx: ShredContext;

  constructor(ctx: ShredContext) {
    this.#ctx = ctx;
  }

  /** Walks a top-level attribute. */
  walkField(name: string, value: JsonValue): void {
    const segment = escapeSegment(name);
    // The document itself is level 1, as the Data API counts: a top-level value is at level 2.
    this.#walk(value, segment, isArrayIndex(name) ? '' : segment, name, 2);
  }

  /** After every attribute: the document itself is an indexed object, held to the same limits as the others. */
  checkDocument(): void {
    const { limits } = this.#ctx;
    if (this.#rootProperties > limits.maxObjectProperties) {
      throw limitViolation(`number of indexed properties the document has (${this.#rootProperties}) exceeds maximum allowed (${limits.maxObjectProperties})`);
    }
    this.#countIndexed(this.#rootProperties);
  }

  /**
   * @param path the full escaped path (for indexing rules and messages)
   * @param indexPath the path without numeric segments (where entries are filed)
   */
  #walk(value: JsonValue, path: string, indexPath: string, last: string, depth: number): void {
    const { limits, isIndexed } = this.#ctx;
    if (path.length > limits.maxPathLength) {
      throw limitViolation(`field path length (${path.length}) exceeds maximum allowed (${limits.maxPathLength}) (path ends with '${last}')`);
    }
    const indexed = isFiled(indexPath, isIndexed);
    if (indexed && depth === 2) this.#rootProperties++; // a property of the document itself
    if (typeof value === 'object' && value !== null && !(value instanceof ExactDecimal)) {
      // Every object and array is a level, EJSON wrappers included (the Data API checks the raw JSON).
      if (depth > limits.maxDocumentDepth) throw limitViolation(`document depth exceeds maximum allowed (${limits.maxDocumentDepth})`);
      if (!Array.isArray(value) && ejsonKeyOf(value) !== undefined) {
        validateEjson(value);
        if (indexed) this.#add(indexPath, indexScalarOf(value));
        return;
      }
      if (indexed) this.#container(value, path, indexPath);
      if (Array.isArray(value)) {
        // Elements file under the array's own path (numeric segments are dropped): "array contains".
        for (let i = 0; i < value.length; i++) this.#walk(value[i]!, `${path}.${i}`, indexPath, String(i), depth + 1);
      } else {
        for (const name of Object.keys(value)) {
          checkFieldName(name);
          const segment = escapeSegment(name);
          this.#walk(value[name]!, `${path}.${segment}`, isArrayIndex(name) ? indexPath : child(indexPath, segment), name, depth + 1);
        }
      }
      return;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw VectorDbError.of('SHRED_BAD_DOCUMENT_TYPE', { type: `non-finite number at '${path}': ${describeValue(value)}` });
    }
    if (indexed) {
      if (typeof value === 'string' && value.length * 3 > limits.maxIndexedStringBytes) {
        const bytes = Buffer.byteLength(value);
        if (bytes > limits.maxIndexedStringBytes) {
          throw limitViolation(`indexed String value (field '${path}') length (${bytes} bytes) exceeds maximum allowed (${limits.maxIndexedStringBytes} bytes)`);
        }
      }
      this.#add(indexPath, indexScalarOf(value));
    }
  }

  /** Checks an indexed array or sub-document against the limits and files its container marker. */
  #container(value: JsonValue[] | JsonObject, path: string, indexPath: string): void {
    const { limits } = this.#ctx;
    const isArray = Array.isArray(value);
    const size = isArray ? value.length : Object.keys(value).length;
    if (isArray && size > limits.maxArrayLength) {
      throw limitViolation(`number of elements an indexable Array (field '${path}') has (${size}) exceeds maximum allowed (${limits.maxArrayLength})`);
    }
    if (!isArray && size > limits.maxObjectProperties) {
      throw limitViolation(`number of properties an indexable Object (field '${path}') has (${size}) exceeds maximum allowed (${limits.maxObjectProperties})`);
    }
    this.#countIndexed(size);
    this.#add(indexPath, CONTAINER);
  }

  #countIndexed(properties: number): void {
    const max = this.#ctx.limits.maxIndexedProperties;
    this.#indexedProperties += properties;
    if (this.#indexedProperties > max) {
      throw limitViolation(`total number of indexed properties (${this.#indexedProperties}) in document exceeds maximum allowed (${max})`);
    }
  }

  #add(path: string, scalar: IndexScalar): void {
    this.entries.push(indexEntry(path, scalar));
  }
}

const CONTAINER: IndexScalar = Object.freeze({ type: 'container' });
