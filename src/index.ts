/**
 * vectordb-local's public surface for Node and Electron's main process: only what is exported here is
 * supported. The browser entry (browser.ts) has the same minus what needs Node: homes and their admin.
 */
export * from './portable.js';
export {
  VectorDBAdmin,
  /** The seed's other name for VectorDBAdmin (its database-administration section): the same class. */
  VectorDBAdmin as VectorDBClient,
  type DatabaseByIdOptions,
  type VectorDBAdminOptions,
} from './client/vector-db-admin.js';
export type { CreatedToken, DatabaseInfo, TokenInfo, TokenRole, TokenRoleName } from './admin/types.js';
export { TokenRoles } from './admin/types.js';
