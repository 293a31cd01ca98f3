/**
 * Who may do what in a home. A token of the home (`VDBL:<clientId>:<secret>`) is always checked: known, not
 * revoked, matching its scrypt hash, and within its role's scope. The one leniency: a database that has never
 * had a Database Administrator token accepts any other token string when opened in process (not over HTTP).
 */
import { VectorDbError } from '../errors/index.js';
import { isUuid, resolveHome } from './home-paths.js';
import { readRegistry } from './registry-file.js';
import type { DatabaseRecord, Registry } from './registry-format.js';
import { clientIdOf, matchesHash } from './secrets.js';
import type { Principal } from './types.js';

/** The principal of a token of this registry, or undefined when the token is not a valid, unrevoked one of it. */
export async function principalOf(registry: Registry, token: string): Promise<Principal | undefined> {
  const clientId = clientIdOf(token);
  const record = clientId === undefined ? undefined : registry.tokens.find((t) => t.clientId === clientId);
  if (record === undefined || record.revoked || !(await matchesHash(token, record.hash))) return undefined;
  return record.databaseId === undefined ? { clientId: record.clientId, role: record.role } : { clientId: record.clientId, role: record.role, databaseId: record.databaseId };
}

/** The principal of a token, strictly (what the HTTP server needs): MISSING_AUTHENTICATION_TOKEN or UNAUTHENTICATED_REQUEST otherwise. */
export async function authenticate(registry: Registry, token: unknown): Promise<Principal> {
  if (typeof token !== 'string' || token.length === 0) throw VectorDbError.of('MISSING_AUTHENTICATION_TOKEN');
  const principal = await principalOf(registry, token);
  if (principal === undefined) throw VectorDbError.of('UNAUTHENTICATED_REQUEST');
  return principal;
}

/** Passes for an Organization Administrator token; UNAUTHORIZED_ACCESS for a valid token of another role. */
export async function checkOrganization(registry: Registry, token: unknown): Promise<Principal> {
  const principal = await authenticate(registry, token);
  if (principal.role !== 'ORGANIZATION_ADMINISTRATOR') {
    throw VectorDbError.of('UNAUTHORIZED_ACCESS', { resource: 'the administration of this home: that needs an Organization Administrator token' });
  }
  return principal;
}

/** Whether a verified principal reaches a database: every database for an organization token, one for a database token. */
export function reaches(principal: Principal, databaseId: string): boolean {
  return principal.role === 'ORGANIZATION_ADMINISTRATOR' || principal.databaseId === databaseId;
}

/** Checks a token for opening `database` in process (see the header for the leniency). */
export async function checkDatabaseAccess(registry: Registry, database: DatabaseRecord, token: unknown): Promise<void> {
  if (typeof token !== 'string' || token.length === 0) throw VectorDbError.of('MISSING_AUTHENTICATION_TOKEN');
  const clientId = clientIdOf(token);
  const ours = clientId !== undefined && registry.tokens.some((t) => t.clientId === clientId);
  if (!ours && !database.tokenRequired) return;
  const principal = await authenticate(registry, token);
  if (!reaches(principal, database.id)) {
    throw VectorDbError.of('UNAUTHORIZED_ACCESS', { resource: `database '${database.id}': it is a Database Administrator token of another database` });
  }
}

/**
 * Checks that `token` may open database `databaseId` of `home` in process. Resolves when it may; rejects with
 * a VectorDbError: HOME_NOT_FOUND, DATABASE_NOT_FOUND, MISSING_AUTHENTICATION_TOKEN, UNAUTHENTICATED_REQUEST
 * (unknown, wrong or revoked token) or UNAUTHORIZED_ACCESS (a token of another database).
 * @example await checkDatabaseToken('/srv/home', '3f0c...-uuid', process.env.VECTORDB_TOKEN);
 */
export async function checkDatabaseToken(home: string, databaseId: string, token: string): Promise<void> {
  const dir = resolveHome(home);
  const registry = await readRegistry(dir);
  const database = isUuid(databaseId) ? registry.databases.find((d) => d.id === databaseId.toLowerCase()) : undefined;
  if (database === undefined) throw VectorDbError.of('DATABASE_NOT_FOUND', { database: databaseId, where: ` in home '${dir}'` });
  await checkDatabaseAccess(registry, database, token);
}
