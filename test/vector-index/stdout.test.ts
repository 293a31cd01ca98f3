/**
 * hnswlib-wasm prints on every file-system sync; none of it may reach the user's stdout or stderr.
 * Checked in a child process (the test runner captures the console): the compiled vector layer is
 * driven through create, add, search, serialize and load, with a user log line in the middle.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = process.cwd();
// Inside the repository so that the compiled files resolve hnswlib-wasm from its node_modules.
const outDir = join(root, 'node_modules', '.cache', `vector-stdout-test-${process.pid}`);

const script = `
import { createVectorIndex, loadVectorIndex } from './vector-index/index.js';
const index = await createVectorIndex({ dimension: 8, metric: 'cosine', backend: 'wasm', capacity: 4 });
const data = new Float32Array(64 * 8).map((_, i) => Math.sin(i + 1));
index.add(Array.from({ length: 64 }, (_, i) => i), data);
index.remove([3, 4]);
const pending = index.serialize();
console.log('user line while saving');
const bytes = await pending;
const back = await loadVectorIndex(bytes, { dimension: 8, metric: 'cosine' });
const hits = back.search(data.subarray(8, 16), 1);
await Promise.all([index.serialize(), back.serialize()]);
index.dispose();
back.dispose();
process.stdout.write('top ' + hits[0].label + ', window ' + typeof window + '\\n');
`;

beforeAll(() => {
  mkdirSync(outDir, { recursive: true });
  const tsc = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      join(root, 'src', 'vector-index', 'index.ts'),
      ...['--outDir', outDir, '--rootDir', join(root, 'src'), '--module', 'nodenext', '--moduleResolution', 'nodenext'],
      ...['--target', 'es2022', '--types', 'node', '--skipLibCheck', '--noCheck'],
    ],
    { encoding: 'utf8' },
  );
  expect(tsc.stdout + tsc.stderr).toBe('');
  writeFileSync(join(outDir, 'package.json'), '{"type":"module"}');
  writeFileSync(join(outDir, 'child.mjs'), script);
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('hnswlib-wasm output', () => {
  it('never reaches the user: stdout holds only the user lines, stderr nothing', () => {
    const child = spawnSync(process.execPath, [join(outDir, 'child.mjs')], { encoding: 'utf8', cwd: outDir });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('user line while saving\ntop 1, window undefined\n');
    expect(child.status).toBe(0);
  });
});
