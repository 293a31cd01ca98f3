/**
 * What a write changes, as the wings pass it on: a document's change (before, and after shredding), the
 * hook by which the vectors stage their records into the same batch, and an index range. Types only,
 * a leaf below collections/, tables/ and vectors/.
 */
import type { Document, JsonValue } from '../query/json.js';
import type { VectorForm } from '../query/vector-value.js';
import type { KvOperation } from '../storage/index.js';

/** A document ready for storage (collections/shredder.ts): its key, body, vector and index entries. */
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
  /** The analyzed `$lexical` text: each term's count and the token count (undefined: none). */
  readonly lexical?: LexicalTerms | undefined;
}

/** A document's analyzed `$lexical`: what its postings and BM25 length are. */
export interface LexicalTerms {
  readonly terms: ReadonlyMap<string, number>;
  readonly length: number;
}

/** One document's change: insert (before null), replace, or delete (after null). */
export interface DocumentChange {
  readonly key: string;
  readonly before: Document | null;
  readonly after: ShreddedDocument | null;
}

/**
 * Adds the operations a change needs beyond the document and its index entries (vector records) to
 * the batch. Returns the vector label of each changed document that has a vector (its body stores a
 * reference to it) and what to do in memory once the batch is durable.
 */
export type ChangeHook = (changes: readonly DocumentChange[], ops: KvOperation[]) => StagedVectors;

export interface StagedVectors {
  readonly labels: ReadonlyMap<string, number>;
  /** Labels the changes retire (deleted documents' and replaced vectors'): never search hits again. */
  readonly retired?: readonly number[] | undefined;
  readonly afterCommit?: (() => void) | undefined;
}

/** One index value's entries under one path: they list its documents in key order. */
export interface IndexRun {
  readonly indexPath: string;
  /** The encoded value (storage/keys.ts). */
  readonly value: string;
}

/** A range over encoded typed values of one path (see storage/keys.ts). */
export interface IndexBounds {
  readonly gte?: string;
  readonly gt?: string;
  readonly lt?: string;
}
