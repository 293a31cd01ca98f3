/**
 * The int8 rows of a collection (quantization 'int8'): its trained scale kept in `vquant:<cid>` so that a
 * reopen codes every vector as before and answers the same, and its exact values read from the vector
 * records (records.ts) on the calling thread. The rows are the backend's (createVectorRows: the native
 * addon's, or a FlatVectorStore). Where reads cannot be synchronous (a browser's IndexedDB), the rows stay
 * float32, as an unquantized collection's do.
 */
import type { KvStore } from '../../storage/index.js';
import { keys } from '../../storage/index.js';
import { Int8Scale, type Int8RowsOptions, type Quantization } from '../../vector-index/index.js';
import { readVectorValuesSync } from './records.js';
import type { VectorSettings } from './settings.js';

/** The quantization a collection's definition asks for ('none' when it names none). */
export function quantizationOf(settings: VectorSettings): Quantization {
  return settings.options.vector?.index?.quantization ?? 'none';
}

/** The write of a collection's trained scale, while under way (close waits for it), by its settings. */
const scaleWrites = new WeakMap<VectorSettings, Promise<void>>();

/** Resolves once the trained scale of the collection of `settings` (if any) is written. */
export async function scaleWritten(settings: VectorSettings): Promise<void> {
  await scaleWrites.get(settings);
}

/**
 * The int8 options of the collection's rows (undefined: float32 rows): the kept scale if there is one
 * (else the rows train it from their first vectors, and it is kept when trained), and the exact reader.
 */
export async function int8Options(kv: KvStore, settings: VectorSettings): Promise<Int8RowsOptions | undefined> {
  const { cid, dimension } = settings;
  if (quantizationOf(settings) !== 'int8' || !kv.syncReads) return undefined;
  const stored = await kv.get(keys.vectorScaleKey(cid));
  const scale = stored === undefined ? undefined : Int8Scale.fromBytes(stored, dimension);
  return {
    exact: (labels, into) => readVectorValuesSync(kv, cid, labels, dimension, into),
    ...(scale !== undefined ? { scale } : {}),
    onTrained: (trained) => {
      // Not in a document's batch: the scale is trained as a write is applied. Should it be lost (a crash
      // first, a failed write), the next open trains again from the first vectors then stored; unless a
      // native-rows graph file holds codes of it: the rows then hand it here again and it is rewritten.
      scaleWrites.set(settings, kv.batch([{ type: 'put', key: keys.vectorScaleKey(cid), value: trained.toBytes() }]).catch(() => undefined));
    },
  };
}
