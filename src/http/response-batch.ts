/**
 * Ends the responses finished in one event-loop turn together, at the end of that turn (setImmediate: after
 * every socket that was readable in the turn has been handled). Why: a socket write that wakes a sleeping
 * client costs the writer far more than the write itself (on the 2-core benchmark machine a findOne's
 * writev took ~140 µs of the server's ~240 µs per request), and back-to-back writes share one wake-up.
 * A lone request waits only for the rest of its own turn (microseconds). Not pipelining: each connection
 * still carries one request at a time, and every response is still its own write.
 */
import type { ServerResponse } from 'node:http';

export class ResponseBatch {
  #pending: [ServerResponse, string][] = [];

  /** Ends `res` (its head already written) with `body` at the end of this event-loop turn. */
  end(res: ServerResponse, body: string): void {
    if (this.#pending.push([res, body]) === 1) setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    const pending = this.#pending;
    this.#pending = [];
    for (const [res, body] of pending) {
      try {
        res.end(body, 'utf8');
      } catch {
        res.destroy(); // outside any handler now: a failed write must cost only its own connection
      }
    }
  };
}
