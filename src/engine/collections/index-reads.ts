/**
 * Reads of one collection's secondary index (for document-store.ts): the document keys and entries under
 * a path within bounds, every entry of the collection, and the merged keys of index runs. Each takes the
 * store's KvStore and the collection's index key prefix (keys.indexPrefix); reads only.
 */
import { keys, type KvSnapshot, type KvStore } from '../../storage/index.js';
import type { IndexBounds, IndexRun } from '../changes.js';

const { SEP, HIGH, compareKeys } = keys;

/**
 * Document keys of the index entries in [from, to) under `path` (bounds are encoded typed values,
 * relative to the path), stopping once more than `cap` keys are collected (returns undefined then).
 */
export async function indexKeys(kv: KvStore, indexPrefix: string, path: string, bounds: IndexBounds, cap: number): Promise<Set<string> | undefined> {
  const found = new Set<string>();
  for await (const entry of indexEntries(kv, indexPrefix, path, bounds)) {
    found.add(entry.key);
    if (found.size > cap) return undefined;
  }
  return found;
}

/** Every index entry of the collection (`path\0encoded value`) with its document key, in key order. */
export async function* allIndexEntries(kv: KvStore, indexPrefix: string, snapshot?: KvSnapshot): AsyncGenerator<{ entry: string; key: string }> {
  const offset = indexPrefix.length;
  for await (const key of kv.keys({ gte: indexPrefix, lt: indexPrefix + HIGH }, 4096, snapshot)) {
    const keyStart = key.indexOf(SEP, key.indexOf(SEP, offset) + 1);
    yield { entry: key.slice(offset, keyStart), key: key.slice(keyStart + 1) };
  }
}

/** Index entries under `path` within bounds, in key order (or reversed): encoded value and doc key. */
export async function* indexEntries(kv: KvStore, indexPrefix: string, path: string, bounds: IndexBounds, reverse = false): AsyncGenerator<{ value: string; key: string }> {
  const pathPrefix = `${indexPrefix}${path}${SEP}`;
  const range: { gte?: string; gt?: string; lt: string; reverse: boolean } = { lt: pathPrefix + (bounds.lt ?? HIGH), reverse };
  if (bounds.gte !== undefined) range.gte = pathPrefix + bounds.gte;
  if (bounds.gt !== undefined) range.gt = pathPrefix + bounds.gt;
  for await (const key of kv.keys(range)) {
    const valueEnd = key.indexOf(SEP, pathPrefix.length);
    yield { value: key.slice(pathPrefix.length, valueEnd), key: key.slice(valueEnd + 1) };
  }
}

/**
 * Document keys of index runs (one encoded value under one path each), merged in key order without
 * repeats, after `afterKey` when given. Read for a page of matches: 128 keys of a run at a time. The
 * runs are read as of one moment, so a document that moves from one run to another meanwhile is in one.
 */
export async function* indexRunKeys(kv: KvStore, indexPrefix: string, runs: readonly IndexRun[], afterKey?: string): AsyncGenerator<string> {
  const heads: { readonly keys: AsyncGenerator<string>; key: string }[] = [];
  const snapshot = runs.length > 1 ? kv.snapshot() : undefined;
  try {
    for (const run of runs) {
      const valuePrefix = `${indexPrefix}${run.indexPath}${SEP}${run.value}${SEP}`;
      const range = afterKey === undefined ? { gte: valuePrefix, lt: valuePrefix + HIGH } : { gt: valuePrefix + afterKey, lt: valuePrefix + HIGH };
      const keys = (async function* (prefixed: AsyncGenerator<string>) {
        for await (const key of prefixed) yield key.slice(valuePrefix.length);
      })(kv.keys(range, 128, snapshot));
      const first = await keys.next();
      if (!first.done) heads.push({ keys, key: first.value });
    }
    let last: string | undefined;
    while (heads.length > 0) {
      let min = 0;
      for (let i = 1; i < heads.length; i++) if (compareKeys(heads[i]!.key, heads[min]!.key) < 0) min = i;
      const head = heads[min]!;
      if (head.key !== last) yield head.key;
      last = head.key;
      const next = await head.keys.next();
      if (next.done) heads.splice(min, 1);
      else head.key = next.value;
    }
  } finally {
    await Promise.all(heads.map((head) => head.keys.return(undefined)));
    await snapshot?.close();
  }
}
