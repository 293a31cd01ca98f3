/**
 * Who may call: the token headers the Data API accepts, and a verifier for one fixed token that
 * compares in constant time. Never logs or echoes a token. Stored-hash verification: token-hash.ts.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Decides whether a request's token is accepted. It must not throw for a wrong token. */
export type TokenVerifier = (token: string) => boolean | Promise<boolean>;

/** Node lowercases header names, so `token` covers `Token`. First match wins. */
const TOKEN_HEADERS = ['token', 'x-vendor-token', 'x-cassandra-token'] as const;

/** The request's token, or undefined when no token header carries a non-empty value. */
export function tokenOf(headers: IncomingHttpHeaders): string | undefined {
  for (const name of TOKEN_HEADERS) {
    const raw = headers[name];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (value) return value;
  }
  return undefined;
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Accepts exactly `expected`. Hashing both sides first gives equal lengths, so timingSafeEqual applies. */
export function fixedTokenVerifier(expected: string): TokenVerifier {
  if (typeof expected !== 'string' || expected.length === 0) throw new TypeError('token must be a non-empty string');
  const digest = sha256(expected);
  return (token) => timingSafeEqual(sha256(token), digest);
}
