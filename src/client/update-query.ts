/**
 * UpdateQuery: what updateOne, updateMany, findOneAndUpdate and findOneAndReplace take in one object
 * (filter, update operators or a replacement, sort, projection, upsert, returnDocument). A plain object
 * works; the immutable builder has a method per update operator and accumulates them.
 */
import { Document, documentJson, vectorArray } from './documents.js';
import { conditionOn, mergeFilters, type FilterCondition, type FilterLike } from './filter.js';
import type { DataObject, DataValue, Projection, ReturnDocument, Sort, Vector } from './types.js';
import { rejectUnknownMembers } from './wire.js';

/** Update operators as a plain object: `{ $set: { price: 20 }, $inc: { stock: -1 } }` (Dates allowed). */
export type UpdateObject = DataObject;

/**
 * An update or replace query as a plain object.
 * @example await products.updateOne({ filter: { _id: 'lamp' }, update: { $set: { price: 20 } }, upsert: true })
 */
export interface UpdateQuery {
  filter?: FilterLike;
  /** Update operators (updateOne, updateMany, findOneAndUpdate). */
  update?: UpdateObject;
  /** The whole new document (findOneAndReplace). */
  replacement?: DataObject | Document<unknown>;
  sort?: Sort;
  /** Fields of the returned document (findOneAnd...). */
  projection?: Projection;
  /** Insert when nothing matches. */
  upsert?: boolean;
  /** Return the document as it was `'before'` (default) or is `'after'` the change (findOneAnd...). */
  returnDocument?: ReturnDocument;
}

/** An UpdateQuery or its builder. */
export type UpdateQueryLike = UpdateQuery | UpdateQueryBuilder;

/** Companion of the {@link UpdateQuery} type. */
export const UpdateQuery = Object.freeze({
  /**
   * An empty update builder.
   * @example
   * const query = UpdateQuery.builder().where('_id').isEqualsTo('lamp').set('price', 20).inc('sold', 1).upsert().build();
   */
  builder(): UpdateQueryBuilder {
    return new UpdateQueryBuilder({});
  },
});

type Operator = '$set' | '$setOnInsert' | '$unset' | '$inc' | '$mul' | '$min' | '$max' | '$push' | '$pop' | '$addToSet' | '$rename' | '$currentDate';

/** Builds an {@link UpdateQuery}; immutable (each call returns a new builder); operators accumulate. */
export class UpdateQueryBuilder {
  readonly #query: Readonly<UpdateQuery>;

  /** @internal use {@link UpdateQuery.builder} */
  constructor(query: UpdateQuery = {}) {
    this.#query = Object.freeze(query);
  }

