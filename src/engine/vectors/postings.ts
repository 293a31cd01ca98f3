/**
 * A vector collection's secondary index in memory, by vector label: for each index entry (`path\0value`,
 * as the shredder files it) the sorted labels of the documents that hold it. Kept exact on every
 * committed write and rebuilt at open from a snapshot of LevelDB's index entries (writes committed meanwhile
 * are queued and replayed after), so a filtered vector search plans its
 * candidates (planner.ts planFrom) without reading LevelDB. Values longer than MAX_VALUE_CHARS are left
 * out; their paths then answer equalities on shorter values only (ranges there go to LevelDB).
 */
import { keys } from '../../storage/index.js';
import type { DocumentChange, IndexBounds } from '../changes.js';
import type { CandidateSource } from '../planner.js';

const { SEP, HIGH, compareKeys } = keys;

const EMPTY = new Uint32Array(0);

/** Encoded values longer than this (long texts) are not held: they would cost memory and rarely filter. */
const MAX_VALUE_CHARS = 128;

/**
 * Paths whose values are never held: `_id` equalities and `$in` are answered from document keys (the
 * planner's `ids`), and holding one value per document cost ~130 bytes of heap each (13 MB at 100k). Its
 * ranges and `$exists` read LevelDB's index, as on a path with values too long to hold.
 */
const UNHELD_PATHS: ReadonlySet<string> = new Set(['_id']);

/** A sorted set of labels: a filter's candidates, as CollectionVectors.search takes them. */
export class LabelSet implements Iterable<number> {
  readonly labels: Uint32Array;
  /** See AllowedLabels.contentKey: given when `sorted` is never changed, or never handed out again once it is. */
  readonly contentKey: object | undefined;

  constructor(sorted: Uint32Array, contentKey?: object) {
    this.labels = sorted;
    this.contentKey = contentKey;
  }

  get size(): number {
    return this.labels.length;
  }

  has(label: number): boolean {
    return indexOf(this.labels, this.labels.length, label) >= 0;
  }

  [Symbol.iterator](): Iterator<number> {
    return this.labels[Symbol.iterator]();
  }
}

/** One entry's labels: a lone label as a number (most values of a unique field), else a growable run. */
type Run = number | Labels;

interface Labels {
  values: Uint32Array;
  size: number;
  /** The view equalNow hands out, until the run next changes (then a new one): it stands for these labels only. */
  view?: Uint32Array | undefined;
}

interface PathValues {
  readonly values: Set<string>;
  /** `values` in LevelDB's key order, for ranges: sorted at the first range, then kept in order. */
  sorted: string[] | undefined;
  /** Some value under this path was too long to hold: only equalities on held values can be answered. */
  partial: boolean;
}

export class VectorPostings {
  readonly #runs = new Map<string, Run>();
  readonly #paths = new Map<string, PathValues>();
  #ready = false;
  /** While a build runs: the writes committed since its snapshot, to apply after it. */
  #queued: (() => void)[] | undefined;
  /** Bumped by every clear: a build started before one is abandoned. */
  #epoch = 0;

  /** Whether the postings hold the whole index (built at open; until then searches read LevelDB). */
  get ready(): boolean {
    return this.#ready;
  }

