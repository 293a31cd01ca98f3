/**
 * Tokens and server options: header precedence, the fixed-token and stored-hash verifiers (scrypt format,
 * caching, wrong tokens), createServer's option checks, and that the served database's limits apply over HTTP.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { createServer, fixedTokenVerifier, hashToken, hashedTokenVerifier, isTokenHash, matchesTokenHash, tokenOf } from '../../src/http/index.js';
import { tempDir } from '../support/temp.js';
import { firstErrorCode, post, serve, type Served } from './helpers.js';

const opened: Served[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
});

describe('token headers', () => {
  it('reads Token, X-Vendor-Token, X-Cassandra-Token in that order; blank is missing', () => {
    expect(tokenOf({ token: 'a', 'x-vendor-token': 'b' })).toBe('a');
    expect(tokenOf({ 'x-vendor-token': 'b', 'x-cassandra-token': 'c' })).toBe('b');
    expect(tokenOf({ 'x-cassandra-token': 'c' })).toBe('c');
    expect(tokenOf({ token: '  ' })).toBeUndefined();
    expect(tokenOf({ authorization: 'Bearer x' })).toBeUndefined();
  });
});

describe('verifiers', () => {
  it('fixedTokenVerifier accepts only the exact token, whatever the length of the guess', () => {
    const verify = fixedTokenVerifier('s3cret');
    expect(verify('s3cret')).toBe(true);
    for (const guess of ['', 's3cre', 's3cret ', 'S3CRET', 'x'.repeat(10_000)]) expect(verify(guess)).toBe(false);
    expect(() => fixedTokenVerifier('')).toThrow(TypeError);
  });

  it('fixedTokenVerifier remembers the accepted token, and still refuses every other one', () => {
    const verify = fixedTokenVerifier('s3cret');
    for (let i = 0; i < 3; i++) expect(verify('s3cret')).toBe(true);
    for (const guess of ['s3cre', 's3cret ', 'S3CRET', '']) expect(verify(guess)).toBe(false);
    const long = 'L'.repeat(5_000); // too long to remember: checked in full every time
    const verifyLong = fixedTokenVerifier(long);
    expect([verifyLong(long), verifyLong(long), verifyLong(`${long}x`), verifyLong(long.slice(1))]).toEqual([true, true, false, false]);
  });

  it('hashToken: salted scrypt, never the token in clear', async () => {
    const a = await hashToken('VDBL:abc');
    const b = await hashToken('VDBL:abc');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b); // fresh salt
    expect(a).not.toContain('abc');
    expect(isTokenHash(a)).toBe(true);
    expect(isTokenHash('plain')).toBe(false);
    expect(await matchesTokenHash('VDBL:abc', a)).toBe(true);
    expect(await matchesTokenHash('VDBL:abd', a)).toBe(false);
  });

  it('hashedTokenVerifier: right and wrong tokens, repeated and concurrent', async () => {
    const verify = hashedTokenVerifier(await hashToken('right'));
    const results = await Promise.all(['wrong', 'right', 'right', 'wrong', 'other'].map((t) => verify(t)));
    expect(results).toEqual([false, true, true, false, false]);
    const started = performance.now();
    for (let i = 0; i < 100; i++) expect(await verify('right')).toBe(true); // cached: no scrypt per request
    expect(performance.now() - started).toBeLessThan(500);
    expect(await verify('wrong')).toBe(false);
    expect(await verify('righ')).toBe(false);
    expect(await verify('right')).toBe(true);
    expect(() => hashedTokenVerifier('nonsense')).toThrow(TypeError);
  });

  it('a server with a stored-hash verifier answers 200 / 401', async () => {
    const s = await serve({ tokenVerifier: hashedTokenVerifier(await hashToken('hashed-token')) });
    opened.push(s);
    expect((await post(s, '/v1', { findKeyspaces: {} }, { token: 'hashed-token' })).status).toBe(200);
    expect((await post(s, '/v1', { findKeyspaces: {} }, { token: 'hashed-tokeN' })).status).toBe(401);
  });
});

describe('createServer options', () => {
  it('requires exactly one of token and tokenVerifier, and a positive maxBodyBytes', async () => {
    const db = await Database.open(tempDir());
    try {
      expect(() => createServer({ db })).toThrow(/token/);
      expect(() => createServer({ db, token: 'a', tokenVerifier: () => true })).toThrow(/either/);
      expect(() => createServer({ db, token: 'a', maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
      expect(() => createServer({ db, token: '' })).toThrow(TypeError);
    } finally {
      await db.close();
    }
  });

  it('limits must match the database it serves', async () => {
    const db = await Database.open(tempDir(), { limits: { maxInsertManyDocuments: 5 } });
    try {
      expect(() => createServer({ db, token: 't', limits: { maxInsertManyDocuments: 20 } })).toThrow(/open the Database with the limits/);
      expect(() => createServer({ db, token: 't', limits: { maxInsertManyDocuments: 5 } })).not.toThrow();
    } finally {
      await db.close();
    }
  });

  it("the database's limits apply over HTTP", async () => {
    const s = await serve({ limits: { maxInsertManyDocuments: 5 } });
    opened.push(s);
    await post(s, '/v1/default_keyspace', { createCollection: { name: 'c' } });
    const reply = await post(s, '/v1/default_keyspace/c', { insertMany: { documents: Array.from({ length: 6 }, (_, i) => ({ _id: i })) } });
    expect(reply.status).toBe(200);
    expect(firstErrorCode(reply)).toBe('COMMAND_FIELD_VALUE_INVALID');
    expect(reply.body.errors?.[0]?.message).toContain('chunkSize: 5');
  });

  it('a throwing verifier is a 500 for that request only; the server keeps serving', async () => {
    let fail = true;
    const s = await serve({ tokenVerifier: (token) => {
      if (fail) throw new Error('verifier down');
      return token === 'ok';
    } });
    opened.push(s);
    const broken = await post(s, '/v1', { findKeyspaces: {} }, { token: 'ok' });
    expect(broken.status).toBe(500);
    expect(firstErrorCode(broken)).toBe('UNEXPECTED_SERVER_ERROR');
    fail = false;
    expect((await post(s, '/v1', { findKeyspaces: {} }, { token: 'ok' })).status).toBe(200);
  });
});
