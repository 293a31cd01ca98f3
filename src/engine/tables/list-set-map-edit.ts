/**
 * `$push` and `$pullAll` on list, set and map columns, as CQL's `l = l + [...]` and `l = l - [...]`: pushed
 * elements are coerced to the column's element type and appended (a list), added (a set, kept sorted and
 * unique) or put (a map, a pushed key replacing its entry); pulled elements (map keys) are removed everywhere.
 * Works on stored values only: the caller coerces nothing. An empty result is no value, as in CQL.
 */
import type { JsonValue } from '../../query/json.js';
import { storedKey } from './filter.js';
import type { ColumnType, TypeLookup } from './schema.js';
import { ValueProblem, coerceValue } from './values.js';

export type CollectionColumn = Extract<ColumnType, { type: 'list' | 'set' | 'map' }>;

/** `before` with `items` pushed (elements, or `[key, value]` pairs for a map); null when empty. */
export function pushToCollection(before: JsonValue | undefined, type: CollectionColumn, items: readonly JsonValue[], types: TypeLookup): JsonValue | null {
  const current = (before ?? []) as JsonValue[];
  if (type.type === 'list') {
    const pushed = coerceValue(items as JsonValue[], type, types) as JsonValue[] | null;
    return nullIfEmpty([...current, ...(pushed ?? [])]);
  }
  // A set or map: the pushed part coerced on its own (sorted, unique), then merged by key, the pushed winning.
  const pushed = (coerceValue(type.type === 'map' ? (items.length === 0 ? {} : (items as JsonValue[])) : (items as JsonValue[]), type, types) ?? []) as JsonValue[];
  const keyType = type.type === 'map' ? type.keyType : type.valueType;
  const keyOf = (item: JsonValue): string => storedKey(type.type === 'map' ? (item as JsonValue[])[0]! : item, keyType);
  const merged = new Map<string, JsonValue>();
  for (const item of [...current, ...pushed]) merged.set(keyOf(item), item);
  return nullIfEmpty([...merged.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, item]) => item));
}

/** `before` without every element equal to one of `items` (for a map: without the entries of those keys). */
export function pullFromCollection(before: JsonValue | undefined, type: CollectionColumn, items: readonly JsonValue[], types: TypeLookup): JsonValue | null {
  const elementType = type.type === 'map' ? type.keyType : type.valueType;
  const pulled = new Set(
    items.map((item) => {
      const stored = coerceValue(item, elementType, types);
      if (stored === null) throw new ValueProblem('$pullAll cannot remove null');
      return storedKey(stored, elementType);
    }),
  );
  const current = (before ?? []) as JsonValue[];
  return nullIfEmpty(current.filter((item) => !pulled.has(storedKey(type.type === 'map' ? (item as JsonValue[])[0]! : item, elementType))));
}

function nullIfEmpty(items: JsonValue[]): JsonValue[] | null {
  return items.length === 0 ? null : items;
}