  /**
   * Starts a build, to call between writes (under the collection's write lock) together with taking the
   * snapshot and the labels it will read: writes committed from then on are queued. The returned function
   * builds from every index entry of that snapshot (in key order) and the labels of that moment, replays
   * the queued writes, and makes the postings ready, unless they were cleared meanwhile.
   */
  startBuild(): (entries: AsyncIterable<{ entry: string; key: string }>, labels: { get(key: string): number | undefined }) => Promise<void> {
    this.clear();
    const epoch = this.#epoch;
    this.#queued = [];
    return async (entries, labels) => {
      for await (const { entry, key } of entries) {
        if (this.#epoch !== epoch) return;
        const label = labels.get(key);
        if (label !== undefined) this.#add(entry, label, false);
      }
      if (this.#epoch !== epoch) return;
      // Entries came in document-key order, not label order.
      for (const [entry, run] of this.#runs) {
        if (typeof run === 'number') continue;
        const sorted = unique(run.values.subarray(0, run.size).sort());
        this.#runs.set(entry, { values: sorted, size: sorted.length });
      }
      const queued = this.#queued ?? [];
      this.#queued = undefined;
      this.#ready = true;
      for (const write of queued) write();
    };
  }

  /** Forgets everything (and abandons a build); searches read LevelDB until the next build. */
  clear(): void {
    this.#runs.clear();
    this.#paths.clear();
    this.#ready = false;
    this.#queued = undefined;
    this.#epoch++;
  }

  /** The collection was emptied: the (empty) postings are exact. */
  reset(): void {
    this.clear();
    this.#ready = true;
  }

  /**
   * Applies committed changes: each document's old entries lose its old label, its new entries gain its
   * new one (`oldLabels[i]` is change i's label before the write, `newLabels` the labels after it).
   */
  apply(
    changes: readonly DocumentChange[],
    oldLabels: readonly (number | undefined)[],
    newLabels: ReadonlyMap<string, number>,
    entriesOf: (doc: NonNullable<DocumentChange['before']>) => readonly string[],
  ): void {
    if (this.#queued) {
      this.#queued.push(() => this.apply(changes, oldLabels, newLabels, entriesOf));
      return;
    }
    if (!this.#ready) return;
    changes.forEach((change, i) => {
      const oldLabel = change.before === null ? undefined : oldLabels[i];
      const newLabel = change.after === null ? undefined : newLabels.get(change.key);
      const before = oldLabel === undefined ? [] : entriesOf(change.before!);
      const after = newLabel === undefined ? [] : change.after!.indexEntries;
      const kept = oldLabel !== undefined && oldLabel === newLabel ? new Set(after) : undefined;
      for (const entry of before) if (!kept?.has(entry)) this.#delete(entry, oldLabel!);
      const had = kept && new Set(before);
      for (const entry of after) if (!had?.has(entry)) this.#add(entry, newLabel!, true);
    });
  }

  /** The postings as the planner's source of candidates (sorted unique labels). */
  source(labelOf: (docKey: string) => number | undefined): CandidateSource<Uint32Array> {
    return {
      range: (indexPath, bounds, cap) => this.#range(indexPath, bounds, cap),
      ids: (docKeys) => {
        const labels: number[] = [];
        for (const key of docKeys) {
          const label = labelOf(key);
          if (label !== undefined) labels.push(label);
        }
        return unique(Uint32Array.from(labels).sort());
      },
      unionAll,
      intersect: intersectSorted,
      size: (set) => set.length,
    };
  }

  /**
   * The sorted labels of one index entry (an equality: the path's encoded value), a copy; undefined when
   * values that long are not held (planner.ts reads LevelDB then).
   */
  equal(indexPath: string, value: string): Uint32Array | undefined {
    return this.equalNow(indexPath, value)?.slice();
  }

  /**
   * As `equal`, but a view of the entry's labels, not a copy: valid only until the next write applies, so
   * to be used before the caller awaits anything. `entry` is `indexPath SEP value` when the caller has it.
   */
  equalNow(indexPath: string, value: string, entry = indexPath + SEP + value): Uint32Array | undefined {
    if (value.length > MAX_VALUE_CHARS || UNHELD_PATHS.has(indexPath)) return undefined;
    const run = this.#runs.get(entry);
    if (run === undefined) return EMPTY;
    if (typeof run === 'number') return Uint32Array.of(run);
    run.view ??= run.values.subarray(0, run.size);
    return run.view;
  }

  #range(indexPath: string, bounds: IndexBounds, cap: number): Uint32Array | undefined {
    const path = this.#paths.get(indexPath);
    const { gte, gt, lt } = bounds;
    // An equality: one run.
    if (gte !== undefined && gt === undefined && gte.endsWith(SEP) && lt === gte + HIGH) return this.equal(indexPath, gte.slice(0, -1));
    if (path === undefined) return new Uint32Array(0);
    if (path.partial) return undefined;
    path.sorted ??= [...path.values].sort(compareValues);
    const sorted = path.sorted;
    const upper = lt ?? HIGH;
    // Entries are `value SEP docKey`: the value's entries are within bounds exactly when `value SEP` is.
    let at = lowerBound(sorted, (value) => (gt !== undefined ? compareKeys(value + SEP, gt) > 0 : compareKeys(value + SEP, gte ?? '') >= 0));
    const runs: Uint32Array[] = [];
    let total = 0;
    for (; at < sorted.length && compareKeys(sorted[at]! + SEP, upper) < 0; at++) {
      const run = this.#runs.get(indexPath + SEP + sorted[at]!)!;
      const labels = typeof run === 'number' ? Uint32Array.of(run) : run.values.subarray(0, run.size);
      total += labels.length;
      if (total > cap) return undefined;
      runs.push(labels);
    }
    return unionAll(runs);
  }

  #add(entry: string, label: number, keepSorted: boolean): void {
    const split = entry.indexOf(SEP);
    const indexPath = entry.slice(0, split);
    let path = this.#paths.get(indexPath);
    if (path === undefined) this.#paths.set(indexPath, (path = { values: new Set(), sorted: undefined, partial: false }));
    if (entry.length - split - 1 > MAX_VALUE_CHARS || UNHELD_PATHS.has(indexPath)) {
      path.partial = true;
      return;
    }
    const run = this.#runs.get(entry);
    if (run === undefined) {
      const value = entry.slice(split + 1);
      this.#runs.set(entry, label);
      path.values.add(value);
      // Kept in order rather than sorted again: writes between ranges would re-sort every value each time.
      path.sorted?.splice(sortedPosition(path.sorted, value), 0, value);
      return;
    }
    if (typeof run === 'number') {
      if (run === label) return;
      this.#runs.set(entry, { values: run < label || !keepSorted ? Uint32Array.of(run, label, 0, 0) : Uint32Array.of(label, run, 0, 0), size: 2 });
      return;
    }
    insertLabel(run, label, keepSorted);
  }

  #delete(entry: string, label: number): void {
    const run = this.#runs.get(entry);
    if (run === undefined) return;
    if (typeof run === 'number') {
      if (run !== label) return;
    } else {
      const at = indexOf(run.values, run.size, label);
      if (at < 0) return;
      run.view = undefined;
      run.values.copyWithin(at, at + 1, run.size);
      run.size--;
      if (run.size === 1) this.#runs.set(entry, run.values[0]!);
      return;
    }
    this.#runs.delete(entry);
    const split = entry.indexOf(SEP);
    const path = this.#paths.get(entry.slice(0, split));
    if (path) {
      const value = entry.slice(split + 1);
      path.values.delete(value);
      path.sorted?.splice(sortedPosition(path.sorted, value), 1);
    }
  }
}

