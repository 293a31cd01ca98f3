/**
 * The shapes of the key-value contract (kv-store.ts): values (and their bytes and text), write operations, key
 * ranges, durability, and the level-family store and write batch underneath.
 */
import type { AbstractLevel } from 'abstract-level';

export type KvValue = string | Uint8Array;

export function toBytes(value: KvValue): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

export function bytesToString(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
}

export type KvOperation =
  | { readonly type: 'put'; readonly key: string; readonly value: KvValue }
  | { readonly type: 'del'; readonly key: string };

export interface KvRange {
  readonly gte?: string;
  readonly gt?: string;
  readonly lt?: string;
  readonly lte?: string;
  readonly reverse?: boolean;
  readonly limit?: number;
}

/** Any store of the level family, with string keys and byte values. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the stores differ only in their input formats
export type LevelDb = AbstractLevel<any, string, Uint8Array>;

export type ChainedBatch = ReturnType<LevelDb['batch']>;

/**
 * 'full': every write is fsynced before it is acknowledged, so it survives an OS crash or a power cut;
 * concurrent writers share one fsync (LevelDB commits the writes queued behind a sync write as one group).
 * 'relaxed': acknowledged once in the OS's page cache: survives a process crash, not a power cut.
 */
export type Durability = 'full' | 'relaxed';
export const DURABILITIES: readonly Durability[] = ['full', 'relaxed'];

/** LevelDB's options of one write: `sync` flushes LevelDB's log to the disk before the write resolves. */
export interface WriteOptions {
  readonly sync: boolean;
}
