/**
 * What makes a backup atomic (Node only): it is written into a partial sibling directory, `<target>.partial-backup`,
 * whose BACKUP marker says "copying" from the start; when every key and side file is there, the marker is
 * replaced by one saying "complete" (fsynced), and the directory is renamed into place. A directory whose marker
 * is not "complete", or an absent or empty target beside a partial copy, is an interrupted backup: refused at
 * open and by restore (BACKUP_INCOMPLETE). One place decides these names and rules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VectorDbError } from '../errors/index.js';
import { makeDurable } from './side-files.js';

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

/** Writes `marker` into the directory `dir` whole (a reader sees the old marker or the new one) and flushes it. */
export async function writeBackupMarker(dir: string, marker: BackupMarker): Promise<void> {
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