/** Adds a label to a run: appended when larger than all (new labels always are), else inserted in order. */
function insertLabel(run: Labels, label: number, keepSorted: boolean): void {
  const at = keepSorted ? lowerBoundOf(run.values, run.size, label) : run.size;
  if (keepSorted && at < run.size && run.values[at] === label) return;
  run.view = undefined;
  if (run.size === run.values.length) {
    const grown = new Uint32Array(run.values.length * 2);
    grown.set(run.values);
    run.values = grown;
  }
  if (at < run.size) run.values.copyWithin(at + 1, at, run.size);
  run.values[at] = label;
  run.size++;
}

/** The first index whose value passes `atOrAfter` (a monotone predicate over the sorted values). */
function lowerBound(sorted: readonly string[], atOrAfter: (value: string) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (atOrAfter(sorted[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Values in the order of their index entries (`value SEP docKey`). */
function compareValues(a: string, b: string): number {
  return compareKeys(a + SEP, b + SEP);
}

/** Where `value` is, or goes, in sorted values. */
function sortedPosition(sorted: readonly string[], value: string): number {
  return lowerBound(sorted, (other) => compareValues(other, value) >= 0);
}

function lowerBoundOf(values: Uint32Array, size: number, label: number): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < label) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function indexOf(values: Uint32Array, size: number, label: number): number {
  const at = lowerBoundOf(values, size, label);
  return at < size && values[at] === label ? at : -1;
}

/** Sorted labels without repeats (in place; returns the used part). */
function unique(sorted: Uint32Array): Uint32Array {
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
  return sorted.subarray(0, n);
}

function unionAll(sets: readonly Uint32Array[]): Uint32Array {
  if (sets.length === 0) return new Uint32Array(0);
  if (sets.length === 1) return sets[0]!.slice();
  let total = 0;
  for (const set of sets) total += set.length;
  const all = new Uint32Array(total);
  let at = 0;
  for (const set of sets) {
    all.set(set, at);
    at += set.length;
  }
  return unique(all.sort());
}

function intersectSorted(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}
