/**
 * Builds the package (`npm run build`: wasm kernel + tsc) only when a source is newer than the last build:
 * what `npm start` and the `prepare` script (run by `npm install` / `npm ci`) call, so that a start with nothing
 * changed goes straight to the server. The last build is recorded by dist/.build-stamp; `--force` always builds.
 * The optional native addon (native/) is built first when stale, by scripts/build-native.js, which never fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
/** What the build reads: a change to any of these makes dist/ stale. */
const inputs = ['src', 'asm', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

function newest(entry) {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs; // a deleted file changes its directory
  for (const name of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

function stale() {
  if (!existsSync(stamp) || !existsSync(path.join(root, 'dist', 'cli', 'main.js'))) return 'no build yet';
  const built = statSync(stamp).mtimeMs;
  const changed = inputs.map((input) => path.join(root, input)).filter((input) => existsSync(input) && newest(input) > built);
  return changed.length > 0 ? `changed since the last build: ${changed.map((c) => path.relative(root, c)).join(', ')}` : undefined;
}

// The native addon has its own staleness check (a few stat calls) and never fails the run.
spawnSync(process.execPath, [path.join(root, 'scripts', 'build-native.js'), ...(process.argv.includes('--force') ? ['--force'] : [])], { cwd: root, stdio: 'inherit' });

const reason = process.argv.includes('--force') ? 'forced' : stale();
if (reason === undefined) process.exit(0);
console.error(`vectordb-local: building (${reason})`);
const started = Date.now();
const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// Stamped with the time the build started: a source saved during the build still counts as newer.
writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
const seconds = started / 1000;
(await import('node:fs')).utimesSync(stamp, seconds, seconds);
console.error(`vectordb-local: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
