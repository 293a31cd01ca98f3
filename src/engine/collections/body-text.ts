/**
 * A document body as LevelDB holds it: its `$vector` values replaced by a reference to the vector record,
 * and its text (plain JSON, or lossless JSON behind a mark when a number needs it) written and parsed.
 */
import { parseLosslessJsonText, toJsonText } from '../../query/exact-number.js';
import type { Document } from '../../query/json.js';
import { bytesToString } from '../../storage/index.js';
import type { ShreddedDocument, StagedVectors } from '../changes.js';
import { bodyWithVectorRef, vectorRefOf } from './stored-vector.js';

/** The body as stored: a document's `$vector` values are replaced by a reference to its vector record. */
export function storedBody(after: ShreddedDocument, staged: StagedVectors | undefined): Document {
  const label = after.vector === null ? undefined : staged?.labels.get(after.key);
  return label === undefined ? after.doc : bodyWithVectorRef(after.doc, label, after.vectorForm ?? 'array');
}

/** Whether a hit's body still has the vector the hit found (it may have changed after the search). */
export function hasVectorOf(body: Document, label: number): boolean {
  const ref = vectorRefOf(body);
  // A body without a reference holds its values itself (an older format): any vector is the one found.
  if (ref === undefined) return body.$vector !== undefined && body.$vector !== null;
  return ref.label === label;
}

/**
 * A body with numbers no double names exactly is stored as EXACT_BODY then its lossless JSON (bigints and
 * ExactDecimals written digit for digit); every other body is plain JSON, as before this mark existed.
 */
const EXACT_BODY = '#';

export function bodyText(doc: Document): string {
  try {
    return JSON.stringify(doc); // the common case: no exact number (JSON.stringify refuses those)
  } catch {
    return EXACT_BODY + toJsonText(doc);
  }
}

export function parseBody(value: Uint8Array): Document {
  return parseBodyText(bytesToString(value));
}

export function parseBodyText(text: string): Document {
  return (text.startsWith(EXACT_BODY) ? parseLosslessJsonText(text.slice(1)) : JSON.parse(text)) as Document;
}
