/**
 * Progress of long client operations (bulk writes, updateMany, deleteMany): one shape for every caller,
 * `{ done, total?, failed, rate }`, and the meter that keeps the counts and the rate since the start.
 */

/** How far a long operation is. `rate` is documents per second since it started. */
export interface Progress {
  /** Documents processed so far (written, changed or deleted, plus failed). */
  readonly done: number;
  /** Documents expected in all, when known (an array's length, or a count given by the caller). */
  readonly total?: number;
  /** Of `done`, the documents that failed. */
  readonly failed: number;
  readonly rate: number;
}

export type ProgressListener = (progress: Progress) => void;

export class ProgressMeter {
  readonly #listener: ProgressListener | undefined;
  readonly #total: number | undefined;
  readonly #started = performance.now();
  done = 0;
  failed = 0;

  constructor(listener: ProgressListener | undefined, total?: number) {
    if (listener !== undefined && typeof listener !== 'function') throw new TypeError('onProgress must be a function');
    this.#listener = listener;
    this.#total = total;
  }

  /** Counts a step's documents and reports. */
  add(done: number, failed = 0): void {
    this.done += done;
    this.failed += failed;
    this.report();
  }

  report(): void {
    if (this.#listener === undefined) return;
    const seconds = (performance.now() - this.#started) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    this.#listener({ done: this.done, ...(this.#total !== undefined ? { total: this.#total } : {}), failed: this.failed, rate });
  }
}
