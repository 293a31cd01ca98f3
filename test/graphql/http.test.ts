/**
 * The GraphQL routes over real HTTP: token headers and refusals, GET ?query=, application/graphql bodies,
 * the DDL endpoint, and the offline GraphiQL page (no CDN).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve, type Served } from '../http/helpers.js';
import { executeCommand } from '../../src/commands/index.js';

let s: Served;
beforeAll(async () => {
  s = await serve();
  await executeCommand(s.db, { createCollection: { name: 'books' } }, { keyspace: 'default_keyspace' });
  await executeCommand(s.db, { insertOne: { document: { _id: 'b1', title: 'Moby Dick' } } }, { keyspace: 'default_keyspace', collection: 'books' });
});
afterAll(() => s.close());

const QUERY = '{ books { values { _id title } } }';
const EXPECTED = { data: { books: { values: [{ _id: 'b1', title: 'Moby Dick' }] } } };

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; text: string; type: string | null }> {
  const response = await fetch(s.url + path, init);
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, type: response.headers.get('content-type') };
}

test('each token header is accepted; a missing or wrong token is refused with 401 and the Data API code', async () => {
  for (const header of ['X-Vendor-Token', 'Token', 'X-Cassandra-Token']) {
    const reply = await call('/api/graphql/default_keyspace', { method: 'POST', headers: { 'content-type': 'application/json', [header]: s.token }, body: JSON.stringify({ query: QUERY }) });
    expect(reply.status, header).toBe(200);
    expect(reply.body, header).toEqual(EXPECTED);
  }
  const missing = await call('/api/graphql/default_keyspace', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY }) });
  expect(missing.status).toBe(401);
  expect(missing.body.errors[0].extensions.code).toBe('MISSING_AUTHENTICATION_TOKEN');
  const wrong = await call('/api/graphql/default_keyspace', { method: 'POST', headers: { 'content-type': 'application/json', 'x-vendor-token': 'wrong' }, body: JSON.stringify({ query: QUERY }) });
  expect(wrong.status).toBe(401);
  expect(wrong.body.errors[0].extensions.code).toBe('UNAUTHENTICATED_REQUEST');
  expect(wrong.text).not.toContain('Moby');
  const introspection = await call(`/api/graphql-schema?query=${encodeURIComponent('{ keyspaces { name } }')}`);
  expect(introspection.status).toBe(401);
});

test('GET ?query=, application/graphql and application/json bodies give the same answer', async () => {
  const headers = { 'x-vendor-token': s.token };
  const get = await call(`/api/graphql/default_keyspace?query=${encodeURIComponent(QUERY)}`, { headers: { ...headers, accept: 'application/json' } });
  expect(get.body).toEqual(EXPECTED);
  const graphqlBody = await call('/api/graphql/default_keyspace', { method: 'POST', headers: { ...headers, 'content-type': 'application/graphql' }, body: QUERY });
  expect(graphqlBody.body).toEqual(EXPECTED);
  const named = await call('/api/graphql/default_keyspace', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query: `query A { a: books { pageState } } query B ${QUERY}`, operationName: 'B' }),
  });
  expect(named.body).toEqual(EXPECTED);
});

test('/api/graphql-schema lists keyspaces and collections and runs DDL; the keyspace schema follows', async () => {
  const headers = { 'x-vendor-token': s.token, 'content-type': 'application/json' };
  const post = (query: string) => call('/api/graphql-schema', { method: 'POST', headers, body: JSON.stringify({ query }) });
  const created = await post('mutation { createCollection(keyspaceName: "default_keyspace", name: "vectors", dimension: 2, metric: "dot_product") }');
  expect(created.body).toEqual({ data: { createCollection: true } });
  const listed = await post('{ keyspaces { name collections { name vector { dimension metric } } } }');
  expect(listed.body.data.keyspaces).toEqual([
    { name: 'default_keyspace', collections: expect.arrayContaining([{ name: 'books', vector: null }, { name: 'vectors', vector: { dimension: 2, metric: 'dot_product' } }]) },
  ]);
  const type = await call('/api/graphql/default_keyspace', { method: 'POST', headers, body: JSON.stringify({ query: '{ __type(name: "vectors") { fields { name } } }' }) });
  expect(type.body.data.__type.fields.map((f: any) => f.name)).toContain('x24_vector');
  const dropped = await post('mutation { dropCollection(keyspaceName: "default_keyspace", name: "vectors") }');
  expect(dropped.body).toEqual({ data: { dropCollection: true } });
  const badKeyspace = await post('mutation { createCollection(keyspaceName: "nope", name: "x") }');
  expect(badKeyspace.body.errors[0].extensions.code).toBe('UNKNOWN_KEYSPACE');
});

test('a browser GET gets the GraphiQL page, served locally with no CDN', async () => {
  const page = await call('/api/graphql/default_keyspace', { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(page.type).toContain('text/html');
  expect(page.text).toContain('renderYogaGraphiQL');
  expect(page.text).not.toMatch(/<script[^>]+src=["']https?:|<link[^>]+href=["']https?:/);
  expect(page.text).not.toContain('unpkg.com');
});

test('other paths under /api/graphql are not GraphQL routes', async () => {
  const reply = await call('/api/graphql/a/b', { method: 'POST', headers: { 'x-vendor-token': s.token, 'content-type': 'application/json' }, body: '{}' });
  expect(reply.status).toBe(404);
});

test('under a home, {server}/{id}-{region}/api/graphql/{keyspace} takes a database token for its own database only', async () => {
  const { default: path } = await import('node:path');
  const { VectorDBAdmin } = await import('../../src/index.js');
  const { createServer } = await import('../../src/http/index.js');
  const { tempDir } = await import('../support/temp.js');
  const home = path.join(tempDir('vectordb-gql-home-'), 'home');
  const admin = new VectorDBAdmin(await VectorDBAdmin.initHome(home), { home });
  const a = await admin.createDatabase('alpha');
  const b = await admin.createDatabase('beta');
  const { token } = await admin.createToken('DATABASE_ADMINISTRATOR', 'alpha');
  const server = createServer({ home, port: 0 });
  await server.listen();
  try {
    const ask = (db: string) =>
      fetch(`${server.url}/${db}-local/api/graphql-schema`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-vendor-token': token }, body: JSON.stringify({ query: '{ keyspaces { name } }' }) });
    const own = await ask(a);
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ data: { keyspaces: [{ name: 'default_keyspace' }] } });
    const other = await ask(b);
    expect(other.status).toBe(401);
    expect(((await other.json()) as any).errors[0].extensions.code).toBe('UNAUTHORIZED_ACCESS');
    const unprefixed = await fetch(`${server.url}/api/graphql/default_keyspace`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-vendor-token': token }, body: '{"query":"{__typename}"}' });
    expect(unprefixed.status).toBe(404);
  } finally {
    await server.close();
  }
});
