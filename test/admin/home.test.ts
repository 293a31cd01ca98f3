/**
 * The home: initHome and its refusal of an existing home, the home's default location, the registry file
 * (atomic rewrites, salted hashes only), a stale lock left by a dead process, and concurrent writers in process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataApiException, VectorDBAdmin } from '../../src/index.js';
import { tempDir } from '../support/temp.js';
import { newHome, registryText, rejection } from './helpers.js';

describe('initHome', () => {
  it('creates the home with its registry and returns the first Organization Administrator token', async () => {
    const { home, orgToken, admin } = await newHome();
    expect(orgToken).toMatch(/^VDBL:[0-9a-f]{24}:[A-Za-z0-9_-]{43}$/);
    expect(existsSync(path.join(home, 'home.json'))).toBe(true);
    expect(statSync(path.join(home, 'home.json')).mode & 0o077).toBe(0);
    const tokens = await admin.listTokens();
    expect(tokens).toEqual([{ clientId: orgToken.split(':')[1], role: 'ORGANIZATION_ADMINISTRATOR', createdAt: expect.any(String), revoked: false }]);
    expect(await admin.listDatabases()).toEqual([]);
  });

  it('refuses a directory that already is a home, and leaves it unchanged', async () => {
    const { home, admin } = await newHome();
    const before = registryText(home);
    const error = await rejection(VectorDBAdmin.initHome(home), DataApiException, 'HOME_ALREADY_EXISTS');
    expect(error.message).toContain(home);
    expect(registryText(home)).toBe(before);
    expect(await admin.listDatabases()).toEqual([]);
  });

  it('a damaged registry is HOME_REGISTRY_CORRUPTED naming the file and what is wrong, never an empty home', async () => {
    const { home, admin } = await newHome();
    writeFileSync(path.join(home, 'home.json'), '{"kind": "vectordb-local-home", "format": 1, "databases": 3');
    const error = await rejection(admin.listDatabases(), DataApiException, 'HOME_REGISTRY_CORRUPTED');
    expect(error.message).toContain(path.join(home, 'home.json'));
    expect(error.message).toContain('not valid JSON');
  });

  it('an admin on a directory that is no home says so', async () => {
    const dir = tempDir();
    const error = await rejection(new VectorDBAdmin('VDBL:x', { home: dir }).listDatabases(), DataApiException, 'HOME_NOT_FOUND');
    expect(error.message).toContain('initHome');
  });
});

describe('where the home is', () => {
  const saved = process.env.VECTORDB_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.VECTORDB_HOME;
    else process.env.VECTORDB_HOME = saved;
  });

  it('the option, else $VECTORDB_HOME, else ~/.vectordb-local', async () => {
    const dir = path.join(tempDir(), 'env-home');
    process.env.VECTORDB_HOME = dir;
    const token = await VectorDBAdmin.initHome();
    expect(existsSync(path.join(dir, 'home.json'))).toBe(true);
    expect(new VectorDBAdmin(token).home).toBe(dir);
    expect(await new VectorDBAdmin(token).listDatabases()).toEqual([]);
    expect(new VectorDBAdmin(token, { home: '/elsewhere' }).home).toBe('/elsewhere');
    delete process.env.VECTORDB_HOME;
    expect(new VectorDBAdmin(token).home).toMatch(/\.vectordb-local$/);
  });
});

describe('the registry file', () => {
  it('holds tokens only as salted scrypt hashes: no token or secret appears in it', async () => {
    const { home, orgToken, admin } = await newHome();
    const id = await admin.createDatabase('hashes');
    const org2 = await admin.createToken('ORGANIZATION_ADMINISTRATOR');
    const dbToken = await admin.createToken('DATABASE_ADMINISTRATOR', id);
    const text = registryText(home);
    for (const secret of [orgToken, orgToken.split(':')[2]!, org2.token, org2.clientSecret, dbToken.token, dbToken.clientSecret]) {
      expect(text).not.toContain(secret);
    }
    const registry = JSON.parse(text) as { tokens: { hash: string; clientId: string }[] };
    expect(registry.tokens.map((t) => t.clientId)).toEqual([orgToken.split(':')[1], org2.clientId, dbToken.clientId]);
    const salts = registry.tokens.map((t) => t.hash.split('$')[4]);
    for (const t of registry.tokens) expect(t.hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(new Set(salts).size).toBe(3);
  });

  it('is rewritten atomically: no temporary files stay behind, and the lock is released', async () => {
    const { home, admin } = await newHome();
    await Promise.all(Array.from({ length: 5 }, (_, i) => admin.createDatabase(`db${i}`)));
    expect(readdirSync(home).filter((f) => !/^[0-9a-f-]{36}$/.test(f)).sort()).toEqual(['home.json']);
  });

  it('concurrent creations in process all land, and one name gives one database', async () => {
    const { admin, home } = await newHome();
    const other = new VectorDBAdmin((await admin.createToken('ORGANIZATION_ADMINISTRATOR')).token, { home });
    const ids = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => admin.createDatabase(`a${i}`)),
      ...Array.from({ length: 6 }, (_, i) => other.createDatabase(`b${i}`)),
      ...Array.from({ length: 4 }, () => other.createDatabase('same')),
    ]);
    expect(new Set(ids.slice(12)).size).toBe(1);
    expect((await admin.listDatabaseNames()).sort()).toEqual([...Array.from({ length: 6 }, (_, i) => `a${i}`), ...Array.from({ length: 6 }, (_, i) => `b${i}`), 'same'].sort());
  });

  it('a lock file left by a process that died is broken, not waited on', async () => {
    const { home, admin } = await newHome();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(path.join(home, 'home.lock'), JSON.stringify({ pid: Number(dead.stdout), host: hostname(), nonce: 'stale', at: new Date().toISOString() }));
    const started = Date.now();
    await admin.createDatabase('after-crash');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await admin.listDatabaseNames()).toEqual(['after-crash']);
    expect(existsSync(path.join(home, 'home.lock'))).toBe(false);
  });
});
