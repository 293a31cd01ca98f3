/**
 * Opening a vector collection's stored state (for collection-vectors.ts): the live vectors' values from
 * their records into the flat store (or, for an old snapshot, from its vector table), and the saved
 * graph (from LevelDB chunks, or its side file). Reads only; what the collection makes of them (pending sets, labels) stays with it.
 */
import { VectorDbError } from '../../errors/index.js';
import type { KvStore } from '../../storage/index.js';
import { adoptRows, collectionBackend, createVectorIndex, createVectorRows, loadVectorIndex, loadVectorIndexFile, type VectorRows, type IndexParams, type VectorIndex } from '../../vector-index/index.js';
import { int8Options, quantizationOf } from './scale-record.js';
import type { VectorSettings } from './settings.js';
import { readAllVectorValues, readVectorKeys, readVectorValues } from './records.js';
import { graphFilePath, readSnapshotGraph, readSnapshotTable, streamSnapshotGraph, type SnapshotMeta } from './snapshot.js';
import { decodeVectorTable, tableRows, type DecodedVectorTable } from './value-table.js';

/** Every live label with its document's key, labels ascending (readVectorKeys). */
export interface LiveRecords {
  readonly labels: number[];
  readonly docKeys: string[];
}

/**
 * Reads every live label with its document's key, and sets their values into `flat`: from the records
 * (the keys and the values read side by side, two range scans), or, for a snapshot saved with a vector
 * table (before vectors were stored only once), from that table where it has them (labels never change
 * meaning). Throws DATABASE_CORRUPTED when a live label has no values.
 */
export async function loadLiveVectors(kv: KvStore, settings: VectorSettings, flat: VectorRows, meta: SnapshotMeta | undefined): Promise<LiveRecords> {
  const { cid, dimension, name } = settings;
  const tableChunks = meta && (await readSnapshotTable(kv, cid, meta));
  const table = tableChunks && decodeVectorTable(tableChunks, dimension);
  let records: LiveRecords;
  if (table !== undefined) {
    records = await readVectorKeys(kv, cid);
    await loadTableValues(kv, settings, flat, records, table);
  } else {
    [records] = await Promise.all([readVectorKeys(kv, cid), loadRecordValues(kv, settings, flat)]);
    // Values without a doc key are no vector's (the pair is written and deleted in one batch): dropped.
    if (flat.size !== records.labels.length || records.labels.some((label) => !flat.has(label))) {
      const live = new Set(records.labels);
      for (const label of [...flat.labels()]) if (!live.has(label)) flat.delete(label);
    }
  }
  for (const label of records.labels) {
    // A doc key without values: the pair is written and deleted in one batch, so this is damage.
    if (!flat.has(label)) throw VectorDbError.of('DATABASE_CORRUPTED', { location: kv.location, reason: `vector ${label} of '${name}' has no values` });
  }
  return records;
}

async function loadTableValues(kv: KvStore, settings: VectorSettings, flat: VectorRows, records: LiveRecords, table: DecodedVectorTable): Promise<void> {
  const { cid, dimension } = settings;
  const { labels } = records;
  const missing: number[] = [];
  const fromTable: number[] = [];
  const rowsOfTable: number[] = [];
  let at = 0;
  labels.forEach((label, i) => {
    while (at < table.labels.length && table.labels[at]! < label) at++;
    if (at < table.labels.length && table.labels[at] === label) {
      fromTable.push(i);
      rowsOfTable.push(at);
    } else {
      missing.push(i);
    }
  });
  if (fromTable.length > 0) {
    if (rowsOfTable.length === table.labels.length) {
      // Usually every row of the table is live: its values go in segment by segment, as stored.
      for (const { firstRow, values } of table.segments) {
        flat.setRows(table.labels.subarray(firstRow, firstRow + values.length / dimension), values);
      }
    } else {
      flat.setRows(
        fromTable.map((i) => labels[i]!),
        tableRows(table, rowsOfTable),
      );
    }
  }
  const values = await readVectorValues(kv, cid, missing.map((i) => labels[i]!), dimension);
  missing.forEach((i, j) => {
    const vector = values[j];
    if (vector !== undefined) flat.set(labels[i]!, vector);
  });
}

/**
 * The values of the labels `wanted` says are still wanted (live, and not in the flat store yet), read
 * in label order into `flat` a chunk at a time, until `stopped`: the collection searches meanwhile,
 * reading what it needs at once (a graph file was loaded at open, so it need not wait for these).
 */
