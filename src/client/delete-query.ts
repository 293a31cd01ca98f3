/**
 * DeleteQuery: a filter and a sort (which document deleteOne removes first). Made by the builder or by
 * `DeleteQuery.of/deleteById/deleteByVector`; deleteOne, deleteMany and findOneAndDelete also take a
 * plain filter object as their first argument (a plain object there is always the filter).
 */
import { vectorArray } from './documents.js';
import { Filter, conditionOn, mergeFilters, type FilterCondition, type FilterLike } from './filter.js';
import type { DocumentId, Sort, Vector } from './types.js';

const DELETE_QUERY: unique symbol = Symbol('vectordb-local.DeleteQuery');

/**
 * A delete query.
 * @example await products.deleteOne(DeleteQuery.deleteByVector([0.9, 0.1, 0.1])) // the nearest document
 */
export interface DeleteQuery {
  readonly filter?: FilterLike;
  readonly sort?: Sort;
}

/** A DeleteQuery or its builder. */
export type DeleteQueryLike = DeleteQuery | DeleteQueryBuilder;

/** Companion of the {@link DeleteQuery} type. */
export const DeleteQuery = Object.freeze({
  /** An empty builder. @example DeleteQuery.builder().where('stock').isEqualsTo(0).build() */
  builder(): DeleteQueryBuilder {
    return new DeleteQueryBuilder({});
  },
  /** A delete query from a plain `{ filter, sort }` object. @example DeleteQuery.of({ filter: { color: 'red' }, sort: { price: 1 } }) */
  of(query: DeleteQuery): DeleteQuery {
    return brand({ ...query });
  },
  /** The document with this id. @example DeleteQuery.deleteById('lamp') */
  deleteById(id: DocumentId): DeleteQuery {
    return brand({ filter: Filter.findById(id) });
  },
  /** The document nearest to a vector. @example DeleteQuery.deleteByVector([0.9, 0.1, 0.1]) */
  deleteByVector(vector: Vector): DeleteQuery {
    return brand({ sort: { $vector: vectorArray(vector) } });
  },
});

/** Builds a {@link DeleteQuery}; immutable. */
export class DeleteQueryBuilder {
  readonly #query: Readonly<DeleteQuery>;

  /** @internal use {@link DeleteQuery.builder} */
  constructor(query: DeleteQuery = {}) {
    this.#query = Object.freeze(query);
  }

  /** Adds the conditions of a filter. @example DeleteQuery.builder().filter({ color: 'red' }) */
  filter(filter: FilterLike): DeleteQueryBuilder {
    return new DeleteQueryBuilder({ ...this.#query, filter: mergeFilters(this.#query.filter, filter) });
  }

  /** Adds a condition on a path. @example DeleteQuery.builder().where('stock').isEqualsTo(0) */
  where(path: string): FilterCondition<DeleteQueryBuilder> {
    return conditionOn(this.#query.filter, path, (filter) => new DeleteQueryBuilder({ ...this.#query, filter }));
  }

  /** Which matching document deleteOne removes first. @example DeleteQuery.builder().orderBy('price', -1) */
  orderBy(path: string, direction: 1 | -1 = 1): DeleteQueryBuilder {
    const sort = this.#query.sort && '$vector' in this.#query.sort ? {} : this.#query.sort;
    return new DeleteQueryBuilder({ ...this.#query, sort: { ...sort, [path]: direction } });
  }

  /** deleteOne removes the matching document nearest to this vector. @example DeleteQuery.builder().orderByVector([1, 0, 0]) */
  orderByVector(vector: Vector): DeleteQueryBuilder {
    return new DeleteQueryBuilder({ ...this.#query, sort: { $vector: vectorArray(vector) } });
  }

  /** The query (frozen). @example await products.deleteOne(DeleteQuery.builder().orderBy('price').build()); */
  build(): DeleteQuery {
    return brand({ ...this.#query });
  }
}

/**
 * The delete query of a first argument: a built DeleteQuery or builder as is, anything else (a Filter or
 * a plain object) as the filter. @internal
 */
export function deleteQueryOf(query: FilterLike | DeleteQueryLike | undefined): DeleteQuery {
  if (query instanceof DeleteQueryBuilder) return query.build();
  if (query !== undefined && query !== null && typeof query === 'object' && DELETE_QUERY in query) return query as DeleteQuery;
  return { filter: (query ?? {}) as FilterLike };
}

function brand(query: { -readonly [K in keyof DeleteQuery]: DeleteQuery[K] }): DeleteQuery {
  Object.defineProperty(query, DELETE_QUERY, { value: true });
  return Object.freeze(query);
}
