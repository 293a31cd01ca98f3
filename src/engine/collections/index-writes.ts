/**
 * Writes of one collection's secondary index (index-reads.ts reads it; for document-store.ts): the puts and
 * deletes that take a document's entries from before a change to after it, and the refiling of every
 * document's entries under the current rule. An entry's key holds everything: `<indexPrefix><entry>\0<docKey>`.
 */
import { keys, type KvOperation, type KvStore } from '../../storage/index.js';
import type { DocumentChange } from '../changes.js';
import { indexEntriesOf, type ShredContext } from './shredder.js';
import type { StoredDocument } from './types.js';

const { SEP } = keys;
/**
 * Index entries carry everything in their key; the value is one byte, not empty, because classic-level
 * 3 never frees its copy of an empty value (32 bytes of native heap lost per index entry written).
 */
const INDEX_VALUE = new Uint8Array([0x31]);

/** Adds to `ops` the index entries a change puts and deletes. */
export function stageIndexEntries(indexPrefix: string, change: DocumentChange, ctx: ShredContext, ops: KvOperation[]): void {
  const suffix = SEP + change.key;
  if (change.before === null) {
    // An insert (the hot path): every entry is new; the Set drops repeats (a value twice in an array).
    for (const entry of new Set(change.after?.indexEntries)) ops.push({ type: 'put', key: indexPrefix + entry + suffix, value: INDEX_VALUE });
    return;
  }
  const oldEntries = new Set(indexEntriesOf(change.before, ctx));
  const newEntries = new Set(change.after ? change.after.indexEntries : []);
  for (const entry of oldEntries) {
    if (!newEntries.has(entry)) ops.push({ type: 'del', key: indexPrefix + entry + suffix });
  }
  for (const entry of newEntries) {
    if (!oldEntries.has(entry)) ops.push({ type: 'put', key: indexPrefix + entry + suffix, value: INDEX_VALUE });
  }
}

/**
 * Writes every document's index entries again (a put of an entry already there changes nothing), unless
 * the collection records that its entries already follow the current rule (INDEX_RULE); then records it.
 * Interrupted, it starts over at the next call.
 */
export async function refileIndexEntries(kv: KvStore, cid: number, documents: () => AsyncIterable<StoredDocument>, ctx: ShredContext): Promise<void> {
  const ruleKey = keys.indexRuleKey(cid);
  if ((await kv.getString(ruleKey)) === keys.INDEX_RULE) return;
  const indexPrefix = keys.indexPrefix(cid);
  let ops: KvOperation[] = [];
  for await (const { key, doc } of documents()) {
    for (const entry of new Set(indexEntriesOf(doc, ctx))) ops.push({ type: 'put', key: indexPrefix + entry + SEP + key, value: INDEX_VALUE });
    if (ops.length >= 4096) {
      await kv.batch(ops);
      ops = [];
    }
  }
  ops.push({ type: 'put', key: ruleKey, value: keys.INDEX_RULE });
  await kv.batch(ops);
}