export async function streamLiveValues(kv: KvStore, settings: VectorSettings, flat: VectorRows, wanted: (label: number) => boolean, stopped: () => boolean): Promise<void> {
  const { cid, dimension } = settings;
  for await (const chunk of readAllVectorValues(kv, cid, dimension)) {
    if (stopped()) return;
    const rows: number[] = [];
    chunk.labels.forEach((label, row) => {
      if (wanted(label) && !flat.has(label)) rows.push(row);
    });
    if (rows.length === chunk.labels.length) flat.setRows(chunk.labels, chunk.values);
    else if (rows.length > 0) flat.setRows(rows.map((row) => chunk.labels[row]!), rowsOf(chunk.values, rows, dimension));
  }
}

/** Every record's values, read in label order, rows set into the flat store a chunk at a time. */
async function loadRecordValues(kv: KvStore, settings: VectorSettings, flat: VectorRows): Promise<void> {
  for await (const chunk of readAllVectorValues(kv, settings.cid, settings.dimension)) flat.setRows(chunk.labels, chunk.values);
}

/** The given rows of `values`, in order, as one array. */
function rowsOf(values: Float32Array, rows: readonly number[], dimension: number): Float32Array {
  const out = new Float32Array(rows.length * dimension);
  rows.forEach((row, i) => out.set(values.subarray(row * dimension, (row + 1) * dimension), i * dimension));
  return out;
}

/** A collection's `vector.index` knobs; the vector layer's DEFAULT_PARAMS fill the rest. */
export function indexParams(settings: VectorSettings): IndexParams {
  const index = settings.options.vector?.index;
  const params: IndexParams = {};
  if (index?.m !== undefined) params.M = index.m;
  if (index?.efConstruction !== undefined) params.efConstruction = index.efConstruction;
  if (index?.efSearch !== undefined) params.efSearch = index.efSearch;
  return params;
}

/** A new empty graph; over `rows` when they are the native addon's (the graph then reads them, no copy). */
export async function newGraph(settings: VectorSettings, capacity: number, rows?: VectorRows): Promise<VectorIndex> {
  return createVectorIndex({
    dimension: settings.dimension,
    metric: settings.metric,
    backend: collectionBackend(settings.backend, quantizationOf(settings)),
    capacity,
    name: settings.name,
    params: indexParams(settings),
    ...(rows === undefined ? {} : { rows }),
  });
}

/**
 * The rows the collection keeps its vectors in (vector-rows.ts), for the graphs it builds; sized for
 * `capacity`. An int8 collection's hold codes (scale-record.ts: its kept scale, its exact reader).
 */
export async function newRows(kv: KvStore, settings: VectorSettings, capacity: number): Promise<VectorRows> {
  const int8 = await int8Options(kv, settings);
  return createVectorRows({ dimension: settings.dimension, metric: settings.metric, backend: collectionBackend(settings.backend, quantizationOf(settings)), capacity, ...(int8 === undefined ? {} : { int8 }) });
}

/** A loaded graph whose rows (a native-rows file's) cannot hold the collection's quantization is dropped: rebuilt. */
async function withRowsAdopted(kv: KvStore, settings: VectorSettings, graph: VectorIndex): Promise<VectorIndex | undefined> {
  if (graph.rows === undefined || adoptRows(graph.rows, await int8Options(kv, settings))) return graph;
  graph.dispose();
  return undefined;
}

/** The saved graph, or undefined when it is incomplete or cannot be used (wrong backend, damaged). */
export async function loadGraph(kv: KvStore, settings: VectorSettings, meta: SnapshotMeta): Promise<{ graph: VectorIndex; labelLimit: number } | undefined> {
  // With the native addon here, graphs of other backends are rebuilt over its rows (VECTOR_INDEX_INCOMPATIBLE).
  const options = { dimension: settings.dimension, metric: settings.metric, backend: collectionBackend(settings.backend, quantizationOf(settings)), name: settings.name, params: indexParams(settings) };
  try {
    if (meta.file !== undefined) {
      // hnswlib reads its side file on a libuv thread (from the start, when its length was saved); the
      // chunks hold only our head.
      const path = graphFilePath(kv, meta.file);
      if (path === undefined) return undefined;
      const started = settings.prefetch?.take(settings.name, meta.file, meta.fileBytes, settings);
      const head = readSnapshotGraph(kv, settings.cid, meta).then((bytes) => bytes ?? Promise.reject(VectorDbError.of('VECTOR_INDEX_INCOMPATIBLE', { reason: 'the snapshot head is incomplete', backend: 'saved', collection: settings.name })));
      const graph = await withRowsAdopted(kv, settings, await loadVectorIndexFile(head, path, options, meta.fileBytes, started));
      return graph === undefined ? undefined : { graph, labelLimit: meta.labelLimit };
    }
    const graph = await loadVectorIndex(streamSnapshotGraph(kv, settings.cid, meta), options);
    return { graph, labelLimit: meta.labelLimit };
  } catch (error) {
    if (!(error instanceof VectorDbError)) throw error;
    return undefined; // rebuilt from the records in the background; the indexer reports progress
  }
}
