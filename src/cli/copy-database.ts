/**
 * A logical copy of every keyspace and collection (definitions and documents, `$vector` included) from one
 * VectorDB to another through the client: what `backup` and `restore` do when one side is a Data API
 * endpoint, where no LevelDB snapshot can be taken. Documents are upserted, so a copy re-run completes.
 */
import type { VectorDB } from '../client/vector-db.js';
import type { JsonObject } from '../query/json.js';
import { ensureKeyspace } from './database-source.js';

export interface CopyProgress {
  readonly collection: string;
  readonly done: number;
  readonly rate: number;
}

/** Copies `from` into `to`; resolves with the documents copied. */
export async function copyDatabase(from: VectorDB, to: VectorDB, onProgress?: (progress: CopyProgress) => void): Promise<number> {
  let copied = 0;
  for (const keyspace of await from.findAllKeyspaceNames()) {
    await from.changeKeyspace(keyspace);
    await ensureKeyspace(to, keyspace);
    await to.changeKeyspace(keyspace);
    for (const definition of await from.findAllCollections()) {
      const name = `${keyspace}.${definition.name}`;
      await to.createCollection(definition);
      const source = await from.collection(definition.name);
      const target = await to.collection(definition.name);
      const documents = source.find({ projection: { '*': 1 } }) as AsyncIterable<JsonObject>;
      const base = copied;
      const summary = await target.upsertMany(documents, { concurrency: 4, onProgress: (p) => onProgress?.({ collection: name, done: base + p.done, rate: p.rate }) });
      copied += summary.processed;
    }
  }
  return copied;
}
