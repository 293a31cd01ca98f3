/**
 * The server token's stored form and its verifier. Hashing is src/admin/secrets.ts's (salted scrypt,
 * `scrypt$N$r$p$<salt>$<key>`, constant-time compare, one scrypt at a time, accepted tokens remembered as
 * SHA-256 digests); this adds a memory of recent rejections so repeated wrong tokens cost no scrypt, and of
 * accepted tokens so the right one costs no hashing at all.
 */
import { hashSecret, matchesHash } from '../admin/secrets.js';
import { AcceptedTokens, sha256, type TokenVerifier } from './auth.js';

const MAX_REMEMBERED_REJECTIONS = 1024;
const TOKEN_HASH = /^scrypt\$[1-9]\d*\$[1-9]\d*\$[1-9]\d*\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;

/** Hashes a token for storage with a fresh random salt. */
export const hashToken = hashSecret;

/** Whether `stored` is a token hash (a setting written by another version may not be). */
export function isTokenHash(stored: string): boolean {
  return TOKEN_HASH.test(stored);
}

/** Checks one token against a stored hash. */
export const matchesTokenHash = matchesHash;

/** A verifier for a stored hash. */
export function hashedTokenVerifier(stored: string): TokenVerifier {
  if (!isTokenHash(stored)) throw new TypeError('stored token hash is not in the scrypt$N$r$p$salt$key format');
  const rejected = new Set<string>();
  const accepted = new AcceptedTokens();
  return async (token) => {
    if (accepted.has(token)) return true;
    const id = sha256(token).toString('hex');
    if (rejected.has(id)) return false;
    const ok = await matchesHash(token, stored);
    if (ok) accepted.add(token);
    else {
      if (rejected.size >= MAX_REMEMBERED_REJECTIONS) rejected.delete(rejected.values().next().value!);
      rejected.add(id);
    }
    return ok;
  };
}
