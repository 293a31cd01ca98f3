/**
 * How a LangChain document is stored in a collection, and read back: one Data API document per LangChain
 * document, `{ _id, [contentKey]: pageContent, ...metadata, $vector }`, the layout of LangChain's own
 * AstraDBVectorStore (contentKey `text`), so that either store reads what the other wrote and metadata
 * filters are plain Data API filters on top-level fields.
 */
import { Document, type DocumentInterface } from '@langchain/core/documents';
import type { JsonDocumentResult, JsonObject } from '../../index.js';

/** Fields that the store itself sets on a stored document, which metadata cannot use. */
const RESERVED = new Set(['_id', '$vector', '$vectorize', '$lexical', '$similarity']);

/** The stored form of one document with its embedding. */
export function storedDocument(id: string, vector: readonly number[], document: DocumentInterface, contentKey: string): JsonObject {
  const metadata = (document.metadata ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(metadata)) {
    if (key === contentKey || RESERVED.has(key)) {
      throw new TypeError(`VectorDBLocalStore: metadata cannot have a '${key}' key (the store keeps the text in '${contentKey}', and _id and $-fields are the database's)`);
    }
  }
  return { _id: id, [contentKey]: document.pageContent, ...(metadata as JsonObject), $vector: [...vector] };
}

/** A LangChain document from a stored one: the content, the other fields as metadata, `_id` as its id. */
export function langchainDocument(stored: JsonDocumentResult, contentKey: string): Document {
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored)) if (key !== contentKey && !RESERVED.has(key)) metadata[key] = value;
  const content = stored[contentKey];
  return new Document({ pageContent: typeof content === 'string' ? content : content === undefined || content === null ? '' : JSON.stringify(content), metadata, id: String(stored._id) });
}

/** A stored `$vector` as numbers: an array, or the Data API's `{"$binary": base64 of big-endian float32}`. */
export function vectorOf(stored: JsonDocumentResult): number[] {
  const value = stored.$vector as unknown;
  if (Array.isArray(value)) return value as number[];
  if (value !== null && typeof value === 'object' && typeof (value as { $binary?: unknown }).$binary === 'string') {
    const text = atob((value as { $binary: string }).$binary);
    const view = new DataView(new ArrayBuffer(text.length));
    for (let i = 0; i < text.length; i++) view.setUint8(i, text.charCodeAt(i));
    return Array.from({ length: text.length / 4 }, (_, i) => view.getFloat32(i * 4));
  }
  throw new Error(`VectorDBLocalStore: document '${String(stored._id)}' came back without its $vector`);
}
