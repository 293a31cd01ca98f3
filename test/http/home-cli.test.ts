/**
 * The built command for homes: `init --home` (and VECTORDB_HOME) prints the organization token once and refuses
 * an existing home with exit code 1; `serve --home` serves its databases with that token, with the `--embedder` and
 * `--reranker` providers registered for each, and stops on SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { buildPackage } from '../durability/built-package.js';
import { startEmbedServer } from '../support/embed-server.js';
import { startRankServer, wordOverlap } from '../support/rank-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(ROOT, 'dist/cli/main.js');

beforeAll(async () => {
  await buildPackage();
  expect(existsSync(MAIN)).toBe(true);
}, 180_000);

const TOKEN = /(VDBL:[0-9a-f]{24}:[A-Za-z0-9_-]{43})/;

describe('vectordb-local init and serve --home', () => {
  it('init prints the token once and refuses an existing home', () => {
    const home = path.join(tempDir('vectordb-cli-home-'), 'home');
    const first = spawnSync(process.execPath, [MAIN, 'init', '--home', home], { encoding: 'utf8' });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(TOKEN);
    const again = spawnSync(process.execPath, [MAIN, 'init', '--home', home], { encoding: 'utf8' });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already is a vectordb-local home/);
    expect(again.stdout).not.toMatch(TOKEN);
    const other = path.join(tempDir('vectordb-cli-home-'), 'env-home');
    const viaEnv = spawnSync(process.execPath, [MAIN, 'init'], { encoding: 'utf8', env: { ...process.env, VECTORDB_HOME: other } });
    expect(viaEnv.status).toBe(0);
    expect(existsSync(path.join(other, 'home.json'))).toBe(true);
  });

  it('serve --home serves the administration routes and the databases with the home token, and their providers', async () => {
    const home = path.join(tempDir('vectordb-cli-home-'), 'home');
    const token = TOKEN.exec(spawnSync(process.execPath, [MAIN, 'init', '--home', home], { encoding: 'utf8' }).stdout)![1]!;
    const [embedder, ranker] = await Promise.all([startEmbedServer(8), startRankServer(wordOverlap)]);
    const flags = ['--embedder', `hashing=${embedder.url}`, '--reranker', `ranks=${ranker.url}`];
    const child = spawn(process.execPath, [MAIN, 'serve', '--home', home, '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no endpoint:\n${output}`)), 15_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8');
          const match = /endpoint:\s+(http:\/\/\S+)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      });
      const created = await fetch(`${url}/v2/databases`, { method: 'POST', headers: { token, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'one' }) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const reply = await fetch(`${url}/${id}-local/v1`, { method: 'POST', headers: { token, 'content-type': 'application/json' }, body: JSON.stringify({ findKeyspaces: {} }) });
      expect(reply.status).toBe(200);
      expect((await fetch(`${url}/${id}-local/v1`, { method: 'POST', body: '{"findKeyspaces":{}}' })).status).toBe(401);
      // The flags' providers: $vectorize through the embedding endpoint, findAndRerank through the reranking one.
      const run = async (command: object, at = '/default_keyspace/texts') => {
        const response = await fetch(`${url}/${id}-local/v1${at}`, { method: 'POST', headers: { token, 'content-type': 'application/json' }, body: JSON.stringify(command) });
        const body = (await response.json()) as { errors?: { errorCode: string }[]; data?: { documents: { _id: string }[] } };
        expect(body.errors, JSON.stringify(command)).toBeUndefined();
        return body;
      };
      const service = { provider: 'hashing', modelName: 'm' };
      await run({ createCollection: { name: 'texts', options: { vector: { metric: 'cosine', service }, rerank: { enabled: true, service: { provider: 'ranks', modelName: 'r' } } } } }, '/default_keyspace');
      await run({ insertMany: { documents: [{ _id: 'a', $hybrid: 'apple pie' }, { _id: 'b', $hybrid: 'banana bread' }] } });
      expect(embedder.requests.at(-1)!.body.input).toEqual(['apple pie', 'banana bread']); // after the dimension probe of createCollection
      const reranked = await run({ findAndRerank: { sort: { $hybrid: 'banana bread' }, options: { limit: 1 } } });
      expect(reranked.data!.documents.map((d) => d._id)).toEqual(['b']);
      expect(ranker.requests.map((r) => r.query.text)).toEqual(['banana bread']);
    } finally {
      child.kill('SIGTERM');
      await Promise.all([embedder.close(), ranker.close()]);
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
