/**
 * Collection definitions: the similarity metrics, the `CollectionDefinition` shape createCollection takes
 * and findCollectionByName returns, and its immutable builder.
 */

/** How vectors are compared: `cosine` (default), `euclidean` or `dot_product`. Fixed at creation. */
export type SimilarityMetric = 'cosine' | 'euclidean' | 'dot_product';

/** Companion of the {@link SimilarityMetric} type. @example db.createCollection('products', 3, SimilarityMetric.DOT_PRODUCT) */
export const SimilarityMetric = Object.freeze({
  COSINE: 'cosine',
  EUCLIDEAN: 'euclidean',
  DOT_PRODUCT: 'dot_product',
} as const);

/** Tuning of a collection's HNSW index (see the vector search docs for what each trades). */
export interface VectorIndexOptions {
  m?: number;
  efConstruction?: number;
  efSearch?: number;
  /**
   * How the exact-scan copy of the vectors is held in memory: float32 (`'none'`, the default), or one byte a
   * dimension (`'int8'`), ranked on the codes and rescored exactly from the stored vectors. Fixed at creation.
   * @example .vectorIndex({ quantization: 'int8' })
   */
  quantization?: 'none' | 'int8';
}

/** A collection's name and options, as createCollection takes them and findAllCollections lists them. */
export interface CollectionDefinition {
  name: string;
  options?: {
    vector?: { dimension: number; metric?: SimilarityMetric; sourceModel?: string; index?: VectorIndexOptions };
    indexing?: { allow: string[] } | { deny: string[] };
    defaultId?: { type: 'uuid' | 'uuidv6' | 'uuidv7' | 'objectId' };
  };
}

/** Companion of the {@link CollectionDefinition} type. */
export const CollectionDefinition = Object.freeze({
  /**
   * An empty definition builder.
   * @example
   * const definition = CollectionDefinition.builder().name('products').vector(3, 'cosine').indexingDeny('body').build();
   * await db.createCollection(definition);
   */
  builder(): CollectionDefinitionBuilder {
    return new CollectionDefinitionBuilder({ name: '' });
  },
});

type Options = NonNullable<CollectionDefinition['options']>;

/** Builds a {@link CollectionDefinition}; immutable (each call returns a new builder). */
export class CollectionDefinitionBuilder {
  readonly #definition: Readonly<CollectionDefinition>;

  /** @internal use {@link CollectionDefinition.builder} */
  constructor(definition: CollectionDefinition = { name: '' }) {
    this.#definition = Object.freeze(definition);
  }

  #options(options: Options): CollectionDefinitionBuilder {
    return new CollectionDefinitionBuilder({ ...this.#definition, options: { ...this.#definition.options, ...options } });
  }

  #vector(): NonNullable<Options['vector']> | undefined {
    return this.#definition.options?.vector;
  }

  /** The collection's name (letters, digits, `_`). @example CollectionDefinition.builder().name('products') */
  name(name: string): CollectionDefinitionBuilder {
    return new CollectionDefinitionBuilder({ ...this.#definition, name });
  }

  /** Vectors of this dimension, compared by this metric (default cosine). @example .vector(1536, 'dot_product') */
  vector(dimension: number, metric: SimilarityMetric = 'cosine'): CollectionDefinitionBuilder {
    return this.#options({ vector: { ...this.#vector(), dimension: dimensionOf(dimension), metric } });
  }

  /** The vector dimension (metric stays, or cosine). @example .vectorDimension(3) */
  vectorDimension(dimension: number): CollectionDefinitionBuilder {
    return this.#options({ vector: { metric: 'cosine', ...this.#vector(), dimension: dimensionOf(dimension) } });
  }

  /** The similarity metric; needs a dimension before build. @example .similarityMetric(SimilarityMetric.EUCLIDEAN) */
  similarityMetric(metric: SimilarityMetric): CollectionDefinitionBuilder {
    return this.#options({ vector: { dimension: 0, ...this.#vector(), metric } });
  }

  /** HNSW tuning of the vector index. @example .vectorIndex({ m: 32, efSearch: 100 }) */
  vectorIndex(index: VectorIndexOptions): CollectionDefinitionBuilder {
    return this.#options({ vector: { dimension: 0, ...this.#vector(), index: { ...index } } });
  }

  /** Fields not indexed (cannot be filtered on); excludes indexingAllow. @example .indexingDeny('body', 'raw') */
  indexingDeny(...fields: string[]): CollectionDefinitionBuilder {
    if (this.#definition.options?.indexing && 'allow' in this.#definition.options.indexing) throw new TypeError("'indexing.deny' and 'indexing.allow' are mutually exclusive");
    return this.#options({ indexing: { deny: fields } });
  }

  /** Only these fields are indexed; excludes indexingDeny. @example .indexingAllow('category', 'price') */
  indexingAllow(...fields: string[]): CollectionDefinitionBuilder {
    if (this.#definition.options?.indexing && 'deny' in this.#definition.options.indexing) throw new TypeError("'indexing.deny' and 'indexing.allow' are mutually exclusive");
    return this.#options({ indexing: { allow: fields } });
  }

  /** The type of ids the database generates. @example .defaultId('uuidv7') */
  defaultId(type: 'uuid' | 'uuidv6' | 'uuidv7' | 'objectId'): CollectionDefinitionBuilder {
    return this.#options({ defaultId: { type } });
  }

  /**
   * The definition; throws a TypeError without a name, or with a metric but no dimension.
   * @example const definition = CollectionDefinition.builder().name('notes').build(); // { name: 'notes' }
   */
  build(): CollectionDefinition {
    if (!this.#definition.name) throw new TypeError('CollectionDefinition: name(...) is required');
    if (this.#definition.options?.vector?.dimension === 0) throw new TypeError('CollectionDefinition: set vectorDimension(...) or vector(...) too');
    return structuredClone(this.#definition) as CollectionDefinition;
  }
}

function dimensionOf(dimension: number): number {
  if (!Number.isInteger(dimension) || dimension < 1) throw new TypeError(`vector dimension must be a positive integer, got ${String(dimension)}`);
  return dimension;
}
