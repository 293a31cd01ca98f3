/**
 * A lexical collection's inverted index in LevelDB: the engine's LexicalStore (postings with each term's count
 * and the document's token count, exact BM25 statistics, everything staged into the document's own atomic
 * batch; engine/lexical-store.ts) under the collection's `lex:` prefix, fed with the documents' analyzed
 * `$lexical`. A lexical query reads only its terms' postings. Repair rebuilds the whole index from the bodies
 * (rebuild), and verify compares it with them (postingsOf, storedTotals).
 */
import { keys, type KvOperation, type KvStore } from '../../storage/index.js';
import type { DocumentChange } from '../changes.js';
import type { Document } from '../../query/json.js';
import { LexicalStore, type StagedLexical } from '../lexical-store.js';
import { storedLexicalOf } from './lexical-shred.js';
import type { ShredContext } from './shredder.js';

export type { StagedLexical, Totals } from '../lexical-store.js';

export class LexicalIndex extends LexicalStore {
  constructor(kv: KvStore, cid: number) {
    super(kv, keys.lexicalPrefix(cid));
  }

  /** Adds the postings and statistics of the changes to the batch (after ready()). */
  stage(changes: readonly DocumentChange[], ctx: ShredContext, ops: KvOperation[]): StagedLexical | undefined {
    return this.stageTerms(
      changes.map((change) => ({ key: change.key, before: change.before === null ? undefined : storedLexicalOf(change.before, ctx), after: change.after?.lexical })),
      ops,
    );
  }

  /** The posting records (key, value) a stored document's `$lexical` gives, and its length (undefined: none). */
  postingsOf(docKey: string, doc: Document, ctx: ShredContext): { readonly records: [string, string][]; readonly length: number } | undefined {
    const lexical = storedLexicalOf(doc, ctx);
    return lexical === undefined ? undefined : { records: this.postingRecords(docKey, lexical), length: lexical.length };
  }

  /**
   * Repair: deletes every record of the index and writes it again from `docs` (the surviving bodies), with
   * exact statistics as the base and no delta. Nothing else may write the collection meanwhile. Returns the
   * number of postings written.
   */
  async rebuild(docs: AsyncIterable<{ readonly key: string; readonly doc: Document }>, ctx: ShredContext): Promise<number> {
    return this.rebuildFrom(
      (async function* () {
        for await (const { key, doc } of docs) yield { key, lexical: storedLexicalOf(doc, ctx) };
      })(),
    );
  }
}
