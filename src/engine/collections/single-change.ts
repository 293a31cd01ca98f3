/**
 * What one selected document becomes under a findOneAnd*, updateOne, updateMany or replace: the changed
 * version (or null when the change leaves it as it is), or the document an upsert creates.
 */
import { VectorDbError } from '../../errors/index.js';
import { upsertSeed, type Filter } from '../../query/filter.js';
import { jsonEquals, type Document } from '../../query/json.js';
import { toJsonText } from '../../query/exact-number.js';
import type { ShreddedDocument } from '../changes.js';
import { generateId } from './document-id.js';
import { shredDocument, type ShredContext } from './shredder.js';
import type { SingleChange } from './types.js';

/** The new version of a document, or null when the change leaves it as it is. */
export function changedDocument(shred: ShredContext, doc: Document, change: SingleChange): ShreddedDocument | null {
  if (change.kind === 'update') {
    const result = change.update.apply(doc, { isInsert: false, now: Date.now() });
    if (!result.modified) return null;
    return shredDocument(result.doc, shred);
  }
  const replacement = change.replacement;
  if (replacement._id !== undefined && !jsonEquals(replacement._id, doc._id)) {
    throw VectorDbError.of('DOCUMENT_REPLACE_DIFFERENT_DOCID', { replacementId: toJsonText(replacement._id), documentId: toJsonText(doc._id) });
  }
  const next = shredDocument({ ...replacement, _id: doc._id }, shred);
  return jsonEquals(next.doc, doc) ? null : next;
}

/** The document an upsert inserts when nothing matched: the filter's equalities, then the change. */
export function upsertDocument(shred: ShredContext, filter: Filter, change: SingleChange): ShreddedDocument {
  const seed = upsertSeed(filter);
  if (change.kind === 'update') {
    const result = change.update.apply(seed, { isInsert: true, now: Date.now() });
    return shredDocument(result.doc, shred);
  }
  const id = seed._id ?? change.replacement._id ?? generateId(shred.options.defaultId?.type);
  return shredDocument({ ...change.replacement, _id: id }, shred);
}
