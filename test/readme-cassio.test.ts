/**
 * The README's CassIO section is real: its two code blocks are examples/cassio-write.mjs and
 * examples/cassio-read.mjs verbatim; the first writes a CassIO table in process, the second reads it back with
 * astra-db-ts's Table from `vectordb-local serve` (the built CLI, on a free port), each printing what the README says.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildPackage } from './durability/built-package.js';
import { tempDir } from './support/temp.js';

const example = (name: string): string => path.join(ROOT, 'examples', name);

/** The README's js code blocks of the CassIO section. */
function readmeBlocks(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Tables and the CassIO tables');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('README: CassIO tables', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it('writes in process, then astra-db-ts reads the table from vectordb-local serve', async () => {
    expect(readmeBlocks()).toEqual([readFileSync(example('cassio-write.mjs'), 'utf8'), readFileSync(example('cassio-read.mjs'), 'utf8')]);
    const cwd = tempDir();
    const written = execFileSync(process.execPath, [example('cassio-write.mjs')], { cwd, encoding: 'utf8' });
    expect(written).toBe('nearest: Desk lamp 0.994\n');
    const server = spawn(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), 'serve', '--data', path.join(cwd, 'data'), '--port', '0', '--token', 'my-token'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      const endpoint = await new Promise<string>((resolve, reject) => {
        server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
          const match = /endpoint:\s+(http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        server.once('exit', () => reject(new Error(`serve exited:\n${output}`)));
      });
      const read = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [example('cassio-read.mjs')], { cwd, env: { ...process.env, ENDPOINT: endpoint }, stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
        child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`cassio-read exited ${code}: ${out}`))));
      });
      expect(read).toBe('lamp: Desk lamp, category lighting\nlamp 0.994, mug 0.555\n');
    } finally {
      // The server closes its database before the temporary directory is removed.
      const exited = new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.once('exit', resolve)));
      server.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
