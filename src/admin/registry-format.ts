/**
 * The registry of a home as stored in `home.json`: its databases and its tokens (salted scrypt hashes only).
 * This is an on-disk format: fields are only ever added; FORMAT changes only with a migration. Parsing
 * checks the shape so that a damaged or newer file fails clearly instead of being half-understood.
 */
import { VectorDbError } from '../errors/index.js';
import { TOKEN_ROLES, type TokenRole } from './types.js';

export const REGISTRY_FORMAT = 1;
export const REGISTRY_KIND = 'vectordb-local-home';

export interface DatabaseRecord {
  readonly id: string;
  readonly name: string;
  readonly region: string;
  readonly createdAt: string;
  /**
   * Set when the first Database Administrator token for this database is created, and never cleared: from
   * then on opening it through the home needs a valid token. Before that, any token opens it in process.
   */
  readonly tokenRequired: boolean;
}

export interface TokenRecord {
  readonly clientId: string;
  readonly role: TokenRole;
  readonly databaseId?: string;
  /** `scrypt$N$r$p$<salt b64>$<key b64>` of the whole token (see secrets.ts). */
  readonly hash: string;
  readonly createdAt: string;
  readonly revoked: boolean;
  readonly revokedAt?: string;
}

export interface Registry {
  readonly kind: typeof REGISTRY_KIND;
  readonly format: typeof REGISTRY_FORMAT;
  readonly createdAt: string;
  readonly databases: readonly DatabaseRecord[];
  readonly tokens: readonly TokenRecord[];
}

export function emptyRegistry(now: string): Registry {
  return { kind: REGISTRY_KIND, format: REGISTRY_FORMAT, createdAt: now, databases: [], tokens: [] };
}

/** Parses the text of home.json; HOME_REGISTRY_CORRUPTED (naming the file) when it is not a registry we can read. */
export function parseRegistry(text: string, file: string): Registry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(value) || value.kind !== REGISTRY_KIND) throw corrupt(file, `not a vectordb-local home registry`);
  if (typeof value.format !== 'number' || value.format > REGISTRY_FORMAT) {
    throw corrupt(file, `registry format ${String(value.format)} is newer than this version of vectordb-local supports (${REGISTRY_FORMAT}); upgrade vectordb-local.`);
  }
  const { databases, tokens } = value;
  if (!Array.isArray(databases) || !databases.every(isDatabaseRecord)) throw corrupt(file, 'its "databases" list is malformed');
  if (!Array.isArray(tokens) || !tokens.every(isTokenRecord)) throw corrupt(file, 'its "tokens" list is malformed');
  return value as unknown as Registry;
}

function isDatabaseRecord(value: unknown): value is DatabaseRecord {
  return isObject(value) && typeof value.id === 'string' && typeof value.name === 'string' && typeof value.region === 'string' && typeof value.tokenRequired === 'boolean';
}

function isTokenRecord(value: unknown): value is TokenRecord {
  return (
    isObject(value) &&
    typeof value.clientId === 'string' &&
    TOKEN_ROLES.includes(value.role as TokenRole) &&
    typeof value.hash === 'string' &&
    typeof value.revoked === 'boolean' &&
    (value.databaseId === undefined || typeof value.databaseId === 'string')
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function corrupt(file: string, reason: string): VectorDbError {
  return VectorDbError.of('HOME_REGISTRY_CORRUPTED', { location: file, reason });
}
