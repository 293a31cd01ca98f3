/**
 * The messages between GraphBuilder (graph-builder.ts) and its worker thread (graph-builder-worker.ts).
 * Types only: both sides import it, and nothing else.
 */
import type { CreateVectorIndexOptions } from './index-backend.js';

/** The worker's start: what graph to build, and the serialized one to start from (none: empty). */
export interface BuilderSetup {
  readonly options: CreateVectorIndexOptions;
  readonly base?: Uint8Array[];
  /** Or the graph to start from as serializeToFile left it: its head, and the file hnswlib wrote. */
  readonly baseFile?: { readonly head: Uint8Array; readonly file: string };
  /** Where to write the finished graph when the backend writes files (serializeToFile); else it comes back as bytes. */
  readonly file?: string;
  /** One Int32 on a SharedArrayBuffer: non-zero asks the worker to stop at its next vector (see GraphBuilder.terminate). */
  readonly stop?: Int32Array;
}

export type BuilderRequest =
  | { readonly type: 'add'; readonly labels: Uint32Array; readonly vectors: Float32Array }
  | { readonly type: 'finish' }
  /** Wakes an idle worker to see the stop flag. */
  | { readonly type: 'stop' };

export type BuilderReply =
  | { readonly type: 'added'; readonly count: number }
  | { readonly type: 'done'; readonly parts: Uint8Array[] }
  | { readonly type: 'done-file'; readonly head: Uint8Array; readonly file: string }
  | { readonly type: 'error'; readonly message: string };
