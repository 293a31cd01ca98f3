/**
 * Cross-origin access (http/cors.ts): off by default; with `corsOrigins` an allowed page's preflight gets 204 and
 * its answers carry its own origin, on the Data API and GraphQL routes alike, while requests still need the token;
 * other origins get no CORS headers (the browser withholds the answer), and bad origins are refused at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/http/index.js';
import { post, serve, type Served } from './helpers.js';

const APP = 'http://localhost:5173';

function preflight(s: Served, path: string, origin: string): Promise<Response> {
  return fetch(s.url + path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,token' },
  });
}

describe('CORS off (the default)', () => {
  let s: Served;
  beforeAll(async () => (s = await serve()));
  afterAll(async () => s?.close());

  it('sends no CORS headers on any route, and a preflight is not answered as one', async () => {
    const data = await post(s, '/v1', { findKeyspaces: {} }, { origin: APP });
    expect(data.status).toBe(200);
    expect(data.headers.get('access-control-allow-origin')).toBeNull();
    const graphql = await post(s, '/api/graphql/default_keyspace', { query: '{ __typename }' }, { origin: APP });
    expect(graphql.status).toBe(200);
    expect(graphql.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight(s, '/v1', APP);
    expect(pre.status).toBe(405);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS on for chosen origins', () => {
  let s: Served;
  beforeAll(async () => (s = await serve({ corsOrigins: [APP, 'null'] })));
  afterAll(async () => s?.close());

  it('answers an allowed preflight with 204, the methods and the headers asked for', async () => {
    for (const path of ['/v1/default_keyspace/c', '/api/graphql/default_keyspace']) {
      const pre = await preflight(s, path, APP);
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(APP);
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      expect(pre.headers.get('access-control-allow-headers')).toBe('content-type,token');
      expect(pre.headers.get('vary')).toBe('Origin');
    }
  });

  it("echoes the page's own origin on answers (file:// pages send null), on the Data API and GraphQL", async () => {
    const data = await post(s, '/v1', { findKeyspaces: {} }, { origin: 'null' });
    expect(data.body.status?.keyspaces).toContain('default_keyspace');
    expect(data.headers.get('access-control-allow-origin')).toBe('null');
    const graphql = await post(s, '/api/graphql/default_keyspace', { query: '{ __typename }' }, { origin: APP });
    expect(JSON.parse(graphql.text)).toEqual({ data: { __typename: 'Query' } });
    expect(graphql.headers.get('access-control-allow-origin')).toBe(APP);
    expect(graphql.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('still requires the token: the refusal is readable by the allowed page', async () => {
    const refused = await post(s, '/v1', { findKeyspaces: {} }, { origin: APP, token: 'wrong' });
    expect(refused.status).toBe(401);
    expect(refused.body.errors?.[0]?.errorCode).toBe('UNAUTHENTICATED_REQUEST');
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('gives other origins no CORS headers and no preflight', async () => {
    const other = await post(s, '/v1', { findKeyspaces: {} }, { origin: 'http://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(s, '/v1', 'http://evil.example')).status).toBe(405);
  });
});

describe('CORS origins are checked', () => {
  it.each([
    ['localhost:5173', /not an origin/],
    ['http://localhost:5173/', /did you mean 'http:\/\/localhost:5173'/],
    ['http://app.example/path', /did you mean 'http:\/\/app.example'/],
  ])('refuses %s at creation', async (origin, message) => {
    const s = await serve();
    try {
      expect(() => createServer({ db: s.db, token: 't', port: 0, corsOrigins: [origin] })).toThrow(message);
    } finally {
      await s.close();
    }
  });
});
