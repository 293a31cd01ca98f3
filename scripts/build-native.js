/**
 * Builds the optional native addon (native/: a row store and hnswlib graphs over it) into
 * native/build/vectordb_native.node when a source is newer than the build, with the C++ compiler directly
 * (no node-gyp, no download: Node's headers ship with Node, node-addon-api and hnswlib's headers with the
 * hnswlib-node package). Never fails: without a compiler or the headers the addon is simply absent and
 * the vector backends fall back to hnswlib-node, then hnswlib-wasm. `--force` rebuilds; `--quiet` prints
 * only failures.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const native = path.join(root, 'native');
const output = path.join(native, 'build', 'vectordb_native.node');
const quiet = process.argv.includes('--quiet');
const say = (text) => {
  if (!quiet) console.error(`vectordb-local: ${text}`);
};

function headers() {
  const require = createRequire(path.join(root, 'package.json'));
  const found = {};
  try {
    found.hnswlib = path.join(path.dirname(require.resolve('hnswlib-node/package.json')), 'src', 'hnswlib');
    found.addonApi = require('node-addon-api').include_dir;
    if (!path.isAbsolute(found.addonApi)) found.addonApi = path.join(path.dirname(require.resolve('node-addon-api/package.json')), found.addonApi.replace(/^.*node-addon-api[\\/]?/, ''));
  } catch {
    return undefined;
  }
  const nodeDirs = [process.env.npm_config_nodedir, path.resolve(path.dirname(process.execPath), '..'), '/usr', '/usr/local'].filter(Boolean);
  found.node = nodeDirs.map((dir) => path.join(dir, 'include', 'node')).find((dir) => existsSync(path.join(dir, 'node_api.h')));
  if (found.node === undefined || !existsSync(path.join(found.hnswlib, 'hnswalg.h')) || !existsSync(path.join(found.addonApi, 'napi.h'))) return undefined;
  return found;
}

function newestSource() {
  const dir = path.join(native, 'src');
  return Math.max(statSync(path.join(native, 'binding.gyp')).mtimeMs, ...readdirSync(dir).map((name) => statSync(path.join(dir, name)).mtimeMs), statSync(fileURLToPath(import.meta.url)).mtimeMs);
}

function main() {
  if (process.env.VECTORDB_NO_NATIVE_BUILD === '1') return say('native addon build skipped (VECTORDB_NO_NATIVE_BUILD=1)');
  if (!process.argv.includes('--force') && existsSync(output) && statSync(output).mtimeMs >= newestSource()) return;
  if (process.platform === 'win32') return say('native addon not built on Windows (build native/binding.gyp with node-gyp); using hnswlib-node or hnswlib-wasm');
  const found = headers();
  if (found === undefined) return say('native addon not built: hnswlib-node, node-addon-api or Node headers are missing; using hnswlib-node or hnswlib-wasm');
  const compiler = process.env.CXX || 'c++';
  mkdirSync(path.dirname(output), { recursive: true });
  const partial = `${output}.${process.pid}.tmp`;
  const args = [
    '-std=c++17', '-O3', '-ffp-contract=off', '-fPIC', '-shared', '-pthread', '-fvisibility=hidden',
    '-DNAPI_CPP_EXCEPTIONS', '-DNAPI_VERSION=8', '-DNODE_GYP_MODULE_NAME=vectordb_native',
    `-I${found.node}`, `-I${found.addonApi}`, `-I${found.hnswlib}`,
    path.join(native, 'src', 'addon.cc'), '-o', partial,
    ...(process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : []),
  ];
  const started = Date.now();
  const run = spawnSync(compiler, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) {
    rmSync(partial, { force: true });
    const why = run.error ? run.error.message : (run.stderr || '').split('\n').slice(0, 12).join('\n');
    return console.error(`vectordb-local: native addon not built (${compiler} failed; using hnswlib-node or hnswlib-wasm):\n${why}`);
  }
  renameSync(partial, output); // a load never sees a half-written addon
  say(`native addon built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

try {
  main();
} catch (error) {
  console.error(`vectordb-local: native addon not built: ${error instanceof Error ? error.message : String(error)}`);
}
