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
 * Entries sit in arrays of their own, not an object each, and a label finds its entry through one typed
 * array by label (labels are dense: the collection numbers its vectors), not a Map: a search's hits are
 * scattered over the collection, so each lookup is a cache miss or several, and a hash table adds two
 * (measured: 10 cold lookups 2.5-4.3 us through a Map, 0.6-1.4 us by index). That array is the cache's only
 * memory per label ever handed out, 4 bytes (issue 31: arrays of JS values by label cost 32 bytes a document
 * however few bodies were cached); the rest is per cached body, bounded by the budget. An entry's body and
 * key sit side by side in one array, so a hit reads both from one cache line.
 * Past the budget, the bodies cached first go first (a hit does not move its entry). The budget counts what an
 * entry takes in the heap (hitCacheCost), so that it holds as many bodies as its bytes allow.
 */
import { copyJson, type Document } from '../../query/json.js';
import type { StoredDocument } from './types.js';
import { grownLength, grownTo } from '../../platform/typed-arrays.js';

/** An entry's heap bytes beyond its body (its key string, array and queue slots, object headers). */
const ENTRY_BYTES = 100;

/**
 * What an entry whose body has `bodyBytes` bytes of JSON counts against the budget: about its heap bytes.
 * Measured (bench/hit-cache-memory.js, bodies of 22 to 272 bytes): 100 bytes an entry besides the body, and
 * a parsed body about 1.5x its JSON bytes (a body kept as text about 1x, counted as parsed: its first hit
 * parses it in place). A flat count of 256 an entry instead held half the small bodies its budget allowed.
 */
export function hitCacheCost(bodyBytes: number): number {
  return ENTRY_BYTES + Math.ceil(1.5 * bodyBytes);
}

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

/** `#entryOf`'s value for a label without a cached body. */
const NONE = -1;

export class HitCache {
  readonly #maxCost: number;
  readonly #maxBodyBytes: number;
  readonly #parse: (text: string) => Document;
  /** By label: the entry holding its body, or NONE. */
  #entryOf = new Int32Array(0);
  /**
   * By entry, two slots each: at 2 x entry the parsed body, or its JSON text (as stored) until the first hit
   * parses it (undefined: the entry is free); at 2 x entry + 1 its document key.
   */
  #slots: (Document | string | undefined)[] = [];
  /** By entry: its label, what its body counts against the budget, and its place in `#order` (-1: free). */
  #labels: number[] = [];
  #costs: number[] = [];
  #queuedAt: number[] = [];
  /** Entries free for reuse. */
  #free: number[] = [];
  /**
   * Entries in the order their bodies came, oldest from `#head`; a place whose entry was dropped or reused
   * since is not the entry's `#queuedAt`, and is skipped.
   */
  #order: number[] = [];
  #head = 0;
  #cost = 0;
  #size = 0;

  /**
   * `maxBytes` bounds the cached bodies' heap bytes (hitCacheCost); bodies over `maxBodyBytes` bytes of JSON
   * are not kept. `parse` reads a stored body's text (as a read would).
   */
  constructor(maxBytes: number, maxBodyBytes: number, parse: (text: string) => Document) {
    this.#maxCost = maxBytes;
    this.#maxBodyBytes = maxBytes === 0 ? -1 : maxBodyBytes;
    this.#parse = parse;
  }

  get size(): number {
    return this.#size;
  }

  /** About how many bytes of heap the cached bodies take (hitCacheCost each). */
  get bytes(): number {
    return this.#cost;
  }

