/**
 * The home across processes, with children running test/admin/fixtures/admin-child.mjs on the built package:
 * deleting (or changing) a database another process holds fails cleanly and changes nothing, and registry
 * writes from two processes at once all land (the home's lock file).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatabaseInUseException, VectorDB } from '../../src/index.js';
import { buildPackage, finish, lastJsonLine } from '../durability/built-package.js';
import { newHome, rejection } from './helpers.js';

const CHILD = fileURLToPath(new URL('./fixtures/admin-child.mjs', import.meta.url));

function startChild(token: string, args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CHILD, ...args], { stdio: 'pipe', env: { ...process.env, VECTORDB_TEST_TOKEN: token } });
}

function ready(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('ready\n')) resolve();
    });
    child.on('close', () => reject(new Error(`child exited before it was ready: ${seen}`)));
  });
}

describe('a home shared by processes', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it('deleteDatabase is refused while another process holds the database, and works once it lets go', async () => {
    const { admin, home } = await newHome();
    const id = await admin.createDatabase('shared');
    const { token } = await admin.createToken('DATABASE_ADMINISTRATOR', id);
    const holder = startChild(token, ['hold', home, id]);
    const done = finish(holder, 60_000);
    await ready(holder);

    const error = await rejection(admin.deleteDatabase('shared'), DatabaseInUseException, 'DATABASE_IN_USE');
    expect(error.message).toContain('another process');
    expect(await admin.findDatabaseById(id)).toBeDefined();
    expect(existsSync(path.join(home, id, 'CURRENT'))).toBe(true);
    await rejection(admin.createKeyspace(id, 'more'), DatabaseInUseException, 'DATABASE_LOCKED');
    await rejection(admin.database(id), DatabaseInUseException, 'DATABASE_LOCKED');

    holder.stdin.end();
    const result = await done;
    expect(result.hung).toBe(false);
    expect(result.code, result.stdout + result.stderr).toBe(0);

    // Intact: what the child wrote is there; then the database can go.
    const db = await admin.database(id);
    expect(await (await db.collection('held')).findById('from-child')).toEqual({ _id: 'from-child', by: 'child' });
    await db.close();
    expect(await admin.deleteDatabase('shared')).toBe(true);
    expect(existsSync(path.join(home, id))).toBe(false);
  });

  it('a database token is checked in the other process too', async () => {
    const { admin, home } = await newHome();
    const id = await admin.createDatabase('checked');
    const other = await admin.createDatabase('other');
    const { token } = await admin.createToken('DATABASE_ADMINISTRATOR', other);
    await admin.createToken('DATABASE_ADMINISTRATOR', id);
    const result = await finish(startChild(token, ['hold', home, id]), 30_000);
    expect(result.code).toBe(2);
    expect(lastJsonLine(result.stdout)).toMatchObject({ ok: false, name: 'UnauthorizedException', errorCode: 'UNAUTHORIZED_ACCESS' });
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  it('registry writes of two processes at once all land', async () => {
    const { admin, home, orgToken } = await newHome();
    const child = startChild(orgToken, ['create', home, 'child', '20']);
    child.stdin.end();
    const childDone = finish(child, 60_000);
    await ready(child);
    const mine: string[] = [];
    for (let i = 0; i < 20; i++) mine.push(await admin.createDatabase(`parent${i}`));
    const result = await childDone;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const theirs = lastJsonLine(result.stdout).ids as string[];
    const listed = await admin.listDatabases();
    expect(listed.map((d) => d.id).sort()).toEqual([...mine, ...theirs].sort());
    expect(listed.map((d) => d.name).sort()).toEqual([...Array.from({ length: 20 }, (_, i) => `child${i}`), ...Array.from({ length: 20 }, (_, i) => `parent${i}`)].sort());
    // Each is a real database.
    const db = await VectorDB.fromDatabaseId(orgToken, theirs[0]!, { home });
    expect(await db.findAllKeyspaceNames()).toEqual(['default_keyspace']);
    await db.close();
  });
});
