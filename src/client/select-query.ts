/**
 * SelectQuery: what find, findOne, findPage and findVector take. A plain object works; the immutable
 * builder (`SelectQuery.builder()`) checks each part as it is set and returns a new builder every call.
 */
import type { JsonObject } from '../query/json.js';
import { vectorArray, type JsonDocument } from './documents.js';
import type { DocumentProjection, DocumentSort } from './typed-queries.js';
import { conditionOn, filterJson, mergeFilters, type FilterCondition, type FilterLike } from './filter.js';
import type { DocumentId, Projection, Sort, Vector } from './types.js';
import { rejectUnknownMembers, toJson } from './wire.js';

/**
 * A find query as a plain object: its filter, projection, sort (a `$vector` sort is a similarity search),
 * limit, skip (with a regular sort only), pageState (of a previous page), includeSimilarity, and (ours,
 * with a `$vector` sort only) efSearch.
 * @example await products.find({ filter: { category: 'lighting' }, sort: { price: 1 }, limit: 10 }).toArray()
 */
export interface SelectQuery<T = JsonDocument> {
  filter?: FilterLike<T>;
  projection?: DocumentProjection<T>;
  sort?: DocumentSort<T>;
  limit?: number;
  skip?: number;
  pageState?: string;
  includeSimilarity?: boolean;
  /**
   * A vector search's HNSW candidate list size for this query, 1 to 4096 (default: the collection's
   * `vector.index.efSearch`, else 128). Higher finds the true nearest more often and costs more time; only
   * graph searches use it (small filtered sets are scanned exactly). Not a Data API option: vectordb-local's own.
   */
  efSearch?: number;
}

/** A SelectQuery or its builder: accepted wherever a query is. */
export type SelectQueryLike<T = JsonDocument> = SelectQuery<T> | SelectQueryBuilder;

/** Companion of the {@link SelectQuery} type: the builder and the seed's shortcut queries. */
export const SelectQuery = Object.freeze({
  /**
   * An empty query builder.
   * @example
   * const query = SelectQuery.builder().where('category').isEqualsTo('lighting').orderBy('price').limit(5).build();
   */
  builder(): SelectQueryBuilder {
    return new SelectQueryBuilder({});
  },
  /** The query `{ filter: { _id: id } }`. @example SelectQuery.findById('lamp') */
  findById(id: DocumentId): SelectQuery {
    return SelectQuery.builder().where('_id').isEqualsTo(id).build();
  },
  /** The nearest documents to a vector. @example SelectQuery.findByVector([0.9, 0.1, 0.1]) */
  findByVector(vector: Vector): SelectQuery {
    return SelectQuery.builder().orderByVector(vector).build();
  },
  /** The documents matching a filter. @example SelectQuery.findWithFilter(Filter.where('price').isLessThan(30)) */
  findWithFilter(filter: FilterLike): SelectQuery {
    return SelectQuery.builder().filter(filter).build();
  },
});

/** Builds a {@link SelectQuery}; immutable (each call returns a new builder). */
export class SelectQueryBuilder {
  readonly #query: Readonly<SelectQuery>;

  /** @internal use {@link SelectQuery.builder} */
  constructor(query: SelectQuery = {}) {
    this.#query = Object.freeze(query);
  }

