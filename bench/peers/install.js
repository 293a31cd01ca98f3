/**
 * Installs bench/peers' own packages (the peer systems of the benchmarks, never dependencies of
 * vectordb-local) with `npm ci` there, on first use or when its lockfile is newer than the install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export function installPeersIfMissing(log = console.error) {
  const marker = join(here, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(join(here, 'package-lock.json')).mtimeMs) return;
  log('installing the peers (bench/peers/package.json, first use only)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const done = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: here, stdio: ['ignore', process.stderr, 'inherit'] });
  if (done.status !== 0) throw new Error(`npm ci in ${here} failed (${done.status})`);
}
