/**
 * A document's `$lexical` and `$hybrid` fields at shredding: `$hybrid` expands to `$lexical` (and
 * `$vectorize`), HYBRID_FIELD_CONFLICT when mixed with them; `$lexical` must be a string (or null) on a
 * lexical-enabled collection, at most MAX_LEXICAL_CHARS long, and is analyzed into its terms.
 */
import { VectorDbError, jsonTypeName } from '../../errors/index.js';
import { analyzedTerms } from '../../query/bm25.js';
import { isObject, type Document, type JsonValue } from '../../query/json.js';
import type { LexicalTerms } from '../changes.js';
import type { ShredContext } from './shred-context.js';

/**
 * The longest `$lexical` text, in characters. Cassandra SAI refuses analyzed content past its cumulative size
 * limit (LEXICAL_CONTENT_TOO_LONG); ours is a bound on the text that keeps a document's postings batch small.
 */
export const MAX_LEXICAL_CHARS = 1_000_000;

/** Replaces `$hybrid` by `$lexical` and `$vectorize` (the same text, or the object's members). */
export function expandHybrid(doc: Document): void {
  const hybrid = doc.$hybrid as JsonValue;
  if ('$lexical' in doc || '$vector' in doc || '$vectorize' in doc) throw VectorDbError.of('HYBRID_FIELD_CONFLICT');
  delete doc.$hybrid;
  if (hybrid === null) return;
  if (typeof hybrid === 'string') {
    doc.$lexical = hybrid;
    doc.$vectorize = hybrid;
    return;
  }
  if (!isObject(hybrid)) throw VectorDbError.of('HYBRID_FIELD_UNSUPPORTED_VALUE_TYPE', { errorMessage: `expected String, Object or null, got ${jsonTypeName(hybrid)}` });
  const unknown = Object.keys(hybrid).filter((k) => k !== '$lexical' && k !== '$vectorize');
  if (unknown.length > 0) throw VectorDbError.of('HYBRID_FIELD_UNKNOWN_SUBFIELDS', { errorMessage: unknown.map((k) => `'${k}'`).join(', ') });
  for (const field of ['$lexical', '$vectorize'] as const) {
    const value = hybrid[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw VectorDbError.of('HYBRID_FIELD_UNSUPPORTED_VALUE_TYPE', { errorMessage: `'${field}' must be a String or null, got ${jsonTypeName(value)}` });
    doc[field] = value;
  }
}

/** The analyzed terms of a document's `$lexical` value (undefined for null). */
export function lexicalOf(value: JsonValue | undefined, ctx: ShredContext): LexicalTerms | undefined {
  if (value === undefined || value === null) return undefined;
  if (ctx.analyzer === undefined) throw VectorDbError.of('LEXICAL_NOT_ENABLED_FOR_COLLECTION', { keyspace: ctx.keyspace, collection: ctx.collectionName });
  if (typeof value !== 'string') {
    throw VectorDbError.of('SHRED_BAD_DOCUMENT_LEXICAL_TYPE', { errorMessage: `the value for field '$lexical' must be a JSON String, not a JSON ${jsonTypeName(value)}` });
  }
  if (value.length > MAX_LEXICAL_CHARS) throw VectorDbError.of('LEXICAL_CONTENT_TOO_LONG', { keyspace: ctx.keyspace, collection: ctx.collectionName, max: MAX_LEXICAL_CHARS, length: value.length });
  return analyzedTerms(value, ctx.analyzer);
}

/** The analyzed terms of a stored document's `$lexical` (no checks: they held when it was written). */
export function storedLexicalOf(doc: Document, ctx: ShredContext): LexicalTerms | undefined {
  const value = doc.$lexical;
  if (typeof value !== 'string' || ctx.analyzer === undefined) return undefined;
  return analyzedTerms(value, ctx.analyzer);
}
