/**
 * The keys a client hands to the providers a command may call (astra-db-ts's `embeddingApiKey` and
 * `rerankingApiKey`): checked where they are given, and the nearest wins (the command's, else the collection's,
 * else the VectorDB's). Over HTTP they travel as the `x-embedding-api-key` and `x-rerank-api-key` headers.
 */
export interface ProviderKeys {
  /** The key embedding providers are called with for `$vectorize`. */
  embeddingApiKey?: string;
  /** The key reranking providers are called with for `findAndRerank`. */
  rerankingApiKey?: string;
}

const KEY_NAMES = ['embeddingApiKey', 'rerankingApiKey'] as const;

/** The keys among `options` (each a string; undefined: none). */
export function checkProviderKeys(options: ProviderKeys, where: string): ProviderKeys {
  const keys: ProviderKeys = {};
  for (const name of KEY_NAMES) {
    const key: unknown = options[name];
    if (key === undefined) continue;
    if (typeof key !== 'string') throw new TypeError(`${where}.${name} must be a string, not ${typeof key}`);
    keys[name] = key;
  }
  return keys;
}

/** What a command's request carries (RequestOptions): each key of `nearest`, else of `fallback`; undefined when there is none. */
export function requestWithKeys(nearest: ProviderKeys, fallback: ProviderKeys): ProviderKeys | undefined {
  const keys = { ...fallback, ...nearest };
  return Object.keys(keys).length === 0 ? undefined : keys;
}
