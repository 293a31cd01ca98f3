/**
 * insertMany's write path: documents are shredded, checked against the stored ones and written in
 * sub-batches of INSERT_SUB_BATCH, pipelined: sub-batch k+1 is shredded, checked and staged (handed to a
 * LevelDB write batch) while LevelDB writes sub-batch k on the thread pool (the two cores overlap); at
 * most one write is in flight and they land in order. Each document (body, index entries, vector record)
 * is in ONE atomic batch; the request as a whole is not atomic (nor is the Data API's insertMany): a
 * reader may see the first sub-batches before the last. A sub-batch whose write fails reports its
 * documents as ERROR (ordered: every later one SKIPPED), never OK. The existence check per sub-batch is
 * exact: later sub-batches are not written yet, and duplicates within the request are caught by `seen`; it
 * reads from LevelDB only the keys the collection's key-presence filter cannot rule out (DocumentStore.holdMany).
 * The caller holds the collection's mutex.
 */
import { VectorDbError } from '../../errors/index.js';
import type { JsonValue } from '../../query/json.js';
import type { InsertOutcome } from './types.js';
import type { ChangeHook, DocumentStore } from './document-store.js';
import { shredDocument, type ShredContext, type ShreddedDocument } from './shredder.js';
import { toJsonText } from '../../query/exact-number.js';

/** Documents per sub-batch (16, 32 and 50 measured no better). */
export const INSERT_SUB_BATCH = 25;

export interface InsertTarget {
  readonly store: DocumentStore;
  readonly shred: ShredContext;
  /** The collection's vector hook, if it has vectors. */
  readonly hook: ChangeHook | undefined;
}

/** Inserts documents: ordered stops at the first failure (the rest are SKIPPED); unordered tries each. */
export async function insertDocuments(target: InsertTarget, rawDocuments: readonly unknown[], ordered: boolean): Promise<InsertOutcome[]> {
  const { store, shred, hook } = target;
  const outcomes: InsertOutcome[] = [];
  const seen = new Set<string>();
  let failed = false;
  let writing: { readonly done: Promise<void>; readonly docs: readonly { readonly index: number; readonly id: JsonValue }[] } | undefined;
  /** Waits for the sub-batch in flight; a failed write turns its documents' outcomes into errors. */
  const settle = async (): Promise<boolean> => {
    if (writing === undefined) return true;
    const { done, docs } = writing;
    writing = undefined;
    const error = await done.then(
      () => undefined,
      (e: unknown) => asVectorDbError(e),
    );
    if (error === undefined) return true;
    for (const { index, id } of docs) outcomes[index] = { status: 'ERROR', id, error };
    failed = true;
    return false;
  };
  try {
    for (let from = 0; from < rawDocuments.length; from += INSERT_SUB_BATCH) {
      const to = Math.min(rawDocuments.length, from + INSERT_SUB_BATCH);
      const shredded: (ShreddedDocument | VectorDbError)[] = [];
      for (let i = from; i < to; i++) {
        try {
          shredded.push(shredDocument(rawDocuments[i], shred));
        } catch (error) {
          shredded.push(asVectorDbError(error));
        }
      }
      const idOf = (i: number): JsonValue | undefined => {
        const item = shredded[i - from]!;
        return item instanceof VectorDbError ? (rawDocuments[i] as { _id?: JsonValue } | null)?._id : item.id;
      };
      const existing = ordered && failed ? [] : await heldKeys(store, shredded);
      const accepted: ShreddedDocument[] = [];
      const docs: { index: number; id: JsonValue }[] = [];
      for (let i = from; i < to; i++) {
        const item = shredded[i - from]!;
        if (failed && ordered) {
          outcomes[i] = { status: 'SKIPPED', id: idOf(i) };
        } else if (item instanceof VectorDbError) {
          failed = true;
          outcomes[i] = { status: 'ERROR', id: idOf(i), error: item };
        } else if (existing[i - from] === true || seen.has(item.key)) {
          failed = true;
          outcomes[i] = { status: 'ERROR', id: item.id, error: alreadyExists(item.id) };
        } else {
          seen.add(item.key);
          accepted.push(item);
          docs.push({ index: i, id: item.id });
          outcomes[i] = { status: 'OK', id: item.id };
        }
      }
      // Staged until handed to commit: on any other path (a skip, a throw while settling) it is discarded,
      // or its lexical postings would count as a write in flight forever and the in-memory ones go unused.
      let staged = accepted.length === 0 ? undefined : store.stage(accepted.map((after) => ({ key: after.key, before: null, after })), shred, hook);
      try {
        const written = await settle();
        if (ordered && !written) {
          // The previous sub-batch's write failed: nothing of this one is written.
          for (let i = from; i < to; i++) outcomes[i] = { status: 'SKIPPED', id: idOf(i) };
          continue;
        }
        if (staged !== undefined) writing = { done: store.commit(staged), docs };
        staged = undefined;
      } finally {
        if (staged !== undefined) await store.discard(staged);
      }
    }
    await settle();
  } catch (error) {
    // Never leave a write running outside the mutex.
    await writing?.done.catch(() => undefined);
    throw error;
  }
  return outcomes;
}

/** Whether each shredded document's key holds a stored document (false for those that failed to shred). */
async function heldKeys(store: DocumentStore, shredded: readonly (ShreddedDocument | VectorDbError)[]): Promise<boolean[]> {
  const at: number[] = [];
  for (let i = 0; i < shredded.length; i++) if (!(shredded[i] instanceof VectorDbError)) at.push(i);
  const held = await store.holdMany(at.map((i) => (shredded[i] as ShreddedDocument).key));
  const out = new Array<boolean>(shredded.length).fill(false);
  for (let j = 0; j < at.length; j++) out[at[j]!] = held[j]!;
  return out;
}

export function alreadyExists(id: JsonValue): VectorDbError {
  return VectorDbError.of('DOCUMENT_ALREADY_EXISTS', { id: toJsonText(id) }, { documentIds: [id] });
}

function asVectorDbError(error: unknown): VectorDbError {
  if (error instanceof VectorDbError) return error;
  throw error;
}
