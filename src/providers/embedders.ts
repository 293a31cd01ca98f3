/**
 * Embedding providers for `$vectorize`, behind one interface: a JavaScript function `(texts, context) =>
 * vectors`, or an HTTP endpoint speaking the OpenAI-compatible `/v1/embeddings` format (`{model, input: [texts],
 * dimensions?}` -> `{data: [{index, embedding}]}`), which Ollama, LM Studio, vLLM, text-embeddings-inference and
 * OpenAI all speak. Calls go in batches of the provider's batch size, one after the other; every answer is
 * checked (one vector per text, the expected dimension, finite numbers) and every failure is one of the Data
 * API's EMBEDDING_PROVIDER_* errors. Providers are registered per database (any object stands for it here).
 */
import { VectorDbError } from '../errors/index.js';
import { messageOf, postJson, providerTimeoutMs, ProviderCallError } from './http-call.js';
import { ProviderRegistry } from './registry.js';

/** What a provider is told besides the texts. */
export interface EmbedContext {
  /** The collection's (or column's) `service.modelName`, else the provider's own `model`. */
  readonly model: string | undefined;
  /** The dimension the vectors must have, when known. */
  readonly dimension: number | undefined;
  /** The request's `x-embedding-api-key` header, else the provider's own `apiKey`. */
  readonly apiKey: string | undefined;
  /** The collection's `service.parameters`. */
  readonly parameters: Readonly<Record<string, unknown>> | undefined;
  /** 'index' for documents written, 'search' for a sort's query text. */
  readonly purpose: 'index' | 'search';
}

/** One vector per text, in order. */
export type EmbedFunction = (texts: readonly string[], context: EmbedContext) => readonly (readonly number[] | Float32Array)[] | Promise<readonly (readonly number[] | Float32Array)[]>;

interface CommonEmbedderSpec {
  /** The vectors' dimension, when the model has a fixed one (else a collection without a dimension asks the provider once). */
  readonly dimension?: number;
  /** Texts per call (default 32, text-embeddings-inference's default largest batch). */
  readonly batchSize?: number;
  /** The model used when a collection names none. */
  readonly model?: string;
}

/** An endpoint in the OpenAI embeddings format. */
export interface HttpEmbedderSpec extends CommonEmbedderSpec {
  /** The endpoint (`.../v1/embeddings`); a URL not ending in `/embeddings` gets it appended (`http://localhost:11434/v1`). */
  readonly url: string;
  /** Sent as `Authorization: Bearer <apiKey>` when the request has no `x-embedding-api-key` header. */
  readonly apiKey?: string;
  /** How long one call may take (default 30 000 ms). */
  readonly timeoutMs?: number;
  /** Send the collection's dimension as `dimensions` (OpenAI's text-embedding-3 models, vLLM's Matryoshka models). */
  readonly sendDimensions?: boolean;
}

/** A function with its settings. */
export interface FunctionEmbedderSpec extends CommonEmbedderSpec {
  readonly embed: EmbedFunction;
}

/** What `embedders: { name: spec }` takes: a function, an endpoint URL, or either with its settings. */
export type EmbedderSpec = EmbedFunction | string | HttpEmbedderSpec | FunctionEmbedderSpec;

export interface Embedder {
  readonly name: string;
  readonly kind: 'function' | 'http';
  readonly url: string | undefined;
  readonly model: string | undefined;
  readonly dimension: number | undefined;
  readonly batchSize: number;
  /** Whether the provider has a key of its own (the local form of the Data API's shared secret). */
  readonly hasOwnKey: boolean;
  /** One vector per text; throws EMBEDDING_PROVIDER_* errors. */
  embed(texts: readonly string[], context: EmbedContext): Promise<number[][]>;
}

const DEFAULT_BATCH = 32;

