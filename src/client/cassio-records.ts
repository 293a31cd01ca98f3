/**
 * The rows of the CassIO companion tables as the Java SDK names them (MetadataVectorRecord,
 * ClusteredMetadataVectorRecord), their time-based row ids (timeuuid, as Uuids.timeBased()), and
 * metadata values coerced to strings as CassIO stores them in `metadata_s`.
 */
import { rejectUnknownMembers } from './wire.js';
export interface MetadataVectorRecordInit {
  /** Default: a new time-based UUID. */
  rowId?: string;
  vector: readonly number[];
  body?: string | null;
  attributes?: string | null;
  /** Values other than strings are coerced as CassIO does (see {@link metadataString}). */
  metadata?: Readonly<Record<string, unknown>>;
}

/**
 * A row of a `metadata_vector` table: `row_id`, `body_blob`, `attributes_blob`, `metadata_s`, `vector`.
 * @example const record = new MetadataVectorRecord({ vector: [0.1, 0.2, 0.3], body: 'hello', metadata: { lang: 'en' } });
 */
export class MetadataVectorRecord {
  rowId: string;
  vector: number[];
  body: string | null;
  attributes: string | null;
  metadata: Record<string, string>;

  /** The members a record's init object takes (a misspelt one is a TypeError, never ignored). */
  static readonly initMembers: ReadonlySet<string> = new Set(['rowId', 'vector', 'body', 'attributes', 'metadata']);

  constructor(init: MetadataVectorRecordInit | readonly number[]) {
    if (!isVector(init)) rejectUnknownMembers(init, (new.target as typeof MetadataVectorRecord).initMembers, `${new.target.name} init`);
    const given: MetadataVectorRecordInit = isVector(init) ? { vector: init } : init;
    this.rowId = given.rowId ?? timeUuid();
    this.vector = [...given.vector];
    this.body = given.body ?? null;
    this.attributes = given.attributes ?? null;
    this.metadata = metadataStrings(given.metadata ?? {});
  }
}

export interface ClusteredMetadataVectorRecordInit extends MetadataVectorRecordInit {
  /** Default: `default`. */
  partitionId?: string;
}

/**
 * A row of a `clustered_metadata_vector` table: a `partition_id` and a timeuuid `row_id` (newest first
 * in a partition), then the same columns as {@link MetadataVectorRecord}.
 * @example const record = new ClusteredMetadataVectorRecord({ partitionId: 'chat-7', vector: [1, 0, 0], body: 'hi' });
 */
export class ClusteredMetadataVectorRecord extends MetadataVectorRecord {
  static override readonly initMembers: ReadonlySet<string> = new Set([...MetadataVectorRecord.initMembers, 'partitionId']);
  partitionId: string;

  constructor(init: ClusteredMetadataVectorRecordInit | readonly number[]) {
    super(init);
    this.partitionId = (isVector(init) ? undefined : init.partitionId) ?? 'default';
  }
}

function isVector(init: unknown): init is readonly number[] {
  return Array.isArray(init);
}

/**
 * A metadata value as CassIO stores it: a string as is, a boolean as "true" / "false", a number as a float
 * (123 -> "123.0", so 1 and 1.0 match), null as "null", anything else as JSON.
 * @example metadataString(3) // '3.0'
 */
export function metadataString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isInteger(value) ? `${value}.0` : String(value);
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value);
}

export function metadataStrings(metadata: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) out[key] = metadataString(value);
  return out;
}

/** 100-ns intervals between the UUID epoch (1582-10-15) and the Unix epoch. */
const GREGORIAN_OFFSET = 122_192_928_000_000_000n;
const NODE = globalThis.crypto.getRandomValues(new Uint8Array(6));
NODE[0]! |= 0x01; // a random node id has the multicast bit set (RFC 4122, 4.5)
const NODE_HEX = Array.from(NODE, (byte) => byte.toString(16).padStart(2, '0')).join('');
let clockSequence = globalThis.crypto.getRandomValues(new Uint16Array(1))[0]! & 0x3fff;
let lastTicks = 0n;

/**
 * A new version 1 (time-based) UUID, strictly increasing within this process.
 * @example timeUuid() // 'd2b0e3b0-8a1f-11ef-9c3e-b3f1c2a4d5e6'
 */
export function timeUuid(): string {
  let ticks = BigInt(Date.now()) * 10_000n + GREGORIAN_OFFSET;
  if (ticks <= lastTicks) ticks = lastTicks + 1n;
  lastTicks = ticks;
  const hex = ticks.toString(16).padStart(15, '0');
  const timeLow = hex.slice(7);
  const timeMid = hex.slice(3, 7);
  const timeHigh = `1${hex.slice(0, 3)}`;
  const clock = (0x8000 | clockSequence).toString(16);
  if (ticks % 10_000n === 9_999n) clockSequence = (clockSequence + 1) & 0x3fff;
  return `${timeLow}-${timeMid}-${timeHigh}-${clock}-${NODE_HEX}`;
}
