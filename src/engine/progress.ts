/**
 * Progress of long engine work (loading or rebuilding a vector index), as `onProgress` callbacks receive it,
 * in the shape of the client's bulk-write progress plus the collection.
 * A leaf module, so the public declarations reach it without the engine's internals.
 */
export interface VectorProgress {
  readonly collection: string;
  readonly phase: 'load' | 'index';
  readonly done: number;
  readonly total: number;
  /** Always 0: a vector that is stored always goes into the graph. */
  readonly failed: number;
  /** Vectors per second since the build started. */
  readonly rate: number;
}
