/**
 * Pure changes to a registry value (no I/O): finding a database by id or name, adding and removing databases,
 * adding and revoking tokens. Each returns a new registry; home-admin.ts stores it under the home's lock.
 */
import { VectorDbError } from '../errors/index.js';
import { databaseDirectory, isUuid } from './home-paths.js';
import type { DatabaseRecord, Registry, TokenRecord } from './registry-format.js';
import type { DatabaseInfo, TokenInfo } from './types.js';

const DATABASE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;
const REGION = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The database with this id (any case) or, failing that, this name. */
export function findDatabase(registry: Registry, idOrName: string): DatabaseRecord | undefined {
  const byId = isUuid(idOrName) ? registry.databases.find((d) => d.id === idOrName.toLowerCase()) : undefined;
  return byId ?? registry.databases.find((d) => d.name === idOrName);
}

/** As findDatabase, or DATABASE_NOT_FOUND. */
export function requireDatabase(registry: Registry, idOrName: string, home: string): DatabaseRecord {
  const found = findDatabase(registry, idOrName);
  if (found === undefined) throw VectorDbError.of('DATABASE_NOT_FOUND', { database: idOrName, where: ` in home '${home}'` });
  return found;
}

export function checkDatabaseName(name: unknown, region: unknown): asserts name is string {
  if (typeof name !== 'string' || !DATABASE_NAME.test(name)) {
    throw invalid(`database name ${JSON.stringify(name)} is not valid: use 1 to 64 letters, digits, '_' or '-', not starting with '-'`);
  }
  if (typeof region !== 'string' || !REGION.test(region)) {
    throw invalid(`region ${JSON.stringify(region)} is not valid: use 1 to 32 lower-case letters, digits or '-', not starting with '-'`);
  }
}

export function withDatabase(registry: Registry, record: DatabaseRecord): Registry {
  return { ...registry, databases: [...registry.databases, record] };
}

/** Removes a database and revokes the tokens that reached only it. */
export function withoutDatabase(registry: Registry, id: string, now: string): Registry {
  return {
    ...registry,
    databases: registry.databases.filter((d) => d.id !== id),
    tokens: registry.tokens.map((t) => (t.databaseId === id && !t.revoked ? { ...t, revoked: true, revokedAt: now } : t)),
  };
}

/** Adds a token; a Database Administrator token makes its database require a token from now on. */
export function withToken(registry: Registry, token: TokenRecord): Registry {
  const databases = token.databaseId === undefined ? registry.databases : registry.databases.map((d) => (d.id === token.databaseId ? { ...d, tokenRequired: true } : d));
  return { ...registry, databases, tokens: [...registry.tokens, token] };
}

/** Revokes a token by client id (undefined when it already is revoked); never the last usable Organization Administrator token. */
export function withTokenRevoked(registry: Registry, clientId: string | undefined, now: string): Registry | undefined {
  const target = registry.tokens.find((t) => t.clientId === clientId);
  if (target === undefined) throw VectorDbError.of('TOKEN_NOT_FOUND');
  if (target.revoked) return undefined;
  if (target.role === 'ORGANIZATION_ADMINISTRATOR' && !registry.tokens.some((t) => t !== target && t.role === 'ORGANIZATION_ADMINISTRATOR' && !t.revoked)) {
    throw invalid('this is the last Organization Administrator token of the home: create another one before revoking it');
  }
  return { ...registry, tokens: registry.tokens.map((t) => (t === target ? { ...t, revoked: true, revokedAt: now } : t)) };
}

export function databaseInfo(home: string, record: DatabaseRecord): DatabaseInfo {
  return { id: record.id, name: record.name, region: record.region, createdAt: record.createdAt, endpoint: databaseDirectory(home, record.id) };
}

export function tokenInfo(record: TokenRecord): TokenInfo {
  return {
    clientId: record.clientId,
    role: record.role,
    ...(record.databaseId !== undefined ? { databaseId: record.databaseId } : {}),
    createdAt: record.createdAt,
    revoked: record.revoked,
    ...(record.revokedAt !== undefined ? { revokedAt: record.revokedAt } : {}),
  };
}

export function invalid(reason: string): VectorDbError {
  return VectorDbError.of('INVALID_ARGUMENT', { reason });
}
