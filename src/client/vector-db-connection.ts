/**
 * What VectorDB's constructor arguments name (the seed's forms: an endpoint and keyspace, or a database id of a
 * home with its region and keyspace, then options): checked, and turned into the transport that reaches the
 * database (in process, over HTTP, or a home's database), the working keyspace and the provider keys.
 */
import { DEFAULT_KEYSPACE } from '../engine/database.js';
import { EmbeddedTransport } from '../transport/embedded.js';
import { HttpTransport } from '../transport/http.js';
import type { Transport } from '../transport/transport.js';
import { HomeDatabaseTransport, isDatabaseId } from './home-transport.js';
import { checkProviderKeys, type ProviderKeys } from './provider-keys.js';
import { checkBodyCacheBytes, checkDurability, checkKeyspaceName, checkStorage, VECTOR_DB_OPTIONS, type VectorDBOptions } from './vector-db-options.js';
import { rejectUnknownMembers } from './wire.js';

export interface Connection {
  readonly transport: Transport;
  readonly keyspace: string;
  /** The provider keys of every command that names none (VectorDBOptions.embeddingApiKey, rerankingApiKey). */
  readonly keys: ProviderKeys;
}

/** `rest`: what follows the endpoint: `[keyspace]`, `[region, keyspace]` or `[region, environment, keyspace]`, then options. */
export function connectionOf(token: string, apiEndpoint: string, rest: (string | VectorDBOptions | undefined)[]): Connection {
  if (typeof token !== 'string' || token.length === 0) throw new TypeError('VectorDB: token must be a non-empty string');
  if (typeof apiEndpoint !== 'string' || apiEndpoint.length === 0) throw new TypeError('VectorDB: apiEndpoint must be a directory path, a file: URL, an http(s) URL or a database UUID');
  // Trailing undefineds are left-out arguments: new VectorDB(token, dir, undefined, options).
  while (rest.length > 0 && rest.at(-1) === undefined) rest.pop();
  const options = ((typeof rest.at(-1) === 'object' ? rest.pop() : undefined) ?? {}) as VectorDBOptions;
  while (rest.length > 0 && rest.at(-1) === undefined) rest.pop();
  const byId = isDatabaseId(apiEndpoint);
  const names = rest; // [keyspace], [region, keyspace] or [region, environment, keyspace]
  if (names.some((value) => typeof value !== 'string') || names.length > (byId ? 3 : 1)) {
    throw new TypeError(byId ? 'VectorDB: after a database id give [keyspace], [region, keyspace] or [region, environment, keyspace], then options' : 'VectorDB: after an endpoint give [keyspace], then options');
  }
  const keyspace = (names.at(-1) as string | undefined) ?? DEFAULT_KEYSPACE;
  const region = names.length >= 2 ? (names[0] as string) : undefined;
  checkKeyspaceName(keyspace);
  rejectUnknownMembers(options, VECTOR_DB_OPTIONS, 'VectorDBOptions');
  const remote = /^https?:\/\//i.test(apiEndpoint);
  checkStorage(options.storage, remote);
  const databaseOptions = {
    ...(options.storage ? { storage: options.storage } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.vectorBackend ? { vectorBackend: options.vectorBackend } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.bodyCacheBytes !== undefined ? { bodyCacheBytes: checkBodyCacheBytes(options.bodyCacheBytes, remote) } : {}),
    ...(options.durability !== undefined ? { durability: checkDurability(options.durability, remote) } : {}),
  };
  const keys = checkProviderKeys(options, 'VectorDBOptions');
  const providers = { rerankers: options.rerankers, embedders: options.embedders };
  if (remote && (options.rerankers !== undefined || options.embedders !== undefined)) {
    throw new TypeError('VectorDBOptions.rerankers and embedders apply to embedded databases only: an http(s) endpoint calls the providers its server registers (vectordb-local serve --reranker/--embedder)');
  }
  const transport = remote
    ? new HttpTransport(apiEndpoint, token)
    : byId
      ? new HomeDatabaseTransport(token, apiEndpoint, region, databaseOptions, providers)
      : new EmbeddedTransport(apiEndpoint, databaseOptions, providers);
  return { transport, keyspace, keys };
}
