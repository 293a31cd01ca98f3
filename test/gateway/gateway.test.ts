/**
 * The gateway tool end to end, every step a child process of the built command: `serve`, `gateway login`,
 * `whoami --apikey`, `import graphql` (flags, then the prompts through stdin), `start`; prefixed queries and
 * mutations through /api/<endpoint>/__graphql, Apikey refusals, a wrong database token reported from the
 * source, two imports merged, and a redeploy after a .graphql edit.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { killAll, runCli, startProcess, type Running } from './processes.js';

const TOKEN = 'gateway-test-token-0123456789';
let server: Running;
let dbUrl: string;
let env: Record<string, string>;
let apiKey: string;

async function dataApi(pathname: string, command: unknown): Promise<any> {
  const response = await fetch(dbUrl + pathname, { method: 'POST', headers: { token: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(command) });
  const body = (await response.json()) as any;
  expect(body.errors).toBeUndefined();
  return body;
}

beforeAll(async () => {
  await buildPackage();
  env = { VECTORDB_GATEWAY_HOME: tempDir('vectordb-gw-home-') };
  server = startProcess(['serve', '--data', tempDir('vectordb-gw-data-'), '--port', '0', '--token', TOKEN]);
  dbUrl = (await server.waitFor(/endpoint:\s+(http:\/\/\S+)/))[1]!;
  await dataApi('/v1', { createKeyspace: { name: 'shop' } });
  await dataApi('/v1/default_keyspace', { createCollection: { name: 'books', options: { vector: { dimension: 2 } } } });
  await dataApi('/v1/default_keyspace/books', { insertMany: { documents: [{ _id: 'b1', title: 'Moby Dick', year: 1851, $vector: [1, 0] }, { _id: 'b2', title: 'Emma', year: 1815, $vector: [0, 1] }] } });
  await dataApi('/v1/shop', { createCollection: { name: 'products' } });
  await dataApi('/v1/shop/products', { insertOne: { document: { _id: 'p1', name: 'pen', price: 2 } } });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  killAll();
});

test('login stores the account; whoami prints the account and the derived API key', async () => {
  const login = await runCli(['gateway', 'login', '-a', 'demo', '--adminkey', 'my-admin-key-123'], { env });
  expect(login.stderr).toBe('');
  expect(login.stdout).toBe('You have successfully logged in with the demo account.\n');
  const whoami = await runCli(['gateway', 'whoami'], { env });
  expect(whoami.stdout).toBe('You are logged in as demo.\n');
  const key = await runCli(['gateway', 'whoami', '--apikey'], { env });
  apiKey = key.stdout.trim();
  expect(apiKey).toMatch(/^demo::local::[0-9a-f]{64}$/);
  // The same admin key, typed at the prompt, derives the same API key.
  const prompted = await runCli(['gateway', 'login', '-a', 'demo'], { env, input: 'my-admin-key-123\n' });
  expect(prompted.stdout).toContain('? What is your admin key?');
  expect((await runCli(['gateway', 'whoami', '--apikey'], { env })).stdout.trim()).toBe(apiKey);
  const nobody = await runCli(['gateway', 'whoami'], { env: { VECTORDB_GATEWAY_HOME: tempDir('vectordb-gw-nobody-') } });
  expect(nobody.code).toBe(1);
  expect(nobody.stderr).toContain('not logged in');
});

test('import graphql reports an endpoint it cannot introspect, naming the URL', async () => {
  const dir = tempDir('vectordb-gw-bad-');
  const url = `${dbUrl}/api/graphql/default_keyspace`;
  const wrongToken = await runCli(['gateway', 'import', 'graphql', url, '-H', 'X-Vendor-Token: wrong', '--non-interactive', '--dir', dir], { env });
  expect(wrongToken.code).toBe(1);
  expect(wrongToken.stderr).toContain(`${url} refused the request (HTTP 401)`);
  const notGraphql = await runCli(['gateway', 'import', 'graphql', `${dbUrl}/nothing/here`, '-H', `X-Vendor-Token: ${TOKEN}`, '--non-interactive', '--dir', dir], { env });
  expect(notGraphql.code).toBe(1);
  expect(notGraphql.stderr).toContain(`${dbUrl}/nothing/here is not a GraphQL endpoint (HTTP 404`);
  const unreachable = await runCli(['gateway', 'import', 'graphql', 'http://127.0.0.1:1/api/graphql/x', '--non-interactive', '--dir', dir], { env });
  expect(unreachable.code).toBe(1);
  expect(unreachable.stderr).toContain('could not reach http://127.0.0.1:1/api/graphql/x');
});

test('import (flags, then prompts), start, prefixed queries and mutations, Apikey, header forwarding, redeploy', async () => {
  const dir = tempDir('vectordb-gw-ws-');
  const first = await runCli(
    ['gateway', 'import', 'graphql', `${dbUrl}/api/graphql/default_keyspace`, '--prefix', 'lib_', '-H', `X-Vendor-Token: ${TOKEN}`, '--endpoint', 'api/library', '--non-interactive', '--dir', dir],
    { env },
  );
  expect(first.stderr).toBe('');
  expect(first.stdout).toMatch(/^Generating schemas\.\.\.\.\.\. done\nSuccessfully imported schema graphql from .* into .*graphql\/index\.graphql\n$/);
  // The second import answers the prompts on stdin: URL, prefix, header.
  const second = await runCli(['gateway', 'import', 'graphql', '--dir', dir], { env, input: `${dbUrl}/api/graphql/shop\nshop_\nX-Vendor-Token: ${TOKEN}\n` });
  expect(second.stderr).toBe('');
  for (const prompt of ['? What is the GraphQL endpoint URL?', '? Prefix to add to all generated type names (leave blank for none)', '? Add an HTTP header, e.g. Header-Name: header value (leave blank for none)']) {
    expect(second.stdout).toContain(prompt);
  }
  expect(second.stdout).toContain('Successfully imported schema graphql-01');
  const config = JSON.parse(await readFile(path.join(dir, 'gateway.config.json'), 'utf8'));
  expect(config.endpoint).toBe('api/library');
  expect(config.sources.map((s: any) => [s.name, s.prefix, s.schema])).toEqual([
    ['graphql', 'lib_', 'graphql/index.graphql'],
    ['graphql-01', 'shop_', 'graphql-01/index.graphql'],
  ]);
  expect((await stat(path.join(dir, 'gateway.config.json'))).mode & 0o777).toBe(0o600);
  expect(await readFile(path.join(dir, 'index.graphql'), 'utf8')).toContain('"graphql/index.graphql", "graphql-01/index.graphql"');

  const gateway = startProcess(['gateway', 'start', '--dir', dir, '--port', '0'], { env });
  const endpoint = (await gateway.waitFor(/Your API url is\s+(http:\/\/\S+)/))[1]!;
  expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/library\/__graphql$/);
  await gateway.waitFor(/Watching .* for changes\.\.\./);
  expect(gateway.output()).toContain('--header "Authorization: Apikey $(vectordb-local gateway whoami --apikey)"');
  expect(gateway.output()).toMatch(/Or explore it with GraphiQL at http:\/\/localhost:\d+\/api\/library/);
  const ask = async (query: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
    const response = await fetch(endpoint, { method: 'POST', headers: { authorization: `Apikey ${apiKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
    return { status: response.status, body: await response.json() };
  };
  try {
    const query = await ask('{ lib_books(vector: [1, 0.1]) { values { _id title year _similarity } } shop_products { values { _id name price } } }');
    expect(query.body.errors).toBeUndefined();
    expect(query.body.data.lib_books.values.map((v: any) => v._id)).toEqual(['b1', 'b2']);
    expect(query.body.data.lib_books.values[0]).toMatchObject({ title: 'Moby Dick', year: 1851 });
    expect(query.body.data.lib_books.values[0]._similarity).toBeGreaterThan(0.99);
    expect(query.body.data.shop_products.values).toEqual([{ _id: 'p1', name: 'pen', price: 2 }]);
    const types = await ask('{ __schema { types { name } } }');
    const names = types.body.data.__schema.types.map((t: any) => t.name);
    expect(names).toEqual(expect.arrayContaining(['lib_books', 'lib_booksInput', 'lib_QueryOptions', 'shop_products', 'shop_productsFilterInput']));
    expect(names).not.toContain('books');

    const mutation = await ask('mutation { lib_insertbooks(value: {_id: "b3", title: "Dracula", year: 1897}) { applied value { _id title } } }');
    expect(mutation.body).toEqual({ data: { lib_insertbooks: { applied: true, value: { _id: 'b3', title: 'Dracula' } } } });
    const stored = await dataApi('/v1/default_keyspace/books', { findOne: { filter: { _id: 'b3' } } });
    expect(stored.data.document).toEqual({ _id: 'b3', title: 'Dracula', year: 1897 });

    for (const authorization of [undefined, 'Apikey wrong', `Bearer ${apiKey}`]) {
      const response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: '{"query":"{ __typename }"}' });
      expect(response.status, String(authorization)).toBe(401);
    }
    // The caller's own X-Vendor-Token replaces the imported one: a wrong one is the database's error.
    const wrongToken = await ask('{ lib_books { values { _id } } }', { 'X-Vendor-Token': 'not-the-token' });
    expect(wrongToken.body.data).toEqual({ lib_books: null });
    expect(wrongToken.body.errors[0]).toMatchObject({ path: ['lib_books'], extensions: { code: 'UNAUTHENTICATED_REQUEST' } });

    // Redeploy: drop conversionWarnings from the imported SDL; the gateway serves the edited schema.
    expect((await ask('{ lib_conversionWarnings }')).body.errors).toBeUndefined();
    const sdlFile = path.join(dir, 'graphql', 'index.graphql');
    const sdl = await readFile(sdlFile, 'utf8');
    const from = gateway.output().length;
    await writeFile(sdlFile, sdl.replace(/\n\s*"""\n\s*Fields widened[^"]*"""\n\s*conversionWarnings: \[String\]/, ''));
    await gateway.waitFor(/Redeployed api\/library/, from);
    const after = await ask('{ lib_conversionWarnings }');
    expect(after.body.errors[0].message).toContain('Cannot query field "lib_conversionWarnings"');
    expect((await ask('{ lib_books { values { _id } } }')).body.data.lib_books.values).toHaveLength(3);
  } finally {
    await gateway.stop();
  }
});
