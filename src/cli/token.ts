/**
 * The server token of a data directory: given (--token / VECTORDB_TOKEN, which replaces the stored hash),
 * stored (the scrypt hash kept as a database setting), or generated on first start (printed once by the caller).
 * Never prints or logs a token itself; never stores one in clear.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../engine/database.js';
import { fixedTokenVerifier, hashToken, hashedTokenVerifier, isTokenHash, matchesTokenHash, type TokenVerifier } from '../http/index.js';

export const TOKEN_SETTING = 'server.tokenHash';
export const TOKEN_PREFIX = 'VDBL:';

export type TokenSource = 'flag' | 'env' | 'stored' | 'generated';

export interface ResolvedToken {
  readonly verifier: TokenVerifier;
  readonly source: TokenSource;
  /** Only for a token generated now: the caller prints it once. */
  readonly generated?: string;
}

/** A token must travel in an HTTP header: visible ASCII only. Returns the problem, or undefined. */
export function tokenProblem(token: string): string | undefined {
  if (token.length === 0) return 'the token must not be empty';
  if (!/^[\x21-\x7e]+$/.test(token)) return 'the token may contain only visible ASCII characters (no spaces), as it travels in an HTTP header';
  if (token.length > 1024) return 'the token must be at most 1024 characters';
  return undefined;
}

export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export async function resolveToken(db: Database, given: { token: string; source: 'flag' | 'env' } | undefined): Promise<ResolvedToken> {
  const stored = await db.readSetting(TOKEN_SETTING);
  if (given !== undefined) {
    // Skip the write (and a fresh salt) when the stored hash already is this token's.
    const same = stored !== undefined && isTokenHash(stored) && (await matchesTokenHash(given.token, stored));
    if (!same) await db.writeSetting(TOKEN_SETTING, await hashToken(given.token));
    return { verifier: fixedTokenVerifier(given.token), source: given.source };
  }
  if (stored !== undefined) {
    if (!isTokenHash(stored)) {
      throw new Error(`the stored token hash of this database is unreadable: start once with --token <token> or VECTORDB_TOKEN=<token> to replace it`);
    }
    return { verifier: hashedTokenVerifier(stored), source: 'stored' };
  }
  const generated = generateToken();
  await db.writeSetting(TOKEN_SETTING, await hashToken(generated));
  return { verifier: fixedTokenVerifier(generated), source: 'generated', generated };
}
