/**
 * The administration layer's public shapes: database and token records as callers see them (never a secret
 * after creation), the two roles, and who a verified token belongs to. The on-disk shapes are registry-format.ts.
 */

/** Organization Administrator: every database and every administration call. Database Administrator: one database. */
export type TokenRole = 'ORGANIZATION_ADMINISTRATOR' | 'DATABASE_ADMINISTRATOR';

export const TOKEN_ROLES: readonly TokenRole[] = ['ORGANIZATION_ADMINISTRATOR', 'DATABASE_ADMINISTRATOR'];

/** The roles as a constant object, so editors complete them: `admin.createToken(TokenRoles.DATABASE_ADMINISTRATOR, id)`. */
export const TokenRoles = { ORGANIZATION_ADMINISTRATOR: 'ORGANIZATION_ADMINISTRATOR', DATABASE_ADMINISTRATOR: 'DATABASE_ADMINISTRATOR' } as const satisfies Record<TokenRole, TokenRole>;

/** A role as the API takes it: its code, or the seed's words ('Organization Administrator', 'Database Administrator'). */
export type TokenRoleName = TokenRole | 'Organization Administrator' | 'Database Administrator';

/** The role a name stands for ('Database Administrator' and 'database_administrator' alike), or undefined. */
export function roleOf(name: unknown): TokenRole | undefined {
  if (typeof name !== 'string') return undefined;
  const code = name.trim().replace(/\s+/g, '_').toUpperCase();
  return TOKEN_ROLES.find((role) => role === code);
}

/** The region of a database created without one. */
export const DEFAULT_REGION = 'local';

/** A database of a home. */
export interface DatabaseInfo {
  /** The database's UUID (also the name of its directory in the home). */
  readonly id: string;
  /** Unique within the home. */
  readonly name: string;
  readonly region: string;
  /** ISO-8601 time of creation. */
  readonly createdAt: string;
  /** Where a `VectorDB` reaches it: the database directory when embedded (`{server}/{id}-{region}` when served). */
  readonly endpoint: string;
}

/** A token as listed: everything but the secret, which is only ever shown by createToken. */
export interface TokenInfo {
  readonly clientId: string;
  readonly role: TokenRole;
  /** The one database a Database Administrator token reaches; absent for Organization Administrator tokens. */
  readonly databaseId?: string;
  readonly createdAt: string;
  readonly revoked: boolean;
  readonly revokedAt?: string;
}

/** A new token: shown once, store it safely. Only `token` is used by the library. */
export interface CreatedToken {
  readonly clientId: string;
  readonly clientSecret: string;
  /** `VDBL:` + clientId + `:` + clientSecret. */
  readonly token: string;
}

/** Who a verified token belongs to. */
export interface Principal {
  readonly clientId: string;
  readonly role: TokenRole;
  readonly databaseId?: string;
}