  #with(part: SelectQuery): SelectQueryBuilder {
    return new SelectQueryBuilder({ ...this.#query, ...part });
  }

  /** Adds the conditions of a filter (a Filter or a plain object). @example SelectQuery.builder().filter({ color: 'red' }) */
  filter(filter: FilterLike): SelectQueryBuilder {
    return this.#with({ filter: mergeFilters(this.#query.filter, filter) });
  }

  /** Adds a condition on a path. @example SelectQuery.builder().where('price').isLessThan(30).where('stock').isGreaterThan(0) */
  where(path: string): FilterCondition<SelectQueryBuilder> {
    return conditionOn(this.#query.filter, path, (filter) => this.#with({ filter }));
  }

  /** Returns only these fields (and `_id`). @example SelectQuery.builder().select('name', 'price') */
  select(...fields: string[]): SelectQueryBuilder {
    return this.#with({ projection: { ...this.#query.projection, ...Object.fromEntries(fields.map((f) => [f, 1])) } });
  }

  /** Returns every field but these. @example SelectQuery.builder().exclude('body') */
  exclude(...fields: string[]): SelectQueryBuilder {
    return this.#with({ projection: { ...this.#query.projection, ...Object.fromEntries(fields.map((f) => [f, 0])) } });
  }

  /** Sets the whole projection. @example SelectQuery.builder().projection({ name: 1, 'address.city': 1 }) */
  projection(projection: Projection): SelectQueryBuilder {
    return this.#with({ projection: { ...projection } });
  }

  /** Also returns `$vector` (not returned by default). @example SelectQuery.builder().select('name').includeVector() */
  includeVector(): SelectQueryBuilder {
    const projection = this.#query.projection;
    return this.#with({ projection: projection === undefined || Object.keys(projection).length === 0 ? { '*': 1 } : { ...projection, $vector: 1 } });
  }

  /** Sorts by a field, ascending (1) or descending (-1); calls add keys. @example SelectQuery.builder().orderBy('price', -1).orderBy('name') */
  orderBy(path: string, direction: 1 | -1 = 1): SelectQueryBuilder {
    if (direction !== 1 && direction !== -1) throw new TypeError('orderBy: direction must be 1 or -1');
    const sort = this.#query.sort && '$vector' in this.#query.sort ? {} : this.#query.sort;
    return this.#with({ sort: { ...sort, [path]: direction } });
  }

  /** Similarity search: nearest to this vector first (replaces any sort). @example SelectQuery.builder().orderByVector([0.9, 0.1, 0.1]).limit(3) */
  orderByVector(vector: Vector): SelectQueryBuilder {
    return this.#with({ sort: { $vector: vectorArray(vector) } });
  }

  /** At most this many results (a vector search returns at most 1000). @example SelectQuery.builder().limit(5) */
  limit(limit: number): SelectQueryBuilder {
    return this.#with({ limit: positiveInteger('limit', limit, 1) });
  }

  /** Skips this many results (with a regular sort only). @example SelectQuery.builder().orderBy('price').skip(10) */
  skip(skip: number): SelectQueryBuilder {
    return this.#with({ skip: positiveInteger('skip', skip, 0) });
  }

  /** Continues after a page: the `pageState` of that page (null starts over). @example SelectQuery.builder().pageState(page.pageState) */
  pageState(pageState: string | null): SelectQueryBuilder {
    const next: SelectQuery = { ...this.#query };
    delete next.pageState;
    if (pageState !== null) next.pageState = pageState;
    return new SelectQueryBuilder(next);
  }

  /** Adds `$similarity` to each result of a vector search. @example SelectQuery.builder().orderByVector(v).includeSimilarity() */
  includeSimilarity(include = true): SelectQueryBuilder {
    return this.#with({ includeSimilarity: include });
  }

  /** The HNSW candidate list size of this vector search (see {@link SelectQuery.efSearch}). @example SelectQuery.builder().orderByVector(v).efSearch(40) */
  efSearch(efSearch: number): SelectQueryBuilder {
    return this.#with({ efSearch: positiveInteger('efSearch', efSearch, 1) });
  }

  /** The query (frozen). @example const query = SelectQuery.builder().limit(5).build(); // { limit: 5 } */
  build(): SelectQuery {
    return Object.freeze({ ...this.#query });
  }
}

/** The query of a SelectQuery argument. @internal */
export function selectQueryOf(query: SelectQueryLike | undefined): SelectQuery {
  if (query === undefined || query === null) return {};
  if (query instanceof SelectQueryBuilder) return query.build();
  if (typeof query !== 'object' || Array.isArray(query)) throw new TypeError('query must be a SelectQuery object or builder');
  rejectUnknownMembers(query, SELECT_QUERY_KEYS, 'a SelectQuery');
  return query;
}

const SELECT_QUERY_KEYS: ReadonlySet<keyof SelectQuery> = new Set(['filter', 'projection', 'sort', 'limit', 'skip', 'pageState', 'includeSimilarity', 'efSearch']);

/** The filter, projection and sort parts of a command. @internal */
export function queryParts(query: { filter?: FilterLike | undefined; projection?: Projection | undefined; sort?: Sort | undefined }): JsonObject {
  const parts: JsonObject = {};
  if (query.filter !== undefined) parts.filter = filterJson(query.filter);
  if (query.projection !== undefined) parts.projection = toJson(query.projection, 'projection');
  if (query.sort !== undefined) parts.sort = toJson(query.sort, 'sort');
  return parts;
}

/** True when the query sorts by `$vector`. @internal */
export function isVectorSort(sort: Sort | undefined): boolean {
  return sort !== undefined && '$vector' in sort;
}

function positiveInteger(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new TypeError(`${name} must be an integer of at least ${min}, got ${String(value)}`);
  return value;
}
