/**
 * No open destroys data, and a lock is only blamed on a live process: a database whose CURRENT is gone or whose
 * MANIFEST is cut in half is refused with DATABASE_CORRUPTED (naming its files and `vectordb-local repair`) and
 * left byte for byte as it was; a HOLDER naming a dead process is taken over and never named. Each case runs in
 * child processes (test/fixtures/fault-child.mjs) on real LevelDB directories.
 */
import { readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { buildPackage, finish, startFixture, untilPrinted } from '../durability/built-package.js';
import { child, fingerprint } from './fault-helpers.js';

const DOCS = 600;

async function seeded(): Promise<string> {
  const dir = tempDir('vectordb-fault-');
  const { outcome } = await child('seed', [dir, String(DOCS)]);
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  expect(readdirSync(dir).some((name) => name.endsWith('.ldb')), 'the data is in a table file').toBe(true);
  return dir;
}

function holderPid(dir: string): number {
  return (JSON.parse(readFileSync(path.join(dir, 'HOLDER'), 'utf8')) as { pid: number }).pid;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Opens `dir` in a child: refused with DATABASE_CORRUPTED, every file as it was. */
async function expectRefusedUntouched(dir: string, reason: RegExp): Promise<void> {
  const before = fingerprint(dir);
  const { outcome } = await child('open', [dir]);
  expect(outcome.ok).toBe(false);
  expect(outcome.name).toBe('DatabaseCorruptedException');
  expect(outcome.errorCode).toBe('DATABASE_CORRUPTED');
  expect(outcome.message).toMatch(reason);
  expect(outcome.message).toMatch(/\d+\.ldb \(\d+ bytes\)/);
  expect(outcome.message).toContain(`vectordb-local repair ${dir}`);
  expect(fingerprint(dir)).toEqual(before);
}

beforeAll(async () => {
  await buildPackage();
}, 180_000);

describe('faults: an open never destroys data', () => {
  it('a database whose CURRENT is missing is refused with DATABASE_CORRUPTED, its files untouched', async () => {
    const dir = await seeded();
    rmSync(path.join(dir, 'CURRENT'));
    await expectRefusedUntouched(dir, /CURRENT file is missing/);
  });

  it('a database whose MANIFEST is cut in half is refused with DATABASE_CORRUPTED, its files untouched', async () => {
    const dir = await seeded();
    const manifest = readdirSync(dir).find((name) => name.startsWith('MANIFEST-'))!;
    truncateSync(path.join(dir, manifest), Math.floor(statSync(path.join(dir, manifest)).size / 2));
    await expectRefusedUntouched(dir, new RegExp(`${manifest} is not whole`));
  });

  it('a healthy database and an empty directory still open (the second as a new database)', async () => {
    const dir = await seeded();
    expect((await child('open', [dir])).outcome).toEqual({ ok: true, count: DOCS });
    expect((await child('open', [tempDir('vectordb-fault-')])).outcome).toEqual({ ok: true, count: null });
  });

  it('a creation that stopped before CURRENT (only MANIFEST-000001, no log or table) is created again', async () => {
    const dir = tempDir('vectordb-fault-');
    writeFileSync(path.join(dir, 'MANIFEST-000001'), Buffer.alloc(41, 1));
    writeFileSync(path.join(dir, 'LOG'), 'info log of the stopped creation\n');
    expect((await child('open', [dir])).outcome).toEqual({ ok: true, count: null });
  });
});

describe('faults: a stale lock', () => {
  it('a HOLDER naming a dead process is taken over', async () => {
    const dir = await seeded();
    const dead = holderPid(dir);
    expect(isAlive(dead), 'the seeding process has exited').toBe(false);
    const { outcome } = await child('open', [dir]);
    expect(outcome).toEqual({ ok: true, count: DOCS });
    expect(holderPid(dir)).not.toBe(dead);
  });

  it('a lock held by a live process that wrote no HOLDER: DATABASE_LOCKED, never naming the dead pid in HOLDER', async () => {
    const dir = await seeded();
    const dead = holderPid(dir);
    expect(isAlive(dead)).toBe(false);
    const holder = startFixture('fault-child.mjs', ['raw-hold', dir]);
    const held = finish(holder, 60_000);
    await untilPrinted(holder, '"ready"');
    const { outcome } = await child('open', [dir]);
    holder.stdin.end();
    expect((await held).code).toBe(0);
    expect(outcome.errorCode).toBe('DATABASE_LOCKED');
    expect(outcome.name).toBe('DatabaseInUseException');
    expect(outcome.message).toMatch(/is in use \(its lock is held/);
    expect(outcome.message).not.toContain(String(dead));
  });
});
