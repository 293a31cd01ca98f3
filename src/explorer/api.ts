/**
 * The Data Explorer's only way to the server: Data API commands POSTed to `/v1[/{keyspace}[/{collection}]]` of
 * the page's own origin with the `Token` header, under `/{id}-{region}` once a database of a home is chosen
 * (`serve --home`), whose databases `GET /v2/databases` lists. The token is kept in sessionStorage (this tab
 * only, gone when it closes). A command error comes back as a DataApiError carrying the Data API code and message.
 */

const TOKEN_KEY = 'vectordb-local.explorer.token';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Envelope {
  status?: JsonObject;
  data?: { document?: JsonObject | null; documents?: JsonObject[]; nextPageState?: string | null };
  errors?: { errorCode?: string; message?: string }[];
}

/** A command the server refused: its Data API error code and message. */
export class DataApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A database of a home, as `GET /v2/databases` lists it. */
export interface DatabaseInfo {
  readonly id: string;
  readonly name: string;
  readonly region: string;
}

/** The path before `/v1`: empty for `serve --data`, `/{id}-{region}` for a database of a home. */
let databasePrefix = '';

export function useDatabase(database: DatabaseInfo | undefined): void {
  databasePrefix = database === undefined ? '' : `/${encodeURIComponent(database.id)}-${encodeURIComponent(database.region)}`;
}

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string): void => sessionStorage.setItem(TOKEN_KEY, value),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

/** Runs one command; resolves to its envelope, or throws DataApiError for its first error. */
export async function command(body: JsonObject, keyspace?: string, collection?: string): Promise<Envelope> {
  const path = ['v1', ...(keyspace === undefined ? [] : [keyspace]), ...(collection === undefined ? [] : [collection])].map(encodeURIComponent).join('/');
  return envelopeOf(await fetch(`${databasePrefix}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', Token: token.get() ?? '' }, body: JSON.stringify(body) }));
}

/** The databases of the home the page is served from (organization tokens only: others get UNAUTHORIZED_ACCESS). */
export async function listDatabases(): Promise<DatabaseInfo[]> {
  const response = await fetch('/v2/databases', { headers: { Token: token.get() ?? '' } });
  if (response.ok) return (await response.json()) as DatabaseInfo[];
  await envelopeOf(response); // throws the refusal's code and message
  return [];
}

async function envelopeOf(response: Response): Promise<Envelope> {
  let envelope: Envelope;
  try {
    envelope = (await response.json()) as Envelope;
  } catch {
    throw new DataApiError(`HTTP_${response.status}`, `the server answered ${response.status} ${response.statusText} without a Data API envelope`);
  }
  const error = envelope.errors?.[0];
  if (error !== undefined) throw new DataApiError(error.errorCode ?? `HTTP_${response.status}`, error.message ?? 'no message');
  return envelope;
}
