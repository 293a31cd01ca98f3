/**
 * Documents as the client takes them: `JsonDocument` (schemaless JSON, with an immutable builder) and
 * `Document<T>` (typed: id, vector and data of your own type, serialized to `{_id, ...data, $vector}`).
 */
import type { JsonObject } from '../query/json.js';
import type { DataObject, DataValue, DocumentId, Vector } from './types.js';
import { parseJson, toJson, toJsonObject, wireReady } from './wire.js';

/**
 * A schemaless JSON document. `_id` is optional on input (the database generates one); `$vector` holds
 * its vector. Build one as an object literal, or with {@link JsonDocument.builder}.
 */
export interface JsonDocument extends JsonObject {}

/**
 * What the write methods of a `VectorDBCollection<T>` take: `T`, or for a schemaless collection any object
 * of {@link DataValue}s (Dates are sent as instants, undefined members dropped).
 */
export type DocumentInput<T> = JsonDocument extends T ? DataObject : T;

/** Builds a {@link JsonDocument}; every call returns a new builder, so partial builders can be shared. */
export class JsonDocumentBuilder {
  readonly #fields: Readonly<JsonObject>;

  /** @internal use {@link JsonDocument.builder} */
  constructor(fields: JsonObject = {}) {
    this.#fields = Object.freeze(fields);
  }

