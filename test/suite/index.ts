/**
 * Every shared suite in one call, for a transport's test file (embedded.test.ts, http.test.ts).
 * Each suite takes a DbFactory and never branches on which one it is.
 */
import type { DbFactory } from '../support/factory.js';
import { collectionsSuite } from './collections.js';
import { insertSuite } from './insert.js';
import { keyspacesSuite } from './keyspaces.js';

export { collectionsSuite, insertSuite, keyspacesSuite };

export function allSuites(factory: DbFactory): void {
  keyspacesSuite(factory);
  collectionsSuite(factory);
  insertSuite(factory);
}
