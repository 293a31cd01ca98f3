/**
 * Interop with the production gateway (VECTORDB_LONG_TESTS=1: its install is ~520 MB): Mesh Compose imports
 * /api/graphql/<keyspace> of a real server with the prefix Shop_, Hive Gateway serves the supergraph, and a
 * prefixed query and mutation go through it to the database, the caller's X-Vendor-Token forwarded. The
 * gateway's packages live in test/long/gateway/package.json, installed here (not by npm ci).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { serve, type Served } from '../http/helpers.js';
import { tempDir } from '../support/temp.js';

const LONG = process.env.VECTORDB_LONG_TESTS === '1';
const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'gateway');
const BIN = path.join(HERE, 'node_modules', '.bin');
/** Asynchronous on purpose: the database server runs in this process and must answer Mesh Compose's introspection. */
const run = promisify(execFile);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

describe.skipIf(!LONG)('Hive Gateway fed by Mesh Compose', () => {
  let s: Served;
  let gateway: ChildProcess | undefined;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(path.join(BIN, 'hive-gateway'))) {
      await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: HERE, timeout: 900_000 });
    }
    s = await serve();
    await executeCommand(s.db, { createCollection: { name: 'products' } }, { keyspace: 'default_keyspace' });
    await executeCommand(s.db, { insertMany: { documents: [{ _id: 'p1', name: 'pen', price: 2 }, { _id: 'p2', name: 'lamp', price: 30 }] } }, { keyspace: 'default_keyspace', collection: 'products' });
    const supergraph = path.join(tempDir('vectordb-hive-'), 'supergraph.graphql');
    await run(path.join(BIN, 'mesh-compose'), ['-o', supergraph], {
      cwd: HERE,
      env: { ...process.env, VECTORDB_GRAPHQL_URL: `${s.url}/api/graphql/default_keyspace`, VECTORDB_TOKEN: s.token },
      timeout: 120_000,
    });
    const port = await freePort();
    gateway = spawn(path.join(BIN, 'hive-gateway'), ['supergraph', supergraph, '--port', String(port), '--host', '127.0.0.1'], { cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'] });
    url = `http://127.0.0.1:${port}/graphql`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthcheck`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline || gateway.exitCode !== null) throw new Error('hive-gateway did not start');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }, 900_000);

  afterAll(async () => {
    if (gateway && gateway.exitCode === null) {
      gateway.kill('SIGTERM');
      await new Promise((resolve) => gateway!.once('exit', resolve));
    }
    await s?.close();
  });

  const ask = async (query: string, token: string): Promise<any> => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-vendor-token': token }, body: JSON.stringify({ query }) });
    return response.json();
  };

  test('a prefixed query and mutation reach the database; a wrong token is the database error', async () => {
    const query = await ask('{ Shop_products(filter: {price: {gt: 10}}) { values { _id name price } } }', s.token);
    expect(query).toEqual({ data: { Shop_products: { values: [{ _id: 'p2', name: 'lamp', price: 30 }] } } });
    const mutation = await ask('mutation { Shop_insertproducts(value: {_id: "p3", name: "cup", price: 4}) { applied value { _id } } }', s.token);
    expect(mutation).toEqual({ data: { Shop_insertproducts: { applied: true, value: { _id: 'p3' } } } });
    const stored = await executeCommand(s.db, { findOne: { filter: { _id: 'p3' } } }, { keyspace: 'default_keyspace', collection: 'products' });
    expect((stored.data as any).document).toEqual({ _id: 'p3', name: 'cup', price: 4 });
    const wrong = await ask('{ Shop_products { values { _id } } }', 'wrong-token');
    expect(JSON.stringify(wrong.errors)).toContain('invalid token');
  });
});