  /** What the cache holds beyond the bodies (tests): bytes of the array by label, and entries allocated (used or free). */
  get footprint(): { labelBytes: number; entries: number } {
    return { labelBytes: this.#entryOf.byteLength, entries: this.#labels.length };
  }

  /** The key and a copy of the body cached for `label`, if any. */
  get(label: number): StoredDocument | undefined {
    const entry = this.peek(label);
    return entry === undefined ? undefined : { key: entry.key, doc: copyJson(entry.doc) };
  }

  /** As `get`, but the cached body itself: the caller must not change it (nor hand it out unchanged). */
  peek(label: number): StoredDocument | undefined {
    const entry = label < this.#entryOf.length ? this.#entryOf[label]! : NONE;
    if (entry === NONE) return undefined;
    const at = 2 * entry;
    let doc = this.#slots[at]!;
    if (typeof doc === 'string') this.#slots[at] = doc = this.#parse(doc);
    return { key: this.#slots[at + 1] as string, doc };
  }

  /**
   * `peek` (with `shared`, else `get`) of every hit's label, into `found` at the hit's position; positions
   * with nothing cached are left as they are. In passes, each a loop of loads that do not wait on one
   * another: every label's entry, then every body's header, then the results. A search's hits lie anywhere in
   * memory, so nearly each load is a cache miss: one after another, a hit's body waited on its slot and the
   * next hit on both (measured: the body's first read was most of a query's JavaScript besides the search).
   */
  lookUp(hits: readonly { readonly label: number }[], found: (StoredDocument | null)[], shared: boolean): void {
    const entryOf = this.#entryOf;
    const slots = this.#slots;
    const n = hits.length;
    const entries = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const label = hits[i]!.label;
      entries[i] = label < entryOf.length ? entryOf[label]! : NONE;
    }
    const bodies = new Array<Document | string | undefined>(n);
    let texts = 0;
    for (let i = 0; i < n; i++) {
      const entry = entries[i]!;
      const body = entry === NONE ? undefined : slots[2 * entry];
      bodies[i] = body;
      if (typeof body === 'string') texts++;
    }
    for (let i = 0; i < n; i++) {
      const body = bodies[i];
      if (body === undefined) continue;
      const at = 2 * entries[i]!;
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
    if (bodyBytes <= this.#maxBodyBytes) this.#set(label, key, body, hitCacheCost(bodyBytes));
  }

  /** Keeps the body a committed write stored for `label`, as its JSON text (parsed at its first hit). */
  fillWritten(label: number, key: string, text: string): void {
    // UTF-16 length: the UTF-8 bytes of most bodies, within 3x of any.
    if (text.length <= this.#maxBodyBytes) this.#set(label, key, text, hitCacheCost(text.length));
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
    const entry = label < this.#entryOf.length ? this.#entryOf[label]! : NONE;
    if (entry === NONE) return;
    this.#entryOf[label] = NONE;
    this.#slots[2 * entry] = undefined;
    this.#slots[2 * entry + 1] = undefined;
    this.#queuedAt[entry] = -1;
    this.#free.push(entry);
    this.#cost -= this.#costs[entry]!;
    this.#size--;
  }

  clear(): void {
    this.#entryOf = new Int32Array(0);
    this.#slots = [];
    this.#labels = [];
    this.#costs = [];
    this.#queuedAt = [];
    this.#free = [];
    this.#order = [];
    this.#head = 0;
    this.#cost = 0;
    this.#size = 0;
  }

  #set(label: number, key: string, doc: Document | string, cost: number): void {
    this.invalidate(label);
    if (label >= this.#entryOf.length) this.#growLabels(label + 1);
    let entry = this.#free.pop();
    if (entry === undefined) {
      entry = this.#labels.length;
      this.#slots.push(undefined, undefined);
      this.#labels.push(0);
      this.#costs.push(0);
      this.#queuedAt.push(-1);
    }
    this.#slots[2 * entry] = doc;
    this.#slots[2 * entry + 1] = key;
    this.#labels[entry] = label;
    this.#costs[entry] = cost;
    this.#queuedAt[entry] = this.#order.length;
    this.#order.push(entry);
    this.#entryOf[label] = entry;
    this.#cost += cost;
    this.#size++;
    while (this.#cost > this.#maxCost && this.#head < this.#order.length) {
      const oldest = this.#head++;
      const queued = this.#order[oldest]!;
      if (this.#queuedAt[queued] === oldest) this.invalidate(this.#labels[queued]!);
    }
    // The queue also holds places of entries dropped or reused since: rebuilt once those outnumber the live ones.
    if (this.#order.length - this.#head > 2 * this.#size + 1024) this.#compactOrder(true);
    else if (this.#head > 1024 && this.#head * 2 > this.#order.length) this.#compactOrder(false);
  }

  /** Room by label for labels below `limit` (grown by grownLength's step at least: labels come in increasing order). */
  #growLabels(limit: number): void {
    const had = this.#entryOf.length;
    this.#entryOf = grownTo(this.#entryOf, grownLength(had, Math.max(limit, 1024))).fill(NONE, had);
  }

  /**
   * Drops the queue's consumed head (and, with `live`, the places of entries dropped or reused since),
   * moving each queued entry's `#queuedAt` with its place.
   */
  #compactOrder(live: boolean): void {
    const order: number[] = [];
    for (let at = this.#head; at < this.#order.length; at++) {
      const entry = this.#order[at]!;
      const current = this.#queuedAt[entry] === at;
      if (!current && live) continue;
      // A place that is not current keeps pointing elsewhere: every place moves by the same amount, or is dropped.
      if (current) this.#queuedAt[entry] = order.length;
      order.push(entry);
    }
    this.#order = order;
    this.#head = 0;
  }
}
