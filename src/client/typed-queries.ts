/**
 * Filters, updates, sorts and projections typed from a collection's document type `T`, as astra-db-ts's
 * Filter / StrictFilter / StrictUpdateFilter are. Loose (what the methods take): `T`'s dotted paths get their
 * value types, other paths are accepted as any value. Strict (on request: annotate or `satisfies`): only `T`'s
 * paths. For a schemaless collection (`JsonDocument`) every form is the plain object it always was. Types only.
 */
import type { JsonValue } from '../query/json.js';
import type { DataObject, DataValue, DocumentId, Vector } from './types.js';

type Leaf = string | number | boolean | bigint | null | undefined | Date | Float32Array | readonly unknown[];
/** Depth countdown: paths go at most 5 levels into nested objects. */
type Prev = [never, 0, 1, 2, 3, 4];

/** The union of [path, value type] of every dotted path of T. */
type PathEntries<T, D extends number = 5> = [D] extends [never]
  ? never
  : {
      [K in keyof T & string]-?: [K, T[K]] | (NonNullable<T[K]> extends Leaf ? never : Nested<K, PathEntries<NonNullable<T[K]>, Prev[D]>>);
    }[keyof T & string];
type Nested<K extends string, E> = E extends [infer P extends string, infer V] ? [`${K}.${P}`, V] : never;

/** Every dotted path of T with its value type: `{ name: string; 'dims.width': number }`. */
export type DotPaths<T> = { [P in PathEntries<T>[0]]: Extract<PathEntries<T>, [P, unknown]>[1] };

/** True for a schemaless document type (an index signature): its queries stay plain objects. */
type IsSchemaless<T> = string extends keyof T ? true : false;

/** A value a condition on a field of type V compares with: V itself, or an element of an array V. */
type Comparable<V> = NonNullable<V> extends readonly (infer E)[] ? NonNullable<V> | E : NonNullable<V>;
type ElementOf<V> = NonNullable<V> extends readonly (infer E)[] ? E : never;
type Paths<T> = PathEntries<T>[0] & string;
type ValueAt<T, P> = Extract<PathEntries<T>, [P, unknown]>[1];
type PathsWhere<T, Match> = { [P in Paths<T>]: NonNullable<ValueAt<T, P>> extends Match ? P : never }[Paths<T>];

/** The operators of one field's condition (type aliases, not interfaces, so they stay plain JSON objects). */
export type FieldOperators<V> = {
  $eq?: Comparable<V> | null;
  $ne?: Comparable<V> | null;
  $in?: readonly (Comparable<V> | null)[];
  $nin?: readonly (Comparable<V> | null)[];
  $gt?: Comparable<V>;
  $gte?: Comparable<V>;
  $lt?: Comparable<V>;
  $lte?: Comparable<V>;
  $exists?: boolean;
  $all?: readonly ElementOf<V>[];
  $size?: number;
  $not?: FieldOperators<V>;
};

/** A condition on a field of type V: a value (equality; an element for arrays), null, or operators. */
export type FieldCondition<V> = Comparable<V> | null | FieldOperators<V>;

/** Only T's paths, each with a condition of its type (plus `_id`, `$and`, `$or`, `$not`). */
export type StrictFilter<T> = { [P in Paths<T>]?: FieldCondition<ValueAt<T, P>> } & {
  _id?: FieldCondition<DocumentId>;
  $and?: StrictFilter<T>[];
  $or?: StrictFilter<T>[];
  $not?: StrictFilter<T>;
};

/** What the methods take: T's paths typed, any other path accepted; a plain object for a schemaless T. */
export type DocumentFilter<T> = IsSchemaless<T> extends true
  ? DataObject
  : { [P in Paths<T>]?: FieldCondition<ValueAt<T, P>> } & {
      _id?: FieldCondition<DocumentId>;
      $and?: DocumentFilter<T>[];
      $or?: DocumentFilter<T>[];
      $not?: DocumentFilter<T>;
    } & DataObject;

/** Update operators over T's paths: `$inc` only on numbers, `$push` only on arrays, and so on. */
export type StrictUpdateFilter<T> = {
  $set?: { [P in Paths<T>]?: ValueAt<T, P> } & { $vector?: Vector | null };
  $setOnInsert?: { [P in Paths<T>]?: ValueAt<T, P> } & { $vector?: Vector | null };
  $unset?: { [P in Paths<T>]?: '' | 1 | true } & { $vector?: '' | 1 | true };
  $inc?: { [P in PathsWhere<T, number>]?: number };
  $mul?: { [P in PathsWhere<T, number>]?: number };
  $min?: { [P in Paths<T>]?: ValueAt<T, P> };
  $max?: { [P in Paths<T>]?: ValueAt<T, P> };
  $rename?: { [P in Paths<T>]?: string };
  $push?: { [P in PathsWhere<T, readonly unknown[]>]?: ElementOf<ValueAt<T, P>> | { $each: readonly ElementOf<ValueAt<T, P>>[]; $position?: number } };
  $addToSet?: { [P in PathsWhere<T, readonly unknown[]>]?: ElementOf<ValueAt<T, P>> | { $each: readonly ElementOf<ValueAt<T, P>>[] } };
  $pop?: { [P in PathsWhere<T, readonly unknown[]>]?: 1 | -1 };
  $currentDate?: { [P in PathsWhere<T, Date>]?: true | { $type: 'date' } };
};

/**
 * Loosened: each operator also accepts paths T does not declare (with any value); T's paths keep their types,
 * and a path of T the operator does not apply to (`$inc` on a string) stays refused.
 */
type Loosen<U, T> = {
  [Op in keyof U]?: NonNullable<U[Op]> & { [P in Exclude<Paths<T>, keyof NonNullable<U[Op]>>]?: never } & { readonly [path: string]: DataValue | undefined };
};

/** What the update methods take: StrictUpdateFilter's operators, loosened; a plain object for a schemaless T. */
export type UpdateFilter<T> = IsSchemaless<T> extends true ? DataObject : Loosen<StrictUpdateFilter<T>, T>;

type SortValue = 1 | -1;
type VectorSort = { $vector?: Vector | { $binary: string }; $lexical?: string };

/** A sort over T's paths, a vector sort, or a lexical (BM25) sort. */
export type StrictSort<T> = { [P in Paths<T>]?: SortValue } & VectorSort;

/** What the methods take for a sort: T's paths as in StrictSort, other paths accepted. */
export type DocumentSort<T> = IsSchemaless<T> extends true
  ? Readonly<Record<string, SortValue | Vector | { $binary: string } | string>>
  : StrictSort<T> & { readonly [path: string]: SortValue | Vector | { $binary: string } | string | undefined };

type ProjectionValue = 0 | 1 | boolean | { $slice: number | [number, number] };

/** A projection over T's paths (plus `_id`, `$vector`, `$similarity` and `*`). */
export type StrictProjection<T> = { [P in Paths<T>]?: ProjectionValue } & { _id?: 0 | 1 | boolean; $vector?: 0 | 1 | boolean; $similarity?: 0 | 1 | boolean; '*'?: 0 | 1 };

/** What the methods take for a projection: StrictProjection's paths typed, other paths accepted. */
export type DocumentProjection<T> = IsSchemaless<T> extends true ? Record<string, JsonValue> : StrictProjection<T> & { readonly [path: string]: JsonValue | undefined };
