/**
 * Who holds a database directory: LevelDB's LOCK file says only that it is held, so the process that opens a
 * database writes its pid and command line beside it (HOLDER), and a refused opener names that process.
 * Best effort on both sides: a missing or unreadable HOLDER only makes the message less specific, and a HOLDER
 * whose process is gone (a stale one, left by a killed process) is never named.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const HOLDER_FILE = 'HOLDER';

/**
 * Records this process as the holder of the (just locked) directory, in the background (a synchronous
 * write held the event loop for a millisecond or more of every open).
 */
export function recordHolder(location: string): void {
  const holder = { pid: process.pid, command: process.argv.map((a) => path.basename(a)).join(' ').slice(0, 200), since: new Date().toISOString() };
  // A read-only or vanished directory: the lock message will just not name the process.
  writeFile(path.join(location, HOLDER_FILE), JSON.stringify(holder)).catch(() => undefined);
}

/** " by process 1234 (node main.js serve, since ...)", or '' when unknown or when that process is gone. */
export function describeHolder(location: string): string {
  const holder = readHolder(location);
  if (holder === undefined || !isAlive(holder.pid)) return '';
  const self = holder.pid === process.pid ? ', this process, through a connection not shared with this one' : '';
  return ` by process ${holder.pid} (${String(holder.command ?? '?')}, since ${String(holder.since ?? '?')}${self})`;
}

/** The pid of the live process HOLDER names, or undefined (none, unreadable, or that process is gone). */
export function liveHolderPid(location: string): number | undefined {
  const holder = readHolder(location);
  return holder !== undefined && isAlive(holder.pid) ? holder.pid : undefined;
}

function readHolder(location: string): { pid: number; command?: unknown; since?: unknown } | undefined {
  try {
    const holder = JSON.parse(readFileSync(path.join(location, HOLDER_FILE), 'utf8')) as { pid?: unknown; command?: unknown; since?: unknown };
    return typeof holder.pid === 'number' ? { ...holder, pid: holder.pid } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (signal 0 tests without sending; EPERM: it exists, another user's). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