export function makeEmbedder(name: string, spec: EmbedderSpec): Embedder {
  if (typeof spec === 'function') return functionEmbedder(name, { embed: spec });
  if (typeof spec === 'string') return httpEmbedder(name, { url: spec });
  if (spec !== null && typeof spec === 'object' && typeof (spec as FunctionEmbedderSpec).embed === 'function') return functionEmbedder(name, spec as FunctionEmbedderSpec);
  if (spec !== null && typeof spec === 'object' && typeof (spec as HttpEmbedderSpec).url === 'string') return httpEmbedder(name, spec as HttpEmbedderSpec);
  throw new TypeError(`embedder '${name}': expected a function (texts, context) => vectors, an endpoint URL, { url, model?, dimension?, batchSize?, apiKey?, timeoutMs?, sendDimensions? } or { embed, model?, dimension?, batchSize? }`);
}

function checkCommon(name: string, spec: CommonEmbedderSpec): number {
  const batchSize = spec.batchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new TypeError(`embedder '${name}': batchSize must be a positive integer`);
  if (spec.dimension !== undefined && (!Number.isInteger(spec.dimension) || spec.dimension < 1)) throw new TypeError(`embedder '${name}': dimension must be a positive integer`);
  return batchSize;
}

/** Runs `call` on each batch of texts in turn and checks every answer. */
async function inBatches(name: string, texts: readonly string[], batchSize: number, context: EmbedContext, call: (batch: readonly string[]) => Promise<unknown>): Promise<number[][]> {
  const vectors: number[][] = [];
  let dimension = context.dimension;
  for (let from = 0; from < texts.length; from += batchSize) {
    const batch = texts.slice(from, from + batchSize);
    const answer = await call(batch);
    for (const vector of checkVectors(name, answer, batch.length, dimension)) {
      dimension ??= vector.length; // one dimension for every vector of the call
      vectors.push(vector);
    }
  }
  return vectors;
}

function unexpected(name: string, problem: string): VectorDbError {
  return VectorDbError.of('EMBEDDING_PROVIDER_UNEXPECTED_RESPONSE', { errorMessage: `embedding provider '${name}' ${problem}` });
}

