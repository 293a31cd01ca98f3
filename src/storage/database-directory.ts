/**
 * What a directory holds before LevelDB opens it (Node only), so that no open destroys data: an empty or absent
 * directory gets a new database; one that holds any database file is opened without creating, after the
 * checks LevelDB itself skips (CURRENT present and naming a MANIFEST that is whole: LevelDB reads a cut
 * MANIFEST as a shorter history and then deletes the table files it no longer names). A failed check is
 * DATABASE_CORRUPTED, raised before LevelDB touches a file.
 */
import { readdirSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { VectorDbError, type VectorDbErrorOptions } from '../errors/index.js';
import { BACKUP_MARKER, refuseIncompleteBackup } from './backup-marker.js';

/** LevelDB's files that hold data (the info LOG, LOCK and our HOLDER do not), and our own. */
const DATABASE_FILE = /^(CURRENT|MANIFEST-\d+|\d+\.(ldb|sst|log))$/;
const OWN_ENTRIES = new Set([BACKUP_MARKER, 'side']);

/** LevelDB's log format (doc/log_format.md): 32 KB blocks of records with a 7-byte header. */
const BLOCK_BYTES = 32 * 1024;
const HEADER_BYTES = 7;
/** Record types: a whole record, or the first, a middle or the last fragment of one split across blocks. */
const FULL = 1;
const FIRST = 2;
const LAST = 4;

/**
 * Whether LevelDB may create a database in `location`: true when it is absent or holds no database file.
 * Throws BACKUP_INCOMPLETE for an interrupted backup and DATABASE_CORRUPTED for a database LevelDB would
 * open wrongly.
 */
export async function mayCreateDatabase(location: string): Promise<boolean> {
  const entries = await readdir(location).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  refuseIncompleteBackup(location, entries);
  if (!entries.some((name) => DATABASE_FILE.test(name) || OWN_ENTRIES.has(name))) return true;
  if (creationInterrupted(entries)) return true;
  if (!entries.includes('CURRENT')) {
    const reason = entries.some((name) => DATABASE_FILE.test(name)) ? 'its CURRENT file is missing' : 'it holds no LevelDB files (no CURRENT file)';
    throw corrupted(location, reason);
  }
  const manifest = (await readFile(path.join(location, 'CURRENT'), 'utf8')).match(/^(MANIFEST-\d+)\n$/)?.[1];
  if (manifest === undefined) throw corrupted(location, 'its CURRENT file does not name a MANIFEST');
  if (!entries.includes(manifest)) throw corrupted(location, `its CURRENT file names ${manifest}, which is missing`);
  const problem = logProblem(await readFile(path.join(location, manifest)));
  if (problem !== undefined) throw corrupted(location, `${manifest} is not whole (${problem})`);
  return false;
}

/**
 * A creation that stopped before LevelDB wrote CURRENT (it writes MANIFEST-000001 first): no log or table file
 * exists, so nothing was ever written to the database, and creating it again loses nothing.
 */
function creationInterrupted(entries: readonly string[]): boolean {
  const files = entries.filter((name) => DATABASE_FILE.test(name) || OWN_ENTRIES.has(name));
  return files.every((name) => name === 'MANIFEST-000001');
}

function corrupted(location: string, reason: string): VectorDbError {
  return unopenable(location, reason);
}

/**
 * Where a LevelDB log file (a MANIFEST) ends inside a record, which LevelDB's reader takes for a writer
 * that died and silently drops: undefined when it ends on a record boundary.
 */
function logProblem(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  let inRecord = false;
  if (bytes.byteLength === 0) return 'it is empty';
  while (at < bytes.byteLength) {
    const left = BLOCK_BYTES - (at % BLOCK_BYTES);
    if (left < HEADER_BYTES) {
      at += left; // a block's zero trailer
      continue;
    }
    if (bytes.byteLength - at < HEADER_BYTES) return `it ends inside a record header at byte ${at}`;
    const length = view.getUint16(at + 4, true);
    const type = view.getUint8(at + 6);
    if (at + HEADER_BYTES + length > bytes.byteLength) return `it ends inside a record at byte ${at}: ${bytes.byteLength - at - HEADER_BYTES} of its ${length} bytes are there`;
    if (type === FIRST) inRecord = true;
    else if (type === LAST || type === FULL) inRecord = false;
    at += HEADER_BYTES + length;
  }
  return inRecord ? 'it ends inside a record split across blocks' : undefined;
}

/** The database files of `location` with their sizes, for a message: "CURRENT (16 bytes), 000005.ldb (...)". */
export function describeFiles(location: string): string {
  let names: string[];
  try {
    names = readdirSync(location).filter((name) => DATABASE_FILE.test(name) || name.startsWith('MANIFEST-')).sort();
  } catch (error) {
    return `none readable: ${(error as Error).message}`;
  }
  if (names.length === 0) return 'none';
  const shown = names.slice(0, 12).map((name) => {
    try {
      return `${name} (${statSync(path.join(location, name)).size} bytes)`;
    } catch {
      return name;
    }
  });
  return names.length > shown.length ? `${shown.join(', ')} and ${names.length - shown.length} more` : shown.join(', ');
}

/**
 * DATABASE_CORRUPTED for a directory that cannot be opened as it is: names its files and what to run. The one
 * wording for every refused open (the checks here, and a corruption LevelDB reports at open).
 */
export function unopenable(location: string, reason: string, options: VectorDbErrorOptions = {}): VectorDbError {
  const advice = `Nothing was changed: every file is as it was. Run \`vectordb-local repair ${location}\` to recover what can be recovered (it copies the directory aside first)`;
  return VectorDbError.of('DATABASE_CORRUPTED', { location, reason: `it cannot be opened: ${reason} (files: ${describeFiles(location)}). ${advice}.` }, options);
}
