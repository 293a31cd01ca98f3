/**
 * Group commit: writers waiting for their writes to reach the disk share one fsync. A collection hands its batch
 * to LevelDB without a sync under its mutex, releases the mutex, then waits here; every write handed to LevelDB
 * before a sync starts is on disk when that sync ends, so one sync answers every writer that was waiting for it.
 */
export class GroupSync {
  readonly #syncOnce: () => Promise<void>;
  #running: Promise<void> | undefined;
  #queued: Promise<void> | undefined;

  /** `syncOnce` makes everything written so far durable (LevelDB: one small write with `sync: true`). */
  constructor(syncOnce: () => Promise<void>) {
    this.#syncOnce = syncOnce;
  }

  /** Resolves once everything written before this call is on disk; rejects when that sync failed. */
  wait(): Promise<void> {
    if (this.#running === undefined) return this.#start();
    // The sync in flight may have begun before this caller's write: the next one covers it, and all who queue meanwhile.
    this.#queued ??= this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.#start();
      });
    return this.#queued;
  }

  #start(): Promise<void> {
    const run: Promise<void> = this.#syncOnce().finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }
}
