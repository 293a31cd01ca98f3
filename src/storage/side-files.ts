/**
 * Files kept beside a database's LevelDB files, in its directory (Node only; side-files.browser.ts is
 * the browser's twin, where there are none): large blobs that a library reads and writes by path, such
 * as hnswlib's graph snapshots, so that they never pass through LevelDB or JavaScript memory. A store
 * without a directory (memory-level, a browser) has no side files: callers keep such data in LevelDB.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { KvStore } from './kv-store.js';

/** The subdirectory of the database directory that holds side files. */
const SIDE_DIR = 'side';

/** The directory for this store's side files, or undefined when it has none. Created on first use. */
export async function sideFileDir(kv: KvStore): Promise<string | undefined> {
  if (kv.storage !== 'persistent') return undefined;
  const dir = path.join(kv.location, SIDE_DIR);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The path of side file `name` (undefined when the store has no directory). */
export function sideFilePath(kv: KvStore, name: string): string | undefined {
  return kv.storage === 'persistent' ? path.join(kv.location, SIDE_DIR, name) : undefined;
}

/**
 * Replaces the small side file `name` with `text` whole (a reader sees the old text or the new one). Not
 * flushed to disk: for notes whose loss costs nothing but time, such as a hint.
 */
export async function replaceSideFile(kv: KvStore, name: string, text: string): Promise<void> {
  const dir = await sideFileDir(kv);
  if (dir === undefined) return;
  const temporary = path.join(dir, `${name}.tmp`);
  await writeFile(temporary, text);
  await rename(temporary, path.join(dir, name));
}

/**
 * The text of the small side file `name` of the database directory `location`, read before its store is
 * open (synchronously: a few hundred bytes, where a read on the thread pool would wait behind LevelDB's
 * open); undefined when there is none.
 */
export function readSideFileBefore(location: string, name: string): string | undefined {
  try {
    return readFileSync(path.join(location, SIDE_DIR, name), 'utf8');
  } catch {
    return undefined;
  }
}

/** The path of side file `name` of the database directory `location` (before its store is open). */
export function sideFilePathIn(location: string, name: string): string | undefined {
  return path.join(location, SIDE_DIR, name);
}

export { makeDurable } from './durable-file.js';

/** The size of a side file in bytes, or undefined when it does not exist. */
export async function fileSize(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

export async function removeFile(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** Removes this store's side files whose names start with `prefix`, except those `keep` names. */
export async function removeSideFiles(kv: KvStore, prefix: string, keep: ReadonlySet<string> = new Set()): Promise<void> {
  if (kv.storage !== 'persistent') return;
  const names = await readdir(path.join(kv.location, SIDE_DIR)).catch(() => [] as string[]);
  for (const name of names) if (name.startsWith(prefix) && !keep.has(name)) await rm(path.join(kv.location, SIDE_DIR, name), { force: true });
}

/**
 * Copies the side files of the database directory `from` into `to` (a backup or restore: its keys are
 * copied beside). A file removed meanwhile is skipped: side files are never changed once written, and
 * whatever names a missing one must do without it.
 */
export async function copySideFiles(from: string, to: string): Promise<void> {
  const names = await readdir(path.join(from, SIDE_DIR)).catch(() => [] as string[]);
  if (names.length === 0) return;
  await mkdir(path.join(to, SIDE_DIR), { recursive: true });
  for (const name of names) {
    await copyFile(path.join(from, SIDE_DIR, name), path.join(to, SIDE_DIR, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}
