/**
 * The vectors' values read after a collection opened (collection-vectors.ts): when a graph file let it
 * answer with only the keys read, the values stream into the flat store in the background, and until
 * they are all there `ensure` reads at once (synchronous LevelDB point reads) those a caller is about
 * to use, so that every search, write and `$vector` read sees exact values.
 */
import { VectorDbError } from '../../errors/index.js';
import type { KvStore } from '../../storage/index.js';
import type { VectorRows } from '../../vector-index/index.js';
import type { VectorSettings } from './settings.js';
import { streamLiveValues } from './open.js';
import { readVectorValuesSync } from './records.js';

export class LateValues {
  readonly #kv: KvStore;
  readonly #settings: VectorSettings;
  readonly #flat: VectorRows;
  readonly #isLive: (label: number) => boolean;
  #loading = true;
  /** Settles once every value is read (or the stream stopped); the damage it found, if any. */
  readonly done: Promise<VectorDbError | undefined>;

  /**
   * Starts reading the values of `labels` (every live label at open, or a promise of them while the keys
   * are still being read: `ensure` works meanwhile) into `flat`; `isLive` says which are still wanted as
   * it goes (deleted ones are skipped), `stopped` ends it early (close, reset).
   */
  constructor(kv: KvStore, settings: VectorSettings, flat: VectorRows, labels: readonly number[] | Promise<readonly number[]>, isLive: (label: number) => boolean, stopped: () => boolean) {
    this.#kv = kv;
    this.#settings = settings;
    this.#flat = flat;
    this.#isLive = isLive;
    this.done = this.#read(labels, stopped).finally(() => (this.#loading = false));
  }

  get loading(): boolean {
    return this.#loading;
  }

  async #read(labelsRead: readonly number[] | Promise<readonly number[]>, stopped: () => boolean): Promise<VectorDbError | undefined> {
    let labels: readonly number[];
    try {
      labels = await labelsRead;
      // A graph file that brought its rows (native-rows) leaves only the vectors written since to read:
      // when none is missing, the records are not scanned at all.
      if (labels.some((label) => this.#isLive(label) && !this.#flat.has(label))) await streamLiveValues(this.#kv, this.#settings, this.#flat, this.#isLive, stopped);
    } catch (error) {
      if (stopped()) return undefined;
      return error instanceof VectorDbError ? error : VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `reading the vectors of '${this.#settings.name}': ${(error as Error).message}` }, { cause: error });
    }
    if (stopped()) return undefined;
    // A doc key without values: the pair is written and deleted in one batch, so this is damage.
    const lacking = labels.find((label) => this.#isLive(label) && !this.#flat.has(label));
    return lacking === undefined ? undefined : this.#damage(lacking);
  }

  /** Reads at once the values of those `labels` that are live and not in the flat store yet. */
  ensure(labels: Iterable<number>): void {
    if (!this.#loading) return;
    const missing: number[] = [];
    for (const label of labels) if (this.#isLive(label) && !this.#flat.has(label)) missing.push(label);
    if (missing.length === 0) return;
    const values = readVectorValuesSync(this.#kv, this.#settings.cid, missing, this.#settings.dimension);
    missing.forEach((label, i) => {
      const vector = values[i];
      if (vector === undefined) throw this.#damage(label);
      this.#flat.set(label, vector);
    });
  }

  #damage(label: number): VectorDbError {
    return VectorDbError.of('DATABASE_CORRUPTED', { location: this.#kv.location, reason: `vector ${label} of '${this.#settings.name}' has no values` });
  }
}
