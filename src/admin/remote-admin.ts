/**
 * RemoteAdmin: the database and keyspace calls of HomeAdmin, made against a home server's `/v2/databases`
 * routes (`vectordb-local serve --home`). A refused call rejects with RemoteAdminError carrying the server's
 * `{errors: [...]}` envelope; records come back with `endpoint` = `{server}/{id}-{region}`.
 */
import type { CommandResponse } from '../commands/index.js';
import type { DatabaseInfo } from './types.js';

export class RemoteAdminError extends Error {
  constructor(
    readonly response: CommandResponse,
    readonly status: number,
  ) {
    super(response.errors?.[0]?.message ?? `HTTP ${status}`);
    this.name = 'RemoteAdminError';
  }
}

export class RemoteAdmin {
  /** The server's base URL, without a trailing slash. */
  readonly url: string;
  readonly #token: string;

  constructor(token: string, url: string) {
    this.url = url.replace(/\/+$/, '');
    this.#token = token;
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; value: T }> {
    const response = await fetch(`${this.url}/v2/databases${path}`, {
      method,
      headers: { token: this.#token, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new RemoteAdminError({ errors: [{ id: '', family: 'SERVER', scope: '', errorCode: 'UNEXPECTED_SERVER_ERROR', title: 'Not JSON', message: `HTTP ${response.status}: ${text.slice(0, 200)}` }] }, response.status);
    }
    const errors = (parsed as CommandResponse).errors;
    if (!response.ok || (Array.isArray(errors) && errors.length > 0)) throw new RemoteAdminError(parsed as CommandResponse, response.status);
    return { status: response.status, value: parsed as T };
  }

  async listDatabases(): Promise<DatabaseInfo[]> {
    return (await this.#call<DatabaseInfo[]>('GET', '')).value;
  }

  /** By UUID or name; undefined when there is none. */
  async findDatabase(idOrName: string): Promise<DatabaseInfo | undefined> {
    try {
      return (await this.#call<DatabaseInfo>('GET', `/${encodeURIComponent(idOrName)}`)).value;
    } catch (error) {
      if (error instanceof RemoteAdminError && error.status === 404) return undefined;
      throw error;
    }
  }

  async createDatabase(name: string, region?: string): Promise<string> {
    return (await this.#call<{ id: string }>('POST', '', { name, ...(region !== undefined ? { region } : {}) })).value.id;
  }

  /** False when there is none. */
  async deleteDatabase(idOrName: string): Promise<boolean> {
    try {
      await this.#call('DELETE', `/${encodeURIComponent(idOrName)}`);
      return true;
    } catch (error) {
      if (error instanceof RemoteAdminError && error.status === 404) return false;
      throw error;
    }
  }

  async createKeyspace(databaseIdOrName: string, keyspace: string): Promise<void> {
    await this.#call('POST', `/${encodeURIComponent(databaseIdOrName)}/keyspaces/${encodeURIComponent(keyspace)}`);
  }

  async deleteKeyspace(databaseIdOrName: string, keyspace: string): Promise<void> {
    await this.#call('DELETE', `/${encodeURIComponent(databaseIdOrName)}/keyspaces/${encodeURIComponent(keyspace)}`);
  }
}
