/**
 * Names a stored record for people: which collection and `_id`, or which table and primary key, a key of
 * the layout in storage/keys.ts belongs to. Used by DATABASE_CORRUPTED messages (KvStore.describeKey),
 * verify's report and repair's lost+found.
 */
import { keys } from '../../storage/index.js';

/** What a collection or table number is (undefined: no catalog entry names it). */
export interface RecordOwner {
  readonly kind: 'collection' | 'table';
  readonly keyspace: string;
  readonly name: string;
}

export type OwnerLookup = (number: number) => RecordOwner | undefined;

/** Where a record is: its owner, and the `_id`, primary key or vector label within it. */
export interface RecordPlace {
  readonly what: 'document' | 'vector' | 'row' | 'index entry' | 'lexical index record' | 'catalog entry' | 'record';
  /** `keyspace.name` of the collection or table (undefined: unknown or none). */
  readonly owner?: string | undefined;
  /** The document's `_id` (JSON), the row's encoded primary key, or the vector's label. */
  readonly id?: string | undefined;
}

const NUMBERED: readonly (readonly [string, RecordPlace['what']])[] = [
  ['doc:', 'document'],
  ['vkey:', 'vector'],
  [keys.VECTOR_VALUES_TAG, 'vector'],
  ['row:', 'row'],
  ['idx:', 'index entry'],
  ['ridx:', 'index entry'],
  ['lex:', 'lexical index record'],
  ['tlex:', 'lexical index record'],
];

/** Where the record under `key` is. */
export function placeOf(key: string, ownerOf: OwnerLookup): RecordPlace {
  for (const [prefix, what] of NUMBERED) {
    if (!key.startsWith(prefix)) continue;
    const sep = key.indexOf(keys.SEP, prefix.length);
    const number = Number.parseInt(key.slice(prefix.length, sep < 0 ? undefined : sep), 36);
    const owner = ownerOf(number);
    const rest = sep < 0 ? '' : key.slice(sep + 1);
    const id = what === 'document' ? idOfDocKey(rest) : what === 'vector' ? `label ${Number.parseInt(rest, 16)}` : what === 'row' ? JSON.stringify(rest) : undefined;
    return { what, owner: owner && `${owner.keyspace}.${owner.name}`, id };
  }
  for (const prefix of ['ks:', 'coll:', 'tbl:', 'udt:']) {
    if (key.startsWith(prefix)) return { what: 'catalog entry', owner: key.slice(prefix.length).split(keys.SEP).join('.') };
  }
  return { what: 'record', id: JSON.stringify(key) };
}

/** A sentence naming the record under `key` ("document _id \"a\" of collection ks.c"). */
export function describeRecord(key: string, ownerOf: OwnerLookup): string {
  const place = placeOf(key, ownerOf);
  const kind = key.startsWith('row:') || key.startsWith('ridx:') || key.startsWith('tlex:') ? 'table' : key.startsWith('ks:') ? 'keyspace' : 'collection';
  const owner = place.owner === undefined ? '' : ` of ${kind} ${place.owner}`;
  switch (place.what) {
    case 'document':
      return `document _id ${place.id}${owner}`;
    case 'vector':
      return `vector record (${place.id})${owner}`;
    case 'row':
      return `row with primary key ${place.id}${owner}`;
    case 'catalog entry':
      return `catalog entry ${JSON.stringify(key)}`;
    default:
      return `${place.what} ${JSON.stringify(key)}${owner}`;
  }
}

/** The `_id` a document key stands for, as JSON (document-id.ts idKey, read back). */
export function idOfDocKey(docKey: string): string {
  const text = docKey.slice(1);
  switch (docKey[0]) {
    case 's':
      return JSON.stringify(text);
    case 'n':
    case 'b':
      return text;
    case 'z':
      return 'null';
    case 'd':
      return `{"$date":${text}}`;
    default:
      return JSON.stringify(docKey);
  }
}
