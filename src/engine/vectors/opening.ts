/**
 * The open sequence of one collection's vectors (for collection-vectors.ts openForSearch): reads the
 * snapshot's meta, the live vectors and the graph, registers what is loaded, and hands the rest to the
 * background (late keys and values, a graph in LevelDB chunks, the indexer). Reaches the collection's
 * state through an OpenHost, read afresh at each step (the graph and the pending set are replaced on a swap).
 */
import type { VectorDbError } from '../../errors/index.js';
import { yieldToEventLoop } from '../../platform/macrotask.js';
import type { KvStore } from '../../storage/index.js';
import type { VectorIndex, VectorRows } from '../../vector-index/index.js';
import type { IndexerHost } from './indexer.js';
import { LateKeys } from './late-keys.js';
import { LateValues } from './late-values.js';
import { loadGraph, loadLiveVectors, newGraph, newRows, type LiveRecords } from './open.js';
import { readVectorKeys, readVectorValues } from './records.js';
import type { VectorSettings } from './settings.js';
import { readSnapshotMeta, removeGraphFiles } from './snapshot.js';

/**
 * What the open sequence reaches of the collection's vectors (CollectionVectors), as they are when asked:
 * the indexer's view of their state (IndexerHost), and what an open sets up.
 */
export interface OpenHost extends Pick<IndexerHost, 'kv' | 'settings' | 'labels' | 'flat' | 'saves' | 'graph' | 'pendingAdds' | 'pendingRemoves' | 'closed' | 'isLive' | 'swapGraph'> {
  /** Every key is registered: the graph's labels whose vectors are gone become the pending removals. */
  findStale(): void;
  /** Starts (or goes on with) the background indexing. */
  scheduleIndexing(): void;
  /** Sets what keysRead() waits for. */
  setKeysRead(keysRead: Promise<void>): void;
  /** Sets the snapshot loading in the background (the indexer waits for it). */
  setGraphLoading(graphLoading: Promise<void>): void;
  /** The values being read after open, if any. */
  lateValues(): LateValues | undefined;
  setLateValues(late: LateValues | undefined): void;
  /** The values' reader found damage: searches and waits report `error` (unless an earlier failure is). */
  damaged(error: VectorDbError): void;
}

/** Constructs the collection's vectors around their rows and the graph they start with, with their host. */
export type CreateVectors<T> = (flat: VectorRows, graph: VectorIndex) => { readonly vectors: T; readonly host: OpenHost };

/**
 * Loads the live vectors and the graph snapshot; what the snapshot lacks is indexed afterwards, what it
 * has in excess is removed. A graph file (native) is loaded first and the collection answers an
 * unfiltered search (`search`, `keyOf`, `vectorOf`) as soon as it is there: the keys and then the
 * values follow in the background, and whatever a search needs first is read at once. Anything else
 * (writes, filters, label maps) waits for keysRead(). A graph in LevelDB chunks is loaded in the
 * background after the values (searches scan them exactly meanwhile).
 */
export async function openVectors<T>(kv: KvStore, settings: VectorSettings, create: CreateVectors<T>): Promise<T> {
  const meta = await readSnapshotMeta(kv, settings.cid);
  // Files an interrupted save or build left (nothing of this collection runs yet).
  await removeGraphFiles(kv, settings.cid, meta?.file);
  // A graph file is read by hnswlib on a libuv thread: from the start, beside the records, and taken in
  // with them (only what it lacks becomes pending). Chunks are decoded here: from the next turn of the
  // event loop, so that a query made as soon as the collection is open is answered (by exact scan)
  // before they are read and loaded.
  const early = meta?.file !== undefined ? loadGraph(kv, settings, meta).catch(() => undefined) : undefined;
  // Sized for the highest label saved at once: growing copies the norms.
  const rowsCapacity = Math.max(1024, meta?.labelLimit ?? 0);
  const newCollectionRows = (): Promise<VectorRows> => newRows(kv, settings, rowsCapacity);
  if (early !== undefined && kv.syncReads) {
    // While hnswlib reads the graph, the keys it may lack are read: those at or past the snapshot's
    // coveredBelow (every key, for a snapshot saved before it was kept).
    const from = meta?.coveredBelow ?? 0;
    const recent = readVectorKeys(kv, settings.cid, from);
    recent.catch(() => undefined); // awaited only with a graph
    const loaded = await early;
    if (loaded !== undefined) {
      // A native-rows graph file brought its rows: the collection keeps its vectors there (one copy).
      const { vectors, host } = create(loaded.graph.rows ?? (await newCollectionRows()), loaded.graph);
      await takeGraphFirst(host, loaded.labelLimit, await recent, from);
      return vectors;
    }
  }
  const flat = await newCollectionRows();
  const { vectors, host } = create(flat, await newGraph(settings, 1024, flat));
  const records = await loadLiveVectors(kv, settings, flat, meta);
  const loaded = await early;
  records.labels.forEach((label, i) => addLoaded(host, label, records.docKeys[i]!, loaded?.graph.has(label) === true));
  host.saves.changes = host.pendingAdds().size;
  if (early !== undefined) {
    adoptGraph(host, loaded);
  } else if (meta !== undefined) {
    host.setGraphLoading(
      yieldToEventLoop()
        .then(() => loadGraph(kv, settings, meta))
        .then(
          (chunked) => adoptGraph(host, chunked),
          () => undefined, // no usable snapshot: the empty graph is built from the records
        ),
    );
  }
  host.scheduleIndexing();
  return vectors;
}

