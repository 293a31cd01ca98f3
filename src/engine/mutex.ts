/**
 * A FIFO async mutex. Writes to one collection run under its mutex so a read-modify-write (an update,
 * an insert's existence check) never interleaves with another: concurrent writers lose nothing.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs fn after every earlier holder has finished; the mutex is released even if fn throws. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
