/**
 * Which vector records a batch of document changes writes: a changed vector gets a new label (labels are
 * never reused) and its record is put, the old one deleted; an unchanged vector keeps its label. Stages
 * the operations only; CollectionVectors.hook applies them in memory once the batch is durable.
 */
import type { KvOperation } from '../../storage/index.js';
import type { VectorRows } from '../../vector-index/index.js';
import type { DocumentChange } from '../changes.js';
import type { VectorLabels } from './labels.js';
import { deleteVectorRecord, putVectorRecord } from './records.js';

/** The collection's vectors a batch is staged against (CollectionVectors). */
export interface StageTarget {
  readonly cid: number;
  readonly labels: VectorLabels;
  readonly flat: VectorRows;
  /** Reads the values of labels still on their way after open (CollectionVectors' #ensureValues). */
  ensureValues(labels: Iterable<number>): void;
}

/** The vectors a batch adds and removes, and the label of each changed document that has one. */
export interface StagedVectorRecords {
  readonly labels: Map<string, number>;
  readonly added: { key: string; label: number; vector: Float32Array }[];
  readonly removed: { key: string; label: number }[];
}

/** Puts the vector records of `changes` into `ops` (labels taken from `from.labels`). */
export function stageVectorRecords(from: StageTarget, changes: readonly DocumentChange[], ops: KvOperation[]): StagedVectorRecords {
  const { cid } = from;
  const labels = new Map<string, number>();
  const added: { key: string; label: number; vector: Float32Array }[] = [];
  const removed: { key: string; label: number }[] = [];
  for (const change of changes) {
    const oldLabel = from.labels.labelOf(change.key);
    const vector = change.after?.vector ?? null;
    if (oldLabel !== undefined && vector !== null) from.ensureValues([oldLabel]);
    if (oldLabel !== undefined && vector !== null && sameVector(from.flat.get(oldLabel), vector)) {
      labels.set(change.key, oldLabel);
      continue;
    }
    if (oldLabel !== undefined) {
      deleteVectorRecord(ops, cid, oldLabel);
      removed.push({ key: change.key, label: oldLabel });
    }
    if (vector !== null) {
      const label = from.labels.take();
      putVectorRecord(ops, cid, { label, docKey: change.key, vector });
      added.push({ key: change.key, label, vector });
      labels.set(change.key, label);
    }
  }
  return { labels, added, removed };
}

function sameVector(a: Float32Array | undefined, b: Float32Array): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

