/**
 * The on-disk key layout of a database (one LevelDB per database). These prefixes and encodings are
 * persisted: never change a value; retire a prefix by leaving it reserved.
 *
 *   meta:format                               -> format version
 *   meta:seq                                  -> last collection number handed out
 *   ks:<keyspace>                             -> keyspace record (JSON)
 *   coll:<keyspace>\0<collection>             -> collection record (JSON, holds its number <cid>)
 *   doc:<cid>\0<docKey>                       -> document JSON, exactly as stored; '#' then lossless JSON when it
 *                                                holds numbers no double names (engine/collections/document-store.ts)
 *   idx:<cid>\0<path>\0<typed value>\0<docKey> -> '1' (secondary index entry; value unused, was '' before)
 *   vkey:<cid>\0<label>                       -> docKey of the vector's document (UTF-8)     } engine/vectors/records.ts
 *   vval:<cid>\0<label>                       -> the vector's float32 LE values               }
 *   vec:<cid>\0<label>                        -> retired (format 1: [u32 key length][docKey][values]; migrated at open)
 *   vidx:<cid>\0<chunk>                       -> chunks of the vector snapshot, in two slots (engine/vectors/snapshot.ts)
 *   vmeta:<cid>                               -> HNSW index metadata (JSON)
 *   vquant:<cid>                              -> an int8 collection's trained scale: per dimension the lowest value,
 *                                                then the step, float32 LE (engine/vectors/scale-record.ts)
 *   ixrule:<cid>                              -> INDEX_RULE: entries filed by index path (engine/collections/shredder.ts isFiled);
 *                                                absent: the collection was created by an earlier build
 *   fld:<cid>\0<path>\0<kind>                 -> '1': a top-level field has held a value of that kind (query/field-kind.ts;
 *                                                engine/collections/field-kinds.ts), written with the write that first shows it
 *   fld:<cid>                                 -> '1': the field record covers every document (absent: built from them at first use)
 *   set:<name>                                -> a database setting (string), e.g. the server's token hash
 *
 * Tables (engine/table*.ts). A table's number <tid> and each vector index's number <vid> come from the
 * same sequence as collection numbers, so a vector index of a table keeps its records under the
 * collections' vector prefixes (vkey:/vval:/vidx:/vmeta: with <vid> for <cid>):
 *   tbl:<keyspace>\0<table>                   -> table record (JSON: columns, primary key, indexes, <tid>)
 *   udt:<keyspace>\0<type>                    -> user-defined type record (JSON)
 *   row:<tid>\0<row key>                      -> the row (JSON object of its non-null columns, stored forms of
 *                                                engine/tables/values.ts: a vector as its float32 $binary text;
 *                                                `$noRowMarker: true` in a row an update created, rows.ts)
 *   ridx:<tid>\0<index>\0<value key>\0<row key> -> <row key> (a secondary index entry; the value key of an index
 *     whose record says analyzed: true is that of the analyzed text, engine/tables/text-analysis.ts)
 * A <row key> is, in a table whose record says keyFormat 2, the partition's token (16 hex digits of the
 * signed Murmur3 token + 2^63, engine/tables/partition-token.ts) and then, as in every table, the primary
 * key's columns (partition columns, then clustering columns) each encoded
 * by engine/tables/key-codec.ts, all joined by \0; no encoded part holds \0, and each is order-preserving
 * for its type (a descending clustering column is inverted), so a partition is one key range and a
 * partition's rows lie in clustering order. A <value key> is one indexed value encoded the same way
 * (a map entry: key part \0 value part).
 */

/**
 * 2: vector records split into `vkey:` + `vval:` (format 1 kept them in `vec:`).
 * 3: a body may be `#` + lossless JSON (exact numbers, query/exact-number.ts), tables (`tbl:`, `row:`, `ridx:`,
 *    `udt:`) exist, and vector snapshots may hold the graph alone. Older versions would misread such a
 *    database, so they are told it is newer; this version relabels a format-2 database at open (nothing moves).
 * 4: truth records (isTruthKey) are sealed with a checksum (record-checksum.ts), and a table record may say
 *    `keyFormat: 2`: its row keys start with the partition's Murmur3 token (engine/tables/partition-token.ts).
 *    Format 3 would compute neither. Records written before are read as they are and sealed when rewritten;
 *    tables without keyFormat keep their key order. A format-3 database is relabelled at open (nothing moves).
 */
