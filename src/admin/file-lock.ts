/**
 * An exclusive lock file between processes (created with open 'wx'), holding the owner's pid, host and a
 * nonce. A lock whose owner process is gone (same host), or that is older than STALE_MS, is broken. Holders
 * keep it for milliseconds (one registry read-modify-write), so waiting callers poll briefly.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { VectorDbError } from '../errors/index.js';

/** A lock older than this is abandoned, whoever holds it: no registry update takes this long. */
const STALE_MS = 30_000;
const WAIT_MS = 10_000;

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
  readonly at: string;
}

/** Holds `lockFile` while fn runs; HOME_LOCKED when it cannot be taken within WAIT_MS. */
export async function withFileLock<T>(lockFile: string, home: string, fn: () => Promise<T>): Promise<T> {
  const owner: LockOwner = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString('hex'), at: new Date().toISOString() };
  await acquire(lockFile, home, owner);
  try {
    return await fn();
  } finally {
    await release(lockFile, owner);
  }
}

async function acquire(lockFile: string, home: string, owner: LockOwner): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(lockFile, JSON.stringify(owner), { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readOwner(lockFile);
    if (holder !== 'gone' && (await isStale(lockFile, holder))) {
      await breakLock(lockFile);
      continue;
    }
    if (Date.now() > deadline) {
      const by = holder === 'gone' || holder === undefined ? 'an unknown process' : `process ${holder.pid} on ${holder.host}`;
      throw VectorDbError.of('HOME_LOCKED', { home, seconds: WAIT_MS / 1000, lockFile, holder: by });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(5 + attempt * 5, 50)));
  }
}

/** The owner recorded in the lock, undefined when unreadable (being written), 'gone' when the file vanished. */
async function readOwner(lockFile: string): Promise<LockOwner | undefined | 'gone'> {
  try {
    const parsed = JSON.parse(await readFile(lockFile, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.nonce === 'string' ? (parsed as LockOwner) : undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
}

async function isStale(lockFile: string, holder: LockOwner | undefined): Promise<boolean> {
  if (holder !== undefined && holder.host === hostname() && !isAlive(holder.pid)) return true;
  try {
    return Date.now() - (await stat(lockFile)).mtimeMs > STALE_MS;
  } catch {
    return false; // vanished: the next attempt takes it
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Renames first so that of several processes breaking the same stale lock, one removes it. */
async function breakLock(lockFile: string): Promise<void> {
  const aside = `${lockFile}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await rename(lockFile, aside);
    await unlink(aside);
  } catch {
    // another process broke or released it first
  }
}

/** Removes the lock only if it still is ours (a holder declared stale may find it broken). */
async function release(lockFile: string, owner: LockOwner): Promise<void> {
  const holder = await readOwner(lockFile);
  if (holder !== 'gone' && holder?.nonce === owner.nonce) await unlink(lockFile).catch(() => undefined);
}
