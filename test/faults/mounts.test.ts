/**
 * Faults of the file system under a database, on real tmpfs mounts (as root; skipped with a message otherwise):
 * a read-only remount is STORAGE_READ_ONLY (not DATABASE_LOCKED, and no dead process named); a full disk is a
 * coded STORAGE_IO_ERROR saying so (and that later writes are refused until reopened), every acknowledged write
 * survives, and the database reopens cleanly once there is room; a process without write access to the files is
 * STORAGE_PERMISSION_DENIED (not DATABASE_LOCKED). Child processes: test/fixtures/fault-child.mjs.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { child } from './fault-helpers.js';

const ROOT_USER = process.getuid?.() === 0;
if (!ROOT_USER) console.warn('test/faults/mounts.test.ts: skipped, mounting a tmpfs needs root (CI runs as root)');

const mounted: string[] = [];

/** A fresh tmpfs of `size` at a new directory. */
function mountTmpfs(size: string): string {
  const dir = path.join(tempDir('vectordb-mount-'), 'fs');
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounted.push(dir);
  return dir;
}

const remount = (dir: string, options: string): void => void execFileSync('mount', ['-o', `remount,${options}`, dir]);

describe.skipIf(!ROOT_USER)('faults: file systems (tmpfs mounts, as root)', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  afterAll(() => {
    for (const dir of mounted.splice(0)) {
      try {
        execFileSync('umount', [dir]);
      } catch (error) {
        console.warn(`could not unmount ${dir}: ${(error as Error).message}`);
      }
    }
  });

  it('a database on a file system remounted read-only: STORAGE_READ_ONLY, not DATABASE_LOCKED', async () => {
    const mount = mountTmpfs('16m');
    const dir = path.join(mount, 'db');
    expect((await child('seed', [dir, '100'])).outcome.ok).toBe(true);
    remount(mount, 'ro');
    const { outcome } = await child('open', [dir]);
    expect(outcome.errorCode, JSON.stringify(outcome)).toBe('STORAGE_READ_ONLY');
    expect(outcome.message).toMatch(/read-only file system/);
    expect(outcome.message).not.toMatch(/in use|by process/);
    remount(mount, 'rw');
    expect((await child('open', [dir])).outcome).toEqual({ ok: true, count: 100 });
  });

  it('files the process may not write (LevelDB cannot open its LOCK): STORAGE_PERMISSION_DENIED, not DATABASE_LOCKED', async () => {
    const parent = tempDir('vectordb-fault-');
    const dir = path.join(parent, 'db');
    expect((await child('seed', [dir, '20'])).outcome.ok).toBe(true);
    chmodSync(parent, 0o755); // readable by everyone; the files stay root's, 0644
    const { outcome } = await child('open', [dir], { FAULT_UID: '65534' });
    expect(outcome.errorCode, JSON.stringify(outcome)).toBe('STORAGE_PERMISSION_DENIED');
    expect(outcome.message).toMatch(/permission denied/i);
    expect(outcome.message).not.toMatch(/in use|by process/);
  });

  it('a full disk: a coded STORAGE_IO_ERROR, every acknowledged write kept, a clean reopen once there is room', async () => {
    const mount = mountTmpfs('16m');
    const dir = path.join(mount, 'db');
    const { outcome, result } = await child('fill', [dir]);
    expect(outcome.errorCode, JSON.stringify(outcome)).toBe('STORAGE_IO_ERROR');
    expect(outcome.message).toMatch(/the disk is full/);
    // Here LevelDB refuses every write after the failed one until reopened, and the message says it may.
    expect(outcome.message).toMatch(/refuse every later write .* until it is closed and opened again/);
    expect((outcome.again as { errorCode?: string }).errorCode).toBe('STORAGE_IO_ERROR');
    const acked = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{"acked"'))
      .flatMap((line) => (JSON.parse(line) as { acked: string[] }).acked);
    expect(acked.length).toBeGreaterThan(100);

    remount(mount, 'size=64m');
    const reopened = await child('ids', [dir]);
    expect(reopened.outcome.ok, JSON.stringify(reopened.outcome)).toBe(true);
    const ids = new Set(reopened.outcome.ids as string[]);
    expect(acked.filter((id) => !ids.has(id))).toEqual([]);
    expect((await child('open', [dir])).outcome.ok).toBe(true);
  });
});
