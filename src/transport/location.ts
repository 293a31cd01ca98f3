/**
 * Where an embedded database's persistent store is, Node's side: a directory path or `file:` URL,
 * made absolute, created if missing, and named by its real path (so two spellings share one database).
 * Has a browser twin (location.browser.ts) that the browser build puts in its place.
 */
import { realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Resolves a directory path or `file:` URL to an absolute directory path. */
export function resolveLocation(endpoint: string): string {
  const dir = endpoint.startsWith('file:') ? fileURLToPath(endpoint) : endpoint;
  return path.resolve(dir);
}

/** Creates the directory if needed; resolves to the name that identifies it in this process. */
export async function prepareLocation(location: string): Promise<string> {
  await mkdir(location, { recursive: true });
  return realpathSync(location);
}