export const FORMAT_VERSION = 4;
import BigNumber from 'bignumber.js';

export const SEP = '\u0000';
/** Sorts after every key that starts with the same prefix: U+10FFFF is the largest UTF-8 sequence. */
export const HIGH = '\u{10FFFF}';

/**
 * Orders strings as LevelDB orders their UTF-8 bytes, which is code point order. JavaScript's `<` compares
 * UTF-16 code units and so puts a supplementary character (a surrogate pair) before U+E000..U+FFFF.
 */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800 && x < 0xe000 !== y < 0xe000) return x < 0xe000 ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** Code units from which UTF-16 order and code point order can differ. */
const UNITS_FROM_D800 = /[\uD800-\uFFFF]/;

/**
 * Sorts keys in place as LevelDB orders them; with JavaScript's own sort (2.5x faster on 100k keys) when no
 * key has a code unit that could tell the two orders apart.
 */
export function sortKeys(keys: string[]): string[] {
  return keys.some((key) => UNITS_FROM_D800.test(key)) ? keys.sort(compareKeys) : keys.sort();
}

export const META_FORMAT = 'meta:format';

/** The prefix of vector values records (record-checksum.ts tells their unsealed form by length). */
export const VECTOR_VALUES_TAG = 'vval:';

/**
 * The prefixes of truth records: what a database holds that nothing else can rebuild (document bodies,
 * vector records, table rows, catalog entries). Their values carry a checksum (record-checksum.ts); every
 * other record is derived from them (index entries, snapshots, metadata) and rebuilt by repair.
 */
export const TRUTH_PREFIXES = ['doc:', 'vkey:', VECTOR_VALUES_TAG, 'row:', 'ks:', 'coll:', 'tbl:', 'udt:'] as const;

/** Whether the value under `key` is a truth record. */
export function isTruthKey(key: string): boolean {
  switch (key.charCodeAt(0)) {
    case 0x64: // d
      return key.startsWith('doc:');
    case 0x76: // v
      return key.startsWith('vkey:') || key.startsWith(VECTOR_VALUES_TAG);
    case 0x72: // r
      return key.startsWith('row:');
    case 0x6b: // k
      return key.startsWith('ks:');
    case 0x63: // c
      return key.startsWith('coll:');
    case 0x74: // t
      return key.startsWith('tbl:');
    case 0x75: // u
      return key.startsWith('udt:');
    default:
      return false;
  }
}
export const META_SEQ = 'meta:seq';
/** Written (empty) with `sync: true` by a group commit: its fsync makes every write before it durable. */
export const META_SYNC = 'meta:sync';

/** Database settings (readSetting/writeSetting): not keyspace data, never listed or dropped with one. */
export const settingKey = (name: string): string => `set:${name}`;

export const keyspaceKey = (keyspace: string): string => `ks:${keyspace}`;
export const KEYSPACE_PREFIX = 'ks:';

export const collectionKey = (keyspace: string, collection: string): string => `coll:${keyspace}${SEP}${collection}`;
export const COLLECTION_PREFIX = 'coll:';
export const collectionPrefix = (keyspace: string): string => `coll:${keyspace}${SEP}`;

/** Collection numbers are fixed-width so one collection's keys never interleave with another's. */
export const cidText = (cid: number): string => cid.toString(36).padStart(6, '0');

export const docPrefix = (cid: number): string => `doc:${cidText(cid)}${SEP}`;
export const docKey = (cid: number, key: string): string => docPrefix(cid) + key;

export const indexPrefix = (cid: number): string => `idx:${cidText(cid)}${SEP}`;
export const indexPathPrefix = (cid: number, path: string): string => `${indexPrefix(cid)}${path}${SEP}`;

