/**
 * The first-use papercuts of issue 15, tried as a new user would: db.command's target convention (astra-db-ts's),
 * the seed's id-based constructors resolved through the home (never a stray directory), VectorDBClient, the
 * seed's role names, and one exception hierarchy for a closed database.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DataApiException,
  DatabaseNotFoundException,
  DatabaseNotOpenException,
  TokenRoles,
  UnauthorizedException,
  VectorDB,
  VectorDBAdmin,
  VectorDBClient,
} from '../../src/index.js';
import { newHome, rejection } from '../admin/helpers.js';
import { tempDir } from '../support/temp.js';
import { useDb } from './helpers.js';

describe('db.command target: no keyspace = the working keyspace, keyspace: null = the database', () => {
  const ctx = useDb();

  it('findCollections with no target lists the working keyspace (as astra-db-ts does)', async () => {
    await ctx.db.createCollection('notes');
    expect(await ctx.db.command({ findCollections: {} })).toEqual({ status: { collections: ['notes'] } });
    await ctx.db.command({ createKeyspace: { name: 'archive' } }, { keyspace: null });
    await ctx.db.changeKeyspace('archive');
    expect(await ctx.db.command({ findCollections: {} })).toEqual({ status: { collections: [] } });
    expect(await ctx.db.command({ findCollections: {} }, { keyspace: 'default_keyspace' })).toEqual({ status: { collections: ['notes'] } });
  });

  it('keyspace: null runs at the general level; a keyspace command there is unknown', async () => {
    expect(await ctx.db.command({ findKeyspaces: {} }, { keyspace: null })).toEqual({ status: { keyspaces: ['default_keyspace'] } });
    expect((await ctx.db.command({ findKeyspaces: {} })).errors?.[0]?.errorCode).toBe('COMMAND_UNKNOWN');
    expect((await ctx.db.command({ findCollections: {} }, { keyspace: null })).errors?.[0]?.errorCode).toBe('COMMAND_UNKNOWN');
    expect(() => ctx.db.command({ find: {} }, { keyspace: null, collection: 'notes' })).toThrow(TypeError);
  });
});

describe("the seed's (token, databaseId, ...) constructors resolve the database in the home", () => {
  let saved: string | undefined;
  let cwd: string;
  beforeEach(() => {
    saved = process.env.VECTORDB_HOME;
    cwd = process.cwd();
    process.chdir(tempDir('vectordb-cwd-')); // a stray directory would appear here
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.VECTORDB_HOME;
    else process.env.VECTORDB_HOME = saved;
    process.chdir(cwd);
  });

  it('every form reaches the same database of $VECTORDB_HOME, at first use', async () => {
    const { home, admin } = await newHome();
    process.env.VECTORDB_HOME = home;
    const id = await admin.createDatabase('catalog', 'eu-west');
    await admin.createKeyspace(id, 'archive');
    const forms = [
      new VectorDB('token', id),
      new VectorDB('token', id.toUpperCase(), 'default_keyspace'),
      new VectorDB('token', id, 'eu-west', 'default_keyspace'),
      new VectorDB('token', id, 'eu-west', 'PROD', 'default_keyspace'),
    ];
    await forms[0]!.createCollection('products', 3);
    for (const db of forms) expect(await db.findAllCollectionsNames()).toEqual(['products']);
    const archive = new VectorDB('token', id, 'eu-west', 'archive');
    expect(await archive.findAllCollectionsNames()).toEqual([]);
    for (const db of [...forms, archive]) await db.close();
    expect(readdirSync(process.cwd())).toEqual([]);
  });

  it('an unknown id, a wrong region or no home is DatabaseNotFoundException, and nothing is created', async () => {
    const { home, admin } = await newHome();
    process.env.VECTORDB_HOME = home;
    const id = await admin.createDatabase('catalog');
    const unknown = new VectorDB('token', '8edd726f-efe5-4c59-a1a0-22fdc40d8904');
    await rejection(unknown.findAllCollectionsNames(), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    await rejection(unknown.connect(), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    const wrongRegion = new VectorDB('token', id, 'us-east', 'default_keyspace');
    const error = await rejection(wrongRegion.connect(), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    expect(error.message).toContain("(it is in region 'local')");
    process.env.VECTORDB_HOME = path.join(tempDir(), 'no-home-here');
    const noHome = await rejection(new VectorDB('token', id).connect(), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    expect(noHome.message).toContain('there is no home at');
    expect(readdirSync(process.cwd())).toEqual([]);
    expect(readdirSync(home).sort()).toEqual([id, 'home.json'].sort());
  });

  it("the home's tokens are checked: a database with a token refuses another", async () => {
    const { home, admin } = await newHome();
    process.env.VECTORDB_HOME = home;
    const id = await admin.createDatabase('catalog');
    const { token } = await admin.createToken('Database Administrator', id);
    const db = new VectorDB(token, id);
    expect(await db.findAllKeyspaceNames()).toEqual(['default_keyspace']);
    await db.close();
    await rejection(new VectorDB('VDBL:wrong:token', id).connect(), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');
  });

  it('a wrong number of names after the id is a TypeError', () => {
    expect(() => new VectorDB('token', '8edd726f-efe5-4c59-a1a0-22fdc40d8904', 'a', 'b', 'c', 'd' as never)).toThrow(TypeError);
    expect(() => new VectorDB('token', './data', 'region', 'keyspace')).toThrow(TypeError);
  });
});

describe('administration names of the seed', () => {
  it('VectorDBClient is VectorDBAdmin', () => {
    expect(VectorDBClient).toBe(VectorDBAdmin);
  });

  it("createToken takes the seed's role names and the TokenRoles constants", async () => {
    const { admin } = await newHome();
    const id = await admin.createDatabase('catalog');
    expect(TokenRoles).toEqual({ ORGANIZATION_ADMINISTRATOR: 'ORGANIZATION_ADMINISTRATOR', DATABASE_ADMINISTRATOR: 'DATABASE_ADMINISTRATOR' });
    const byWords = await admin.createToken('Database Administrator', id);
    const byConstant = await admin.createToken(TokenRoles.DATABASE_ADMINISTRATOR, id);
    const org = await admin.createToken('Organization Administrator');
    const roles = new Map((await admin.listTokens()).map((t) => [t.clientId, t.role]));
    expect(roles.get(byWords.clientId)).toBe('DATABASE_ADMINISTRATOR');
    expect(roles.get(byConstant.clientId)).toBe('DATABASE_ADMINISTRATOR');
    expect(roles.get(org.clientId)).toBe('ORGANIZATION_ADMINISTRATOR');
    const refused = await rejection(admin.createToken('Janitor' as never, id), DataApiException, 'INVALID_ARGUMENT');
    expect(refused.message).toContain("'Database Administrator'");
  });
});

describe('a closed database is a typed exception of the one hierarchy', () => {
  it('DATABASE_NOT_OPEN from typed calls and from db.command is DatabaseNotOpenException', async () => {
    const db = await new VectorDB('token', tempDir()).connect();
    await db.close();
    const typed = await rejection(db.findAllCollectionsNames(), DatabaseNotOpenException, 'DATABASE_NOT_OPEN');
    expect(typed).toBeInstanceOf(DataApiException);
    await rejection(db.command({ findCollections: {} }), DatabaseNotOpenException, 'DATABASE_NOT_OPEN');
    await rejection(db.connect(), DatabaseNotOpenException, 'DATABASE_NOT_OPEN');
  });
});
