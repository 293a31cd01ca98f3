/**
 * The bodies of a vector collection's documents most likely to be search hits, by vector label: those
 * recent searches read, and those recent writes stored. Reading the hits is the per-query work of a vector
 * search besides the graph: a cached hit costs a lookup in a Map and a copy, where a read costs the
 * label's document key (a lookup in the collection's large label map), a row cache lookup under a
 * concatenated LevelDB key or a LevelDB Get (3-5 us), a UTF-8 decode and a JSON.parse.
 *
 * An entry holds the body a label's document has now: a committed write that keeps a document's label
 * (same vector) drops that label's entry (or replaces it with the body written), a label whose document
 * was deleted or got another vector is never a hit again (labels are never reused), and a body read while
 * a write committed is never kept (the store checks). Written bodies are kept as their JSON text and
 * parsed at their first hit, so writes pay nothing for bodies no search finds. The cached objects stay
 * private: `get` returns a deep copy, since callers change the documents they get (restoring `$vector`,
 * updates, user code holding results); `peek` lends the body itself to a caller that copies what it
 * keeps (find's projection).
 *
 * Entries sit in arrays indexed by label (labels are dense: the collection numbers its vectors), not a
 * Map: a search's hits are scattered over the collection, so each lookup is a cache miss or several,
 * and a hash table adds two (measured: 10 cold lookups 2.5-4.3 us through a Map, 0.6-1.4 us by index).
 * A label's body and key sit side by side in one array (its cost and stamp in others, read only by writes)
 * rather than in an object per entry: a hit reads both from the array itself, one dependent memory load
 * fewer per hit (with the other changes of issue 31's command path, 2-3 us less a 10-hit query at 20k x 128:
 * bench/find-vector-bench.js --same-graph).
 * Past the budget, the bodies cached first go first (a hit does not move its entry).
 */
import { copyJson, type Document } from '../../query/json.js';
import type { StoredDocument } from './types.js';

/** A rough per-entry cost beyond the body's JSON bytes (array slots, queue slots, object headers). */
const ENTRY_OVERHEAD = 256;

/**
 * What a staged write tells the hit cache once it commits: the bodies it stores under vector labels (as
 * their JSON text), and the labels it retires.
 */
export class WrittenHits {
  readonly labels: number[] = [];
  readonly keys: string[] = [];
  readonly texts: string[] = [];

  constructor(readonly retired: readonly number[]) {}

  add(label: number, key: string, text: string): void {
    this.labels.push(label);
    this.keys.push(key);
    this.texts.push(text);
  }
}

export class HitCache {
  readonly #maxCost: number;
  readonly #maxBodyBytes: number;
  readonly #parse: (text: string) => Document;
  /**
   * By label, two slots each: at 2 x label the parsed body, or its JSON text (as stored) until the first hit
   * parses it (undefined: none); at 2 x label + 1 its document key. Side by side, a hit finds both in one
   * cache line.
   */
  #slots: (Document | string | undefined)[] = [];
  /** By label: what the cached body counts against the budget. */
  #costs: number[] = [];
  /** By label: the number of the `#set` that stored the body now cached (tells a queued entry from its successor). */
  #stamps: number[] = [];
  /** Labels in the order their bodies came, with the stamp each had, oldest from `#head` (some replaced or dropped since). */
  #orderLabels: number[] = [];
  #orderStamps: number[] = [];
  #head = 0;
  #nextStamp = 0;
  #cost = 0;
  #size = 0;

  /**
   * `maxBytes` bounds the cached bodies' JSON bytes (plus overhead); bodies over `maxBodyBytes` are not
   * kept. `parse` reads a stored body's text (as a read would).
   */
  constructor(maxBytes: number, maxBodyBytes: number, parse: (text: string) => Document) {
    this.#maxCost = maxBytes;
    this.#maxBodyBytes = maxBytes === 0 ? -1 : maxBodyBytes;
    this.#parse = parse;
  }

  get size(): number {
    return this.#size;
  }

  /** About how many bytes the cached bodies take (their JSON bytes plus a per-entry overhead). */
  get bytes(): number {
    return this.#cost;
  }

  /** The key and a copy of the body cached for `label`, if any. */
  get(label: number): StoredDocument | undefined {
    const entry = this.peek(label);
    return entry === undefined ? undefined : { key: entry.key, doc: copyJson(entry.doc) };
  }

