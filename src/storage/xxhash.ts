/**
 * The one xxhash-wasm instance of the process (WebAssembly, so the same code in Node and in a browser),
 * compiled once: record checksums (record-checksum.ts) and the key-presence filters (bloom-filter.ts) hash
 * with it. KvStore.open waits for it, so a store's code may use it synchronously.
 */
import xxhash from 'xxhash-wasm';

export type XxHash = Awaited<ReturnType<typeof xxhash>>;

let loaded: XxHash | undefined;
let loading: Promise<XxHash> | undefined;

export function loadXxhash(): Promise<XxHash> {
  loading ??= xxhash().then((api) => (loaded = api));
  return loading;
}

/** The hasher once loadXxhash() has resolved. */
export function xxhashNow(): XxHash {
  if (loaded === undefined) throw new Error('xxhash used before loadXxhash() resolved');
  return loaded;
}
