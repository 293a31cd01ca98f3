/**
 * A private copy of a build for one benchmark run, so that a rebuild meanwhile (`npm run build` in the same
 * worktree) does not change the code under test halfway. Kept under the repository's `.scratch/` (ignored by
 * git), where the copy still finds the repository's node_modules; `remove()` deletes it.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export function privateDist(distDir, name) {
  const dir = join(root, '.scratch', `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  cpSync(distDir, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