export const labelText = (label: number): string => label.toString(16).padStart(8, '0');
export const vectorKeyPrefix = (cid: number): string => `vkey:${cidText(cid)}${SEP}`;
export const vectorKeyKey = (cid: number, label: number): string => vectorKeyPrefix(cid) + labelText(label);
export const vectorValuesPrefix = (cid: number): string => `${VECTOR_VALUES_TAG}${cidText(cid)}${SEP}`;
export const vectorValuesKey = (cid: number, label: number): string => vectorValuesPrefix(cid) + labelText(label);
/** Format 1's vector records (read only to migrate them). */
export const LEGACY_VECTOR_PREFIX = 'vec:';
export const vectorIndexChunkPrefix = (cid: number): string => `vidx:${cidText(cid)}${SEP}`;
export const vectorIndexMetaKey = (cid: number): string => `vmeta:${cidText(cid)}`;
export const vectorScaleKey = (cid: number): string => `vquant:${cidText(cid)}`;

/**
 * A lexical collection's inverted index (engine/collections/lexical-index.ts): postings `p\0term\0docKey`
 * ("tf length"), the BM25 statistics' base `s` and their per-batch deltas `d\0seq` ("documents length").
 */
export const lexicalPrefix = (cid: number): string => `lex:${cidText(cid)}${SEP}`;
export const indexRuleKey = (cid: number): string => `ixrule:${cidText(cid)}`;

/**
 * A collection's field record (engine/collections/field-kinds.ts): `fieldKindKey` per (top-level path, kind)
 * pair, and `fieldRecordKey`, the mark that the pairs cover every document. `fieldRecordKey` is a prefix of
 * every pair's key: a clear of it up to HIGH drops the whole record. Widen-only: deleteMany({}) keeps it. A
 * collection created since the record exists has the mark from its creation (engine/keyspace-catalog.ts create).
 */
export const fieldRecordKey = (cid: number): string => `fld:${cidText(cid)}`;
/** The value of fieldRecordKey and of each fieldKindKey. */
export const FIELD_PRESENT = '1';
export const fieldKindPrefix = (cid: number): string => `${fieldRecordKey(cid)}${SEP}`;
export const fieldKindKey = (cid: number, path: string, kind: string): string => `${fieldKindPrefix(cid)}${path}${SEP}${kind}`;
export const INDEX_RULE = '2';

export const tableKey = (keyspace: string, table: string): string => `tbl:${keyspace}${SEP}${table}`;
export const TABLE_PREFIX = 'tbl:';
export const typeKey = (keyspace: string, type: string): string => `udt:${keyspace}${SEP}${type}`;
export const TYPE_PREFIX = 'udt:';
export const rowPrefix = (tid: number): string => `row:${cidText(tid)}${SEP}`;
/** Every index entry of a table, all its indexes (dropTable, truncation, verify, repair). */
export const rowIndexesPrefix = (tid: number): string => `ridx:${cidText(tid)}${SEP}`;
export const rowIndexPrefix = (tid: number, index: string): string => `${rowIndexesPrefix(tid)}${index}${SEP}`;
/**
 * A table text index's postings and BM25 statistics (engine/tables/text-postings.ts), in the layout of a
 * collection's lexical index: postings `p\0term\0rowKey` ("tf length"), the base `s`, the deltas `d\0seq`.
 */
export const tableLexicalPrefix = (tid: number, index: string): string => `${tableLexicalIndexesPrefix(tid)}${index}${SEP}`;
/** Every text index's postings and statistics of a table (dropTable, truncation). */
export const tableLexicalIndexesPrefix = (tid: number): string => `tlex:${cidText(tid)}${SEP}`;

/**
 * Every prefix that holds a collection's data: emptied by deleteMany({}), dropped with the collection
 * (its `vmeta:`, `vquant:` and `ixrule:` keys are dropped by name).
 */
export function collectionDataPrefixes(cid: number): string[] {
  return [docPrefix(cid), indexPrefix(cid), vectorKeyPrefix(cid), vectorValuesPrefix(cid), vectorIndexChunkPrefix(cid), lexicalPrefix(cid)];
}

/**
 * Order-preserving encoding of an indexed scalar: a type tag (the Data API's cross-type order:
 * null < number < string < boolean < date) followed by the value.
 */
export type IndexScalar =
  | { readonly type: 'null' }
  | { readonly type: 'number'; readonly value: number | bigint | BigNumber }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'date'; readonly value: number }
  | { readonly type: 'container' };

/** `container` marks a present array or sub-document (for `$exists`); it sorts before every value. */
export const TYPE_TAG = { container: '0', null: '1', number: '2', string: '3', boolean: '4', date: '5' } as const;