  #with(part: UpdateQuery): UpdateQueryBuilder {
    return new UpdateQueryBuilder({ ...this.#query, ...part });
  }

  #operator(operator: Operator, entries: Record<string, DataValue>): UpdateQueryBuilder {
    const update = (this.#query.update ?? {}) as Record<string, DataObject | undefined>;
    return this.#with({ update: { ...update, [operator]: { ...update[operator], ...entries } } });
  }

  /** Adds the conditions of a filter. @example UpdateQuery.builder().filter({ category: 'lighting' }) */
  filter(filter: FilterLike): UpdateQueryBuilder {
    return this.#with({ filter: mergeFilters(this.#query.filter, filter) });
  }

  /** Adds a condition on a path. @example UpdateQuery.builder().where('stock').isLessThan(5) */
  where(path: string): FilterCondition<UpdateQueryBuilder> {
    return conditionOn(this.#query.filter, path, (filter) => this.#with({ filter }));
  }

  /** `$set` one field, or several from an object. @example UpdateQuery.builder().set('price', 20).set({ color: 'red' }) */
  set(path: string | DataObject, value?: DataValue): UpdateQueryBuilder {
    return this.#operator('$set', entriesOf('set', path, value));
  }

  /** `$setOnInsert`: set only when an upsert inserts. @example UpdateQuery.builder().setOnInsert('created', new Date()).upsert() */
  setOnInsert(path: string | DataObject, value?: DataValue): UpdateQueryBuilder {
    return this.#operator('$setOnInsert', entriesOf('setOnInsert', path, value));
  }

  /** `$unset`: removes fields. @example UpdateQuery.builder().unset('discount', 'note') */
  unset(...paths: string[]): UpdateQueryBuilder {
    return this.#operator('$unset', Object.fromEntries(paths.map((p) => [p, ''])));
  }

  /** `$inc`: adds to a number (default 1). @example UpdateQuery.builder().inc('sold').inc('stock', -1) */
  inc(path: string, by = 1): UpdateQueryBuilder {
    return this.#operator('$inc', { [path]: number('inc', by) });
  }

  /** `$mul`: multiplies a number. @example UpdateQuery.builder().mul('price', 0.9) */
  mul(path: string, by: number): UpdateQueryBuilder {
    return this.#operator('$mul', { [path]: number('mul', by) });
  }

  /** `$min`: sets the value if lower than the current one. @example UpdateQuery.builder().min('lowest', 3) */
  min(path: string, value: DataValue): UpdateQueryBuilder {
    return this.#operator('$min', { [path]: value });
  }

  /** `$max`: sets the value if greater than the current one. @example UpdateQuery.builder().max('lastSeen', new Date()) */
  max(path: string, value: DataValue): UpdateQueryBuilder {
    return this.#operator('$max', { [path]: value });
  }

  /** `$push`: appends to an array. @example UpdateQuery.builder().push('tags', 'sale') */
  push(path: string, value: DataValue): UpdateQueryBuilder {
    return this.#operator('$push', { [path]: value });
  }

  /** `$push` with `$each` (and `$position`): appends (or inserts) several values. @example UpdateQuery.builder().pushEach('tags', ['a', 'b'], 0) */
  pushEach(path: string, values: readonly DataValue[], position?: number): UpdateQueryBuilder {
    const modifier: DataObject = position === undefined ? { $each: values } : { $each: values, $position: position };
    return this.#operator('$push', { [path]: modifier });
  }

  /** `$pop`: removes the last (1, default) or first (-1) element of an array. @example UpdateQuery.builder().pop('queue', -1) */
  pop(path: string, end: 1 | -1 = 1): UpdateQueryBuilder {
    return this.#operator('$pop', { [path]: end });
  }

  /** `$addToSet`: appends unless already present. @example UpdateQuery.builder().addToSet('tags', 'sale') */
  addToSet(path: string, value: DataValue): UpdateQueryBuilder {
    return this.#operator('$addToSet', { [path]: value });
  }

  /** `$addToSet` with `$each`. @example UpdateQuery.builder().addToSetEach('tags', ['a', 'b']) */
  addToSetEach(path: string, values: readonly DataValue[]): UpdateQueryBuilder {
    return this.#operator('$addToSet', { [path]: { $each: values } });
  }

  /** `$rename`: one field, or several from a map of old to new names. @example UpdateQuery.builder().rename('colour', 'color') */
  rename(from: string | Readonly<Record<string, string>>, to?: string): UpdateQueryBuilder {
    return this.#operator('$rename', entriesOf('rename', from, to) as Record<string, string>);
  }

  /** `$currentDate`: sets fields to the time of the update. @example UpdateQuery.builder().currentDate('updated') */
  currentDate(...paths: string[]): UpdateQueryBuilder {
    return this.#operator('$currentDate', Object.fromEntries(paths.map((p) => [p, true])));
  }

  /** The replacement document of findOneAndReplace. @example UpdateQuery.builder().where('_id').isEqualsTo('lamp').replaceBy({ name: 'Lamp', price: 20 }) */
  replaceBy(document: DataObject | Document<unknown>): UpdateQueryBuilder {
    return this.#with({ replacement: document instanceof Document ? document : documentJson(document, 'replacement') });
  }

  /** Which matching document comes first. @example UpdateQuery.builder().orderBy('price', -1) */
  orderBy(path: string, direction: 1 | -1 = 1): UpdateQueryBuilder {
    const sort = this.#query.sort && '$vector' in this.#query.sort ? {} : this.#query.sort;
    return this.#with({ sort: { ...sort, [path]: direction } });
  }

  /** The matching document nearest to a vector comes first. @example UpdateQuery.builder().orderByVector([0.9, 0.1, 0.1]).set('seen', true) */
  orderByVector(vector: Vector): UpdateQueryBuilder {
    return this.#with({ sort: { $vector: vectorArray(vector) } });
  }

  /** Fields of the returned document (findOneAnd...). @example UpdateQuery.builder().projection({ price: 1 }) */
  projection(projection: Projection): UpdateQueryBuilder {
    return this.#with({ projection: { ...projection } });
  }

  /** Inserts when nothing matches. @example UpdateQuery.builder().where('_id').isEqualsTo('new').set('a', 1).upsert() */
  upsert(upsert = true): UpdateQueryBuilder {
    return this.#with({ upsert });
  }

  /** Which version findOneAnd... returns. @example UpdateQuery.builder().inc('n').returnDocument('after') */
  returnDocument(which: ReturnDocument): UpdateQueryBuilder {
    if (which !== 'before' && which !== 'after') throw new TypeError("returnDocument must be 'before' or 'after'");
    return this.#with({ returnDocument: which });
  }

  /** The query (frozen). @example const query = UpdateQuery.builder().set('a', 1).build(); // { update: { $set: { a: 1 } } } */
  build(): UpdateQuery {
    return Object.freeze({ ...this.#query });
  }
}

/** The query of an UpdateQuery argument. @internal */
export function updateQueryOf(query: UpdateQueryLike): UpdateQuery {
  if (query instanceof UpdateQueryBuilder) return query.build();
  if (query === null || typeof query !== 'object' || Array.isArray(query)) throw new TypeError('query must be an UpdateQuery object or builder');
  rejectUnknownMembers(query, UPDATE_QUERY_KEYS, 'an UpdateQuery');
  return query;
}

const UPDATE_QUERY_KEYS: ReadonlySet<keyof UpdateQuery> = new Set(['filter', 'update', 'replacement', 'sort', 'projection', 'upsert', 'returnDocument']);

function entriesOf(method: string, path: string | Readonly<Record<string, DataValue | undefined>>, value: DataValue | undefined): Record<string, DataValue> {
  if (typeof path === 'string') {
    if (value === undefined) throw new TypeError(`${method}('${path}', value): value is missing`);
    return { [path]: value };
  }
  if (path === null || typeof path !== 'object') throw new TypeError(`${method}: pass a path and a value, or an object`);
  return Object.fromEntries(Object.entries(path).filter(([, v]) => v !== undefined)) as Record<string, DataValue>;
}

function number(method: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${method}: pass a finite number`);
  return value;
}
