/**
 * The vector keys read after a collection opened (collection-vectors.ts openForSearch): until the full
 * key scan lands, a label's liveness and document key come from its own `vkey:` record, read at once
 * (a synchronous LevelDB point read) the first time it is asked for and remembered.
 */
import type { KvStore } from '../../storage/index.js';
import { readVectorKeySync } from './records.js';

export class LateKeys {
  readonly #kv: KvStore;
  readonly #cid: number;
  /** Doc key by label as read; null where the label has no record (not live). */
  readonly #read = new Map<number, string | null>();

  constructor(kv: KvStore, cid: number) {
    this.#kv = kv;
    this.#cid = cid;
  }

  /** The label's document key, or undefined when it is not live. */
  keyOf(label: number): string | undefined {
    let key = this.#read.get(label);
    if (key === undefined) {
      key = readVectorKeySync(this.#kv, this.#cid, label) ?? null;
      this.#read.set(label, key);
    }
    return key ?? undefined;
  }
}
