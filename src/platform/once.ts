/**
 * A load run at most once at a time and kept once it succeeds; a failed one is forgotten, so the next call
 * tries again (an open that failed on a transient I/O error is not failed forever). Portable, below every layer.
 */
export function onceSucceeded<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
