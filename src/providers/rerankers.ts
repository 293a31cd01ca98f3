/**
 * Reranking providers for findAndRerank, behind one interface: the built-in `rrf` (every passage scores the
 * same, so the order is pure reciprocal-rank fusion), a JavaScript function `(query, passages) => scores`, or
 * an HTTP endpoint speaking NVIDIA's reranking API, the Data API's default provider format
 * (`{model, query: {text}, passages: [{text}], truncate}` -> `{rankings: [{index, logit}]}`), called in batches
 * of the model's batch size, each within the provider's `timeoutMs`. Providers are registered per database (any
 * object stands for it here).
 */
import { postJson, providerTimeoutMs, ProviderCallError } from './http-call.js';
import { ProviderRegistry } from './registry.js';

/** What a provider is told besides the query and the passages. */
export interface RerankContext {
  /** The collection's (or the command's) `rerank.service.modelName`. */
  readonly model: string | undefined;
  /** The request's `x-rerank-api-key` header (astra-db-ts's `rerankingApiKey`), if any. */
  readonly apiKey: string | undefined;
}

/** Scores of the passages for the query, one per passage, higher is better. */
export type RerankFunction = (query: string, passages: readonly string[], context: RerankContext) => readonly number[] | Promise<readonly number[]>;

/** An HTTP reranking endpoint in NVIDIA's format. */
export interface HttpRerankerSpec {
  readonly url: string;
  /** Sent as `model` (default: the collection's or the command's `modelName`). */
  readonly model?: string;
  /** Passages per request (default 10, the Data API's default model's `max-batch-size`). */
  readonly batchSize?: number;
  /** Sent as `Authorization: Bearer <apiKey>` when the request has no `x-rerank-api-key` header. */
  readonly apiKey?: string;
  /** How long one call may take (default 30 000 ms); past it the command fails with RERANKING_PROVIDER_FAILED. */
  readonly timeoutMs?: number;
}

/** What `rerankers: { name: spec }` takes: a function, an endpoint URL, or an endpoint with its settings. */
export type RerankerSpec = RerankFunction | string | HttpRerankerSpec;

export interface Reranker {
  readonly name: string;
  readonly kind: 'rrf' | 'function' | 'http';
  /** The model an HTTP endpoint is asked for when the request names none. */
  readonly defaultModel?: string;
  rerank(query: string, passages: readonly string[], context: RerankContext): Promise<number[]>;
}

/** Why a provider call failed (the command layer turns it into RERANKING_PROVIDER_FAILED). */
export class RerankerError extends Error {
  readonly provider: string;
  constructor(provider: string, message: string) {
    super(message);
    this.provider = provider;
    this.name = 'RerankerError';
  }
}

export const RRF_PROVIDER = 'rrf';
const DEFAULT_BATCH = 10;

/** The built-in provider: one score for every passage, so reciprocal-rank fusion alone decides the order. */
export const RRF_RERANKER: Reranker = Object.freeze({
  name: RRF_PROVIDER,
  kind: 'rrf' as const,
  rerank: async (_query: string, passages: readonly string[], _context: RerankContext) => passages.map(() => 0),
});

export function makeReranker(name: string, spec: RerankerSpec): Reranker {
  if (typeof spec === 'function') return functionReranker(name, spec);
  if (typeof spec === 'string') return httpReranker(name, { url: spec });
  if (spec !== null && typeof spec === 'object' && typeof spec.url === 'string') return httpReranker(name, spec);
  throw new TypeError(`reranker '${name}': expected a function (query, passages) => scores, an endpoint URL, or { url, model?, batchSize?, apiKey?, timeoutMs? }`);
}

function functionReranker(name: string, fn: RerankFunction): Reranker {
  return {
    name,
    kind: 'function',
    async rerank(query, passages, context) {
      const scores = await fn(query, passages, context);
      return checkScores(name, scores, passages.length);
    },
  };
}

function httpReranker(name: string, spec: HttpRerankerSpec): Reranker {
  const url = new URL(spec.url).toString();
  const batchSize = spec.batchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new TypeError(`reranker '${name}': batchSize must be a positive integer`);
  const timeoutMs = providerTimeoutMs(`reranker '${name}'`, spec.timeoutMs);
  return {
    name,
    kind: 'http',
    ...(spec.model !== undefined ? { defaultModel: spec.model } : {}),
    async rerank(query, passages, context) {
      const call = { ...context, model: context.model ?? spec.model, apiKey: context.apiKey ?? spec.apiKey };
      const scores: number[] = [];
      for (let from = 0; from < passages.length; from += batchSize) {
        const batch = passages.slice(from, from + batchSize);
        scores.push(...(await callEndpoint(name, url, timeoutMs, call, query, batch)));
      }
      return scores;
    },
  };
}

async function callEndpoint(name: string, url: string, timeoutMs: number, { model, apiKey }: RerankContext, query: string, passages: readonly string[]): Promise<number[]> {
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  const body = JSON.stringify({ ...(model !== undefined ? { model } : {}), query: { text: query }, passages: passages.map((text) => ({ text })), truncate: 'END' });
  let response: Response;
  let text: string;
  try {
    ({ response, text } = await postJson(url, headers, body, timeoutMs));
  } catch (error) {
    throw error instanceof ProviderCallError ? new RerankerError(name, error.message) : error;
  }
  if (!response.ok) throw new RerankerError(name, `${url} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RerankerError(name, `${url} answered with something that is not JSON: ${text.slice(0, 200)}`);
  }
  const rankings = (parsed as { rankings?: unknown } | null)?.rankings;
  if (!Array.isArray(rankings)) throw new RerankerError(name, `${url} answered without a 'rankings' array`);
  const scores = new Array<number>(passages.length).fill(Number.NaN);
  for (const ranking of rankings as { index?: unknown; logit?: unknown }[]) {
    const { index, logit } = ranking ?? {};
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= passages.length || typeof logit !== 'number') {
      throw new RerankerError(name, `${url} answered a ranking that is not {index, logit} of a passage sent: ${JSON.stringify(ranking)}`);
    }
    scores[index] = logit;
  }
  return checkScores(name, scores, passages.length);
}

function checkScores(name: string, scores: unknown, count: number): number[] {
  if (!Array.isArray(scores) || scores.length !== count || scores.some((s) => typeof s !== 'number' || Number.isNaN(s))) {
    throw new RerankerError(name, `expected ${count} numeric scores, one per passage, got ${JSON.stringify(scores)?.slice(0, 200)}`);
  }
  return scores as number[];
}

const registry = new ProviderRegistry<Reranker>();

/** Registers providers for a database (`owner`); a name registered again is replaced. */
export function registerRerankers(owner: object, specs: Readonly<Record<string, RerankerSpec>> | undefined): void {
  registry.register(owner, specs, (name, spec: RerankerSpec) => {
    if (name === RRF_PROVIDER) throw new TypeError(`reranker name '${RRF_PROVIDER}' is the built-in provider`);
    return makeReranker(name, spec);
  });
}

/** The provider of that name for the database (`rrf` is always there), or undefined. */
export function rerankerOf(owner: object, name: string): Reranker | undefined {
  return name === RRF_PROVIDER ? RRF_RERANKER : registry.get(owner, name);
}

/** Every provider of the database, `rrf` first. */
export function rerankersOf(owner: object): Reranker[] {
  return [RRF_RERANKER, ...registry.all(owner)];
}
