/**
 * One GraphQL page from Data API `find` commands. Stargate's `pageSize`/`limit` on top of the Data API's fixed
 * pages: an unsorted read walks Data API pages (`pageState`) and may stop inside one; a sorted or vector read
 * pages by position (`skip`, or a larger `limit` for vectors, which cannot skip). The GraphQL pageState is an
 * opaque base64url cursor, returned only when more documents exist.
 */
import type { CommandResponse } from '../commands/index.js';
import type { JsonObject } from '../query/json.js';
import { argumentError, orThrow } from './errors.js';

export interface PageRequest {
  readonly filter: JsonObject;
  /** A Data API sort clause (`$vector` for a vector search), or undefined for none. */
  readonly sort: JsonObject | undefined;
  readonly projection: JsonObject | undefined;
  readonly limit: number | undefined;
  readonly pageSize: number;
  readonly pageState: string | undefined;
  readonly includeSimilarity: boolean;
  /** The sort is by similarity (a table's vector column); collections are told by `$vector` / `$vectorize`. */
  readonly vectorSort?: boolean;
}

export interface Page {
  readonly documents: JsonObject[];
  readonly pageState: string | null;
}

/** Where the next page starts: inside Data API page `p` at offset `o`, or after `s` sorted documents; `n` read so far. */
interface Cursor {
  p?: string | null;
  o?: number;
  s?: number;
  n: number;
}

/** The Data API's largest vector search (limits.maxVectorSearchLimit's default): a vector read pages within it. */
const MAX_VECTOR_RESULTS = 1000;

export type FindRunner = (find: JsonObject) => Promise<CommandResponse>;

export async function readPage(find: FindRunner, request: PageRequest): Promise<Page> {
  if (!Number.isInteger(request.pageSize) || request.pageSize < 1) throw argumentError('options.pageSize must be a positive integer');
  if (request.limit !== undefined && (!Number.isInteger(request.limit) || request.limit < 1)) throw argumentError('options.limit must be a positive integer');
  const cursor = decode(request.pageState);
  const want = Math.min(request.pageSize, request.limit === undefined ? Infinity : request.limit - cursor.n);
  if (want <= 0) return { documents: [], pageState: null };
  const page = request.sort === undefined ? await unsortedPage(find, request, cursor, want) : await sortedPage(find, request, cursor, want);
  const read = cursor.n + page.documents.length;
  const done = page.next === null || (request.limit !== undefined && read >= request.limit);
  return { documents: page.documents, pageState: done ? null : encode({ ...page.next!, n: read }) };
}

type Partial = { documents: JsonObject[]; next: Omit<Cursor, 'n'> | null };

async function unsortedPage(find: FindRunner, request: PageRequest, cursor: Cursor, want: number): Promise<Partial> {
  let pageState = cursor.p ?? null;
  let offset = cursor.o ?? 0;
  const documents: JsonObject[] = [];
  for (;;) {
    const response = orThrow(await find(findCommand(request, pageState === null ? {} : { pageState })));
    const data = response.data as { documents: JsonObject[]; nextPageState: string | null };
    const taken = data.documents.slice(offset, offset + (want - documents.length));
    documents.push(...taken);
    if (offset + taken.length < data.documents.length) return { documents, next: { p: pageState, o: offset + taken.length } };
    if (!data.nextPageState) return { documents, next: null };
    pageState = data.nextPageState;
    offset = 0;
    if (documents.length === want) return { documents, next: { p: pageState, o: 0 } };
  }
}

async function sortedPage(find: FindRunner, request: PageRequest, cursor: Cursor, want: number): Promise<Partial> {
  const skip = cursor.s ?? 0;
  const isVector = request.vectorSort ?? (request.sort !== undefined && ('$vector' in request.sort || '$vectorize' in request.sort));
  // One document more than asked tells whether another page exists.
  const options: JsonObject = isVector
    ? { limit: Math.min(skip + want + 1, MAX_VECTOR_RESULTS), ...(request.includeSimilarity ? { includeSimilarity: true } : {}) }
    : { limit: want + 1, ...(skip > 0 ? { skip } : {}) };
  const response = orThrow(await find(findCommand(request, options)));
  const all = (response.data as { documents: JsonObject[] }).documents;
  const rest = isVector ? all.slice(skip) : all;
  const documents = rest.slice(0, want);
  return { documents, next: rest.length > want ? { s: skip + want } : null };
}

function findCommand(request: PageRequest, options: JsonObject): JsonObject {
  const body: JsonObject = { filter: request.filter };
  if (request.sort !== undefined) body.sort = request.sort;
  if (request.projection !== undefined) body.projection = request.projection;
  if (Object.keys(options).length > 0) body.options = options;
  return { find: body };
}

function encode(cursor: Cursor): string {
  // btoa/atob rather than Buffer: the same code runs in a browser page.
  return btoa(encodeURIComponent(JSON.stringify(cursor))).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

function decode(pageState: string | undefined): Cursor {
  if (pageState === undefined || pageState === '') return { n: 0 };
  try {
    const cursor = JSON.parse(decodeURIComponent(atob(pageState.replaceAll('-', '+').replaceAll('_', '/')))) as Cursor;
    if (typeof cursor === 'object' && cursor !== null && Number.isInteger(cursor.n)) return cursor;
  } catch {
    // fall through: not one of ours
  }
  throw argumentError('options.pageState is not a pageState this endpoint returned');
}