/**
 * Completes an open from a loaded graph file (the graph the vectors were constructed with; see
 * openVectors): the live vectors it may lack are `recent` (every label from `from` on), whose values
 * are read now. The values of the rest are read in the background, and so are the other keys when
 * `from` > 0: until they land, a label's liveness and document key are looked up in its record when asked.
 */
async function takeGraphFirst(host: OpenHost, labelLimit: number, recent: LiveRecords, from: number): Promise<void> {
  const kv = host.kv;
  const { cid, dimension } = host.settings;
  host.labels.reserveBelow(labelLimit);
  recent.labels.forEach((label, i) => addLoaded(host, label, recent.docKeys[i]!, host.graph().has(label)));
  const pending = [...host.pendingAdds()];
  const values = await readVectorValues(kv, cid, pending, dimension);
  pending.forEach((label, i) => {
    if (values[i] !== undefined) host.flat.set(label, values[i]!);
  });
  let labels: readonly number[] | Promise<readonly number[]> = recent.labels;
  if (from === 0) {
    keysComplete(host);
  } else {
    // Until then only the labels at or past coveredBelow are registered: any other is looked up in its record.
    host.labels.readLate(new LateKeys(kv, cid));
    labels = readVectorKeys(kv, cid).then((records) => {
      records.labels.forEach((label, i) => addLoaded(host, label, records.docKeys[i]!, host.graph().has(label)));
      keysComplete(host);
      return records.labels;
    });
    const keysRead = labels.then(() => undefined);
    host.setKeysRead(keysRead);
    keysRead.catch(() => undefined); // reported by keysRead() and by the values' reader
  }
  const late = new LateValues(kv, host.settings, host.flat, labels, (label) => host.isLive(label), () => host.closed());
  host.setLateValues(late);
  void late.done.then((damage) => {
    if (host.lateValues() === late) host.setLateValues(undefined);
    if (damage) host.damaged(damage);
  });
}

/** Every key is registered (after takeGraphFirst): the graph's stale labels are found, and the indexer can start. */
function keysComplete(host: OpenHost): void {
  host.labels.registered();
  host.findStale();
  host.saves.changes = host.pendingAdds().size + host.pendingRemoves();
  host.scheduleIndexing();
}

/** Registers a loaded vector (its values are in the flat store; pending unless the graph being taken in holds it). */
function addLoaded(host: OpenHost, label: number, docKey: string, inGraph: boolean): void {
  host.labels.set(label, docKey);
  if (!inGraph) host.pendingAdds().add(label);
}

/** Swaps in the loaded snapshot (the indexer has waited for it, so the current graph is still empty). */
function adoptGraph(host: OpenHost, loaded: { graph: VectorIndex; labelLimit: number } | undefined): void {
  if (loaded === undefined) return;
  if (host.closed()) {
    loaded.graph.dispose();
    return;
  }
  host.labels.reserveBelow(loaded.labelLimit);
  host.swapGraph(loaded.graph);
  host.saves.changes = host.pendingAdds().size + host.pendingRemoves();
}
