/**
 * How a document's `$vector` is kept in its stored body. The values already live in the collection's
 * vector record (`vval:<cid>\0<label>`, same batch) and in memory, so the body holds only a reference,
 * `{"$label": 12}` (plus `"$binary": true` when the caller sent `$binary`). Bodies stay small, and a read
 * that does not return `$vector` (the default projection) neither reads nor parses it. Labels are never
 * reused: a label names one vector forever, so any copy of it (memory or record) is the right one.
 */
import { encodeBinaryVector, type VectorForm } from '../../query/vector-value.js';
import { isObject, type Document, type JsonObject, type JsonValue } from '../../query/json.js';
import { shortestFloat32 } from '../../vector-index/index.js';

export interface VectorRef {
  readonly label: number;
  readonly form: VectorForm;
}

/** The body to store for a document whose vector has `label` (same key order as the document). */
export function bodyWithVectorRef(doc: Document, label: number, form: VectorForm): Document {
  const ref: JsonObject = form === 'binary' ? { $label: label, $binary: true } : { $label: label };
  return { ...doc, $vector: ref };
}

/** The vector reference in a stored body, if it has one (older bodies may hold the values themselves). */
export function vectorRefOf(doc: Document): VectorRef | undefined {
  const value = doc.$vector;
  if (!isObject(value)) return undefined;
  const label = value.$label;
  if (typeof label !== 'number') return undefined;
  return { label, form: value.$binary === true ? 'binary' : 'array' };
}

/** The `$vector` value a reader gets back for stored values, in the form the writer used. */
export function vectorJson(values: Float32Array, form: VectorForm): JsonValue {
  return form === 'binary' ? { $binary: encodeBinaryVector(values) } : float32Numbers(values);
}

/**
 * The numbers as the Data API returns float32 vectors: each is the shortest decimal that reads back as
 * the same float32 (0.1 stays 0.1, not 0.10000000149011612).
 */
export function float32Numbers(values: Float32Array): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = shortestFloat32(values[i]!);
  return out;
}
