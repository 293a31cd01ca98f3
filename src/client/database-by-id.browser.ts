/**
 * VectorDB.fromDatabaseId in a browser (swapped in for database-by-id.ts by the browser build): homes
 * of databases live on disk, which a page cannot reach, so it says what to use instead.
 */
import type * as NodeById from './database-by-id.js';

export const connectDatabaseById: typeof NodeById.connectDatabaseById = async () => {
  throw new TypeError(
    "VectorDB.fromDatabaseId needs a home of databases on disk, which a browser cannot reach: use new VectorDB(token, 'name') for an IndexedDB database, or new VectorDB(token, 'http://127.0.0.1:8181') for a server",
  );
};
