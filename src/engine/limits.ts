/**
 * Every limit of a database in one object. The seed's values are the defaults; where the seed is silent,
 * the Data API's (data-api-protocol.md section 11). A database is opened with overrides; the server takes them as options.
 */

export interface Limits {
  /** Collections per database, across keyspaces. */
  readonly maxCollections: number;
  /** Documents per insertMany request. */
  readonly maxInsertManyDocuments: number;
  /** Documents per page of find and per updateMany request. */
  readonly pageSize: number;
  /** Serialized size of one top-level attribute value (UTF-8 bytes); `$vector` excluded. */
  readonly maxAttributeValueBytes: number;
  /** Keyspace and collection names. */
  readonly maxNameLength: number;
  readonly maxDocumentChars: number;
  readonly maxDocumentDepth: number;
  readonly maxPathLength: number;
  readonly maxObjectProperties: number;
  readonly maxIndexedProperties: number;
  readonly maxIndexedStringBytes: number;
  readonly maxArrayLength: number;
  readonly maxVectorDimension: number;
  /** Documents read for an in-memory sort. */
  readonly maxSortCandidates: number;
  /** `limit` of a vector search. */
  readonly maxVectorSearchLimit: number;
  readonly maxCountDocuments: number;
  readonly maxDeleteManyDocuments: number;
  readonly maxFilterClauses: number;
  readonly maxInValues: number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxCollections: 5,
  maxInsertManyDocuments: 20,
  pageSize: 20,
  maxAttributeValueBytes: 5 * 1024,
  maxNameLength: 48,
  maxDocumentChars: 4_000_000,
  maxDocumentDepth: 16,
  maxPathLength: 1000,
  maxObjectProperties: 1000,
  maxIndexedProperties: 2000,
  maxIndexedStringBytes: 8000,
  maxArrayLength: 1000,
  maxVectorDimension: 4096,
  maxSortCandidates: 10_000,
  maxVectorSearchLimit: 1000,
  maxCountDocuments: 1000,
  maxDeleteManyDocuments: 20,
  maxFilterClauses: 64,
  maxInValues: 100,
});

/** Merges overrides into the defaults; every value must be a positive integer. */
export function resolveLimits(overrides: Partial<Limits> = {}): Limits {
  const merged: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in DEFAULT_LIMITS)) throw new TypeError(`Unknown limit '${name}': known limits are ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      throw new TypeError(`Limit '${name}' must be a positive integer, got ${String(value)}`);
    }
    merged[name] = value;
  }
  return Object.freeze(merged as unknown as Limits);
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isValidSchemaName(name: unknown, limits: Limits): name is string {
  return typeof name === 'string' && name.length <= limits.maxNameLength && SCHEMA_NAME.test(name);
}
