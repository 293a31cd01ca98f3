/**
 * Reading and rewriting `home.json`. Readers never lock: a rewrite is a new file renamed over the old one,
 * so a reader sees the old registry or the new one, whole. Writers are serialised by a mutex in the process
 * and by the home's lock file across processes; the file is re-read under the lock before every change.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Mutex } from '../engine/mutex.js';
import { VectorDbError } from '../errors/index.js';
import { withFileLock } from './file-lock.js';
import { lockPath, registryPath } from './home-paths.js';
import { parseRegistry, type Registry } from './registry-format.js';

const mutexes = new Map<string, Mutex>();

/** The last registry parsed per file, by its exact text: re-reading is cheap, re-parsing and checking less so. */
const cache = new Map<string, { readonly text: string; readonly registry: Registry }>();

/** The current registry of `home`; HOME_NOT_FOUND when it is not a home. */
export async function readRegistry(home: string): Promise<Registry> {
  const file = registryPath(home);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw VectorDbError.of('HOME_NOT_FOUND', { home });
    throw error;
  }
  const hit = cache.get(file);
  if (hit?.text === text) return hit.registry;
  const registry = deepFreeze(parseRegistry(text, file));
  cache.set(file, { text, registry });
  return registry;
}

/** What a registry change returns: the new registry (none: nothing is written), its result, and a hook. */
export interface RegistryChange<T> {
  readonly registry?: Registry;
  readonly result: T;
  /** Runs after the write (told whether it succeeded), still under the lock: e.g. close a held database. */
  readonly settle?: (written: boolean) => Promise<void>;
}

/**
 * Runs `change` on the current registry with the home locked, and stores the registry it returns.
 * `change` may do I/O (create a database directory) while locked.
 */
export async function updateRegistry<T>(home: string, change: (current: Registry) => Promise<RegistryChange<T>>): Promise<T> {
  return withHomeLock(home, async () => {
    const { registry, result, settle } = await change(await readRegistry(home));
    let written = false;
    try {
      if (registry !== undefined) await writeRegistry(home, registry);
      written = true;
    } finally {
      await settle?.(written);
    }
    return result;
  });
}

/** Creates the home directory and its first registry; HOME_ALREADY_EXISTS when it already is a home. */
export async function createRegistry(home: string, registry: Registry): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await withHomeLock(home, async () => {
    const exists = await readRegistry(home).then(
      () => true,
      (error: unknown) => !(error instanceof VectorDbError && error.code === 'HOME_NOT_FOUND'),
    );
    if (exists) throw VectorDbError.of('HOME_ALREADY_EXISTS', { home });
    await writeRegistry(home, registry);
  });
}

function withHomeLock<T>(home: string, fn: () => Promise<T>): Promise<T> {
  let mutex = mutexes.get(home);
  if (!mutex) mutexes.set(home, (mutex = new Mutex()));
  return mutex.run(() => withFileLock(lockPath(home), home, fn));
}

/** Temp file, fsync, rename over home.json, fsync the directory: a crash leaves the old or the new registry. */
async function writeRegistry(home: string, registry: Registry): Promise<void> {
  const file = registryPath(home);
  const temp = path.join(home, `${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(registry, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(home);
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms (Windows) cannot fsync a directory; the rename itself is still atomic.
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
