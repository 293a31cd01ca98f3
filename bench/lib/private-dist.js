/**
 * A private copy of a build for one benchmark run, so that a rebuild meanwhile (`npm run build` in the same
 * worktree) does not change the code under test halfway. Kept under the repository's `.scratch/` (ignored by
 * git), where the copy still finds the repository's node_modules; `remove()` deletes it. The repository's own
 * dist/ is brought up to date first (scripts/build-if-stale.js): a stale build measures code that is gone.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export function privateDist(distDir, name) {
  if (resolve(distDir) === resolve(root, 'dist')) {
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.js')], { stdio: ['ignore', process.stderr, 'inherit'] });
    if (built.status !== 0) throw new Error(`the build failed (${built.status}): fix it, or pass --dist with another build`);
  }
  const dir = join(root, '.scratch', `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  cpSync(distDir, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
