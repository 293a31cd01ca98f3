/**
 * Vectorize, in one place: which embedding provider a collection's (or a table column's) `service` names and
 * the errors when there is none, the vectors of documents' `$vectorize` text (after `$hybrid` expands)
 * computed in one batched call before anything is written, a `$vectorize` sort turned into a `$vector` sort,
 * an update's `$set` of `$vectorize` given its vector, and createCollection's `service` checked against the
 * registered providers (its dimension taken from the provider when not given).
 */
import { VectorDbError, jsonTypeName } from '../errors/index.js';
import type { Collection } from '../engine/collections/collection.js';
import { expandHybrid } from '../engine/collections/lexical-shred.js';
import type { VectorizeService } from '../engine/vectors/vectorize-service.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';
import type { Update } from '../query/update.js';
import { embedderOf, embeddersOf, type Embedder } from '../providers/embedders.js';
import type { CommandContext } from './context.js';

/** A vector definition that may name a provider: a collection's `vector`, a table's vector column. */
export interface VectorizeTarget {
  /** `keyspace.name` of the collection or table, for messages. */
  readonly label: string;
  readonly service: VectorizeService | undefined;
  readonly dimension: number | undefined;
}

/** The target of a collection. */
export function collectionTarget(collection: Collection): VectorizeTarget {
  const { keyspace, name, options } = collection.record;
  return { label: `${keyspace}.${name}`, service: options.vector?.service, dimension: options.vector?.dimension };
}

const notAvailable = (): VectorDbError => VectorDbError.of('VECTORIZE_FEATURE_NOT_AVAILABLE');

/** The registered provider of a service; without any provider at all, VECTORIZE_FEATURE_NOT_AVAILABLE. */
function embedderFor(ctx: CommandContext, target: VectorizeTarget): { embedder: Embedder; service: VectorizeService } {
  const service = target.service;
  if (embeddersOf(ctx.db).length === 0) throw notAvailable();
  if (service === undefined) throw VectorDbError.of('EMBEDDING_SERVICE_NOT_CONFIGURED', { table: target.label });
  const embedder = embedderOf(ctx.db, service.provider);
  if (embedder === undefined) {
    throw VectorDbError.of('EMBEDDING_PROVIDER_UNAVAILABLE', {
      errorMessage: `the embedding provider '${service.provider}' of ${target.label} is not registered with this database (registered: ${registeredNames(ctx)}); register it with new VectorDB(..., { embedders: { ${service.provider}: url or (texts) => vectors } }) or serve --embedder ${service.provider}=URL`,
    });
  }
  return { embedder, service };
}

const registeredNames = (ctx: CommandContext): string => embeddersOf(ctx.db).map((e) => `'${e.name}'`).join(', ');

/** The vectors of `texts` by the target's provider, checked against its dimension. */
export async function embedTexts(ctx: CommandContext, target: VectorizeTarget, texts: readonly string[], purpose: 'index' | 'search'): Promise<number[][]> {
  const { embedder, service } = embedderFor(ctx, target);
  return embedder.embed(texts, {
    model: service.modelName ?? embedder.model,
    dimension: target.dimension,
    apiKey: ctx.request.embeddingApiKey,
    parameters: service.parameters,
    purpose,
  });
}

/**
 * Documents ready to shred: `$hybrid` expanded, and every `$vectorize` text given its `$vector` (null for null
 * or blank text), all texts of the command embedded together before any write, so that a provider failure
 * writes nothing. The input is not changed (documents with these fields are copied). As the Data API, a
 * document with both `$vector` and `$vectorize`, or non-string `$vectorize`, fails the whole command.
 */
export async function vectorizeDocuments(ctx: CommandContext, target: VectorizeTarget, documents: readonly JsonValue[]): Promise<JsonValue[]> {
  const texts: string[] = [];
  const waiting: JsonObject[] = [];
  const prepared = documents.map((raw, i) => {
    if (!isObject(raw) || (raw.$hybrid === undefined && raw.$vectorize === undefined)) return raw;
    const doc: JsonObject = { ...raw };
    if (doc.$hybrid !== undefined) expandHybrid(doc);
    if (!('$vectorize' in doc)) return doc;
    const text = doc.$vectorize;
    const position = `issue in document at position ${i + 1}`;
    if (doc.$vector !== undefined) throw VectorDbError.of('INVALID_USAGE_OF_VECTORIZE', { reason: `'$vector' and '$vectorize' cannot be used together in same document: ${position}` });
    if (text !== null && typeof text !== 'string') throw VectorDbError.of('INVALID_VECTORIZE_VALUE_TYPE', { errorMessage: `needs to be String, not ${jsonTypeName(text)} (${position})` });
    if (text === null || text.trim() === '') {
      doc.$vector = null;
    } else {
      texts.push(text);
      waiting.push(doc);
    }
    return doc;
  });
  if (texts.length > 0) {
    const vectors = await embedTexts(ctx, target, texts, 'index');
    waiting.forEach((doc, i) => (doc.$vector = vectors[i]!));
  }
  return prepared;
}

