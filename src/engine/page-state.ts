/**
 * Opaque page states. An unsorted page resumes strictly after the last document key it returned, so a
 * page never repeats or skips a document that existed throughout, whatever is written in between.
 */
import { VectorDbError, describeValue } from '../errors/index.js';

export interface PageState {
  /** Storage key of the last document returned (or processed). */
  readonly after: string;
  /** Documents returned so far, for `limit` as a total cap across pages. */
  readonly returned: number;
}

/**
 * URL-safe base64 without padding, built from plain base64 (the browser bundle's Buffer has no
 * 'base64url'); decoding with 'base64' accepts the URL-safe alphabet everywhere.
 */
export function encodePageState(state: PageState): string {
  const base64 = Buffer.from(JSON.stringify([state.after, state.returned]), 'utf8').toString('base64');
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodePageState(text: string): PageState {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && Number.isInteger(parsed[1])) {
      return { after: parsed[0], returned: parsed[1] as number };
    }
  } catch {
    // fall through to the error below
  }
  throw VectorDbError.of('COMMAND_FIELD_VALUE_INVALID', {
    field: 'pageState',
    value: describeValue(text, 40),
    reason: 'not a page state this server handed out; send back the nextPageState of the previous page unchanged',
  });
}
