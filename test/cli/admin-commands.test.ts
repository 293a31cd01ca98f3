/**
 * `vectordb-local backup`, `restore`, `stats` and `token` as child processes, copies to and from a `serve`
 * endpoint (import, export, stats, backup, restore through the Data API), and --help of every data command.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { cli, documentsOf, serve, writeDocuments } from './helpers.js';

beforeAll(buildPackage, 180_000);

describe('vectordb-local backup, restore, stats and token', () => {
  it('backup copies a data directory that opens as is; restore refuses a database in use and replaces one that is not', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'docs.ndjson');
    writeDocuments(source, 40, 3);
    const data = path.join(dir, 'data');
    await cli(['import', source, '--data', data, '-c', 'docs', '--create', '--dimension', '3']);
    const backup = await cli(['backup', path.join(dir, 'backup'), '--data', data]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(await documentsOf(path.join(dir, 'backup'), 'docs')).toEqual(await documentsOf(data, 'docs'));
    expect((await cli(['backup', path.join(dir, 'backup'), '--data', data])).stderr).toMatch(/not empty/);
    const other = path.join(dir, 'other');
    await cli(['import', source, '--data', other, '-c', 'else', '--create']);
    const server = await serve(other, 'restore-token');
    try {
      const refused = await cli(['restore', path.join(dir, 'backup'), '--data', other]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/in use/);
    } finally {
      await server.stop();
    }
    const restored = await cli(['restore', path.join(dir, 'backup'), '--data', other]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await documentsOf(other, 'docs')).toEqual(await documentsOf(data, 'docs'));
    await using db = new VectorDB('t', other);
    expect(await db.findAllCollectionsNames()).toEqual(['docs']);
  }, 90_000);

  it('stats prints a line per collection and per table (a line per vector column), and --json for scripts', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'docs.ndjson');
    writeDocuments(source, 25, 3);
    const data = path.join(dir, 'data');
    await cli(['import', source, '--data', data, '-c', 'docs', '--create', '--dimension', '3', '--metric', 'euclidean']);
    {
      // Two tables: one with a vector column and its index, one without vectors.
      await using db = new VectorDB('t', data);
      await db.command({ createTable: { name: 'items', definition: { columns: { id: 'text', v: { type: 'vector', dimension: 2 } }, primaryKey: 'id' } } });
      await db.command({ createVectorIndex: { name: 'items_v', definition: { column: 'v', options: { metric: 'dot_product' } } } }, { collection: 'items' });
      await db.command({ insertMany: { documents: Array.from({ length: 7 }, (_, i) => ({ id: `r${i}`, v: [1, i] })) } }, { collection: 'items' });
      await db.command({ createTable: { name: 'plain', definition: { columns: { id: 'int' }, primaryKey: 'id' } } });
      await db.command({ insertMany: { documents: [{ id: 1 }, { id: 2 }] } }, { collection: 'plain' });
    }
    const table = await cli(['stats', '--data', data]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('1 collections and 2 tables in 1 keyspaces');
    expect(table.stdout).toMatch(/default_keyspace\.docs\s+25\s+.*3 euclidean\s+16\/200\/128/);
    expect(table.stdout).toMatch(/^table\s+rows\s+bytes\s+index entries\s+vector column/m);
    expect(table.stdout).toMatch(/default_keyspace\.items\s+7\s+.*\s+v\s+2 dot_product\s+16\/200\/128/);
    expect(table.stdout).toMatch(/default_keyspace\.plain\s+2\s+/);
    const json = JSON.parse((await cli(['stats', '--data', data, '--json'])).stdout) as {
      collections: { documents: number; indexEntries: number; vector: { dimension: number; vectors: number } }[];
      tables: { name: string; rows: number; bytesOnDisk: number; vectors: Record<string, { dimension: number; metric: string; vectors: number }> }[];
    };
    expect(json.collections[0]).toMatchObject({ documents: 25, vector: { dimension: 3, vectors: 25 } });
    expect(json.collections[0]!.indexEntries).toBeGreaterThan(25);
    expect(json.tables.map((t) => [t.name, t.rows, Object.keys(t.vectors)])).toEqual([['items', 7, ['v']], ['plain', 2, []]]);
    expect(json.tables[0]!.vectors.v).toMatchObject({ dimension: 2, metric: 'dot_product', vectors: 7 });
    expect(json.tables[0]!.bytesOnDisk).toBeGreaterThan(0);
  }, 60_000);

  it('token create, list and revoke for a home', async () => {
    const home = path.join(tempDir(), 'home');
    const init = await cli(['init', '--home', home]);
    const orgToken = /(VDBL:\S+)/.exec(init.stdout)![1]!;
    const created = await cli(['token', 'create', '--home', home, '--token', orgToken, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const { clientId, token } = JSON.parse(created.stdout) as { clientId: string; token: string };
    expect(token).toMatch(/^VDBL:/);
    const listed = await cli(['token', 'list', '--home', home, '--token', orgToken]);
    expect(listed.stdout).toMatch(new RegExp(`${clientId}\\s+ORGANIZATION_ADMINISTRATOR\\s+-\\s+\\S+\\s+active`));
    expect(listed.stdout).not.toContain(token);
    expect((await cli(['token', 'revoke', clientId, '--home', home, '--token', orgToken])).code).toBe(0);
    expect((await cli(['token', 'list', '--home', home, '--token', orgToken])).stdout).toMatch(new RegExp(`${clientId}.*revoked`));
    const refused = await cli(['token', 'list', '--home', home, '--token', token]);
    expect(refused.code).toBe(1);
  }, 60_000);
});

describe('moving data to and from a serve endpoint', () => {
  it('import into, export from, stats of, backup of and restore into a Data API endpoint', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'docs.ndjson');
    writeDocuments(source, 60, 3, 6);
    const server = await serve(path.join(dir, 'served'), 'endpoint-token');
    const remote = ['--endpoint', server.url, '--token', 'endpoint-token'];
    try {
      const imported = await cli(['import', source, ...remote, '-c', 'docs', '--create', '--dimension', '3']);
      expect(imported.code, imported.stderr).toBe(0);
      const local = path.join(dir, 'local');
      await cli(['import', source, '--data', local, '-c', 'docs', '--create', '--dimension', '3']);
      const fromRemote = await cli(['export', ...remote, '-c', 'docs']);
      const fromLocal = await cli(['export', '--data', local, '-c', 'docs']);
      expect(fromRemote.code).toBe(0);
      expect(fromRemote.stdout).toBe(fromLocal.stdout);
      const stats = JSON.parse((await cli(['stats', ...remote, '--json'])).stdout) as { collections: { name: string; documents: number }[] };
      expect(stats.collections.map((c) => [c.name, c.documents])).toEqual([['docs', 60]]);
      const backup = await cli(['backup', path.join(dir, 'from-server'), ...remote]);
      expect(backup.code, backup.stderr).toBe(0);
      expect(await documentsOf(path.join(dir, 'from-server'), 'docs')).toEqual(await documentsOf(local, 'docs'));
      await cli(['import', source, '--data', path.join(dir, 'second'), '-k', 'archive', '-c', 'old', '--create', '--dimension', '3']);
      const restored = await cli(['restore', path.join(dir, 'second'), ...remote]);
      expect(restored.code, restored.stderr).toBe(0);
      const archived = await cli(['export', ...remote, '-k', 'archive', '-c', 'old']);
      expect(archived.stdout.trimEnd().split('\n')).toHaveLength(60);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('--help', () => {
  it.each([['import'], ['export'], ['backup'], ['restore'], ['stats'], ['token'], ['token', 'create']])('vectordb-local %s --help shows its options and examples', async (...command) => {
    const help = await cli([...command, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: vectordb-local/);
    if (command[0] !== 'token' || command.length === 1) expect(help.stdout).toMatch(/Examples:/);
    if (command[0] !== 'token') expect(help.stdout).toMatch(/--endpoint <url>/);
  });
});
