/**
 * Document ids: validation of `_id` values, generation per the collection's `defaultId`, and the storage
 * key of an id. `$uuid`/`$objectId` ids key as their bare string, so they collide with that string (as in
 * the Data API); `5` and `"5"` are different documents.
 */
import { VectorDbError, describeValue, jsonTypeName } from '../../errors/index.js';
import { randomBytes as randomView, randomUuid } from '../../platform/random.js';
import { ejsonKeyOf, isObject, type JsonObject, type JsonValue } from '../../query/json.js';
import { exactText, isExactNumber } from '../../query/exact-number.js';

export type DefaultIdType = 'uuid' | 'uuidv6' | 'uuidv7' | 'objectId';
export const DEFAULT_ID_TYPES: readonly DefaultIdType[] = ['objectId', 'uuid', 'uuidv6', 'uuidv7'];

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const OBJECT_ID = /^[0-9a-fA-F]{24}$/;

/** In a `u` regular expression a surrogate pair is one code point: only unpaired halves match. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Checks an `_id` value; throws SHRED_BAD_DOCID_TYPE / SHRED_BAD_DOCID_VALUE / SHRED_BAD_EJSON_VALUE. */
export function validateId(id: JsonValue): void {
  if (typeof id === 'string') {
    if (id.length === 0) throw VectorDbError.of('SHRED_BAD_DOCID_VALUE', { reason: 'empty String not allowed' });
    // Keys are UTF-8: an unpaired surrogate would become U+FFFD there, and two ids would share one key.
    if (LONE_SURROGATE.test(id)) throw VectorDbError.of('SHRED_BAD_DOCID_VALUE', { reason: 'String with an unpaired UTF-16 surrogate (not valid Unicode) not allowed' });
    return;
  }
  if (typeof id === 'number') {
    if (!Number.isFinite(id)) throw VectorDbError.of('SHRED_BAD_DOCID_VALUE', { reason: `${id} is not a finite number` });
    return;
  }
  if (typeof id === 'boolean' || id === null || isExactNumber(id)) return;
  if (isObject(id)) {
    const key = ejsonKeyOf(id);
    if (key === '$date' || key === '$uuid' || key === '$objectId') {
      validateEjson(id);
      return;
    }
    if (Object.keys(id).length === 1 && Object.keys(id)[0]!.startsWith('$')) {
      throw VectorDbError.of('SHRED_BAD_DOCID_TYPE', { type: `unrecognized JSON extension type '${Object.keys(id)[0]}'` });
    }
  }
  throw VectorDbError.of('SHRED_BAD_DOCID_TYPE', { type: `${jsonTypeName(id)}: ${describeValue(id)}` });
}

/** Validates a `$date` / `$uuid` / `$objectId` / `$binary` wrapper anywhere in a document. */
export function validateEjson(value: JsonObject): void {
  const key = ejsonKeyOf(value);
  const inner = key === undefined ? undefined : value[key];
  switch (key) {
    case '$date':
      if (typeof inner !== 'number' || !Number.isInteger(inner)) {
        throw VectorDbError.of('SHRED_BAD_EJSON_VALUE', { reason: `'$date' value has to be an epoch timestamp (integer milliseconds), instead got ${describeValue(inner)}` });
      }
      return;
    case '$uuid':
      if (typeof inner !== 'string' || !UUID.test(inner)) {
        throw VectorDbError.of('SHRED_BAD_EJSON_VALUE', { reason: `'$uuid' value has to be 36-character UUID String, instead got ${describeValue(inner)}` });
      }
      return;
    case '$objectId':
      if (typeof inner !== 'string' || !OBJECT_ID.test(inner)) {
        throw VectorDbError.of('SHRED_BAD_EJSON_VALUE', { reason: `'$objectId' value has to be 24-digit hexadecimal ObjectId, instead got ${describeValue(inner)}` });
      }
      return;
    case '$binary':
      if (typeof inner !== 'string') {
        throw VectorDbError.of('SHRED_BAD_EJSON_VALUE', { reason: `'$binary' value has to be a base64 String, instead got ${describeValue(inner)}` });
      }
      return;
    default:
      throw VectorDbError.of('SHRED_BAD_EJSON_VALUE', { reason: `unrecognized JSON extension ${describeValue(value)}` });
  }
}

/** The storage key of an id: a type tag and its text. */
export function idKey(id: JsonValue): string {
  if (typeof id === 'string') return `s${id}`;
  if (typeof id === 'number') return `n${Object.is(id, -0) ? 0 : id}`;
  if (isExactNumber(id)) return `n${exactText(id)}`; // never the text of a double (that would be a number)
  if (typeof id === 'boolean') return `b${id}`;
  if (id === null) return 'z';
  const key = ejsonKeyOf(id);
  if (key === '$uuid' || key === '$objectId') return `s${(id as JsonObject)[key] as string}`;
  if (key === '$date') return `d${(id as JsonObject).$date as number}`;
  throw VectorDbError.of('SHRED_BAD_DOCID_TYPE', { type: `${jsonTypeName(id)}: ${describeValue(id)}` });
}

/** A new id per the collection's defaultId (a plain UUIDv4 string when unset). */
export function generateId(type: DefaultIdType | undefined): JsonValue {
  switch (type) {
    case undefined:
      return randomUuid();
    case 'uuid':
      return { $uuid: randomUuid() };
    case 'uuidv6':
      return { $uuid: uuidV6() };
    case 'uuidv7':
      return { $uuid: uuidV7() };
    case 'objectId':
      return { $objectId: objectId() };
  }
}

/** Random bytes as a Buffer (Node's own, or the bundled polyfill in a browser) for its byte helpers. */
function randomBytes(length: number): Buffer {
  const bytes = randomView(length);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** RFC 9562 UUIDv7: 48-bit Unix ms timestamp, then random bits. */
export function uuidV7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return formatUuid(bytes);
}

/** RFC 9562 UUIDv6: the v1 timestamp (100 ns since 1582-10-15) in big-endian order, then random bits. */
export function uuidV6(now = Date.now()): string {
  const gregorianOffsetMs = 12_219_292_800_000n;
  const ticks = (BigInt(now) + gregorianOffsetMs) * 10_000n;
  const bytes = randomBytes(16);
  const high = ticks >> 12n; // top 48 bits
  bytes.writeUIntBE(Number(high & 0xffffffffffffn), 0, 6);
  bytes[6] = 0x60 | Number((ticks >> 8n) & 0x0fn);
  bytes[7] = Number(ticks & 0xffn);
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return formatUuid(bytes);
}

let objectIdCounter = randomBytes(3).readUIntBE(0, 3);
const objectIdProcess = randomBytes(5);

/** A MongoDB-style ObjectId: 4-byte seconds, 5-byte process id, 3-byte counter. */
export function objectId(now = Date.now()): string {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(Math.floor(now / 1000) >>> 0, 0);
  objectIdProcess.copy(bytes, 4);
  objectIdCounter = (objectIdCounter + 1) & 0xffffff;
  bytes.writeUIntBE(objectIdCounter, 9, 3);
  return bytes.toString('hex');
}
