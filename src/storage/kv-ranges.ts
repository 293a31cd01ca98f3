/**
 * KvStore's reads over key ranges: entries and keys in key order, a chunk at a time (one async step per chunk,
 * not per pair), from a snapshot when given; truth records opened (checked) as KvStore opens them, unless
 * asked for raw; the level family's failures mapped (level-errors.ts).
 */
import { isTruthKey } from './keys.js';
import type { KvSnapshot } from './kv-handles.js';
import { bytesToString, type KvRange, type LevelDb } from './kv-types.js';
import { levelCall } from './level-errors.js';

export class KvRanges {
  readonly #db: LevelDb;
  readonly #location: string;
  /** A value as KvStore returns it: a truth record's payload once its checksum holds (else it throws). */
  readonly #open: (key: string, value: Uint8Array) => Uint8Array;

  constructor(db: LevelDb, location: string, open: (key: string, value: Uint8Array) => Uint8Array) {
    this.#db = db;
    this.#location = location;
    this.#open = open;
  }

  async *entryChunks(range: KvRange, size: number): AsyncGenerator<[string, Uint8Array][]> {
    for await (const chunk of this.#chunks(this.#db.iterator(range), size)) {
      for (const pair of chunk) pair[1] = this.#open(pair[0], pair[1]);
      yield chunk;
    }
  }

  async *rawEntryChunks(range: KvRange, size: number, snapshot?: KvSnapshot): AsyncGenerator<[string, Uint8Array][]> {
    yield* this.#chunks(this.#db.iterator(snapshot?.handle === undefined ? range : { ...range, snapshot: snapshot.handle }), size);
  }

  async *textEntryChunks(range: KvRange, size: number): AsyncGenerator<[string, string][]> {
    if (!isTruthKey(range.gte ?? range.gt ?? '')) {
      yield* this.#chunks(this.#db.iterator<string, string>({ ...range, valueEncoding: 'utf8' }), size);
      return;
    }
    // Truth records are checked as bytes, then decoded.
    for await (const chunk of this.entryChunks(range, size)) yield chunk.map(([key, value]): [string, string] => [key, bytesToString(value)]);
  }

  async *keys(range: KvRange, chunk: number, snapshot?: KvSnapshot): AsyncGenerator<string> {
    const iterator = this.#db.keys(snapshot?.handle === undefined ? range : { ...range, snapshot: snapshot.handle });
    for await (const keys of this.#chunks(iterator, chunk)) yield* keys;
  }

  async countKeys(gte: string, lt: string, snapshot?: KvSnapshot): Promise<number> {
    let count = 0;
    const iterator = this.#db.keys(snapshot?.handle === undefined ? { gte, lt } : { gte, lt, snapshot: snapshot.handle });
    for await (const keys of this.#chunks(iterator, 8192)) count += keys.length;
    return count;
  }

  /** An iterator's entries (or keys) `size` at a time; closes it when done or abandoned. */
  async *#chunks<T>(iterator: { nextv(size: number): Promise<T[]>; close(): Promise<void> }, size: number): AsyncGenerator<T[]> {
    try {
      while (true) {
        const chunk = await levelCall(() => iterator.nextv(size), this.#location);
        if (chunk.length === 0) return;
        yield chunk;
      }
    } finally {
      await iterator.close();
    }
  }
}
