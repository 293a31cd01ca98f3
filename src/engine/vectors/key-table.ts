/**
 * Document keys by label and labels by document key in typed storage (for labels.ts), instead of a JS
 * string and a Map entry per document: every live key's UTF-8 bytes in one growing arena, its place there
 * by label (labels are dense from 0 and never reused), and an open-addressing hash table of labels keyed
 * by the key's bytes. About 8 bytes per label ever handed out, plus the key's bytes and 4-8 bytes of hash
 * table per live key (a Map entry and a string cost about 100 bytes of V8 heap per document). Keys are
 * decoded to strings only when asked for (a search's hits). The hash table grows without a pause: the
 * old one is drained into the new one a few thousand slots per write (rehashing 786k keys at once took
 * 64 ms of the event loop during a bulk load of 1M, issue 31).
 */
import { grownLength, grownTo } from '../../platform/typed-arrays.js';

const EMPTY = -1;
const TOMBSTONE = -2;
/** Labels live in an Int32Array: 2^31 labels handed out (every vector change takes one) is the table's limit. */
const MAX_LABEL = 0x7fff_ffff;
/** Flag in `#length` for a key with bytes past ASCII (decoded by TextDecoder, not char by char). */
const WIDE = 0x8000_0000;
/**
 * Keys decoded lately, by label modulo this (a search's hits are decoded once each, ~150 ns, and the same
 * hits come back query after query).
 */
const RECENT = 1024;
/** Slots of the old hash table moved into the new one per write while it drains (~0.3 ms). */
const DRAIN_STEP = 4096;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** FNV-1a over bytes (32 bits). */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** A key's bytes, hash and width, as a lookup computes them once. */
interface Probe {
  readonly key: string;
  /** The key's UTF-8 bytes when it is not plain ASCII (else its chars are its bytes). */
  readonly wide: Uint8Array | undefined;
  readonly byteLength: number;
  readonly hash: number;
}

function probeOf(key: string): Probe {
  // ASCII (every id the engine makes, nearly always): hash the chars as bytes, no encoding.
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x80) {
      const wide = encoder.encode(key);
      return { key, wide, byteLength: wide.length, hash: hashBytes(wide, 0, wide.length) };
    }
    h = Math.imul(h ^ c, 0x01000193);
  }
  return { key, wide: undefined, byteLength: key.length, hash: h >>> 0 };
}

/** What KeyTable.clone returns: the labels of one moment, by key. */
export interface LabelLookup {
  readonly size: number;
  get(docKey: string): number | undefined;
  /** The labels, ascending. */
  values(): IterableIterator<number>;
}

export class KeyTable implements LabelLookup {
  #arena = new Uint8Array(4096);
  #arenaUsed = 0;
  /** Arena bytes of keys no longer held (reclaimed by #compactArena). */
  #deadBytes = 0;
  /** By label: where its key starts in the arena, and its byte length + 1 (| WIDE); 0 when it holds none. */
  #start = new Uint32Array(0);
  #length = new Uint32Array(0);
  /** Labels by hash of their key; EMPTY or TOMBSTONE where none. Its length is a power of two. */
  #slots = new Int32Array(16).fill(EMPTY);
  /** Slots that are not EMPTY (keys and tombstones): the probe chains' load. */
  #filled = 0;
  /** The hash table #slots replaced, while its keys move over (each key is in one of the two); its next slot to move. */
  #draining: Int32Array | undefined;
  #drainAt = 0;
  /** Keys in the hash tables. */
  #size = 0;
  /** The keys decoded lately (keyOf): the label each slot holds (-1: none) and its key. */
  readonly #recentLabels = new Int32Array(RECENT).fill(-1);
  readonly #recentKeys: (string | undefined)[] = new Array<string | undefined>(RECENT).fill(undefined);

  /** Keys held (one label each). */
  get size(): number {
    return this.#size;
  }

  /** Bytes of typed storage held (stats, benchmarks). */
  get bytes(): number {
    return this.#arena.byteLength + this.#start.byteLength + this.#length.byteLength + this.#slots.byteLength + (this.#draining?.byteLength ?? 0);
  }

  /** Whether `label` holds a key. */
  holds(label: number): boolean {
    return label < this.#length.length && this.#length[label] !== 0;
  }

