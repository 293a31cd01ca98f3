/**
 * What GraphQL type each document field gets, inferred from sampled documents: strings, numbers and booleans
 * keep their scalar, arrays of one scalar become lists, `$vector` is `[Float!]`, anything else (objects,
 * mixed types) is widened to JSON with a warning. A model only ever widens: a field once exposed stays.
 */
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';

export type FieldType = 'String' | 'Float' | 'Boolean' | '[String]' | '[Float]' | '[Boolean]' | 'Vector' | 'JSON';

export interface FieldInfo {
  readonly type: FieldType;
  /** Why the field is JSON, when it was widened. */
  readonly widened?: string;
}

/** The fields of one collection, by database name (`_id` excluded: it is always `ID!`). */
export class FieldModel {
  readonly #fields = new Map<string, FieldInfo>();

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
      const seen = typeOf(name, value);
      const known = this.#fields.get(name);
      if (known === undefined) {
        this.#fields.set(name, seen);
        changed = true;
      } else if (known.type !== seen.type && known.type !== 'JSON') {
        this.#fields.set(name, { type: 'JSON', widened: `seen both as ${known.type} and as ${seen.type}` });
        changed = true;
      }
    }
    return changed;
  }

  /** Whether a document has a field this model does not know yet (or knows with a narrower type). */
  isNewTo(doc: JsonObject): boolean {
    for (const [name, value] of Object.entries(doc)) {
      if (name === '_id' || name === '$similarity' || value === null) continue;
      const known = this.#fields.get(name);
      if (known === undefined || (known.type !== 'JSON' && known.type !== typeOf(name, value).type)) return true;
    }
    return false;
  }
}

function typeOf(name: string, value: JsonValue): FieldInfo {
  if (name === '$vector') return Array.isArray(value) ? { type: 'Vector' } : { type: 'JSON', widened: '$vector is not a list of numbers' };
  switch (typeof value) {
    case 'string':
      return { type: 'String' };
    case 'number':
      return { type: 'Float' };
    case 'boolean':
      return { type: 'Boolean' };
  }
  if (Array.isArray(value)) {
    const kinds = new Set(value.filter((v) => v !== null).map((v) => (isObject(v) || Array.isArray(v) ? 'object' : typeof v)));
    if (kinds.size === 1) {
      const [kind] = kinds;
      if (kind === 'string') return { type: '[String]' };
      if (kind === 'number') return { type: '[Float]' };
      if (kind === 'boolean') return { type: '[Boolean]' };
    }
    return { type: 'JSON', widened: kinds.size === 0 ? 'an empty list has no element type' : 'a list of objects, lists or mixed types' };
  }
  return { type: 'JSON', widened: 'a nested object' };
}
