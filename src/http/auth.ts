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
  const accepted = new AcceptedTokens();
  return (token) => {
    if (accepted.has(token)) return true;
    const ok = timingSafeEqual(sha256(token), digest);
    if (ok) accepted.add(token);
    return ok;
  };
}

/** Longer tokens are always checked in full: V8 hashes very long strings by length only (see AcceptedTokens). */
const MAX_REMEMBERED_TOKEN_LENGTH = 1024;
const MAX_REMEMBERED_TOKENS = 64;

/**
 * Tokens a fixed verifier has already accepted, so each request's token is checked by one Set lookup
 * instead of hashing. Only for verifiers whose answer cannot change (a fixed token, a stored hash).
 * Timing: the lookup hashes the whole string and compares contents only on an equal hash, so a wrong
 * guess learns nothing about an accepted token's prefix; above MAX_REMEMBERED_TOKEN_LENGTH V8's string
 * hash depends on the length alone, so such tokens are never remembered.
 */
export class AcceptedTokens {
  readonly #tokens = new Set<string>();

  has(token: string): boolean {
    return token.length <= MAX_REMEMBERED_TOKEN_LENGTH && this.#tokens.has(token);
  }

  add(token: string): void {
    if (token.length > MAX_REMEMBERED_TOKEN_LENGTH) return;
    if (this.#tokens.size >= MAX_REMEMBERED_TOKENS) this.#tokens.delete(this.#tokens.values().next().value!);
    this.#tokens.add(token);
  }
}
