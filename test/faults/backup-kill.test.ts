/**
 * Backups are atomic: a child backing up a database is SIGKILLed at its first progress report (it stops dead
 * there, so the kill lands mid-copy without any delay); the partial copy and the absent target are refused at
 * open and by restore with BACKUP_INCOMPLETE, and a re-run of the CLI backup replaces the partial copy and
 * succeeds. Child processes on real LevelDB directories (test/fixtures/fault-child.mjs, dist/cli/main.js).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/helpers.js';
import { buildPackage, finish, startFixture, untilPrinted } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { child } from './fault-helpers.js';

/** Enough documents (each a body and index entries) that the first progress report (4,096 keys) is mid-copy. */
const DOCS = 1200;

beforeAll(async () => {
  await buildPackage();
}, 180_000);

describe('faults: SIGKILL during a backup', () => {
  it('the partial copy is refused, the target stays free, and a re-run succeeds', async () => {
    const source = tempDir('vectordb-fault-');
    expect((await child('seed', [source, String(DOCS)])).outcome.ok).toBe(true);
    const target = path.join(tempDir('vectordb-fault-'), 'backup');
    const partial = `${target}.partial-backup`;

    const backup = startFixture('fault-child.mjs', ['backup', source, target]);
    const ended = finish(backup, 60_000);
    await untilPrinted(backup, '"progress"');
    backup.kill('SIGKILL');
    expect((await ended).signal).toBe('SIGKILL');

    // Killed mid-copy: the keys copied so far are in the partial sibling, marked as copying; the target is absent.
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(partial).some((name) => /^\d+\.(log|ldb)$/.test(name))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(partial, 'BACKUP'), 'utf8'))).toMatchObject({ state: 'copying' });

    for (const dir of [partial, target]) {
      const { outcome } = await child('open', [dir]);
      expect(outcome.errorCode, JSON.stringify(outcome)).toBe('BACKUP_INCOMPLETE');
      expect(outcome.message).toContain('Run the backup again');
      expect(outcome.message).toContain(partial);
    }
    expect(existsSync(target) ? readdirSync(target) : [], 'the refused open wrote nothing').toEqual([]);
    const restore = await cli(['restore', '--data', tempDir('vectordb-fault-'), partial]);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/interrupted while copying/);

    // A re-run (the CLI) replaces the partial copy; the backup opens whole.
    const rerun = await cli(['backup', '--data', source, target]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(existsSync(partial)).toBe(false);
    expect(JSON.parse(readFileSync(path.join(target, 'BACKUP'), 'utf8'))).toMatchObject({ state: 'complete' });
    const ids = (await child('ids', [source])).outcome.ids as string[];
    expect(ids).toHaveLength(DOCS);
    expect((await child('ids', [target])).outcome.ids).toEqual(ids);

    // And restore takes the complete backup.
    const restored = tempDir('vectordb-fault-');
    const again = await cli(['restore', '--data', restored, target]);
    expect(again.code, again.stderr).toBe(0);
    expect((await child('ids', [restored])).outcome.ids).toEqual(ids);
  });

  it('an uninterrupted backup through db.backup is complete and opens', async () => {
    const source = tempDir('vectordb-fault-');
    expect((await child('seed', [source, '100'])).outcome.ok).toBe(true);
    const target = path.join(tempDir('vectordb-fault-'), 'copy');
    expect((await child('backup', [source, target])).outcome).toEqual({ ok: true });
    expect(existsSync(`${target}.partial-backup`)).toBe(false);
    expect((await child('open', [target])).outcome).toEqual({ ok: true, count: 100 });
  });
});
