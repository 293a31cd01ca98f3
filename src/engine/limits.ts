/**
 * Every limit of a database in one object, and the one place that decides them. Two named presets: `seed`
 * (the default: the seed specification's values, the Data API's where the seed is silent) and `data-api` (the
 * Data API server's current defaults, data-api-protocol.md sections 4.5 and 11, so existing clients run
 * unchanged). A database is opened with a preset, overrides, or both; the server takes the same option.
 */

export interface Limits {
  /** Collections per database, across keyspaces. */
  readonly maxCollections: number;
  /** Documents per insertMany request. */
  readonly maxInsertManyDocuments: number;
  /** Documents per page of find and per updateMany request. */
  readonly pageSize: number;
  /** Serialized size of one top-level attribute value (UTF-8 bytes), indexed or not; `$vector` excluded. */
  readonly maxAttributeValueBytes: number;
  /** Keyspace and collection names. */
  readonly maxNameLength: number;
  /** Serialized size of a whole document (characters). */
  readonly maxDocumentChars: number;
  /** Nesting levels, the document itself being level 1 (every object and array is one more). */
  readonly maxDocumentDepth: number;
  /** Characters of a field's full path. */
  readonly maxPathLength: number;
  /** Properties of one indexed object, the document itself included. */
  readonly maxObjectProperties: number;
  /** Indexed properties and array elements of a whole document. */
  readonly maxIndexedProperties: number;
  /** UTF-8 bytes of one indexed string (strings whose field is not indexed are not held to it). */
  readonly maxIndexedStringBytes: number;
  /** Elements of one indexed array. */
  readonly maxArrayLength: number;
  /** Dimension of a collection's vectors. */
  readonly maxVectorDimension: number;
  /** Documents read for an in-memory sort. */
  readonly maxSortCandidates: number;
  /** `limit` of a vector search. */
  readonly maxVectorSearchLimit: number;
  /** Documents `countDocuments` counts before answering `moreData: true`. */
  readonly maxCountDocuments: number;
  /** Documents one deleteMany request deletes (then `moreData: true`). */
  readonly maxDeleteManyDocuments: number;
  /** Comparisons in one filter. */
  readonly maxFilterClauses: number;
  /** Values of one `$in` / `$nin` / `$all`. */
  readonly maxInValues: number;
}

/** The seed's limits: the default preset. */
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

/**
 * The Data API server's defaults. Collections: the Data API's own default is 10 (DatabaseLimitsConfig), but
 * astra-db-ts's integration suite keeps more than 10 at once (its db tests alone create 8 next to the
 * prelude's), so this preset allows 50. The Data API has no per-value limit besides the indexed-string one:
 * a string whose field is not indexed may fill the document.
 */
export const DATA_API_LIMITS: Limits = Object.freeze({
  ...DEFAULT_LIMITS,
  maxCollections: 50,
  maxInsertManyDocuments: 100,
  pageSize: 50,
  maxAttributeValueBytes: Number.POSITIVE_INFINITY,
});

export type LimitsPreset = 'seed' | 'data-api';

export const LIMIT_PRESETS: Readonly<Record<LimitsPreset, Limits>> = Object.freeze({ seed: DEFAULT_LIMITS, 'data-api': DATA_API_LIMITS });

/** A preset name, or overrides on top of a preset (`seed` unless `preset` says otherwise). */
export type LimitsOption = LimitsPreset | (Partial<Limits> & { readonly preset?: LimitsPreset });

/** The preset a limits option starts from. */
export function presetOf(option: LimitsOption | undefined): LimitsPreset {
  const name = typeof option === 'string' ? option : (option?.preset ?? 'seed');
  if (!Object.hasOwn(LIMIT_PRESETS, name)) {
    throw new TypeError(`Unknown limits preset '${String(name)}': the presets are ${Object.keys(LIMIT_PRESETS).join(', ')}`);
  }
  return name;
}

/**
 * Resolves a limits option: the preset's values, then each override. An override is a positive integer,
 * or Infinity for no limit.
 */
export function resolveLimits(option: LimitsOption = {}): Limits {
  const merged: Record<string, number> = { ...LIMIT_PRESETS[presetOf(option)] };
  if (typeof option === 'string') return Object.freeze(merged as unknown as Limits);
  for (const [name, value] of Object.entries(option)) {
    if (name === 'preset' || value === undefined) continue;
    if (!(name in DEFAULT_LIMITS)) throw new TypeError(`Unknown limit '${name}': known limits are ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    if (typeof value !== 'number' || !(Number.isInteger(value) || value === Number.POSITIVE_INFINITY) || value <= 0) {
      throw new TypeError(`Limit '${name}' must be a positive integer (or Infinity for none), got ${String(value)}`);
    }
    merged[name] = value;
  }
  return Object.freeze(merged as unknown as Limits);
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isValidSchemaName(name: unknown, limits: Limits): name is string {
  return typeof name === 'string' && name.length <= limits.maxNameLength && SCHEMA_NAME.test(name);
}
