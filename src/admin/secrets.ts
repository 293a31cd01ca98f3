/**
 * Token secrets: `VDBL:<clientId>:<clientSecret>` (the client id makes lookup one hash check, as Astra's
 * `AstraCS:<id>:<secret>` does), stored as `scrypt$N$r$p$<salt>$<key>` and compared in constant time.
 * A verified token is remembered as a SHA-256 digest only; scrypt runs one at a time. Never logs a token.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const TOKEN_PREFIX = 'VDBL:';

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const MAX_REMEMBERED = 256;
const TOKEN_SHAPE = /^VDBL:([0-9a-f]{24}):([A-Za-z0-9_-]{43})$/;

/** A fresh credential: 96 random bits of client id, 256 of secret. */
export function newCredential(): { clientId: string; clientSecret: string; token: string } {
  const clientId = randomBytes(12).toString('hex');
  const clientSecret = randomBytes(32).toString('base64url');
  return { clientId, clientSecret, token: `${TOKEN_PREFIX}${clientId}:${clientSecret}` };
}

/** The client id a token claims, or undefined when it is not one of our tokens. */
export function clientIdOf(token: string): string | undefined {
  return TOKEN_SHAPE.exec(token)?.[1];
}

function derive(secret: string, salt: Buffer, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, keyBytes, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** The stored form of a token, with a fresh random salt. */
export async function hashSecret(token: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(token, salt, KEY_BYTES, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Tokens verified lately: SHA-256 of the token -> the stored hash it matched. */
const verified = new Map<string, string>();
let queue: Promise<unknown> = Promise.resolve();

/** Whether `token` matches the stored hash (false for a malformed hash: it cannot match anything). */
export async function matchesHash(token: string, stored: string): Promise<boolean> {
  const digest = createHash('sha256').update(token, 'utf8').digest('hex');
  const remembered = verified.get(digest);
  if (remembered !== undefined && sameText(remembered, stored)) return true;
  const parts = stored.split('$');
  const [scheme, n, r, p, salt, key] = parts;
  const numbers = [n, r, p].map(Number);
  if (parts.length !== 6 || scheme !== 'scrypt' || !numbers.every((x) => Number.isInteger(x) && x > 0) || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const run = queue.then(() => derive(token, Buffer.from(salt, 'base64'), expected.length, { N: numbers[0]!, r: numbers[1]!, p: numbers[2]! }));
  queue = run.catch(() => undefined);
  const actual = await run;
  const ok = actual.length === expected.length && timingSafeEqual(actual, expected);
  if (ok) {
    if (verified.size >= MAX_REMEMBERED) verified.delete(verified.keys().next().value!);
    verified.set(digest, stored);
  }
  return ok;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
