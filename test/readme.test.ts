/**
 * The README's quick starts are real: their code blocks are examples/quick-start.mjs and
 * examples/rag-quick-start.mjs verbatim, and those files run against the built package (`npm test` builds
 * first) and print what the README says they print.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VectorDB } from '../src/index.js';
import { tempDir } from './support/temp.js';

const root = new URL('../', import.meta.url);

describe('README', () => {
  const readme = readFileSync(new URL('README.md', root), 'utf8');

  it('opens with the two set-up commands', () => {
    const firstBlock = readme.slice(readme.indexOf('```'), readme.indexOf('```', readme.indexOf('```') + 3));
    expect(firstBlock).toContain('npm install && npm start');
    expect(firstBlock).toContain('npm test');
  });

  it('quick start is examples/quick-start.mjs verbatim and runs as written, even while ./data is served', async () => {
    const example = readFileSync(new URL('examples/quick-start.mjs', root), 'utf8');
    const start = readme.indexOf('```js\n', readme.indexOf('## Quick start'));
    const block = readme.slice(start + '```js\n'.length, readme.indexOf('```', start + 5));
    expect(block).toBe(example);
    const cwd = tempDir();
    // `npm start` (here: this process) holding ./data must not stop the quick start: it has its own directory.
    const served = await new VectorDB('token', path.join(cwd, 'data')).connect();
    const output = execFileSync(process.execPath, [new URL('examples/quick-start.mjs', root).pathname], { cwd, encoding: 'utf8' });
    expect(output).toContain('lighting: Desk lamp');
    expect(output).toContain('similar: Desk lamp 1.000');
    expect(output).toContain('bulb costs 6');
    expect(output).toContain('documents: 3');
    // Runs again on the same directory: the data persisted and the script is repeatable.
    expect(execFileSync(process.execPath, [new URL('examples/quick-start.mjs', root).pathname], { cwd, encoding: 'utf8' })).toBe(output);
    await served.close();
  });

  it('RAG quick start is examples/rag-quick-start.mjs verbatim and runs as written, twice', () => {
    const file = new URL('examples/rag-quick-start.mjs', root);
    const start = readme.indexOf('```js\n', readme.indexOf('## RAG quick start'));
    expect(readme.slice(start + '```js\n'.length, readme.indexOf('```', start + 5))).toBe(readFileSync(file, 'utf8'));
    const cwd = tempDir();
    const expected = 'markets money 1.000\ncats pets 0.960\nCats sleep up to sixteen hours a day\n';
    expect(execFileSync(process.execPath, [file.pathname], { cwd, encoding: 'utf8' })).toBe(expected);
    expect(execFileSync(process.execPath, [file.pathname], { cwd, encoding: 'utf8' })).toBe(expected);
  });
});
