/**
 * ReadGate: snapshots for a store that has none (browser-level reads each chunk in its own IndexedDB
 * transaction). While a hold is open, writes wait; once the last hold is released they go on. Only the
 * one process (tab) that holds the database's lock writes it, so holding its writes is a snapshot.
 */
export class ReadGate {
  #holds = 0;
  #opened: Promise<void> | undefined;
  #open: (() => void) | undefined;

  /** Holds writes until the returned function is called (calling it again does nothing). */
  hold(): () => void {
    if (this.#holds++ === 0) this.#opened = new Promise<void>((resolve) => (this.#open = resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds === 0) {
        this.#open?.();
        this.#opened = undefined;
      }
    };
  }

  /** Resolves once no hold is open. */
  async writable(): Promise<void> {
    while (this.#opened !== undefined) await this.#opened;
  }
}