  /**
   * Sets `_id`.
   * @example JsonDocument.builder().id('lamp').put('price', 25).build() // { _id: 'lamp', price: 25 }
   */
  id(id: DocumentId): JsonDocumentBuilder {
    return new JsonDocumentBuilder({ _id: toJson(id, '_id'), ...withoutKey(this.#fields, '_id') });
  }

  /**
   * Sets `$vector`.
   * @example JsonDocument.builder().vector([0.1, 0.2, 0.3]).build()
   */
  vector(vector: Vector): JsonDocumentBuilder {
    return new JsonDocumentBuilder({ ...this.#fields, $vector: vectorOf(vector) });
  }

  /**
   * Sets one attribute (a Date is stored as the instant `{"$date": ms}`).
   * @example JsonDocument.builder().put('name', 'Desk lamp').put('added', new Date()).build()
   */
  put(key: string, value: DataValue): JsonDocumentBuilder {
    return new JsonDocumentBuilder({ ...this.#fields, [key]: toJson(value, key) });
  }

  /**
   * Sets several attributes from an object or a JSON string.
   * @example JsonDocument.builder().data({ name: 'Desk lamp', price: 25 }).build()
   */
  data(fields: DataObject | string): JsonDocumentBuilder {
    const json = typeof fields === 'string' ? toJsonObject(parseJson(fields, 'data'), 'data') : toJsonObject(fields, 'data');
    return new JsonDocumentBuilder({ ...this.#fields, ...json });
  }

  /** The document (a new plain object each call). @example JsonDocument.builder().put('a', 1).build() // { a: 1 } */
  build(): JsonDocument {
    return structuredClone(this.#fields) as JsonDocument;
  }
}

/** Companion of the {@link JsonDocument} type. */
export const JsonDocument = Object.freeze({
  /**
   * An empty builder.
   * @example const doc = JsonDocument.builder().id('lamp').vector([0.9, 0.1, 0.1]).put('name', 'Desk lamp').build();
   */
  builder(): JsonDocumentBuilder {
    return new JsonDocumentBuilder();
  },
  /**
   * A document from a JSON string or an object (Dates converted).
   * @example JsonDocument.of('{"_id": "lamp", "price": 25}')
   */
  of(source: string | DataObject): JsonDocument {
    return toJsonObject(typeof source === 'string' ? parseJson(source, 'document') : source, 'document') as JsonDocument;
  },
});

/** What a {@link Document} is made from. */
export interface DocumentInit<T> {
  readonly data: T;
  readonly id?: DocumentId | undefined;
  readonly vector?: Vector | undefined;
}

/**
 * A typed document: an id, an optional vector and data of type `T`. Stored as the JSON of `data` with
 * `_id` first and `$vector` added (an explicit `id` or `vector` wins over the same key in `data`).
 * Immutable: `withId`, `withVector` and `withData` return new documents.
 * @example
 * interface Product { name: string; price: number }
 * const lamp = new Document<Product>({ id: 'lamp', vector: [0.9, 0.1, 0.1], data: { name: 'Desk lamp', price: 25 } });
 */
export class Document<T> {
  /** `_id`; undefined until the database assigns one. */
  readonly id: DocumentId | undefined;
  /** `$vector`, if any. */
  readonly vector: readonly number[] | undefined;
  /** Everything else. */
  readonly data: T;

  constructor(init: DocumentInit<T>) {
    if (init === null || typeof init !== 'object' || !('data' in init)) throw new TypeError('Document: pass { data, id?, vector? }');
    this.id = init.id;
    this.vector = init.vector === undefined ? undefined : Object.freeze(vectorOf(init.vector));
    this.data = init.data;
    if (new.target === Document) Object.freeze(this);
  }

  /**
   * A document of this data, with an optional id and vector.
   * @example Document.of({ name: 'Desk lamp', price: 25 }, { id: 'lamp' })
   */
  static of<T>(data: T, options: { id?: DocumentId; vector?: Vector } = {}): Document<T> {
    return new Document({ data, id: options.id, vector: options.vector });
  }

  /**
   * An empty builder for documents of type `T`.
   * @example Document.builder<Product>().id('lamp').vector([0.9, 0.1, 0.1]).data({ name: 'Desk lamp', price: 25 }).build()
   */
  static builder<T>(): DocumentBuilder<T> {
    return new DocumentBuilder<T>({});
  }

  /** This document with another id. @example lamp.withId('lamp-2') */
  withId(id: DocumentId): Document<T> {
    return new Document({ data: this.data, id, vector: this.vector });
  }

  /** This document with another vector. @example lamp.withVector([0.8, 0.2, 0.1]) */
  withVector(vector: Vector | undefined): Document<T> {
    return new Document({ data: this.data, id: this.id, vector });
  }

  /** This document with other data. @example lamp.withData({ ...lamp.data, price: 20 }) */
  withData<U>(data: U): Document<U> {
    return new Document({ data, id: this.id, vector: this.vector });
  }

  /** The stored JSON: `{ _id, ...data, $vector }` (Dates as `{"$date": ms}`). @example Document.of({ a: 1 }, { id: 'x' }).toJSON() // { _id: 'x', a: 1 } */
  toJSON(): JsonObject {
    const data = toJsonObject(this.data ?? {}, 'Document.data');
    const json: JsonObject = {};
    if (this.id !== undefined) json._id = toJson(this.id, '_id');
    else if (data._id !== undefined) json._id = data._id;
    for (const [key, value] of Object.entries(data)) if (key !== '_id' && key !== '$vector') json[key] = value;
    if (this.vector !== undefined) json.$vector = [...this.vector];
    else if (data.$vector !== undefined) json.$vector = data.$vector;
    return json;
  }
}

/** Builds a {@link Document}; every call returns a new builder. */
export class DocumentBuilder<T> {
  readonly #init: Readonly<Partial<DocumentInit<T>>>;

  /** @internal use {@link Document.builder} */
  constructor(init: Partial<DocumentInit<T>> = {}) {
    this.#init = Object.freeze(init);
  }

  /** Sets the id. @example Document.builder<Product>().id('lamp') */
  id(id: DocumentId): DocumentBuilder<T> {
    return new DocumentBuilder({ ...this.#init, id });
  }

  /** Sets the vector. @example Document.builder<Product>().vector([0.9, 0.1, 0.1]) */
  vector(vector: Vector): DocumentBuilder<T> {
    return new DocumentBuilder({ ...this.#init, vector });
  }

  /** Sets the data. @example Document.builder<Product>().data({ name: 'lamp', price: 25 }) */
  data(data: T): DocumentBuilder<T> {
    return new DocumentBuilder({ ...this.#init, data });
  }

  /** The document; throws a TypeError when no data was set. @example const lamp = Document.builder<Product>().data(product).build(); */
  build(): Document<T> {
    if (!('data' in this.#init)) throw new TypeError('Document.builder(): set data(...) before build()');
    return new Document(this.#init as DocumentInit<T>);
  }
}

/** The JSON of any document the client accepts: a `Document`, a JSON string, or an object. @internal */
export function documentJson(document: unknown, what = 'document'): JsonObject {
  if (typeof document === 'string') return toJsonObject(parseJson(document, what), what);
  if (document instanceof Document) return document.toJSON();
  if (document === null || typeof document !== 'object' || Array.isArray(document)) throw new TypeError(`${what} must be an object, a Document or a JSON string`);
  return toJsonObject(document, what);
}

function vectorOf(vector: Vector): number[] {
  if (!Array.isArray(vector) && !(vector instanceof Float32Array)) throw new TypeError('vector must be an array of numbers or a Float32Array');
  // A loop, not Array.from: that took 5-6 us for 384 float32s (a tenth of a query's own cost), this 0.5.
  const values = vector as ArrayLike<unknown>;
  const out = new Array<number>(values.length);
  for (let i = 0; i < out.length; i++) out[i] = Number(values[i]);
  return out;
}

/**
 * The vector of a query as a plain array (TypeError for anything else), its own JSON when every value is
 * finite (the command then carries it without another copy; else toJson names the bad value). @internal
 */
export function vectorArray(vector: Vector): number[] {
  if (!Array.isArray(vector) && !(vector instanceof Float32Array)) throw new TypeError('vector must be an array of numbers or a Float32Array');
  const values = vector as ArrayLike<unknown>;
  const out = new Array<number>(values.length);
  let finite = true;
  for (let i = 0; i < out.length; i++) {
    const x = Number(values[i]);
    out[i] = x;
    if (x - x !== 0) finite = false; // NaN or an infinity
  }
  return finite ? wireReady(out) : out;
}

function withoutKey(fields: Readonly<JsonObject>, key: string): JsonObject {
  const copy: JsonObject = { ...fields };
  delete copy[key];
  return copy;
}
