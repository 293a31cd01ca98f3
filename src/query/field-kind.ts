/**
 * The kind of value a document's top-level field holds, as the collections' field record keeps it
 * (engine/collections/field-kinds.ts) and `findCollectionFields` returns it; the GraphQL layer turns kinds into
 * types (graphql/field-model.ts). Pure: one value in, one kind out. These names are stored: never change one.
 */
import { ejsonKeyOf, isObject, type JsonValue } from './json.js';

export const FIELD_KINDS = [
  'string',
  'number',
  'boolean',
  'object',
  'ejson',
  'exact-number',
  'vector',
  'list-of-string',
  'list-of-number',
  'list-of-boolean',
  'empty-list',
  'mixed-list',
] as const;

/**
 * `number` is a double (a bigint or decimal no double names is `exact-number`); `ejson` a `$date`, `$uuid`,
 * `$objectId` or `$binary` wrapper; `vector` a `$vector` sent as numbers (one sent as `$binary`, an object with
 * a `$binary` member whether as sent or as stored, is `ejson`: it reads back in that form); a list's kind is that of its non-null elements when
 * they are all strings, all doubles or all booleans (`empty-list` when it has none), else `mixed-list`.
 */
export type FieldKind = (typeof FIELD_KINDS)[number];

/** The kind of a non-null top-level value under `name`. */
export function fieldKindOf(name: string, value: JsonValue): FieldKind {
  if (name === '$vector') return isObject(value) && '$binary' in value ? 'ejson' : 'vector';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'bigint':
      return 'exact-number';
  }
  if (Array.isArray(value)) return listKindOf(value);
  if (!isObject(value)) return 'exact-number';
  return ejsonKeyOf(value) === undefined ? 'object' : 'ejson';
}

function listKindOf(list: readonly JsonValue[]): FieldKind {
  let only: 'string' | 'number' | 'boolean' | undefined;
  for (const element of list) {
    if (element === null) continue;
    const type = typeof element;
    if (type !== 'string' && type !== 'number' && type !== 'boolean') return 'mixed-list';
    if (only === undefined) only = type;
    else if (only !== type) return 'mixed-list';
  }
  return only === undefined ? 'empty-list' : `list-of-${only}`;
}

export function isFieldKind(value: unknown): value is FieldKind {
  return typeof value === 'string' && (FIELD_KINDS as readonly string[]).includes(value);
}
