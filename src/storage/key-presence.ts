/**
 * Which keys under a prefix certainly do not exist, answered from memory (issue 31: insertMany's existence
 * check reads nothing from LevelDB for new ids, so the JS thread never waits on LevelDB's mutex for it).
 * A KeyPresence is a growing Bloom filter (bloom-filter.ts) of the prefix's keys, built lazily: from the
 * moment it is made, KvStore notes in it every key a write puts under the prefix (KeyPresences.note, at
 * prepare: before the write lands), then it scans the keys already stored. Until that scan is complete
 * (and forever after a scan that failed) every key "may exist", and the caller reads as it would without it.
 * It never answers "absent" for a key that is stored: deletes do not remove keys (they become false positives).
 */
import { GrowingBloomFilter } from './bloom-filter.js';
import type { XxHash } from './xxhash.js';

export type PresenceState = 'scanning' | 'complete' | 'failed';

export class KeyPresence {
  readonly prefix: string;
  readonly #filter: GrowingBloomFilter;
  #state: PresenceState = 'scanning';
  /** Resolves once the scan has ended: true when complete, false when it failed (the filter is then unused). */
  readonly scanned: Promise<boolean>;

  /**
   * Starts the scan of the keys stored under the prefix: `storedKeys` must list every key stored before its
   * first step (writes noted from the making of this one cover the rest).
   */
  constructor(prefix: string, hash: XxHash, storedKeys: () => AsyncIterable<string>) {
    this.prefix = prefix;
    this.#filter = new GrowingBloomFilter(hash);
    this.scanned = this.#scan(storedKeys);
  }

  get state(): PresenceState {
    return this.#state;
  }

  /** False only when `key` (whole, prefix included) is certainly not stored; true until the scan is complete. */
  mayHold(key: string): boolean {
    return this.#state !== 'complete' || this.#filter.mayHold(key);
  }

  /** Notes a key written under the prefix. */
  add(key: string): void {
    this.#filter.add(key);
  }

  /** The bytes of its filter. */
  get bytes(): number {
    return this.#filter.bytes;
  }

  /** The distinct keys noted (about: those it took for ones it had are not counted). */
  get count(): number {
    return this.#filter.count;
  }

  async #scan(storedKeys: () => AsyncIterable<string>): Promise<boolean> {
    try {
      for await (const key of storedKeys()) this.#filter.add(key);
      this.#state = 'complete';
      return true;
    } catch {
      // Unusable: every key keeps reading as "may exist" (the store's own read then reports its failure).
      this.#state = 'failed';
      return false;
    }
  }
}

/**
 * A store's KeyPresences by prefix, the one place its writes are noted in them, and its writes not yet
 * settled, which a new KeyPresence's scan waits for.
 */
export class KeyPresences {
  /** By prefix length, then prefix: a written key finds its prefix with one slice per length in use. */
  readonly #byLength = new Map<number, Map<string, KeyPresence>>();
  /** The first code units of the prefixes: most written keys (index entries) are passed over by one test. */
  readonly #firstUnits = new Set<number>();
  /** Writes prepared or under way and not yet settled (written, failed or discarded). */
  readonly #unsettled = new Set<Promise<void>>();

  /**
   * The KeyPresence of `prefix`, made at the first call: puts are noted in it from then on, and its scan
   * (`storedKeys`: the keys under the prefix) starts once the writes prepared before the call have settled,
   * so that it sees each of them.
   */
  presence(prefix: string, hash: XxHash, storedKeys: () => AsyncIterable<string>): KeyPresence {
    const made = this.#byLength.get(prefix.length)?.get(prefix);
    if (made !== undefined) return made;
    if (prefix.length === 0) throw new TypeError('a key presence needs a non-empty prefix');
    const before = [...this.#unsettled];
    const presence = new KeyPresence(prefix, hash, async function* () {
      await Promise.all(before);
      yield* storedKeys();
    });
    let sameLength = this.#byLength.get(prefix.length);
    if (sameLength === undefined) this.#byLength.set(prefix.length, (sameLength = new Map()));
    sameLength.set(prefix, presence);
    this.#firstUnits.add(prefix.charCodeAt(0));
    return presence;
  }

  /** Counts a write as unsettled until the returned function is called (it must be, once written or dropped). */
  unsettledWrite(): () => void {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.#unsettled.add(settled);
    return () => {
      this.#unsettled.delete(settled);
      settle();
    };
  }

  /** Notes a key a write puts (called for every put, before it is written). */
  note(key: string): void {
    if (!this.#firstUnits.has(key.charCodeAt(0))) return;
    for (const [length, prefixes] of this.#byLength) prefixes.get(key.slice(0, length))?.add(key);
  }
}
