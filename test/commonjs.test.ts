/**
 * CommonJS users: `require('vectordb-local')` (the package's `require` condition, dist/require.cjs) gives
 * the same exports as `import` on a Node that can require() an ES module (20.19+, 22.12+), and otherwise
 * fails with a message saying to use import() (shown here by turning that Node feature off).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

const SCRIPT = `
const { VectorDB } = require('vectordb-local');
(async () => {
  const db = new VectorDB('t', 'cjs', undefined, { storage: 'memory' });
  await db.createCollection('from_commonjs');
  console.log(JSON.stringify(await db.findAllCollectionsNames()));
  await db.close();
})();
`;

describe("require('vectordb-local')", () => {
  it('works on this Node (require of an ES module) and returns the same VectorDB', () => {
    const output = execFileSync(process.execPath, ['--no-warnings', '-e', SCRIPT], { cwd: root, encoding: 'utf8' });
    expect(output.trim()).toBe('["from_commonjs"]');
  });

  it('tells to use import() where Node cannot require an ES module', () => {
    const run = spawnSync(process.execPath, ['--no-experimental-require-module', '-e', SCRIPT], { cwd: root, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("await import('vectordb-local')");
    expect(run.stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});
