/**
 * What reads and writes return: found JSON documents (`JsonDocumentResult`), typed results
 * (`DocumentResult<T>`, made by a class, a mapper or a type parameter), mutation results with their
 * status, pages, and the result of findOneAndUpdate / findOneAndReplace.
 */
import type { JsonObject } from '../query/json.js';
import { Document, type DocumentInit, type JsonDocument } from './documents.js';
import type { DocumentId, UpdateResult } from './types.js';
import { reviveDates } from './wire.js';

/**
 * A document as a query returns it: the JSON document itself, with its `_id` and, for vector searches
 * with `includeSimilarity`, `$similarity` (higher is closer; 1 is identical for cosine). `$vector` is only
 * there when the projection asks for it.
 */
export type FoundDocument<T> = T & { _id: DocumentId; $similarity?: number };

/** A schemaless found document: what the untyped read methods return. */
export type JsonDocumentResult = FoundDocument<JsonDocument>;

/**
 * A class whose instances hold a document's data: declared with `class` (that is how it is told apart from a
 * mapper) and constructible without arguments; results are `new Class()` given the stored fields.
 */
export type DocumentClass<T> = new () => T;

/**
 * Maps a found JSON document to your type, or to a whole {@link DocumentResult}.
 * @example const toProduct: DocumentResultMapper<Product> = (json) => ({ name: String(json.name), price: Number(json.price) });
 */
export type DocumentResultMapper<T> = (result: JsonDocumentResult) => T | DocumentResult<T>;

/** A class or a mapper: how the typed overloads turn JSON into `DocumentResult<T>`. */
export type ResultMapping<T> = DocumentClass<T> | DocumentResultMapper<T>;

/** What a {@link DocumentResult} is made from. */
export interface DocumentResultInit<T> extends DocumentInit<T> {
  readonly similarity?: number | undefined;
}

/**
 * A typed found document: id, vector (when projected), data of type `T` and the similarity of a vector
 * search (when asked for). In `data`, stored dates (`{"$date": ms}`) come back as `Date`s.
 * @example
 * const result = await products.findById('lamp', Product);   // DocumentResult<Product> | undefined
 * result?.data.price;                                          // number
 */
export class DocumentResult<T> extends Document<T> {
  /** `$similarity` of a vector search with includeSimilarity; undefined otherwise. */
  readonly similarity: number | undefined;

  constructor(init: DocumentResultInit<T>) {
    super(init);
    this.similarity = init.similarity;
    if (new.target === DocumentResult) Object.freeze(this);
  }

  /**
   * A typed result from a found JSON document; without a mapping the data is the JSON (dates revived) as `T`.
   * @example DocumentResult.fromJson(json, Product)
   */
  static fromJson<T>(json: JsonDocumentResult | JsonObject, mapping?: ResultMapping<T>): DocumentResult<T> {
    return toDocumentResult(json, mapping);
  }
}

/** The outcome of one document of an insert, upsert or save. */
export const DocumentMutationStatus = Object.freeze({
  /** Inserted. */
  CREATED: 'CREATED',
  /** An existing document was replaced by a different one. */
  UPDATED: 'UPDATED',
  /** An existing document was identical: nothing changed. */
  UNCHANGED: 'UNCHANGED',
  /** Not inserted: a document with this `_id` exists (insert only; upsert replaces it). */
  ALREADY_EXISTS: 'ALREADY_EXISTS',
  /** Not written: it failed, or an earlier failure stopped an ordered insert before it. */
  NOT_PROCESSED: 'NOT_PROCESSED',
} as const);
export type DocumentMutationStatus = (typeof DocumentMutationStatus)[keyof typeof DocumentMutationStatus];

/**
 * One document's outcome: its `id`, `status` and the `document` as written (with its `_id`). Results of
 * many-document calls are in input order. `id` is undefined only for an id-less document that was never sent.
 */
export class MutationResult<D> {
  readonly id: DocumentId | undefined;
  readonly #status: DocumentMutationStatus;
  readonly #document: D;

  /** A result (the client makes them; useful to build expected values in tests). @example new JsonDocumentMutationResult('a', 'CREATED', { _id: 'a' }) */
  constructor(id: DocumentId | undefined, status: DocumentMutationStatus, document: D) {
    this.id = id;
    this.#status = status;
    this.#document = document;
  }

  /** CREATED, UPDATED, UNCHANGED, ALREADY_EXISTS or NOT_PROCESSED. @example if ((await c.upsertOne(doc)).status === 'UNCHANGED') ... */
  get status(): DocumentMutationStatus {
    return this.#status;
  }

  /** The document as sent, with its `_id`. @example (await c.insertOne({ a: 1 })).document // { _id: '…', a: 1 } */
  get document(): D {
    return this.#document;
  }
}

/**
 * Outcome of writing one JSON document.
 * @example const { id, status } = await products.upsertOne({ _id: 'lamp', price: 20 }); // status 'UPDATED'
 */
export class JsonDocumentMutationResult<T extends object = JsonDocument> extends MutationResult<T & { _id: DocumentId }> {
  declare readonly id: DocumentId;
}

/**
 * Outcome of writing one typed document.
 * @example const { status, document } = await products.insertOne(Document.of(lamp, { id: 'lamp' }));
 */
export class DocumentMutationResult<T> extends MutationResult<Document<T>> {
  declare readonly id: DocumentId;
}

/**
 * One page of results; pass `pageState` back (SelectQuery `pageState`) for the next. `pageState` is null
 * after the last page.
 */
export interface Page<T> {
  results: T[];
  /** null after the last page. */
  pageState: string | null;
}

/** What findOneAndUpdate / findOneAndReplace return: the update counts and the document (before or after). */
export interface FindAndUpdateResult<D> extends UpdateResult {
  /** The matched document (as before the change by default, or after with returnDocument 'after'); undefined when none. */
  document: D | undefined;
}

/** The mapping a value is: a class (declared with `class`) or a mapper function. @internal */
export function isDocumentClass(mapping: unknown): mapping is DocumentClass<unknown> {
  return typeof mapping === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(mapping));
}

/** Builds a DocumentResult from a found JSON document. @internal */
export function toDocumentResult<T>(json: JsonObject, mapping: ResultMapping<T> | undefined): DocumentResult<T> {
  const { _id, $vector, $similarity, ...rest } = json;
  const similarity = typeof $similarity === 'number' ? $similarity : undefined;
  const vector = Array.isArray($vector) ? ($vector as number[]) : undefined;
  const id = _id as DocumentId | undefined;
  if (mapping !== undefined && !isDocumentClass(mapping)) {
    const mapped = (mapping as DocumentResultMapper<T>)(json as JsonDocumentResult);
    return mapped instanceof DocumentResult ? mapped : new DocumentResult<T>({ data: mapped, id, vector, similarity });
  }
  const fields = reviveDates(rest) as object;
  const data = mapping === undefined ? (fields as T) : Object.assign(new (mapping as DocumentClass<T>)() as object, fields) as T;
  return new DocumentResult<T>({ data, id, vector, similarity });
}
