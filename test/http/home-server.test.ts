/**
 * A home served over HTTP (createServer({home})): per-database endpoints with the home's tokens, the /v2
 * administration routes for organization tokens only, revoked tokens refused, and VectorDBAdmin over a URL.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type DataApiServer } from '../../src/http/index.js';
import { KeyspaceAlreadyExistException, UnauthorizedException, VectorDB, VectorDBAdmin } from '../../src/index.js';
import { tempDir } from '../support/temp.js';

let home: string;
let orgToken: string;
let local: VectorDBAdmin;
let server: DataApiServer;
let url: string;

async function call(pathname: string, token: string | undefined, method = 'POST', body?: unknown): Promise<{ status: number; body: { errors?: { errorCode: string }[] } & Record<string, unknown> }> {
  const response = await fetch(url + pathname, {
    method,
    headers: { 'content-type': 'application/json', ...(token !== undefined ? { token } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as never };
}

const codeOf = (r: { body: { errors?: { errorCode: string }[] } }): string | undefined => r.body.errors?.[0]?.errorCode;

beforeAll(async () => {
  home = path.join(tempDir('vectordb-home-http-'), 'home');
  orgToken = await VectorDBAdmin.initHome(home);
  local = new VectorDBAdmin(orgToken, { home });
  server = createServer({ home, port: 0 });
  await server.listen();
  url = server.url;
});

afterAll(async () => {
  await server.close();
});

describe('serving a home', () => {
  it('a database token reaches its own database only, and no administration route', async () => {
    const a = await local.createDatabase('alpha');
    const b = await local.createDatabase('beta');
    const { token } = await local.createToken('DATABASE_ADMINISTRATOR', 'alpha');
    const own = await call(`/${a}-local/v1`, token, 'POST', { findKeyspaces: {} });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ status: { keyspaces: ['default_keyspace'] } });
    const astraPath = await call(`/${a}-local/api/json/v1/default_keyspace`, token, 'POST', { findCollections: {} });
    expect(astraPath.status).toBe(200);
    const other = await call(`/${b}-local/v1`, token, 'POST', { findKeyspaces: {} });
    expect(other.status).toBe(401);
    expect(codeOf(other)).toBe('UNAUTHORIZED_ACCESS');
    for (const [method, route, body] of [
      ['GET', '/v2/databases', undefined],
      ['POST', '/v2/databases', { name: 'gamma' }],
      ['GET', `/v2/databases/${a}`, undefined],
      ['DELETE', `/v2/databases/${a}`, undefined],
      ['POST', `/v2/databases/${a}/keyspaces/ks1`, undefined],
      ['DELETE', `/v2/databases/${a}/keyspaces/default_keyspace`, undefined],
    ] as const) {
      const reply = await call(route, token, method, body);
      expect(reply.status, `${method} ${route}`).toBe(401);
      expect(codeOf(reply)).toBe('UNAUTHORIZED_ACCESS');
    }
    expect((await local.listDatabaseNames()).sort()).toEqual(['alpha', 'beta']);
  });

  it('refuses a revoked, unknown or missing token, and unknown databases', async () => {
    const a = await local.createDatabase('alpha');
    const { token, clientId } = await local.createToken('DATABASE_ADMINISTRATOR', 'alpha');
    expect((await call(`/${a}-local/v1`, token, 'POST', { findKeyspaces: {} })).status).toBe(200);
    await local.revokeToken(clientId);
    const revoked = await call(`/${a}-local/v1`, token, 'POST', { findKeyspaces: {} });
    expect(revoked.status).toBe(401);
    expect(codeOf(revoked)).toBe('UNAUTHENTICATED_REQUEST');
    expect((await call('/v2/databases', token, 'GET')).status).toBe(401);
    expect(codeOf(await call(`/${a}-local/v1`, 'VDBL:000000000000000000000000:' + 'x'.repeat(43), 'POST', {}))).toBe('UNAUTHENTICATED_REQUEST');
    expect(codeOf(await call(`/${a}-local/v1`, undefined, 'POST', {}))).toBe('MISSING_AUTHENTICATION_TOKEN');
    expect((await call(`/${a}-elsewhere/v1`, orgToken, 'POST', { findKeyspaces: {} })).status).toBe(404);
    expect((await call('/v1', orgToken, 'POST', { findKeyspaces: {} })).status).toBe(404);
  });

  it('an organization token administers over the routes', async () => {
    const created = await call('/v2/databases', orgToken, 'POST', { name: 'delta', region: 'eu' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await call('/v2/databases', orgToken, 'POST', { name: 'delta' })).body.id).toBe(id);
    const got = await call(`/v2/databases/${id}`, orgToken, 'GET');
    expect(got.body).toMatchObject({ id, name: 'delta', region: 'eu', endpoint: `${url}/${id}-eu` });
    expect((await call('/v2/databases', orgToken, 'GET')).body).toEqual(expect.arrayContaining([expect.objectContaining({ id, endpoint: `${url}/${id}-eu` })]));
    expect((await call(`/v2/databases/${id}/keyspaces/ks1`, orgToken, 'POST')).status).toBe(201);
    const again = await call(`/v2/databases/${id}/keyspaces/ks1`, orgToken, 'POST');
    expect(again.status).toBe(409);
    expect(codeOf(again)).toBe('KEYSPACE_ALREADY_EXISTS');
    // The server opens the database for a data request, and still deletes it (closing its own handle).
    expect((await call(`/${id}-eu/v1`, orgToken, 'POST', { findKeyspaces: {} })).body).toMatchObject({ status: { keyspaces: expect.arrayContaining(['ks1']) } });
    expect((await call(`/v2/databases/${id}/keyspaces/ks1`, orgToken, 'DELETE')).status).toBe(200);
    const missing = await call(`/v2/databases/${id}/keyspaces/ks1`, orgToken, 'DELETE');
    expect(missing.status).toBe(404);
    expect(codeOf(missing)).toBe('UNKNOWN_KEYSPACE');
    expect((await call(`/v2/databases/${id}`, orgToken, 'DELETE')).status).toBe(200);
    expect((await call(`/v2/databases/${id}`, orgToken, 'GET')).status).toBe(404);
    expect((await call(`/v2/databases/${id}`, orgToken, 'DELETE')).status).toBe(404);
    expect((await call(`/${id}-eu/v1`, orgToken, 'POST', { findKeyspaces: {} })).status).toBe(404);
  });

  it('DELETE answers 409 while another VectorDB of the process holds the database', async () => {
    const id = await local.createDatabase('held');
    const db = await local.database('held');
    try {
      const reply = await call(`/v2/databases/${id}`, orgToken, 'DELETE');
      expect(reply.status).toBe(409);
      expect(codeOf(reply)).toBe('DATABASE_IN_USE');
    } finally {
      await db.close();
    }
    expect((await call(`/v2/databases/${id}`, orgToken, 'DELETE')).status).toBe(200);
  });

  it('VectorDBAdmin over the server URL works end to end', async () => {
    const admin = new VectorDBAdmin(orgToken, { home: url });
    expect(admin.url).toBe(url);
    const id = await admin.createDatabase('remote');
    expect((await admin.findDatabaseByName('remote'))?.endpoint).toBe(`${url}/${id}-local`);
    expect((await admin.findDatabaseById(id))?.name).toBe('remote');
    expect(await admin.isDatabaseExists('nope')).toBe(false);
    await admin.createKeyspace('remote', 'shop');
    await expect(admin.createKeyspace(id, 'shop')).rejects.toBeInstanceOf(KeyspaceAlreadyExistException);
    const db = await admin.database('remote', 'shop');
    expect(db).toBeInstanceOf(VectorDB);
    const products = await db.createCollection('products', 3);
    await products.insertOne({ _id: 'p1', name: 'lamp', $vector: [0.1, 0.2, 0.3] });
    expect(await (await db.collection('products')).findById('p1')).toMatchObject({ _id: 'p1', name: 'lamp' });
    await db.close();
    await admin.deleteKeyspace('remote', 'shop');
    expect(await admin.deleteDatabase('remote')).toBe(true);
    expect(await admin.deleteDatabase('remote')).toBe(false);
    await expect(admin.createToken('ORGANIZATION_ADMINISTRATOR')).rejects.toThrow(/home directory/);
    const { token } = await local.createToken('DATABASE_ADMINISTRATOR', 'alpha');
    await expect(new VectorDBAdmin(token, { url }).listDatabases()).rejects.toBeInstanceOf(UnauthorizedException);
  });
});
