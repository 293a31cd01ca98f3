/**
 * Where a home is and what is in it: `home.json` (the registry), `home.lock` (held while the registry is
 * rewritten) and one directory per database, named by its UUID. Owns no I/O beyond naming paths.
 */
import { homedir } from 'node:os';
import path from 'node:path';

export const REGISTRY_FILE = 'home.json';
export const LOCK_FILE = 'home.lock';
/** Prefix of a deleted database's directory while it is being removed. */
export const DELETED_PREFIX = '.deleted-';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The home directory: the option, else `$VECTORDB_HOME`, else `~/.vectordb-local`; always absolute. */
export function resolveHome(home?: string): string {
  const chosen = home ?? process.env.VECTORDB_HOME;
  return path.resolve(chosen !== undefined && chosen !== '' ? chosen : path.join(homedir(), '.vectordb-local'));
}

export function registryPath(home: string): string {
  return path.join(home, REGISTRY_FILE);
}

export function lockPath(home: string): string {
  return path.join(home, LOCK_FILE);
}

/** The LevelDB directory of a database (its endpoint when embedded). */
export function databaseDirectory(home: string, id: string): string {
  return path.join(home, id.toLowerCase());
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
