/**
 * The flat store of an int8 collection (quantization 'int8'): its trained scale kept in `vquant:<cid>` so that
 * a reopen codes every vector as before and answers the same, and its exact values read from the vector
 * records (records.ts) on the calling thread. Where reads cannot be synchronous (a browser's IndexedDB),
 * the store keeps float32 rows, as an unquantized one does.
 */
import type { KvStore } from '../../storage/index.js';
import { keys } from '../../storage/index.js';
import { FlatVectorStore, Int8Scale, type Quantization } from '../../vector-index/index.js';
import { readVectorValuesSync } from './records.js';
import type { VectorSettings } from './settings.js';

/** The quantization a collection's definition asks for ('none' when it names none). */
export function quantizationOf(settings: VectorSettings): Quantization {
  return settings.options.vector?.index?.quantization ?? 'none';
}

/**
 * A new flat store for the collection's vectors, of `capacity` rows: int8 with the kept scale when there is
 * one (and the store reads synchronously), else trained from its first vectors and kept when trained.
 */
/** The write of a store's trained scale, while under way (close waits for it). */
const scaleWrites = new WeakMap<object, Promise<void>>();

/** Resolves once the trained scale of `flat` (if any) is written. */
export async function scaleWritten(flat: object): Promise<void> {
  await scaleWrites.get(flat);
}

export async function newFlatStore(kv: KvStore, settings: VectorSettings, capacity: number): Promise<FlatVectorStore> {
  const { cid, dimension, metric } = settings;
  if (quantizationOf(settings) !== 'int8' || !kv.syncReads) return new FlatVectorStore({ dimension, metric, capacity });
  const stored = await kv.get(keys.vectorScaleKey(cid));
  const scale = stored === undefined ? undefined : Int8Scale.fromBytes(stored, dimension);
  const flat: FlatVectorStore = new FlatVectorStore({
    dimension,
    metric,
    capacity,
    quantization: 'int8',
    exact: (labels) => readVectorValuesSync(kv, cid, labels, dimension),
    ...(scale !== undefined ? { scale } : {}),
    onTrained: (trained) => {
      // Not in a document's batch: the scale is trained as a write is applied. Should it be lost (a crash
      // first, a failed write), the next open trains again from the first vectors then stored.
      scaleWrites.set(flat, kv.batch([{ type: 'put', key: keys.vectorScaleKey(cid), value: trained.toBytes() }]).catch(() => undefined));
    },
  });
  return flat;
}
