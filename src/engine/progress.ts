/**
 * Progress of long engine work (loading or rebuilding a vector index), as `onProgress` callbacks receive it.
 * A leaf module, so the public declarations reach it without the engine's internals.
 */
export interface VectorProgress {
  readonly collection: string;
  readonly phase: 'load' | 'index';
  readonly done: number;
  readonly total: number;
}