  /** As `get`, but the cached body itself: the caller must not change it (nor hand it out unchanged). */
  peek(label: number): StoredDocument | undefined {
    const at = 2 * label;
    let doc = at < this.#slots.length ? this.#slots[at] : undefined;
    if (doc === undefined) return undefined;
    if (typeof doc === 'string') this.#slots[at] = doc = this.#parse(doc);
    return { key: this.#slots[at + 1] as string, doc };
  }

  /**
   * `peek` (with `shared`, else `get`) of every hit's label, into `found` at the hit's position; positions
   * with nothing cached are left as they are. In passes, each a loop of loads that do not wait on one
   * another: every slot, then every body's header, then the entries. A search's hits lie anywhere in
   * memory, so nearly each load is a cache miss: one after another, a hit's body waited on its slot and the
   * next hit on both (measured: the body's first read was most of a query's JavaScript besides the search).
   */
  lookUp(hits: readonly { readonly label: number }[], found: (StoredDocument | null)[], shared: boolean): void {
    const slots = this.#slots;
    const n = hits.length;
    const bodies = new Array<Document | string | undefined>(n);
    for (let i = 0; i < n; i++) {
      const at = 2 * hits[i]!.label;
      bodies[i] = at < slots.length ? slots[at] : undefined;
    }
    let texts = 0;
    for (let i = 0; i < n; i++) if (typeof bodies[i] === 'string') texts++;
    for (let i = 0; i < n; i++) {
      const body = bodies[i];
      if (body === undefined) continue;
      const at = 2 * hits[i]!.label;
      let doc: Document;
      if (texts > 0 && typeof body === 'string') slots[at] = doc = this.#parse(body);
      else doc = body as Document;
      found[i] = { key: slots[at + 1] as string, doc: shared ? doc : copyJson(doc) };
    }
  }

  /**
   * Keeps the body of `label`'s document (parsed from `bodyBytes` bytes of JSON; the caller must not
   * change it afterwards), read by a read no write committed during.
   */
  fill(label: number, key: string, body: Document, bodyBytes: number): void {
    if (bodyBytes <= this.#maxBodyBytes) this.#set(label, key, body, bodyBytes + ENTRY_OVERHEAD);
  }

  /** Keeps the body a committed write stored for `label`, as its JSON text (parsed at its first hit). */
  fillWritten(label: number, key: string, text: string): void {
    // UTF-16 length: the UTF-8 bytes of most bodies, within 3x of any.
    if (text.length <= this.#maxBodyBytes) this.#set(label, key, text, text.length + ENTRY_OVERHEAD);
    else this.invalidate(label);
  }

  /**
   * After a commit: retired labels go, and each body stored under a vector label is kept (as text; a
   * search soon after a write, a bulk load's first queries, finds it without a read).
   */
  remember(hits: WrittenHits): void {
    for (const label of hits.retired) this.invalidate(label);
    for (let i = 0; i < hits.labels.length; i++) this.fillWritten(hits.labels[i]!, hits.keys[i]!, hits.texts[i]!);
  }

  /** Drops the body of a label whose document a committed write changed. */
  invalidate(label: number): void {
    const at = 2 * label;
    if (at >= this.#slots.length || this.#slots[at] === undefined) return;
    this.#slots[at] = undefined;
    this.#slots[at + 1] = undefined;
    this.#cost -= this.#costs[label]!;
    this.#size--;
  }

  clear(): void {
    this.#slots = [];
    this.#costs = [];
    this.#stamps = [];
    this.#orderLabels = [];
    this.#orderStamps = [];
    this.#head = 0;
    this.#cost = 0;
    this.#size = 0;
  }

  #set(label: number, key: string, doc: Document | string, cost: number): void {
    this.invalidate(label);
    // Grown a slot at a time (labels come in increasing order): an array grown by index could turn sparse.
    while (this.#costs.length <= label) {
      this.#slots.push(undefined, undefined);
      this.#costs.push(0);
      this.#stamps.push(0);
    }
    const stamp = ++this.#nextStamp;
    this.#slots[2 * label] = doc;
    this.#slots[2 * label + 1] = key;
    this.#costs[label] = cost;
    this.#stamps[label] = stamp;
    this.#orderLabels.push(label);
    this.#orderStamps.push(stamp);
    this.#cost += cost;
    this.#size++;
    while (this.#cost > this.#maxCost && this.#head < this.#orderLabels.length) {
      const oldest = this.#head++;
      if (this.#isCurrent(oldest)) this.invalidate(this.#orderLabels[oldest]!);
    }
    // The queue also holds entries replaced or dropped since: rebuilt once those outnumber the live ones.
    if (this.#orderLabels.length - this.#head > 2 * this.#size + 1024) this.#compactOrder(true);
    else if (this.#head > 1024 && this.#head * 2 > this.#orderLabels.length) this.#compactOrder(false);
  }

  /** Whether the queue's entry at `at` is the body its label has cached now. */
  #isCurrent(at: number): boolean {
    const label = this.#orderLabels[at]!;
    return this.#slots[2 * label] !== undefined && this.#stamps[label] === this.#orderStamps[at];
  }

  /** Drops the queue's consumed head (and, with `live`, the entries replaced or dropped since). */
  #compactOrder(live: boolean): void {
    const labels: number[] = [];
    const stamps: number[] = [];
    for (let at = this.#head; at < this.#orderLabels.length; at++) {
      if (live && !this.#isCurrent(at)) continue;
      labels.push(this.#orderLabels[at]!);
      stamps.push(this.#orderStamps[at]!);
    }
    this.#orderLabels = labels;
    this.#orderStamps = stamps;
    this.#head = 0;
  }
}
