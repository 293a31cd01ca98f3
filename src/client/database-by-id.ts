/**
 * VectorDB.fromDatabaseId's way to a home of databases, Node's side: the administration layer (homes on
 * disk) loads on use only. Has a browser twin (database-by-id.browser.ts): a page has no homes.
 */
import type { VectorDB } from './vector-db.js';
import type { DatabaseByIdOptions } from './vector-db-admin.js';

export async function connectDatabaseById(token: string, databaseId: string, options: DatabaseByIdOptions): Promise<VectorDB> {
  return (await import('./vector-db-admin.js')).connectDatabaseById(token, databaseId, options);
}
