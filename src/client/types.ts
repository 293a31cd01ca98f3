/**
 * Plain value types of the client: ids, vectors, the values the client converts to JSON (Dates become
 * `{"$date": ms}`), projections, sorts and the small result shapes of counts and updates.
 * No behaviour here; documents, results and queries have their own modules.
 */
import type { JsonPrimitive, JsonValue } from '../query/json.js';

export type { JsonObject, JsonPrimitive, JsonValue } from '../query/json.js';

/** A document id: string, number, boolean, null or an EJSON `$uuid` / `$objectId` / `$date` wrapper. */
export type DocumentId = string | number | boolean | null | { $uuid: string } | { $objectId: string } | { $date: number };

/** A vector: an array of numbers or a Float32Array (sent as an array). */
export type Vector = readonly number[] | Float32Array;

/**
 * A value the client accepts in documents, filters and updates: any JSON value, plus `Date` (sent as the
 * EJSON instant `{"$date": epochMillis}`) and `Float32Array` (sent as an array of numbers).
 */
export type DataValue = JsonPrimitive | Date | Float32Array | readonly DataValue[] | DataObject;

/** An object of {@link DataValue}s; `undefined` members are dropped, as `JSON.stringify` does. */
export interface DataObject {
  readonly [key: string]: DataValue | undefined;
}

/** Which fields a query returns: `{ name: 1 }` (only), `{ body: 0 }` (all but), `{ '*': 1 }` (all, with `$vector`). */
export type Projection = Record<string, JsonValue>;

/** A sort: `{ price: -1, name: 1 }`, a vector sort `{ $vector: [...] }` (nearest first), or `{ $lexical: 'words' }` (BM25). */
export type Sort = Readonly<Record<string, 1 | -1 | Vector | { $binary: string } | string>>;

/** What `insertOne` reported before mutation results existed; every mutation result still has `id`. */
export interface InsertResult {
  readonly id: DocumentId;
}

/** Counts of an update: documents matched, documents changed, and the id of a document an upsert created. */
export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId?: DocumentId;
}

/** `'before'` (default) or `'after'`: which version of the document a findOneAnd... call returns. */
export type ReturnDocument = 'before' | 'after';
