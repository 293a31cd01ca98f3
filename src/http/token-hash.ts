/**
 * The stored form of a server token: `scrypt$N$r$p$<salt b64>$<key b64>`, and a verifier against it.
 * scrypt costs ~50 ms, so the verifier remembers the accepted token (as a SHA-256 digest, compared in
 * constant time) and recent rejections, and runs one scrypt at a time so wrong tokens cannot starve storage I/O.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { sha256, type TokenVerifier } from './auth.js';

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const MAX_REMEMBERED_REJECTIONS = 1024;

interface TokenHash {
  readonly options: ScryptOptions;
  readonly salt: Buffer;
  readonly key: Buffer;
}

function derive(token: string, salt: Buffer, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(token, salt, keyBytes, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a token for storage with a fresh random salt. */
export async function hashToken(token: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(token, salt, KEY_BYTES, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parseTokenHash(stored: string): TokenHash {
  const parts = stored.split('$');
  const [scheme, n, r, p, salt, key] = parts;
  const numbers = [n, r, p].map(Number);
  if (parts.length !== 6 || scheme !== 'scrypt' || !numbers.every((x) => Number.isInteger(x) && x > 0) || !salt || !key) {
    throw new TypeError('stored token hash is not in the scrypt$N$r$p$salt$key format');
  }
  return { options: { N: numbers[0]!, r: numbers[1]!, p: numbers[2]! }, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

/** Whether `stored` parses as a token hash (for a setting written by another version). */
export function isTokenHash(stored: string): boolean {
  try {
    parseTokenHash(stored);
    return true;
  } catch {
    return false;
  }
}

/** Checks one token against a stored hash (no caching). */
export async function matchesTokenHash(token: string, stored: string): Promise<boolean> {
  const hash = parseTokenHash(stored);
  const key = await derive(token, hash.salt, hash.key.length, hash.options);
  return timingSafeEqual(key, hash.key);
}

/** A verifier for a stored hash; see the header for its caches. */
export function hashedTokenVerifier(stored: string): TokenVerifier {
  parseTokenHash(stored); // fail at start, not on the first request
  let accepted: Buffer | undefined;
  const rejected = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  return async (token) => {
    const digest = sha256(token);
    if (accepted !== undefined && timingSafeEqual(accepted, digest)) return true;
    const id = digest.toString('hex');
    if (rejected.has(id)) return false;
    const run = queue.then(() => matchesTokenHash(token, stored));
    queue = run.catch(() => undefined);
    const ok = await run;
    if (ok) {
      accepted = digest;
    } else {
      if (rejected.size >= MAX_REMEMBERED_REJECTIONS) rejected.delete(rejected.values().next().value!);
      rejected.add(id);
    }
    return ok;
  };
}
