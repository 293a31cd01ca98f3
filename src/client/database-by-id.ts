/**
 * The way from a database id to a home of databases (VectorDB.fromDatabaseId and the seed's id constructors),
 * Node's side: the administration layer (homes on disk) loads on use only. Has a browser twin
 * (database-by-id.browser.ts): a page has no homes.
 */
import { VectorDbError } from '../errors/index.js';
import type * as HomeDatabases from './home-databases.js';

/** The database `create` makes on the directory of `databaseId`, connected (see home-databases.ts). */
export const connectDatabaseById: typeof HomeDatabases.connectDatabaseById = async (token, databaseId, options, create) =>
  (await import('./home-databases.js')).connectDatabaseById(token, databaseId, options, create);

/**
 * The directory of database `databaseId` in the home ($VECTORDB_HOME, else ~/.vectordb-local), once the home
 * has vouched for the id, the region (when given) and the token. DATABASE_NOT_FOUND when it has no such database.
 */
export async function databaseDirectoryById(token: string, databaseId: string, region: string | undefined): Promise<string> {
  const { checkDatabaseToken, databaseDirectory, findDatabase, readRegistry, resolveHome } = await import('../admin/index.js');
  const home = resolveHome();
  const registry = await readRegistry(home).catch((error: unknown) => {
    if (!(error instanceof VectorDbError) || error.code !== 'HOME_NOT_FOUND') throw error;
    throw VectorDbError.of('DATABASE_NOT_FOUND', { database: databaseId, where: `: there is no home at '${home}' (set VECTORDB_HOME, or create one with VectorDBAdmin.initHome)` });
  });
  const record = findDatabase(registry, databaseId);
  if (record === undefined || (region !== undefined && record.region !== region)) {
    const where = region === undefined ? '' : ` in region '${region}'`;
    const actually = record === undefined ? '' : ` (it is in region '${record.region}')`;
    throw VectorDbError.of('DATABASE_NOT_FOUND', { database: databaseId, where: `${where} of home '${home}'${actually}` });
  }
  await checkDatabaseToken(home, record.id, token);
  return databaseDirectory(home, record.id);
}
