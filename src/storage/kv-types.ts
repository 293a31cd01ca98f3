/**
 * The shapes of the key-value contract (kv-store.ts): values, write operations, key ranges, and the
 * level-family store and write batch underneath.
 */
import type { AbstractLevel } from 'abstract-level';

export type KvValue = string | Uint8Array;

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
