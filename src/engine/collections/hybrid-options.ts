/**
 * A collection's `lexical` and `rerank` options (createCollection, findCollections): validation with the
 * Data API's messages, its defaults (lexical enabled with `standard`; rerank enabled with the `nvidia`
 * provider and its default model), and the analyzer a lexical collection indexes `$lexical` with.
 */
import { VectorDbError, describeValue, jsonTypeName } from '../../errors/index.js';
import { parseAnalyzer, type Analyzer } from '../../query/analyzers.js';
import { isObject, type JsonObject, type JsonValue } from '../../query/json.js';

export interface LexicalOptions {
  readonly enabled: boolean;
  /** As given (a name or `{tokenizer, filters, charFilters}`), `standard` when enabled without one. */
  readonly analyzer?: JsonValue;
}

export interface RerankService {
  readonly provider: string;
  readonly modelName: string;
  readonly authentication?: JsonObject;
  readonly parameters?: JsonObject;
}

export interface RerankOptions {
  readonly enabled: boolean;
  readonly service?: RerankService;
}

export const DEFAULT_LEXICAL: LexicalOptions = Object.freeze({ enabled: true, analyzer: 'standard' });
/** The Data API's default reranking provider and model (reranking-providers-config.yaml). */
export const DEFAULT_RERANK: RerankOptions = Object.freeze({ enabled: true, service: Object.freeze({ provider: 'nvidia', modelName: 'nvidia/llama-3.2-nv-rerankqa-1b-v2' }) });

const invalid = (reason: string): VectorDbError => VectorDbError.of('INVALID_CREATE_COLLECTION_OPTIONS', { reason });

/** The analyzer of a lexical-enabled collection; undefined when lexical is disabled (or the collection predates it). */
export function analyzerOf(lexical: LexicalOptions | undefined): Analyzer | undefined {
  return lexical?.enabled ? parseAnalyzer(lexical.analyzer, (reason) => new Error(reason)) : undefined;
}

/** The `{enabled, <other>}` object of `lexical` or `rerank`: no unknown field, `enabled` a boolean. */
function enabledObject(raw: JsonValue, feature: string, other: string): JsonObject & { enabled: boolean } {
  if (!isObject(raw)) throw invalid(`'${feature}' must be an Object, got ${describeValue(raw)}`);
  const unknown = Object.keys(raw).filter((k) => k !== 'enabled' && k !== other);
  if (unknown.length > 0) throw VectorDbError.of('INVALID_CREATE_COLLECTION_FIELD', { field: `${feature}.${unknown[0]}`, known: `'enabled', '${other}'` });
  if (raw.enabled === undefined || raw.enabled === null) throw invalid(`'enabled' is required property for '${feature}' Object value`);
  if (typeof raw.enabled !== 'boolean') throw invalid(`'${feature}.enabled' must be true or false, got ${describeValue(raw.enabled)}`);
  return raw as JsonObject & { enabled: boolean };
}

export function parseLexicalOptions(given: JsonValue | undefined): LexicalOptions {
  if (given === undefined || given === null) return DEFAULT_LEXICAL;
  const raw = enabledObject(given, 'lexical', 'analyzer');
  const analyzer = raw.analyzer;
  const omitted = analyzer === undefined || analyzer === null || (isObject(analyzer) && Object.keys(analyzer).length === 0);
  if (!raw.enabled) {
    if (!omitted) {
      throw invalid(
        `'lexical' is disabled, but 'lexical.analyzer' property was provided with an unexpected type: ${jsonTypeName(analyzer)}. ` +
          "When 'lexical' is disabled, 'lexical.analyzer' must either be omitted or be JSON null, or an empty Object '{ }'",
      );
    }
    return { enabled: false };
  }
  if (omitted) return DEFAULT_LEXICAL;
  if (typeof analyzer !== 'string' && !isObject(analyzer)) {
    throw invalid(`'analyzer' property of 'lexical' must be either JSON Object or String, is: ${jsonTypeName(analyzer)}`);
  }
  if (isObject(analyzer)) {
    const fields = Object.keys(analyzer).filter((k) => k !== 'charFilters' && k !== 'filters' && k !== 'tokenizer');
    if (fields.length > 0) {
      throw invalid(`Invalid field${fields.length === 1 ? '' : 's'} for 'lexical.analyzer'. Valid fields are: [charFilters, filters, tokenizer], found: [${fields.sort().join(', ')}]`);
    }
    for (const [name, value] of Object.entries(analyzer)) {
      const expected = name === 'tokenizer' ? 'Object' : 'Array';
      const ok = value === null || (name === 'tokenizer' ? isObject(value) : Array.isArray(value));
      if (!ok) throw invalid(`'${name}' property of 'lexical.analyzer' must be JSON ${expected}, is: ${jsonTypeName(value)}`);
    }
  }
  parseAnalyzer(analyzer, (reason) => invalid(`'lexical.analyzer': ${reason}`));
  return { enabled: true, analyzer };
}

export function parseRerankOptions(given: JsonValue | undefined): RerankOptions {
  if (given === undefined || given === null) return DEFAULT_RERANK;
  const raw = enabledObject(given, 'rerank', 'service');
  const service = raw.service;
  if (!raw.enabled) {
    if (service !== undefined && service !== null && !(isObject(service) && Object.keys(service).length === 0)) {
      throw invalid("'rerank' is disabled, but 'rerank.service' configuration is provided");
    }
    return { enabled: false };
  }
  if (service === undefined || service === null) return DEFAULT_RERANK;
  return { enabled: true, service: parseRerankService(service, (reason) => invalid(`'rerank.service': ${reason}`)) };
}

/** A `{provider, modelName, authentication, parameters}` service (a collection's, or a findAndRerank override). */
export function parseRerankService(raw: JsonValue, refuse: (reason: string) => VectorDbError): RerankService {
  if (!isObject(raw)) throw refuse(`must be an Object, got ${describeValue(raw)}`);
  const unknown = Object.keys(raw).filter((k) => !['provider', 'modelName', 'authentication', 'parameters'].includes(k));
  if (unknown.length > 0) throw refuse(`unknown field '${unknown[0]}': known fields are 'provider', 'modelName', 'authentication', 'parameters'`);
  if (typeof raw.provider !== 'string' || raw.provider.length === 0) throw refuse("'provider' is required and must be a non-empty String");
  const modelName = raw.modelName ?? (raw.provider === 'nvidia' ? DEFAULT_RERANK.service!.modelName : undefined);
  if (typeof modelName !== 'string' || modelName.length === 0) throw refuse("'modelName' is required and must be a non-empty String");
  const service: { -readonly [K in keyof RerankService]: RerankService[K] } = { provider: raw.provider, modelName };
  for (const field of ['authentication', 'parameters'] as const) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (!isObject(value)) throw refuse(`'${field}' must be an Object`);
    service[field] = value;
  }
  return service;
}
