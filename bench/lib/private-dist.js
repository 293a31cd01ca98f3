/**
 * The build a benchmark measures, in one place for every bench: `freshDist(dir)` is the repository's dist/
 * brought up to date first (scripts/build-if-stale.js: a stale build measures code that is gone), or another
 * build given with --dist, as is. `privateDist(dir, name)` is a private copy of it for one run, so that a
 * rebuild meanwhile (`npm run build` in the same worktree) does not change the code under test halfway: kept
 * under the repository's `.scratch/` (ignored by git), where the copy still finds the repository's
 * node_modules; `remove()` deletes it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Set once dist/ was checked: a bench's child processes (which inherit it) do not check again. */
const CHECKED = 'VECTORDB_BENCH_DIST_CHECKED';

/** The build at `distDir` (default: the repository's dist/, built first when stale), as a file URL ending in `/`. */
export function freshDist(distDir = join(root, 'dist')) {
  if (resolve(distDir) === resolve(root, 'dist') && process.env[CHECKED] !== '1') {
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.js')], { stdio: ['ignore', process.stderr, 'inherit'] });
    if (built.status !== 0) throw new Error(`the build failed (${built.status}): fix it, or pass --dist with another build`);
    process.env[CHECKED] = '1';
  }
  return pathToFileURL(`${resolve(distDir)}/`);
}

export function privateDist(distDir, name) {
  const source = fileURLToPath(freshDist(distDir));
  const dir = join(root, '.scratch', `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  cpSync(source, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
