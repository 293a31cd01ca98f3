/**
 * The built `vectordb-local` command as a child process: serve prints the endpoint (the real port for --port 0),
 * answers with the token and refuses without it, exits 0 on SIGTERM with the data intact; the token is generated
 * once, stored hashed, reused and replaceable; `start` honours PORT; --help is useful. Builds dist/ when stale.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { tempDir } from '../support/temp.js';
import { buildPackage } from '../durability/built-package.js';
import { startRankServer } from '../support/rank-server.js';
import { startEmbedServer } from '../support/embed-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(ROOT, 'dist/cli/main.js');

beforeAll(async () => {
  await buildPackage();
  expect(existsSync(MAIN)).toBe(true);
}, 180_000);

interface Cli {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function start(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Cli> {
  const base = { ...process.env };
  for (const name of ['VECTORDB_TOKEN', 'PORT', 'HOST']) delete base[name];
  const child = spawn(process.execPath, [MAIN, ...args], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no endpoint printed:\n${output}`)), 15_000);
    const check = (): void => {
      const match = /endpoint:\s+(http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before printing the endpoint:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

async function call(url: string, token: string | undefined, command: unknown, target = ''): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/v1${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== undefined ? { token } : {}) },
    body: JSON.stringify(command),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function stop(cli: Cli): Promise<number | null> {
  cli.child.kill('SIGTERM');
  return cli.exited;
}

describe('vectordb-local CLI', () => {
  it('--help describes serve, start and the token', () => {
    const help = execFileSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8' });
    expect(help).toContain('serve');
    expect(help).toContain('start');
    expect(help).toContain('VECTORDB_TOKEN');
    const serveHelp = execFileSync(process.execPath, [MAIN, 'serve', '--help'], { encoding: 'utf8' });
    for (const flag of ['--data', '--port', '--host', '--token']) expect(serveHelp).toContain(flag);
  });

  it('serve --port 0: prints the real endpoint, needs the token, exits 0 on SIGTERM with the data intact', async () => {
    const data = tempDir('vectordb-cli-');
    const token = 'cli-test-token-1';
    const cli = await start(['serve', '--data', data, '--port', '0', '--host', '127.0.0.1', '--token', token]);
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cli.url).not.toMatch(/:0$/);
    expect(cli.output()).toContain("environment: 'dse'");
    expect(cli.output()).toContain('new VectorDB(');
    expect(cli.output()).not.toContain(token);

    expect((await call(cli.url, token, { findKeyspaces: {} })).status).toBe(200);
    const refused = await call(cli.url, undefined, { findKeyspaces: {} });
    expect(refused.status).toBe(401);
    expect((refused.body.errors as { errorCode: string }[])[0]!.errorCode).toBe('MISSING_AUTHENTICATION_TOKEN');
    expect((await call(cli.url, 'wrong', { findKeyspaces: {} })).status).toBe(401);

    expect((await call(cli.url, token, { createCollection: { name: 'kept' } }, '/default_keyspace')).body.errors).toBeUndefined();
    const docs = Array.from({ length: 15 }, (_, i) => ({ _id: `d${i}`, i }));
    expect((await call(cli.url, token, { insertMany: { documents: docs } }, '/default_keyspace/kept')).body.errors).toBeUndefined();

    expect(await stop(cli)).toBe(0);
    expect(cli.output()).toContain('stopped');

    const db = await Database.open(data);
    try {
      const counted = await (await import('../../src/commands/index.js')).executeCommand(db, { countDocuments: {} }, { keyspace: 'default_keyspace', collection: 'kept' });
      expect(counted.status?.count).toBe(15);
      const hash = await db.readSetting('server.tokenHash');
      expect(hash).toMatch(/^scrypt\$/);
      expect(hash).not.toContain(token);
    } finally {
      await db.close();
    }
  });

  it('generates a token once, reuses the stored hash, and VECTORDB_TOKEN replaces it', async () => {
    const data = tempDir('vectordb-cli-');
    const first = await start(['serve', '--data', data, '--port', '0']);
    const generated = /(VDBL:[A-Za-z0-9_-]{20,})/.exec(first.output())?.[1];
    expect(generated).toBeDefined();
    expect((await call(first.url, generated, { findKeyspaces: {} })).status).toBe(200);
    expect(await stop(first)).toBe(0);

    const second = await start(['serve', '--data', data, '--port', '0']);
    expect(second.output()).not.toContain('VDBL:');
    expect(second.output()).toContain('--token');
    expect((await call(second.url, generated, { findKeyspaces: {} })).status).toBe(200);
    expect((await call(second.url, `${generated!}x`, { findKeyspaces: {} })).status).toBe(401);
    expect(await stop(second)).toBe(0);

    const third = await start(['serve', '--data', data, '--port', '0'], { VECTORDB_TOKEN: 'replacement-token' });
    expect(third.output()).toContain('VECTORDB_TOKEN');
    expect((await call(third.url, 'replacement-token', { findKeyspaces: {} })).status).toBe(200);
    expect((await call(third.url, generated, { findKeyspaces: {} })).status).toBe(401);
    expect(await stop(third)).toBe(0);

    const fourth = await start(['serve', '--data', data, '--port', '0']);
    expect((await call(fourth.url, 'replacement-token', { findKeyspaces: {} })).status).toBe(200);
    expect(await stop(fourth)).toBe(0);
  });

  it('start serves ./data of the working directory, PORT overrides the port; a held directory fails with exit 1', async () => {
    const cwd = tempDir('vectordb-cli-start-');
    const cli = await start(['start'], { PORT: '0', VECTORDB_TOKEN: 'start-token' }, cwd);
    expect(cli.output()).toContain(path.join(cwd, 'data'));
    expect((await call(cli.url, 'start-token', { findKeyspaces: {} })).status).toBe(200);

    const clash = spawn(process.execPath, [MAIN, 'serve', '--data', path.join(cwd, 'data'), '--port', '0', '--token', 'x'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(clash);
    let clashOutput = '';
    clash.stderr!.setEncoding('utf8').on('data', (d: string) => (clashOutput += d));
    const code = await new Promise((resolve) => clash.once('exit', resolve));
    expect(code).toBe(1);
    expect(clashOutput).toMatch(/in use/);

    expect(await stop(cli)).toBe(0);
  });

  it('serve --limits data-api --cors: the banner names the preset and the origins, 100 documents per insertMany and pages of 50 are served', async () => {
    const data = tempDir('vectordb-cli-');
    const token = 'cli-limits-token';
    const cli = await start(['serve', '--data', data, '--port', '0', '--token', token, '--limits', 'data-api', '--cors', 'http://localhost:5173', '--cors', 'null']);
    expect(cli.output()).toMatch(/limits:\s+data-api \(100 documents per insertMany, pages of 50, 50 collections/);
    expect(cli.output()).toMatch(/cors:\s+pages of http:\/\/localhost:5173, null may call this server/);
    expect(cli.output()).not.toContain('chunkSize');
    const preflight = await fetch(`${cli.url}/v1`, { method: 'OPTIONS', headers: { origin: 'null', 'access-control-request-method': 'POST' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'null']);
    expect((await call(cli.url, token, { createCollection: { name: 'c' } }, '/default_keyspace')).body.errors).toBeUndefined();
    const docs = Array.from({ length: 100 }, (_, i) => ({ _id: i, text: 'x'.repeat(12_000) }));
    // An indexed 12 KB string is over the indexed-string limit; with the field not indexed it is accepted.
    const refused = (await call(cli.url, token, { insertMany: { documents: docs } }, '/default_keyspace/c')).body.errors as { errorCode: string; message: string }[];
    expect(refused).toHaveLength(100);
    expect(refused[0]).toMatchObject({ errorCode: 'SHRED_DOC_LIMIT_VIOLATION', message: expect.stringContaining('indexed String value') });
    await call(cli.url, token, { createCollection: { name: 'long', options: { indexing: { deny: ['text'] } } } }, '/default_keyspace');
    expect((await call(cli.url, token, { insertMany: { documents: docs } }, '/default_keyspace/long')).body.errors).toBeUndefined();
    const page = await call(cli.url, token, { find: { projection: { _id: 1 } } }, '/default_keyspace/long');
    expect((page.body.data as { documents: unknown[] }).documents).toHaveLength(50);
    expect(await stop(cli)).toBe(0);
  });

  it('serve (seed preset by default): the banner says so and what astra-db-ts needs; --limit overrides the preset', async () => {
    const data = tempDir('vectordb-cli-');
    const token = 'cli-limits-token';
    const seed = await start(['serve', '--data', data, '--port', '0', '--token', token]);
    expect(seed.output()).toMatch(/limits:\s+seed \(20 documents per insertMany, pages of 20, 5 collections, 5120 bytes per value\)/);
    expect(seed.output()).toContain('chunkSize: 20');
    expect(seed.output()).toContain('--limits data-api');
    expect(seed.output()).toMatch(/durability: full: a write is acknowledged once it is on disk/);
    expect(seed.output()).toMatch(/explorer:\s+http:\/\/127\.0\.0\.1:\d+\/ \(the Data Explorer/);
    expect(await stop(seed)).toBe(0);

    const tuned = await start(['serve', '--data', data, '--port', '0', '--token', token, '--limits', 'data-api', '--limit', 'maxInsertManyDocuments=10', '--durability', 'relaxed']);
    expect(tuned.output()).toContain('overridden: maxInsertManyDocuments=10');
    expect(tuned.output()).toMatch(/durability: relaxed: a write is acknowledged once the OS has it/);
    expect(tuned.output()).toContain('chunkSize: 10');
    await call(tuned.url, token, { createCollection: { name: 'c' } }, '/default_keyspace');
    const docs = Array.from({ length: 11 }, (_, i) => ({ _id: i }));
    const refused = await call(tuned.url, token, { insertMany: { documents: docs } }, '/default_keyspace/c');
    expect((refused.body.errors as { message: string }[])[0]!.message).toContain('11 vs 10');
    expect(await stop(tuned)).toBe(0);
  });

  it('serve --log prints the error code of a failed command (HTTP 200 with errors[]) and none for a success', async () => {
    const data = tempDir('vectordb-cli-log-');
    const cli = await start(['serve', '--data', data, '--port', '0', '--token', 'log-token', '--log']);
    expect((await call(cli.url, 'log-token', { findOne: {} }, '/default_keyspace/missing')).status).toBe(200);
    expect((await call(cli.url, 'log-token', { findKeyspaces: {} })).status).toBe(200);
    await vi.waitFor(() => expect(cli.output()).toMatch(/POST \/v1 200 \d/));
    expect(cli.output()).toMatch(/^POST \/v1\/default_keyspace\/missing 200 UNKNOWN_COLLECTION_OR_TABLE \d+\.\dms$/m);
    expect(cli.output()).toMatch(/^POST \/v1 200 \d+\.\dms$/m);
    expect(await stop(cli)).toBe(0);
  });

  it('serve --reranker name=URL registers a reranking provider that findAndRerank calls', async () => {
    const ranker = await startRankServer((_query, passage) => passage.length);
    try {
      const endpoint = ranker.url;
      const cli = await start(['serve', '--data', tempDir('vectordb-cli-rerank-'), '--port', '0', '--token', 'rr', '--reranker', `mine=${endpoint}`]);
      const providers = (await call(cli.url, 'rr', { findRerankingProviders: {} })).body.status as { rerankingProviders: Record<string, unknown> };
      expect(Object.keys(providers.rerankingProviders)).toEqual(['rrf', 'mine']);
      await call(cli.url, 'rr', { createCollection: { name: 'c', options: { vector: { dimension: 2 } } } }, '/default_keyspace');
      await call(cli.url, 'rr', { insertMany: { documents: [{ t: 'short', $vector: [1, 0] }, { t: 'much longer', $vector: [0, 1] }] } }, '/default_keyspace/c');
      const options = { rerankOn: 't', rerankQuery: 'q', rerank: { provider: 'mine', modelName: 'm' } };
      const found = await call(cli.url, 'rr', { findAndRerank: { sort: { $hybrid: { $vector: [1, 0] } }, options } }, '/default_keyspace/c');
      expect((found.body.data as { documents: { t: string }[] }).documents.map((d) => d.t)).toEqual(['much longer', 'short']);
      expect(ranker.requests.flatMap((r) => r.passages.map((p) => p.text)).sort()).toEqual(['much longer', 'short']);
      expect(await stop(cli)).toBe(0);
    } finally {
      await ranker.close();
    }
  });

  it('serve --embedder name=URL registers an embedding provider that $vectorize calls', async () => {
    const embedder = await startEmbedServer(8);
    try {
      const cli = await start(['serve', '--data', tempDir('vectordb-cli-embed-'), '--port', '0', '--token', 'ee', '--embedder', `local=${embedder.url.replace('/embeddings', '')}`]);
      const providers = (await call(cli.url, 'ee', { findEmbeddingProviders: {} })).body.status as { embeddingProviders: Record<string, { url: string }> };
      expect(providers.embeddingProviders).toEqual({ local: expect.objectContaining({ url: embedder.url }) }); // `/embeddings` appended to a base URL
      await call(cli.url, 'ee', { createCollection: { name: 'c', options: { vector: { service: { provider: 'local' } } } } }, '/default_keyspace');
      await call(cli.url, 'ee', { insertMany: { documents: [{ _id: 1, $vectorize: 'apple pie' }, { _id: 2, $vectorize: 'banana bread' }] } }, '/default_keyspace/c');
      const found = await call(cli.url, 'ee', { find: { sort: { $vectorize: 'banana' } } }, '/default_keyspace/c');
      expect((found.body.data as { documents: { _id: number }[] }).documents.map((d) => d._id)).toEqual([2, 1]);
      expect(embedder.requests.map((r) => r.body.input)).toEqual([['dimension probe'], ['apple pie', 'banana bread'], ['banana']]);
      expect(await stop(cli)).toBe(0);
    } finally {
      await embedder.close();
    }
  });

  it('rejects a bad port or token with a message', () => {
    const run = (args: string[]): string => {
      try {
        execFileSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', stdio: 'pipe' });
        return '';
      } catch (error) {
        return String((error as { stderr?: string }).stderr);
      }
    };
    expect(run(['serve', '--port', '99999'])).toContain('port');
    expect(run(['serve', '--token', 'has space'])).toContain('visible ASCII');
    expect(run(['serve', '--limits', 'astra'])).toContain('data-api');
    expect(run(['serve', '--reranker', 'nvidia'])).toContain('expected name=URL');
    expect(run(['serve', '--embedder', 'ollama'])).toContain('expected name=URL');
    expect(run(['serve', '--port', '0', '--data', tempDir('vectordb-cli-'), '--cors', 'http://localhost:5173/'])).toContain("did you mean 'http://localhost:5173'");
  });
});