export function encodeIndexScalar(scalar: IndexScalar): string {
  switch (scalar.type) {
    case 'null':
      return TYPE_TAG.null;
    case 'number':
      return TYPE_TAG.number + (typeof scalar.value === 'number' ? encodeNumber(scalar.value) : encodeExactNumber(scalar.value));
    case 'string':
      return TYPE_TAG.string + escapeString(scalar.value);
    case 'boolean':
      return TYPE_TAG.boolean + (scalar.value ? '1' : '0');
    case 'date':
      return TYPE_TAG.date + encodeNumber(scalar.value);
    case 'container':
      return TYPE_TAG.container;
  }
}

/** Scratch space of encodeNumber (the encoding is synchronous) and two hex digits per byte value. */
const FLOAT_BITS = new DataView(new ArrayBuffer(8));
const HEX_BYTE = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Float64 as 16 hex digits whose string order is numeric order (sign bit flipped, negatives inverted). */
export function encodeNumber(value: number): string {
  FLOAT_BITS.setFloat64(0, value === 0 ? 0 : value); // big-endian; -0 and 0 are equal
  const first = FLOAT_BITS.getUint8(0);
  const invert = first & 0x80 ? 0xff : 0;
  let out = HEX_BYTE[invert ? first ^ 0xff : first | 0x80]!;
  for (let i = 1; i < 8; i++) out += HEX_BYTE[FLOAT_BITS.getUint8(i) ^ invert]!;
  return out;
}

/**
 * A number no double names exactly (a bigint or BigNumber; a double stands for its shortest decimal) sorts
 * between the two doubles around it: the lower one's 16 hex digits, EXACT_MARK (above the separator that
 * ends a double's entry), then its distance above that double, order-preserving: a fixed-width decimal
 * exponent and the significant digits. Doubles keep the encoding they always had.
 */
export function encodeExactNumber(value: bigint | BigNumber): string {
  const exact = new BigNumber(value.toString());
  const near = exact.toNumber();
  const below = exact.isGreaterThan(near) ? near : nextDown(near);
  const distance = exact.minus(below);
  const exponent = String((distance.e ?? 0) + EXPONENT_OFFSET).padStart(5, '0');
  return encodeNumber(below) + EXACT_MARK + exponent + (distance.c ?? []).map((limb, i) => (i === 0 ? String(limb) : String(limb).padStart(14, '0'))).join('').replace(/0+$/, '');
}

const EXACT_MARK = '~';
const EXPONENT_OFFSET = 50_000;

/** The largest double below a finite or infinite double. */
function nextDown(value: number): number {
  if (value === Number.POSITIVE_INFINITY) return Number.MAX_VALUE;
  if (value === 0) return -Number.MIN_VALUE;
  FLOAT_BITS.setFloat64(0, value);
  const bits = FLOAT_BITS.getBigUint64(0);
  FLOAT_BITS.setBigUint64(0, value > 0 ? bits - 1n : bits + 1n);
  return FLOAT_BITS.getFloat64(0);
}

const NEEDS_ESCAPE = /[\u0000\u0001\uD800-\uFFFF]/;

/**
 * Strings in keys must sort like the Data API compares them (UTF-16 code units), but LevelDB compares
 * UTF-8 bytes, which orders U+E000..U+FFFF after supplementary characters. So each UTF-16 code unit u
 * becomes one code point: u itself below U+D800, and 0x10000 + (u - 0xD800) from U+D800 up (surrogate
 * halves included, which UTF-8 could not carry alone). U+0000 and U+0001 are then escaped to free U+0000
 * for the separator: U+0000 -> U+0001 U+0001, U+0001 -> U+0001 U+0002. Both maps keep order.
 */
export function escapeString(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value; // the common case, tested once
  let out = value;
  if (/[\uD800-\uFFFF]/.test(out)) {
    let mapped = '';
    for (let i = 0; i < out.length; i++) {
      const unit = out.charCodeAt(i);
      mapped += unit < 0xd800 ? out[i] : String.fromCodePoint(0x10000 + (unit - 0xd800));
    }
    out = mapped;
  }
  return /[\u0000\u0001]/.test(out) ? out.replace(/[\u0000\u0001]/g, (ch) => (ch === '\u0000' ? '\u0001\u0001' : '\u0001\u0002')) : out;
}
