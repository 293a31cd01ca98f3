/**
 * Flushes a store's write buffer once writes have gone quiet: LevelDB keeps its memtable (up to
 * WRITE_BUFFER_BYTES, chosen large for insert speed) resident after a write burst ends, until the next
 * burst fills it or the store closes. Writing it out to a table file after `idleMs` without a write
 * gives that memory back. Only when the buffer holds at least `minBytes`: a trickle of small writes
 * would otherwise make a tiny table file per write.
 */
export interface IdleFlushOptions {
  /** Writes the buffer out (LevelDB: an async compactRange over an empty range, on the thread pool). */
  readonly flush: () => Promise<void>;
  /** How long writes must have stopped before flushing. */
  readonly idleMs: number;
  /** The least buffered bytes worth a flush. */
  readonly minBytes: number;
  /** The buffer's size: past it the store has flushed by itself, so the count starts over. */
  readonly bufferBytes: number;
}

export class IdleFlush {
  readonly #options: IdleFlushOptions;
  #lastWriteAt = 0;
  /** Bytes written since the last flush (ours or, roughly, the store's own). */
  #pendingBytes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #closed = false;
  /** How many flushes ran (for tests and diagnostics). */
  flushes = 0;

  constructor(options: IdleFlushOptions) {
    this.#options = options;
  }

  /** Called after each write with about how many bytes it put in the buffer. Cheap: no timer per write. */
  wrote(bytes: number): void {
    if (this.#closed) return;
    this.#lastWriteAt = Date.now();
    this.#pendingBytes += bytes;
    if (this.#pendingBytes >= this.#options.bufferBytes) this.#pendingBytes %= this.#options.bufferBytes;
    if (this.#timer === undefined && this.#running === undefined) this.#arm(this.#options.idleMs);
  }

  /** Stops the timer and waits for a flush under way (the store closes next). */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#fire(), ms);
    // Never keeps a process alive: on close the store flushes anyway.
    this.#timer.unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    if (this.#closed) return;
    // One timer per burst: a write since it was set moves the deadline instead of setting a new timer.
    const idleFor = Date.now() - this.#lastWriteAt;
    if (idleFor < this.#options.idleMs) {
      this.#arm(this.#options.idleMs - idleFor);
      return;
    }
    if (this.#pendingBytes < this.#options.minBytes) return;
    this.#pendingBytes = 0;
    this.flushes += 1;
    this.#running = this.#options
      .flush()
      .catch(() => undefined) // the memtable stays, and its log: nothing is lost, the next idle spell tries again
      .finally(() => {
        this.#running = undefined;
        // Writes that came during the flush went to a new buffer: wait for them to go quiet too.
        if (!this.#closed && this.#lastWriteAt > 0 && this.#pendingBytes >= this.#options.minBytes) this.#arm(this.#options.idleMs);
      });
  }
}
