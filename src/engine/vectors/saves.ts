/**
 * Saving a collection's graph snapshot (for collection-vectors.ts): saves run one at a time, the graph
 * is frozen while it is serialized (the indexer waits), the changes since the last save are counted, and
 * one place decides when a save is due. The snapshot's format and storage are vectors/snapshot.ts's.
 */
import { sideFileDir, type KvStore } from '../../storage/index.js';
import type { Metric, VectorIndex } from '../../vector-index/index.js';
import { removeGraphHint, writeGraphHint } from './graph-prefetch.js';
import { graphFilePath, newGraphFileName, removeGraphFile, SnapshotWriter, writeSnapshot, type Snapshot } from './snapshot.js';

/**
 * Save once the graph is caught up and this many vectors changed since the last one, and at least this
 * fraction of the collection: each save writes the whole graph (66 MB at 100k x 128), so a fixed count
 * would write O(n^2) bytes over a long load.
 */
const SAVE_AFTER_CHANGES = 5_000;
const SAVE_AFTER_FRACTION = 0.25;

/** What a save takes of the collection's vectors, as they are when it begins. */
export interface GraphState {
  readonly graph: VectorIndex;
  /** Every label the graph holds is below this (the next label). */
  readonly labelLimit: number;
  /** Every live label below this is in the graph (SnapshotMeta.coveredBelow). */
  readonly coveredBelow: number;
}

/** The collection a GraphSaves saves: its id, and its name and space for the graph file's hint (graph-prefetch.ts). */
export interface SavedCollection {
  readonly cid: number;
  readonly name: string;
  readonly dimension: number;
  readonly metric: Metric;
}

export class GraphSaves {
  readonly #kv: KvStore;
  readonly #collection: SavedCollection;
  readonly #state: () => GraphState;
  /** Settles before a save reads the graph (a snapshot still loading: a save must never drop what it holds). */
  readonly #ready: () => Promise<void>;
  /** Vector changes (adds and removes) the stored snapshot lacks. */
  changes = 0;
  /** The save running or queued last. */
  #saving: Promise<void> | undefined;
  /** Set while a save serializes the graph: it must not change meanwhile. */
  #frozen: Promise<unknown> | undefined;

  constructor(kv: KvStore, collection: SavedCollection, state: () => GraphState, ready: () => Promise<void>) {
    this.#kv = kv;
    this.#collection = collection;
    this.#state = state;
    this.#ready = ready;
  }

  /** Whether a save is running or queued. */
  get busy(): boolean {
    return this.#saving !== undefined;
  }

  /** Whether a save is reading the graph now (it must not change). */
  get frozen(): boolean {
    return this.#frozen !== undefined;
  }

  /** Whether the changes since the last save make one due, for a collection of `size` vectors. */
  due(size: number): boolean {
    return this.changes >= Math.max(SAVE_AFTER_CHANGES, size * SAVE_AFTER_FRACTION);
  }

  /** Resolves once no save is reading the graph (then it may change, until the next await). */
  async unfrozen(): Promise<void> {
    while (this.#frozen) await this.#frozen.catch(() => undefined);
  }

  /** Resolves once every save queued so far has ended. */
  async idle(): Promise<void> {
    while (this.#saving) await this.#saving.catch(() => undefined);
  }

  /**
   * Saves the graph now (the records are already durable, and hold the vectors: the snapshot has only
   * the graph). The native backend writes it to a side file on a worker thread; otherwise its bytes go
   * to LevelDB a few chunks per batch as they are serialized (SnapshotWriter).
   */
  async save(): Promise<void> {
    await this.#queue(() => this.#write());
  }

  /**
   * Makes a graph file a worker wrote (the graph now in use was read from it) the snapshot, with `head`
   * (its serialized head) and the state it was taken in with; `changes` must already count only what it
   * lacks. In the queue, like any save.
   */
  adopt(fileName: string, head: Uint8Array, state: Omit<GraphState, 'graph'>, changesBefore: number): void {
    const { labelLimit, coveredBelow } = state;
    const adopting = this.#queue(() => this.#writeSnapshot({ graph: [head], labelLimit, coveredBelow, file: fileName }));
    adopting.catch(async () => {
      this.changes += changesBefore; // not saved: what it covered still counts toward the next save
      await removeGraphFile(this.#kv, fileName).catch(() => undefined);
    });
  }

  /**
   * A new side file for `graph` to be written to, where the store has a directory and the backend writes
   * files (hnswlib-node); else nothing (the graph goes to LevelDB as bytes).
   */
  async newGraphFile(graph: VectorIndex): Promise<{ name?: string; path?: string }> {
    if (!graph.savesToFile || (await sideFileDir(this.#kv)) === undefined) return {};
    const name = newGraphFileName(this.#collection.cid);
    return { name, path: graphFilePath(this.#kv, name) };
  }

  /** Writes the snapshot, then the hint that lets a reopening process read its graph file early. */
  async #writeSnapshot(snapshot: Snapshot): Promise<void> {
    const { cid, name, dimension, metric } = this.#collection;
    const { file, fileBytes } = await writeSnapshot(this.#kv, cid, snapshot);
    if (file !== undefined && fileBytes !== undefined) await writeGraphHint(this.#kv, name, { file, fileBytes, dimension, metric });
    else await removeGraphHint(this.#kv, name);
  }

  /** Runs a save after those before it (saves run one at a time). */
  async #queue(save: () => Promise<void>): Promise<void> {
    await this.idle();
    const saving = save();
    this.#saving = saving;
    try {
      await saving;
    } finally {
      if (this.#saving === saving) this.#saving = undefined;
    }
  }

  async #write(): Promise<void> {
    await this.#ready();
    // Changes made while saving may be missing from it: they still count toward the next one.
    const covered = this.changes;
    const { name: fileName, path: file } = await this.newGraphFile(this.#state().graph);
    if (file === undefined) await this.#stream();
    else {
      // Taken in the turn the serialization starts (the graph may have been swapped meanwhile): they agree.
      const { graph, labelLimit, coveredBelow } = this.#state();
      const serializing = graph.serializeToFile(file);
      this.#frozen = serializing;
      try {
        let head: Uint8Array;
        try {
          head = await serializing;
        } finally {
          this.#frozen = undefined;
        }
        await this.#writeSnapshot({ graph: [head], labelLimit, coveredBelow, ...(fileName === undefined ? {} : { file: fileName }) });
      } catch (error) {
        if (fileName !== undefined) await removeGraphFile(this.#kv, fileName).catch(() => undefined);
        throw error;
      }
    }
    this.changes = Math.max(0, this.changes - covered);
  }

  /**
   * Streams the graph's bytes to LevelDB chunks as they are serialized (a wasm graph in segments: one
   * segment's bytes at a time, never the whole graph), the graph frozen until it has been read.
   */
  async #stream(): Promise<void> {
    const writer = await SnapshotWriter.open(this.#kv, this.#collection.cid);
    const { graph, labelLimit, coveredBelow } = this.#state();
    let resolve = (): void => undefined;
    const frozen = new Promise<void>((r) => (resolve = r));
    this.#frozen = frozen;
    const thaw = (): void => {
      if (this.#frozen === frozen) this.#frozen = undefined;
      resolve();
    };
    let head: Uint8Array;
    try {
      head = await graph.serializeTo((piece) => writer.put(piece), thaw);
    } finally {
      thaw();
    }
    await writer.finish(head, { labelLimit, coveredBelow });
    await removeGraphHint(this.#kv, this.#collection.name);
  }
}
