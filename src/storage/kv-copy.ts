/**
 * A key-for-key copy of a whole store into an empty one, as of one snapshot, while writers go on (backup.ts,
 * backup.browser.ts): values as stored, so sealed truth records stay sealed and the rest stay as written.
 */
import type { KvStore } from './kv-store.js';
import { mapLevelError } from './level-errors.js';

/** Copies every key and value of `from` into `copy`; `onProgress` gets the keys copied so far. Returns their number. */
export async function copyStore(from: KvStore, copy: KvStore, onProgress?: (copied: number) => void): Promise<number> {
  const snapshot = from.snapshot();
  let copied = 0;
  try {
    for await (const chunk of from.rawEntryChunks({}, 4096, snapshot)) {
      await copy.rawBatch(chunk.map(([key, value]) => ({ type: 'put' as const, key, value })));
      copied += chunk.length;
      onProgress?.(copied);
    }
  } catch (error) {
    throw mapLevelError(error, copy.location);
  } finally {
    await snapshot.close();
  }
  return copied;
}
