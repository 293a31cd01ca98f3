/**
 * VectorDB.fromDatabaseId in a browser (swapped in for database-by-id.ts by the browser build): homes
 * of databases live on disk, which a page cannot reach, so it says what to use instead.
 */
import type * as NodeById from './database-by-id.js';

const NO_HOMES = "a home of databases is on disk, which a browser cannot reach: use new VectorDB(token, 'name') for an IndexedDB database, or new VectorDB(token, 'http://127.0.0.1:8181') for a server";

export const databaseDirectoryById: typeof NodeById.databaseDirectoryById = async (_token, databaseId) => {
  throw new TypeError(`VectorDB: the database id '${databaseId}' names a database of ${NO_HOMES.replace('a home of databases is', 'a home, which is')}`);
};

export const connectDatabaseById: typeof NodeById.connectDatabaseById = async () => {
  throw new TypeError(
    "VectorDB.fromDatabaseId needs a home of databases on disk, which a browser cannot reach: use new VectorDB(token, 'name') for an IndexedDB database, or new VectorDB(token, 'http://127.0.0.1:8181') for a server",
  );
};