/** Whether a sort clause names `$vectorize` (only such a sort needs vectorizeSort). */
export function isVectorizeSort(raw: JsonValue | undefined): boolean {
  return isObject(raw) && '$vectorize' in raw;
}

/** A `{"$vectorize": "text"}` sort as the `{"$vector": [...]}` sort of its embedding; any other sort as it is. */
export async function vectorizeSort(ctx: CommandContext, target: VectorizeTarget, raw: JsonValue | undefined): Promise<JsonValue | undefined> {
  if (!isObject(raw) || !isVectorizeSort(raw)) return raw;
  if (Object.keys(raw).length > 1) return raw; // the sort parser's error
  const text = raw.$vectorize;
  if (typeof text !== 'string' || text.trim() === '') {
    throw VectorDbError.of('SORT_CLAUSE_INVALID', { reason: `vectorize sort expression needs to be non-blank String value, not ${typeof text === 'string' ? 'blank String' : jsonTypeName(text)}` });
  }
  const [vector] = await embedTexts(ctx, target, [text], 'search');
  return { $vector: vector! };
}

/** The update with the vector of each `$vectorize` text it sets (one call for all of them). */
export async function vectorizeUpdate(ctx: CommandContext, target: VectorizeTarget, update: Update): Promise<Update> {
  if (update.vectorizeTexts.length === 0) return update;
  const texts = [...new Set(update.vectorizeTexts)];
  const vectors = await embedTexts(ctx, target, texts, 'index');
  return update.withVectors(new Map(texts.map((text, i) => [text, vectors[i]!])));
}

/** The text a probe call embeds to learn a provider's dimension. */
const PROBE_TEXT = 'dimension probe';

/**
 * createCollection's `options` with `vector.service` checked: its provider registered (else the Data API's
 * "Service provider 'x' is not supported"), its dimension the provider's when given, else the one asked for;
 * with neither, the dimension of the provider's answer to one probe text.
 */
export async function resolveServiceOptions(ctx: CommandContext, label: string, options: JsonValue | undefined): Promise<JsonValue | undefined> {
  const vector = isObject(options) ? options.vector : undefined;
  const service = isObject(vector) ? vector.service : undefined;
  if (!isObject(vector) || !isObject(service) || typeof service.provider !== 'string') return options;
  const refuse = (reason: string) => VectorDbError.of('INVALID_CREATE_COLLECTION_OPTIONS', { reason });
  const dimension = await serviceDimension(ctx, label, service as unknown as VectorizeService, vector.dimension ?? vector.size, refuse);
  return { ...(options as JsonObject), vector: { ...vector, dimension } };
}

/** The dimension of a vector definition with a service (collections and table columns). */
export async function serviceDimension(ctx: CommandContext, label: string, service: VectorizeService, asked: JsonValue | undefined, refuse: (reason: string) => VectorDbError): Promise<JsonValue> {
  if (embeddersOf(ctx.db).length === 0) throw notAvailable();
  const embedder = embedderOf(ctx.db, service.provider);
  if (embedder === undefined) throw refuse(`Service provider '${service.provider}' is not supported (the embedding providers registered with this database: ${registeredNames(ctx)})`);
  if (embedder.dimension !== undefined) {
    if (asked !== undefined && asked !== null && asked !== embedder.dimension) {
      throw refuse(`The provided dimension value '${String(asked)}' doesn't match the model's supported dimension value '${embedder.dimension}'`);
    }
    return embedder.dimension;
  }
  if (asked !== undefined && asked !== null) return asked;
  const [probe] = await embedTexts(ctx, { label, service, dimension: undefined }, [PROBE_TEXT], 'index');
  return probe!.length;
}
