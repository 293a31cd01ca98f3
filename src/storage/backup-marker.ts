/**
 * What makes a backup atomic (Node only): it is written into a partial sibling directory, `<target>.partial-backup`,
 * whose BACKUP marker says "copying" from its store's creation on; when every key and side file is there, the marker is
 * replaced by one saying "complete" (fsynced), and the directory is renamed into place. A directory whose marker
 * is not "complete", or an absent or empty target beside a partial copy, is an interrupted backup: refused at
 * open and by restore (BACKUP_INCOMPLETE). One place decides these names and rules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VectorDbError } from '../errors/index.js';
import { liveHolderPid } from './lock-holder.js';
import { makeDurable } from './durable-file.js';

/** The marker file in a backup's directory. */
export const BACKUP_MARKER = 'BACKUP';
const PARTIAL_SUFFIX = '.partial-backup';

export interface BackupMarker {
  readonly state: 'copying' | 'complete';
  readonly source: string;
  readonly startedAt: string;
  readonly completedAt?: string;
  readonly keys?: number;
}

/** The sibling directory a backup into `target` is written to before it is renamed into place. */
export function partialBackupPath(target: string): string {
  return `${path.resolve(target)}${PARTIAL_SUFFIX}`;
}

/**
 * Writes a backup of `source` into `target` (absent or empty) atomically. `fill(partial, begin)` creates the
 * copy's database in the partial sibling, calls `begin()` once it is open (before copying anything: marks it
 * "copying"), copies, closes it and resolves with what it copied; the copy is then marked complete and renamed
 * into place. A partial sibling left by an interrupted backup is replaced; one a live backup writes is refused.
 */
export async function writeBackupAtomically(target: string, source: string, fill: (partial: string, begin: () => Promise<void>) => Promise<number>): Promise<number> {
  const partial = partialBackupPath(target);
  const writer = liveHolderPid(partial);
  if (writer !== undefined && writer !== process.pid) {
    throw VectorDbError.of('STORAGE_TARGET_NOT_EMPTY', { location: target, reason: `is being written by a backup in process ${writer} (into ${partial})` });
  }
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const startedAt = new Date().toISOString();
  const copied = await fill(partial, () => writeBackupMarker(partial, { state: 'copying', source, startedAt }));
  await writeBackupMarker(partial, { state: 'complete', source, startedAt, completedAt: new Date().toISOString(), keys: copied });
  // An empty target directory (allowed) is replaced: a directory is renamed only onto none or an empty one.
  if (existsSync(target)) await rm(target, { recursive: true, force: true });
  await rename(partial, target);
  await makeDurable(target);
  return copied;
}

/** Writes `marker` into the directory `dir` whole (a reader sees the old marker or the new one) and flushes it. */
async function writeBackupMarker(dir: string, marker: BackupMarker): Promise<void> {
  const file = path.join(dir, BACKUP_MARKER);
  await writeFile(`${file}.tmp`, `${JSON.stringify(marker)}\n`);
  await makeDurable(`${file}.tmp`);
  await rename(`${file}.tmp`, file);
  await makeDurable(file);
}

/** The marker of `dir`, undefined when it has none; an unreadable marker counts as an interrupted copy. */
function readBackupMarker(dir: string): Pick<BackupMarker, 'state'> | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, BACKUP_MARKER), 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as BackupMarker;
  } catch {
    return { state: 'copying' };
  }
}

/**
 * Refuses (BACKUP_INCOMPLETE) a directory that is an interrupted backup: its marker is not "complete", or it
 * is absent or empty while a partial copy for it lies beside it. `entries`: the directory's names, if read.
 */
export function refuseIncompleteBackup(location: string, entries?: readonly string[]): void {
  const names = entries ?? (existsSync(location) ? readdirSync(location) : []);
  const partial = partialBackupPath(location);
  if (names.includes(BACKUP_MARKER) && readBackupMarker(location)?.state !== 'complete') {
    const reason = `is a backup that was interrupted while copying (its ${BACKUP_MARKER} marker is not "complete"), so some of its data is missing`;
    throw VectorDbError.of('BACKUP_INCOMPLETE', { location, reason, partial: location });
  }
  if (names.length === 0 && existsSync(partial)) {
    const reason = `has no database, but a backup into it was interrupted and left its partial copy beside it`;
    throw VectorDbError.of('BACKUP_INCOMPLETE', { location, reason, partial });
  }
}
