/**
 * The administration layer: a home of databases (a directory with a registry and one LevelDB per database),
 * tokens with roles, and the checks that the client and the HTTP server run before they open a database.
 */
export { HomeAdmin } from './home-admin.js';
export { checkDatabaseToken, authenticate, checkOrganization, checkDatabaseAccess, reaches } from './token-check.js';
export { readRegistry } from './registry-file.js';
export { findDatabase, requireDatabase, databaseInfo } from './registry-changes.js';
export { resolveHome, databaseDirectory, isUuid } from './home-paths.js';
export { TOKEN_PREFIX } from './secrets.js';
export type { Registry, DatabaseRecord, TokenRecord } from './registry-format.js';
export { DEFAULT_REGION, TOKEN_ROLES, TokenRoles, roleOf, type TokenRoleName, type CreatedToken, type DatabaseInfo, type Principal, type TokenInfo, type TokenRole } from './types.js';
export { RemoteAdmin, RemoteAdminError } from './remote-admin.js';