/** One array of finite numbers per text, each of the expected dimension. */
function checkVectors(name: string, answer: unknown, count: number, dimension: number | undefined): number[][] {
  if (!Array.isArray(answer)) throw unexpected(name, `did not answer a list of vectors (got ${describe(answer)})`);
  if (answer.length !== count) throw unexpected(name, `didn't return the expected number of embeddings. Expect: '${count}'. Actual: '${answer.length}'`);
  return answer.map((raw: unknown, i) => {
    const vector = raw instanceof Float32Array ? Array.from(raw) : raw;
    if (!Array.isArray(vector) || vector.length === 0) throw unexpected(name, `answered embedding ${i} that is not a non-empty array of numbers (got ${describe(raw)})`);
    for (const x of vector) if (typeof x !== 'number' || !Number.isFinite(x)) throw unexpected(name, `answered embedding ${i} with a component that is not a finite number (${describe(x)})`);
    if (dimension !== undefined && vector.length !== dimension) throw unexpected(name, `did not return expected embedding length. Expect: '${dimension}'. Actual: '${vector.length}'`);
    return vector as number[];
  });
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}...` : text;
}

function functionEmbedder(name: string, spec: FunctionEmbedderSpec): Embedder {
  const batchSize = checkCommon(name, spec);
  return {
    name,
    kind: 'function',
    url: undefined,
    model: spec.model,
    dimension: spec.dimension,
    batchSize,
    hasOwnKey: false,
    embed: (texts, context) =>
      inBatches(name, texts, batchSize, context, async (batch) => {
        try {
          return await spec.embed(batch, context);
        } catch (error) {
          throw VectorDbError.of('EMBEDDING_PROVIDER_UNAVAILABLE', { errorMessage: `embedding provider '${name}' failed: ${messageOf(error)}` }, { cause: error });
        }
      }),
  };
}

function endpointOf(url: string): string {
  const parsed = new URL(url);
  if (!/\/embeddings\/?$/.test(parsed.pathname)) parsed.pathname = `${parsed.pathname.replace(/\/$/, '')}/embeddings`;
  return parsed.toString();
}

function httpEmbedder(name: string, spec: HttpEmbedderSpec): Embedder {
  const batchSize = checkCommon(name, spec);
  const url = endpointOf(spec.url);
  const timeoutMs = providerTimeoutMs(`embedder '${name}'`, spec.timeoutMs);
  return {
    name,
    kind: 'http',
    url,
    model: spec.model,
    dimension: spec.dimension,
    batchSize,
    hasOwnKey: spec.apiKey !== undefined,
    embed: (texts, context) => inBatches(name, texts, batchSize, context, (batch) => callEndpoint(name, url, spec, timeoutMs, batch, context)),
  };
}

async function callEndpoint(name: string, url: string, spec: HttpEmbedderSpec, timeoutMs: number, input: readonly string[], context: EmbedContext): Promise<number[][]> {
  const headers: Record<string, string> = {};
  const apiKey = context.apiKey ?? spec.apiKey;
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  const model = context.model ?? spec.model;
  const request: Record<string, unknown> = { ...(model !== undefined ? { model } : {}), input };
  if (spec.sendDimensions && context.dimension !== undefined) request.dimensions = context.dimension;
  let response: Response;
  let text: string;
  try {
    ({ response, text } = await postJson(url, headers, JSON.stringify(request), timeoutMs));
  } catch (error) {
    if (!(error instanceof ProviderCallError)) throw error;
    if (error.kind === 'timeout') throw VectorDbError.of('EMBEDDING_PROVIDER_TIMEOUT', { modelProvider: name, httpStatus: 'none', errorMessage: error.message });
    throw VectorDbError.of('EMBEDDING_PROVIDER_UNAVAILABLE', { errorMessage: `embedding provider '${name}' at ${error.message}` });
  }
  if (!response.ok) {
    const vars = { provider: name, httpStatus: response.status, errorMessage: errorMessageOf(text) };
    if (response.status === 429) throw VectorDbError.of('EMBEDDING_PROVIDER_RATE_LIMITED', vars);
    if (response.status === 408 || response.status === 504) throw VectorDbError.of('EMBEDDING_PROVIDER_TIMEOUT', { modelProvider: name, httpStatus: response.status, errorMessage: vars.errorMessage });
    throw VectorDbError.of(response.status < 500 ? 'EMBEDDING_PROVIDER_CLIENT_ERROR' : 'EMBEDDING_PROVIDER_SERVER_ERROR', vars);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unexpected(name, `answered something that is not JSON: ${text.slice(0, 120)}`);
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw unexpected(name, `answered without a 'data' array: ${describe(parsed)}`);
  // OpenAI's answer carries each embedding's index; order by it (a missing index keeps the answer's order).
  const vectors = new Array<unknown>(data.length);
  data.forEach((item: { index?: unknown; embedding?: unknown } | null, i) => {
    const index = item?.index ?? i;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= data.length || vectors[index] !== undefined) {
      throw unexpected(name, `answered an embedding whose index is not one of the ${data.length} answered: ${describe(item?.index)}`);
    }
    vectors[index] = item?.embedding;
  });
  return vectors as number[][];
}

/** The provider's own message (OpenAI: `{error: {message}}`; others: `{error: "..."}` or plain text). */
function errorMessageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 200) || '(no message)';
}

const registry = new ProviderRegistry<Embedder>();

/** Registers providers for a database (`owner`); a name registered again is replaced. */
export function registerEmbedders(owner: object, specs: Readonly<Record<string, EmbedderSpec>> | undefined): void {
  registry.register(owner, specs, makeEmbedder);
}

/** The provider of that name for the database, or undefined. */
export function embedderOf(owner: object, name: string): Embedder | undefined {
  return registry.get(owner, name);
}

/** Every provider of the database, in registration order. */
export function embeddersOf(owner: object): Embedder[] {
  return registry.all(owner);
}
