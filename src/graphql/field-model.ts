/**
 * What GraphQL type each document field gets, from the kinds of value it has held (query/field-kind.ts): the
 * engine's field record (`findCollectionFields`), or, against a server without that command, documents seen.
 * Strings, doubles and booleans keep their scalar, lists of one of them become lists, `$vector` sent as numbers
 * is `[Float!]`, anything else (objects, EJSON values, exact numbers, empty or mixed lists, a field seen with two
 * types) is widened to JSON with a warning. A model only ever widens: a field once exposed stays.
 */
import { fieldKindOf, isFieldKind, type FieldKind } from '../query/field-kind.js';
import type { JsonObject } from '../query/json.js';

export type FieldType = 'String' | 'Float' | 'Boolean' | '[String]' | '[Float]' | '[Boolean]' | 'Vector' | 'JSON';

export interface FieldInfo {
  readonly type: FieldType;
  /** Why the field is JSON, when it was widened. */
  readonly widened?: string;
}

/** The fields of one collection, by database name (`_id` excluded: it is always `ID!`). */
export class FieldModel {
  readonly #fields = new Map<string, FieldInfo>();

  /** The model of an engine's field record (path -> kinds held); kinds this build does not know are JSON. */
  static fromRecord(record: Readonly<Record<string, readonly string[]>>): FieldModel {
    const model = new FieldModel();
    for (const [name, kinds] of Object.entries(record)) {
      for (const kind of kinds) model.#widen(name, isFieldKind(kind) ? typeOfKind(kind) : { type: 'JSON', widened: `values of kind '${kind}'` });
    }
    return model;
  }

  get size(): number {
    return this.#fields.size;
  }

  entries(): [string, FieldInfo][] {
    return [...this.#fields.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Adds what a document shows; true when a field was added or widened (the schema must be rebuilt). */
  observe(doc: JsonObject): boolean {
    let changed = false;
    for (const [name, value] of Object.entries(doc)) {
      if (name === '_id' || name === '$similarity' || value === null) continue;
      if (this.#widen(name, typeOfKind(fieldKindOf(name, value)))) changed = true;
    }
    return changed;
  }

  #widen(name: string, seen: FieldInfo): boolean {
    const known = this.#fields.get(name);
    if (known === undefined) {
      this.#fields.set(name, seen);
      return true;
    }
    if (known.type === seen.type || known.type === 'JSON') return false;
    this.#fields.set(name, { type: 'JSON', widened: `seen both as ${known.type} and as ${seen.type}` });
    return true;
  }
}

/** The GraphQL type of each kind of value (query/field-kind.ts); JSON says why. */
const TYPE_OF_KIND: Readonly<Record<FieldKind, FieldInfo>> = {
  string: { type: 'String' },
  number: { type: 'Float' },
  boolean: { type: 'Boolean' },
  vector: { type: 'Vector' },
  'list-of-string': { type: '[String]' },
  'list-of-number': { type: '[Float]' },
  'list-of-boolean': { type: '[Boolean]' },
  'empty-list': { type: 'JSON', widened: 'an empty list has no element type' },
  'mixed-list': { type: 'JSON', widened: 'a list of objects, lists or mixed types' },
  object: { type: 'JSON', widened: 'a nested object' },
  ejson: { type: 'JSON', widened: 'a $date, $uuid, $objectId or $binary value' },
  'exact-number': { type: 'JSON', widened: 'a number no double holds exactly' },
};

function typeOfKind(kind: FieldKind): FieldInfo {
  return TYPE_OF_KIND[kind];
}
