/**
 * What KvStore (kv-store.ts) hands out besides values: a snapshot to read against, and a write batch
 * filled now and written later.
 */
import type { ChainedBatch, KvOperation, LevelDb, WriteOptions } from './kv-types.js';
import { mapLevelError } from './level-errors.js';
import type { ReadGate } from './read-gate.js';
import type { RowCache } from './row-cache.js';

/**
 * A moment of the store that reads can be made against (KvStore.snapshot): the store's own snapshot
 * where it has them (classic-level, memory-level), else a hold on writes until closed (browser-level).
 */
export class KvSnapshot {
  /** @internal */
  readonly handle: ReturnType<LevelDb['snapshot']> | undefined;
  readonly #release: () => void;

  constructor(handle: ReturnType<LevelDb['snapshot']> | undefined, release: () => void) {
    this.handle = handle;
    this.#release = release;
  }

  async close(): Promise<void> {
    this.#release();
    await this.handle?.close();
  }
}

/** A write batch filled but not yet written (see KvStore.prepare). */
export class PreparedBatch {
  readonly #operations: readonly KvOperation[];
  readonly #batch: ChainedBatch;
  readonly #options: WriteOptions;
  readonly #rows: RowCache;
  readonly #location: string;
  readonly #gate: ReadGate;
  readonly #written: (() => void) | undefined;
  /** Called once the batch is written, has failed, or is discarded. */
  readonly #settled: (() => void) | undefined;

  constructor(operations: readonly KvOperation[], batch: ChainedBatch, options: WriteOptions, rows: RowCache, location: string, gate: ReadGate, then: { readonly written?: (() => void) | undefined; readonly settled?: () => void } = {}) {
    this.#options = options;
    this.#written = then.written;
    this.#settled = then.settled;
    this.#operations = operations;
    this.#batch = batch;
    this.#rows = rows;
    this.#location = location;
    this.#gate = gate;
  }

  /** Writes the operations atomically: after a crash either all are there or none. */
  async write(): Promise<void> {
    try {
      await this.#gate.writable();
      await this.#batch.write(this.#options);
      this.#written?.();
    } catch (error) {
      throw mapLevelError(error, this.#location, 'write');
    } finally {
      // Only after the write: a read during it may still cache the old value. Even after a failed
      // write, to be safe about what LevelDB kept.
      this.#rows.invalidate(this.#operations);
      this.#settled?.();
    }
  }

  /** Releases a batch that will not be written. */
  async discard(): Promise<void> {
    try {
      await this.#batch.close();
    } finally {
      this.#settled?.();
    }
  }
}
