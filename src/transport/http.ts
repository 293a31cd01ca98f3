/**
 * HttpTransport: POSTs commands to a Data API endpoint (`{base}/v1[/{keyspace}[/{collection}]]`)
 * with the `Token` header, so the same client code runs against a vectordb-local server or any
 * compatible Data API. HTTP-level failures become VectorDbErrors with the server's code when it sent one.
 */
import type { CommandResponse, CommandTarget, RequestOptions } from '../commands/index.js';
import { VectorDbError } from '../errors/index.js';
import { DEFAULT_LIMITS } from '../engine/limits.js';
import type { JsonObject } from '../query/json.js';
import type { Transport } from './transport.js';
import { parseJsonText, toJsonText } from '../query/exact-number.js';

export interface HttpTransportOptions {
  /** Path of the Data API under the base URL: `v1` (default) or `api/json/v1` (Astra style). */
  readonly dataApiPath?: string;
  readonly timeoutMs?: number;
}

export class HttpTransport implements Transport {
  readonly endpoint: string;
  readonly #token: string;
  readonly #base: string;
  readonly #timeoutMs: number;

  constructor(endpoint: string, token: string, options: HttpTransportOptions = {}) {
    const url = new URL(endpoint);
    this.endpoint = endpoint;
    this.#token = token;
    const trimmed = url.href.replace(/\/+$/, '');
    const dataApiPath = options.dataApiPath ?? (/\/(api\/json\/)?v1$/.test(trimmed) ? '' : 'v1');
    this.#base = dataApiPath ? `${trimmed}/${dataApiPath}` : trimmed;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** A server does not announce its limits: the seed's default (20) is safe for vectordb-local servers. */
  async insertManyLimit(): Promise<number> {
    return DEFAULT_LIMITS.maxInsertManyDocuments;
  }

  async backup(): Promise<{ keys: number }> {
    throw new TypeError(`backup: ${this.endpoint} is a Data API endpoint; a backup copies a database directory (copy its data with \`vectordb-local export\`, or back up on the server's machine)`);
  }

  async connect(): Promise<void> {
    const response = await this.execute({ findKeyspaces: {} }, {});
    const error = response.errors?.[0];
    if (error && error.errorCode !== 'COMMAND_UNKNOWN') {
      throw new VectorDbError(error.errorCode as never, error.message);
    }
  }

  async execute(command: JsonObject, target: CommandTarget, request?: RequestOptions): Promise<CommandResponse> {
    const segments = [target.keyspace, target.collection].filter((s): s is string => s !== undefined).map(encodeURIComponent);
    const url = [this.#base, ...segments].join('/');
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Token: this.#token, 'User-Agent': 'vectordb-local' };
    // The header astra-db-ts sends for its embeddingApiKey: the server passes it on to the embedding provider.
    if (request?.embeddingApiKey !== undefined) headers['x-embedding-api-key'] = request.embeddingApiKey;
    // And for its rerankingApiKey: passed on to the reranking provider.
    if (request?.rerankingApiKey !== undefined) headers['x-rerank-api-key'] = request.rerankingApiKey;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body: toJsonText(command),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw VectorDbError.of('STORAGE_IO_ERROR', { location: url, reason: `request failed: ${(error as Error).message}` }, { cause: error });
    }
    const text = await response.text();
    let body: CommandResponse;
    try {
      body = parseJsonText(text) as CommandResponse;
    } catch {
      throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `HTTP ${response.status} from ${url} with a body that is not JSON: ${text.slice(0, 200)}` });
    }
    return body;
  }

  async close(): Promise<void> {}
}
