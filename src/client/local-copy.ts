/**
 * A new local database written atomically from any other (`vectordb-local backup --endpoint`): as db.backup
 * writes one, into a partial sibling directory renamed into place once complete, so that an interrupted copy is
 * refused at open and by restore (BACKUP_INCOMPLETE) instead of passing for a database.
 */
import { EmbeddedTransport } from '../transport/embedded.js';
import { VectorDB } from './vector-db.js';

/** Fills a new database at `target` (absent or empty) with `fill(copy)`; resolves with what `fill` counted. */
export async function writeLocalCopy(target: string, source: string, fill: (copy: VectorDB) => Promise<number>): Promise<number> {
  return EmbeddedTransport.createAtomically(target, source, async (partial, begin) => {
    await using copy = await new VectorDB('local', partial).connect();
    await begin();
    // Awaited here: `copy` is closed when this function returns.
    return await fill(copy);
  });
}
