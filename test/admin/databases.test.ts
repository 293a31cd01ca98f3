/**
 * Databases and keyspaces of a home through VectorDBAdmin: create (idempotent by name), list, find, endpoint,
 * database() and VectorDB.fromDatabaseId giving working VectorDBs, keyspace DDL with its typed exceptions, and
 * deletion refused while this process has the database open.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DatabaseInUseException,
  DatabaseNotFoundException,
  InvalidArgumentException,
  KeyspaceAlreadyExistException,
  KeyspaceNotFoundException,
  VectorDB,
} from '../../src/index.js';
import { newHome, rejection } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('databases', () => {
  it('create, list, find by id and by name, with their endpoint (the directory)', async () => {
    const { home, admin } = await newHome();
    const id = await admin.createDatabase('catalog');
    expect(id).toMatch(UUID);
    const eu = await admin.createDatabase('archive', 'eu-west1');
    const catalog = { id, name: 'catalog', region: 'local', createdAt: expect.any(String), endpoint: path.join(home, id) };
    expect(await admin.listDatabases()).toEqual([catalog, { id: eu, name: 'archive', region: 'eu-west1', createdAt: expect.any(String), endpoint: path.join(home, eu) }]);
    expect(existsSync(path.join(home, id, 'CURRENT'))).toBe(true);
    expect(await admin.findDatabaseById(id)).toEqual(catalog);
    expect(await admin.findDatabaseById(id.toUpperCase())).toEqual(catalog);
    expect(await admin.findDatabaseByName('catalog')).toEqual(catalog);
    expect(await admin.findDatabaseById('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await admin.findDatabaseByName('nope')).toBeUndefined();
    expect(await admin.isDatabaseExists('catalog')).toBe(true);
    expect(await admin.isDatabaseExists(eu)).toBe(true);
    expect(await admin.listDatabaseNames()).toEqual(['catalog', 'archive']);
  });

  it('createDatabase is idempotent by name', async () => {
    const { admin } = await newHome();
    const id = await admin.createDatabase('catalog');
    expect(await admin.createDatabase('catalog')).toBe(id);
    expect(await admin.createDatabase('catalog', 'elsewhere')).toBe(id);
    expect(await admin.listDatabases()).toHaveLength(1);
  });

  it('refuses bad names and regions', async () => {
    const { admin } = await newHome();
    for (const [name, region] of [['', 'local'], ['has space', 'local'], ['-dash', 'local'], ['x'.repeat(65), 'local'], ['ok', 'UPPER'], ['ok', 'a/b']] as const) {
      await rejection(admin.createDatabase(name, region), InvalidArgumentException, 'INVALID_ARGUMENT');
    }
    expect(await admin.listDatabases()).toEqual([]);
  });

  it('deleteDatabase by name or id removes the record and the directory; false when there is none', async () => {
    const { home, admin } = await newHome();
    const a = await admin.createDatabase('a');
    const b = await admin.createDatabase('b');
    expect(await admin.deleteDatabase('a')).toBe(true);
    expect(await admin.deleteDatabase(b)).toBe(true);
    expect(await admin.deleteDatabase('a')).toBe(false);
    expect(await admin.listDatabases()).toEqual([]);
    expect(existsSync(path.join(home, a))).toBe(false);
    expect(readdirSync(home).sort()).toEqual(['home.json']);
    // The name is free again, for a new database.
    expect(await admin.createDatabase('a')).not.toBe(a);
  });
});

describe('database() and VectorDB.fromDatabaseId', () => {
  it('database(idOrName) is a connected, working VectorDB on that directory', async () => {
    const { admin } = await newHome();
    const id = await admin.createDatabase('catalog');
    const db = await admin.database('catalog');
    expect(db.endpoint).toBe((await admin.findDatabaseById(id))!.endpoint);
    const products = await db.createCollection('products', 3);
    await products.insertOne({ _id: 'p1', name: 'lamp', $vector: [1, 0, 0] });
    await db.close();
    const again = await admin.database(id);
    const found = await (await again.collection('products')).findById('p1');
    expect(found).toMatchObject({ _id: 'p1', name: 'lamp' });
    await again.close();
  });

  it('a missing database or keyspace is a typed error at connect', async () => {
    const { admin, home, orgToken } = await newHome();
    const id = await admin.createDatabase('catalog', 'eu');
    await rejection(admin.database('nope'), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    await rejection(admin.database('catalog', 'missing_ks'), KeyspaceNotFoundException, 'UNKNOWN_KEYSPACE');
    await rejection(VectorDB.fromDatabaseId(orgToken, '00000000-0000-4000-8000-000000000000', { home }), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    await rejection(VectorDB.fromDatabaseId(orgToken, 'catalog', { home }), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    await rejection(VectorDB.fromDatabaseId(orgToken, id, { home, keyspace: 'missing_ks' }), KeyspaceNotFoundException, 'UNKNOWN_KEYSPACE');
    const wrongRegion = await rejection(VectorDB.fromDatabaseId(orgToken, id, { home, region: 'us' }), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    expect(wrongRegion.message).toContain("it is in region 'eu'");
    // The failed attempts released the database: it can be deleted.
    expect(await admin.deleteDatabase(id)).toBe(true);
  });

  it('fromDatabaseId takes the seed constructor shapes: id; id + keyspace; id + region + keyspace', async () => {
    const { admin, home, orgToken } = await newHome();
    const id = await admin.createDatabase('catalog', 'eu');
    await admin.createKeyspace(id, 'archive');
    const plain = await VectorDB.fromDatabaseId(orgToken, id, { home });
    expect(plain.getCurrentKeyspace()).toBe('default_keyspace');
    const withKeyspace = await VectorDB.fromDatabaseId(orgToken, id, { home, keyspace: 'archive' });
    expect(withKeyspace.getCurrentKeyspace()).toBe('archive');
    const withRegion = await VectorDB.fromDatabaseId(orgToken, id, { home, region: 'eu', keyspace: 'archive' });
    await withRegion.createCollection('old');
    expect(await withKeyspace.findAllCollectionsNames()).toEqual(['old']);
    await Promise.all([plain.close(), withKeyspace.close(), withRegion.close()]);
  });
});

describe('keyspaces', () => {
  it('createKeyspace / deleteKeyspace, with KeyspaceAlreadyExistException and KeyspaceNotFoundException', async () => {
    const { admin } = await newHome();
    const id = await admin.createDatabase('catalog');
    await admin.createKeyspace('catalog', 'archive');
    await rejection(admin.createKeyspace(id, 'archive'), KeyspaceAlreadyExistException, 'KEYSPACE_ALREADY_EXISTS');
    await rejection(admin.createKeyspace(id, 'default_keyspace'), KeyspaceAlreadyExistException, 'KEYSPACE_ALREADY_EXISTS');
    const db = await admin.database(id, 'archive');
    expect(await db.findAllKeyspaceNames()).toEqual(['archive', 'default_keyspace']);
    await db.close();
    await admin.deleteKeyspace('catalog', 'archive');
    await rejection(admin.deleteKeyspace(id, 'archive'), KeyspaceNotFoundException, 'UNKNOWN_KEYSPACE');
    await rejection(admin.database(id, 'archive'), KeyspaceNotFoundException, 'UNKNOWN_KEYSPACE');
    await rejection(admin.createKeyspace('nope', 'x'), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    await rejection(admin.createKeyspace(id, 'bad-name'), InvalidArgumentException, 'UNSUPPORTED_SCHEMA_NAME');
  });

  it('a VectorDB open in this process sees keyspace changes at once (one shared database)', async () => {
    const { admin } = await newHome();
    const id = await admin.createDatabase('catalog');
    const db = await admin.database(id);
    await admin.createKeyspace(id, 'live');
    expect(await db.isKeyspaceExists('live')).toBe(true);
    await admin.deleteKeyspace(id, 'live');
    expect(await db.isKeyspaceExists('live')).toBe(false);
    await db.close();
  });
});

describe('deleting a database open in this process', () => {
  it('is refused while a VectorDB holds it, and works once it is closed', async () => {
    const { admin, home } = await newHome();
    const id = await admin.createDatabase('busy');
    const db = await admin.database(id);
    await (await db.createCollection('c')).insertOne({ _id: 1 });
    const error = await rejection(admin.deleteDatabase('busy'), DatabaseInUseException, 'DATABASE_IN_USE');
    expect(error.message).toContain('in this process');
    expect(await admin.findDatabaseById(id)).toBeDefined();
    expect(await (await db.collection('c')).countDocuments()).toBe(1);
    await db.close();
    expect(await admin.deleteDatabase('busy')).toBe(true);
    expect(existsSync(path.join(home, id))).toBe(false);
  });

  it('a plain VectorDB on the directory path also counts', async () => {
    const { admin } = await newHome();
    const id = await admin.createDatabase('busy');
    const byPath = new VectorDB('any', (await admin.findDatabaseById(id))!.endpoint);
    await byPath.connect();
    await rejection(admin.deleteDatabase(id), DatabaseInUseException, 'DATABASE_IN_USE');
    await byPath.close();
    expect(await admin.deleteDatabase(id)).toBe(true);
  });
});
