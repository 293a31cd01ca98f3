/**
 * The `service` of a vector definition (a collection's `options.vector.service`, a table's vector column):
 * `{provider, modelName?, authentication?, parameters?}`, the embedding provider that computes the vectors of
 * `$vectorize` text. Only its shape is checked here; whether the provider is registered with the database
 * (and what dimension it answers) is the command layer's business, which has the providers.
 */
import { VectorDbError, describeValue } from '../../errors/index.js';
import { isObject, type JsonObject, type JsonValue } from '../../query/json.js';

export interface VectorizeService {
  readonly provider: string;
  readonly modelName?: string;
  /** As given (the Data API's `{providerKey}` shared-secret name); kept and shown, see README "Embedding providers". */
  readonly authentication?: Readonly<Record<string, string>>;
  readonly parameters?: JsonObject;
}

const FIELDS = ['provider', 'modelName', 'authentication', 'parameters'];

/** Validates a service definition; `refuse(reason)` builds the error of the command it came with. */
export function parseVectorizeService(raw: JsonValue, refuse: (reason: string) => VectorDbError): VectorizeService {
  if (!isObject(raw)) throw refuse(`'service' must be an Object, got ${describeValue(raw)}`);
  const unknown = Object.keys(raw).filter((k) => !FIELDS.includes(k));
  if (unknown.length > 0) throw refuse(`unknown 'service' field '${unknown[0]}': known fields are ${FIELDS.map((f) => `'${f}'`).join(', ')}`);
  if (typeof raw.provider !== 'string' || raw.provider.length === 0) throw refuse("'service.provider' is required and must be a non-empty String");
  const service: { -readonly [K in keyof VectorizeService]: VectorizeService[K] } = { provider: raw.provider };
  if (raw.modelName !== undefined && raw.modelName !== null) {
    if (typeof raw.modelName !== 'string' || raw.modelName.length === 0) throw refuse("'service.modelName' must be a non-empty String");
    service.modelName = raw.modelName;
  }
  const authentication = raw.authentication;
  if (authentication !== undefined && authentication !== null) {
    if (!isObject(authentication) || Object.values(authentication).some((v) => typeof v !== 'string')) throw refuse("'service.authentication' must be an Object of Strings, such as {\"providerKey\": \"name\"}");
    service.authentication = { ...(authentication as Record<string, string>) };
  }
  if (raw.parameters !== undefined && raw.parameters !== null) {
    if (!isObject(raw.parameters)) throw refuse("'service.parameters' must be an Object");
    service.parameters = raw.parameters;
  }
  return service;
}

/** The service as findCollections / listTables show it. */
export function describeVectorizeService(service: VectorizeService): JsonObject {
  const out: JsonObject = { provider: service.provider };
  if (service.modelName !== undefined) out.modelName = service.modelName;
  if (service.authentication !== undefined) out.authentication = { ...service.authentication };
  if (service.parameters !== undefined) out.parameters = service.parameters;
  return out;
}
