/**
 * The README's quick start is real: its code block is examples/quick-start.mjs verbatim, and that file
 * runs against the built package (`npm test` builds first) and prints what the README says it prints.
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
});