  /** The key `label` holds, or undefined. */
  keyOf(label: number): string | undefined {
    if (label >= this.#length.length) return undefined;
    const length = this.#length[label]!;
    if (length === 0) return undefined;
    const cached = label & (RECENT - 1);
    if (this.#recentLabels[cached] === label) return this.#recentKeys[cached];
    const start = this.#start[label]!;
    const key = decoder.decode(this.#arena.subarray(start, start + (length & ~WIDE) - 1));
    this.#recentLabels[cached] = label;
    this.#recentKeys[cached] = key;
    return key;
  }

  /** The label the hash table gives `docKey`, or undefined. */
  get(docKey: string): number | undefined {
    const probe = probeOf(docKey);
    const slot = this.#find(this.#slots, probe);
    if (slot >= 0) return this.#slots[slot]!;
    const old = this.#draining;
    const at = old === undefined ? -1 : this.#find(old, probe);
    return at < 0 ? undefined : old![at]!;
  }

  /** `label` holds `docKey`, and `docKey` maps to `label` (from another label it mapped to, if any). */
  set(label: number, docKey: string): void {
    const probe = probeOf(docKey);
    if (this.holds(label)) {
      if (this.#equals(label, probe)) {
        this.#map(probe, label);
        return;
      }
      this.delete(label);
    }
    this.#store(label, probe);
    this.#map(probe, label);
  }

  /** `label` holds no key; its key stops mapping to it (it may map to a newer label: then it keeps that). */
  delete(label: number): void {
    if (!this.holds(label)) return;
    this.#drainStep();
    const start = this.#start[label]!;
    const length = this.#length[label]!;
    const byteLength = (length & ~WIDE) - 1;
    const hash = hashBytes(this.#arena, start, start + byteLength);
    if (!this.#unmap(this.#slots, hash, label) && this.#draining !== undefined) this.#unmap(this.#draining, hash, label);
    this.#length[label] = 0;
    if (this.#recentLabels[label & (RECENT - 1)] === label) this.#recentLabels[label & (RECENT - 1)] = -1;
    this.#deadBytes += byteLength;
    if (this.#deadBytes > 65_536 && this.#deadBytes * 2 > this.#arenaUsed) this.#compactArena();
  }

  /** Labels below `limit` hold keys soon (a load): their places are allocated at once. */
  reserve(limit: number): void {
    if (limit > this.#length.length) this.#growLabels(limit);
  }

  clear(): void {
    this.#arena = new Uint8Array(4096);
    this.#arenaUsed = 0;
    this.#deadBytes = 0;
    this.#start = new Uint32Array(0);
    this.#length = new Uint32Array(0);
    this.#slots = new Int32Array(16).fill(EMPTY);
    this.#filled = 0;
    this.#draining = undefined;
    this.#size = 0;
    this.#recentLabels.fill(-1);
  }

  /** The labels that hold keys, ascending. */
  *labels(): IterableIterator<number> {
    // Read afresh at each step: the arrays are replaced as labels are added.
    for (let label = 0; label < this.#length.length; label++) if (this.#length[label] !== 0) yield label;
  }

  /** The labels that hold keys, ascending (as a Map's values). */
  values(): IterableIterator<number> {
    return this.labels();
  }

  /** A copy as it is now (later changes to either do not reach the other): one memcpy per array. */
  clone(): KeyTable {
    const copy = new KeyTable();
    copy.#arena = this.#arena.slice(0, Math.max(16, this.#arenaUsed));
    copy.#arenaUsed = this.#arenaUsed;
    copy.#deadBytes = this.#deadBytes;
    copy.#start = this.#start.slice();
    copy.#length = this.#length.slice();
    copy.#slots = this.#slots.slice();
    copy.#filled = this.#filled;
    copy.#draining = this.#draining?.slice();
    copy.#drainAt = this.#drainAt;
    copy.#size = this.#size;
    return copy;
  }

  /** Whether `label`'s key is the probe's. */
  #equals(label: number, probe: Probe): boolean {
    const length = this.#length[label]!;
    if ((length & ~WIDE) - 1 !== probe.byteLength || ((length & WIDE) !== 0) !== (probe.wide !== undefined)) return false;
    const arena = this.#arena;
    const start = this.#start[label]!;
    if (probe.wide !== undefined) {
      for (let i = 0; i < probe.byteLength; i++) if (arena[start + i] !== probe.wide[i]) return false;
      return true;
    }
    const key = probe.key;
    for (let i = 0; i < probe.byteLength; i++) if (arena[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  /** The slot of `slots` (a hash table) whose label holds the probe's key, or -1. */
  #find(slots: Int32Array, probe: Probe): number {
    const mask = slots.length - 1;
    for (let i = probe.hash & mask; ; i = (i + 1) & mask) {
      const label = slots[i]!;
      if (label === EMPTY) return -1;
      if (label !== TOMBSTONE && this.#equals(label, probe)) return i;
    }
  }

  /** Points the probe's key at `label` (which holds it). */
  #map(probe: Probe, label: number): void {
    this.#drainStep();
    const found = this.#find(this.#slots, probe);
    if (found >= 0) {
      this.#slots[found] = label;
      return;
    }
    if (this.#draining !== undefined) {
      // Still in the old table: it moves to the new one now.
      const at = this.#find(this.#draining, probe);
      if (at >= 0) {
        this.#draining[at] = TOMBSTONE;
        this.#size--;
      }
    }
    if ((this.#filled + 1) * 4 > this.#slots.length * 3) this.#rehash();
    this.#place(probe.hash, label);
    this.#size++;
  }

  /** Puts `label` into the first free slot of its hash's chain in #slots. */
  #place(hash: number, label: number): void {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let i = hash & mask;
    while (slots[i] !== EMPTY && slots[i] !== TOMBSTONE) i = (i + 1) & mask;
    if (slots[i] === EMPTY) this.#filled++;
    slots[i] = label;
  }

  /** Removes `label` from its hash's chain in `slots`; whether it was there. */
  #unmap(slots: Int32Array, hash: number, label: number): boolean {
    const mask = slots.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const at = slots[i]!;
      if (at === EMPTY) return false;
      if (at === label) {
        slots[i] = TOMBSTONE;
        this.#size--;
        return true;
      }
    }
  }

  /** A new table sized for twice the keys, which the old one drains into (tombstones dropped). */
  #rehash(): void {
    while (this.#draining !== undefined) this.#drainStep();
    let capacity = 16;
    while (capacity < (this.#size + 1) * 2) capacity *= 2;
    this.#draining = this.#slots;
    this.#drainAt = 0;
    this.#slots = new Int32Array(capacity).fill(EMPTY);
    this.#filled = 0;
  }

  /** Moves the keys of the next DRAIN_STEP slots of the draining table into #slots. */
  #drainStep(): void {
    const old = this.#draining;
    if (old === undefined) return;
    const end = Math.min(old.length, this.#drainAt + DRAIN_STEP);
    for (let j = this.#drainAt; j < end; j++) {
      const label = old[j]!;
      if (label < 0) continue;
      const start = this.#start[label]!;
      this.#place(hashBytes(this.#arena, start, start + (this.#length[label]! & ~WIDE) - 1), label);
    }
    this.#drainAt = end;
    if (end === old.length) this.#draining = undefined;
  }

  /** Writes the probe's key bytes for `label`. */
  #store(label: number, probe: Probe): void {
    if (!(label >= 0 && label <= MAX_LABEL)) throw new RangeError(`vector label ${label} is beyond the key table's ${MAX_LABEL}`);
    if (label >= this.#length.length) this.#growLabels(label + 1);
    const need = this.#arenaUsed + probe.byteLength;
    if (need > this.#arena.length) {
      const arena = new Uint8Array(grownLength(this.#arena.length, need));
      arena.set(this.#arena.subarray(0, this.#arenaUsed));
      this.#arena = arena;
    }
    const at = this.#arenaUsed;
    if (probe.wide !== undefined) this.#arena.set(probe.wide, at);
    else for (let i = 0; i < probe.byteLength; i++) this.#arena[at + i] = probe.key.charCodeAt(i);
    this.#arenaUsed = need;
    this.#start[label] = at;
    this.#length[label] = (probe.byteLength + 1) | (probe.wide === undefined ? 0 : WIDE);
  }

  #growLabels(limit: number): void {
    const size = grownLength(this.#length.length, Math.max(limit, 1024));
    this.#start = grownTo(this.#start, size);
    this.#length = grownTo(this.#length, size);
  }

  /** Rewrites the arena with only the keys held, in label order. */
  #compactArena(): void {
    const arena = new Uint8Array(Math.max(4096, this.#arenaUsed - this.#deadBytes));
    let used = 0;
    const length = this.#length;
    for (let label = 0; label < length.length; label++) {
      if (length[label] === 0) continue;
      const start = this.#start[label]!;
      const bytes = (length[label]! & ~WIDE) - 1;
      arena.set(this.#arena.subarray(start, start + bytes), used);
      this.#start[label] = used;
      used += bytes;
    }
    this.#arena = arena;
    this.#arenaUsed = used;
    this.#deadBytes = 0;
  }
}
