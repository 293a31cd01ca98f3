/**
 * Tokens and roles: creation for each role, what a Database Administrator token reaches (its database only,
 * no administration), revocation, wrong and missing tokens, the in-process leniency of a database that never
 * had a database token, and that no error message carries a token.
 */
import { describe, expect, it } from 'vitest';
import { DatabaseNotFoundException, DataApiException, InvalidArgumentException, UnauthorizedException, VectorDB, VectorDBAdmin } from '../../src/index.js';
import { newHome, rejection } from './helpers.js';

const forged = (clientId: string) => `VDBL:${clientId}:${'A'.repeat(43)}`;

describe('creating tokens', () => {
  it('returns { clientId, clientSecret, token } with token = VDBL: + clientId + : + secret, and lists them without secrets', async () => {
    const { admin } = await newHome();
    const id = await admin.createDatabase('catalog');
    const org = await admin.createToken('ORGANIZATION_ADMINISTRATOR');
    const dba = await admin.createToken('DATABASE_ADMINISTRATOR', 'catalog');
    for (const created of [org, dba]) {
      expect(Object.keys(created).sort()).toEqual(['clientId', 'clientSecret', 'token']);
      expect(created.token).toBe(`VDBL:${created.clientId}:${created.clientSecret}`);
    }
    const listed = await admin.listTokens();
    expect(listed.slice(1)).toEqual([
      { clientId: org.clientId, role: 'ORGANIZATION_ADMINISTRATOR', createdAt: expect.any(String), revoked: false },
      { clientId: dba.clientId, role: 'DATABASE_ADMINISTRATOR', databaseId: id, createdAt: expect.any(String), revoked: false },
    ]);
    expect(JSON.stringify(listed)).not.toContain(dba.clientSecret);
    // The new organization token administers the home.
    expect(await new VectorDBAdmin(org.token, { home: admin.home }).listDatabaseNames()).toEqual(['catalog']);
  });

  it('checks role and database', async () => {
    const { admin } = await newHome();
    await admin.createDatabase('catalog');
    await rejection(admin.createToken('DATABASE_ADMINISTRATOR'), InvalidArgumentException, 'INVALID_ARGUMENT');
    await rejection(admin.createToken('ORGANIZATION_ADMINISTRATOR', 'catalog'), InvalidArgumentException, 'INVALID_ARGUMENT');
    await rejection(admin.createToken('READER' as never), InvalidArgumentException, 'INVALID_ARGUMENT');
    await rejection(admin.createToken('DATABASE_ADMINISTRATOR', 'nope'), DatabaseNotFoundException, 'DATABASE_NOT_FOUND');
    expect(await admin.listTokens()).toHaveLength(1);
  });
});

describe('a Database Administrator token', () => {
  it('opens its database, and nothing else: no other database, no administration call', async () => {
    const { admin, home } = await newHome();
    const mine = await admin.createDatabase('mine');
    const secured = await admin.createDatabase('secured');
    const open = await admin.createDatabase('open');
    await admin.createToken('DATABASE_ADMINISTRATOR', secured);
    const { token } = await admin.createToken('DATABASE_ADMINISTRATOR', mine);

    const db = await VectorDB.fromDatabaseId(token, mine, { home });
    await (await db.createCollection('c')).insertOne({ _id: 'x' });
    expect(await (await db.collection('c')).countDocuments()).toBe(1);
    await db.close();

    for (const other of [secured, open]) {
      const error = await rejection(VectorDB.fromDatabaseId(token, other, { home }), UnauthorizedException, 'UNAUTHORIZED_ACCESS');
      expect(error.message).not.toContain(token);
    }
    const asAdmin = new VectorDBAdmin(token, { home });
    // Thunks, started one at a time: a promise rejecting before it is awaited would be an unhandled rejection.
    const calls: (() => Promise<unknown>)[] = [
      () => asAdmin.listDatabases(),
      () => asAdmin.createDatabase('more'),
      () => asAdmin.database(mine),
      () => asAdmin.deleteDatabase(mine),
      () => asAdmin.createKeyspace(mine, 'ks'),
      () => asAdmin.deleteKeyspace(mine, 'default_keyspace'),
      () => asAdmin.createToken('DATABASE_ADMINISTRATOR', mine),
      () => asAdmin.revokeToken(token),
      () => asAdmin.listTokens(),
    ];
    for (const call of calls) await rejection(call(), UnauthorizedException, 'UNAUTHORIZED_ACCESS');
    expect(await admin.listDatabaseNames()).toEqual(['mine', 'secured', 'open']);
  });

  it('deleting its database revokes it', async () => {
    const { admin } = await newHome();
    const id = await admin.createDatabase('gone');
    const { clientId } = await admin.createToken('DATABASE_ADMINISTRATOR', id);
    await admin.deleteDatabase(id);
    expect((await admin.listTokens()).find((t) => t.clientId === clientId)).toMatchObject({ revoked: true, revokedAt: expect.any(String) });
  });
});

describe('refused tokens', () => {
  it('a revoked token is refused, whether revoked by client id or whole', async () => {
    const { admin, home, orgToken } = await newHome();
    const id = await admin.createDatabase('catalog');
    const dba = await admin.createToken('DATABASE_ADMINISTRATOR', id);
    const org = await admin.createToken('ORGANIZATION_ADMINISTRATOR');
    const orgAdmin = new VectorDBAdmin(org.token, { home });
    expect(await orgAdmin.listDatabaseNames()).toEqual(['catalog']); // verified (and remembered) before revocation

    await admin.revokeToken(dba.clientId);
    await admin.revokeToken(org.token);
    await admin.revokeToken(org.clientId); // already revoked: no-op
    await rejection(VectorDB.fromDatabaseId(dba.token, id, { home }), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');
    await rejection(orgAdmin.listDatabases(), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');
    await rejection(VectorDB.fromDatabaseId(org.token, id, { home }), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');
    expect((await admin.listTokens()).filter((t) => t.revoked).map((t) => t.clientId)).toEqual([dba.clientId, org.clientId]);
    // The first organization token is untouched.
    expect((await VectorDB.fromDatabaseId(orgToken, id, { home })).endpoint).toContain(id);
  });

  it('wrong, forged, foreign and missing tokens are refused by administration calls', async () => {
    const { admin, home, orgToken } = await newHome();
    const clientId = orgToken.split(':')[1]!;
    for (const token of [forged(clientId), forged('b'.repeat(24)), 'not-a-token', `${orgToken}x`]) {
      const error = await rejection(new VectorDBAdmin(token, { home }).listDatabases(), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');
      expect(error.message).not.toContain(token);
    }
    await rejection(new VectorDBAdmin('', { home }).listDatabases(), UnauthorizedException, 'MISSING_AUTHENTICATION_TOKEN');
    expect(await admin.listDatabases()).toEqual([]);
  });

  it('the last Organization Administrator token cannot be revoked; an unknown one is TOKEN_NOT_FOUND', async () => {
    const { admin, home, orgToken } = await newHome();
    await rejection(admin.revokeToken(orgToken), InvalidArgumentException, 'INVALID_ARGUMENT');
    const secret = forged('c'.repeat(24));
    const unknown = await rejection(admin.revokeToken(secret), DataApiException, 'TOKEN_NOT_FOUND');
    expect(unknown.message).not.toContain(secret);
    const second = await admin.createToken('ORGANIZATION_ADMINISTRATOR');
    await admin.revokeToken(orgToken);
    await rejection(admin.listTokens(), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');
    expect(await new VectorDBAdmin(second.token, { home }).listTokens()).toHaveLength(2);
  });
});

describe('a database that never had a Database Administrator token', () => {
  it('opens in process with any token string, until one is created for it; tokens of the home are still checked', async () => {
    const { admin, home } = await newHome();
    const id = await admin.createDatabase('open');
    const db = await VectorDB.fromDatabaseId('anything', id, { home });
    await db.close();
    const org = await admin.createToken('ORGANIZATION_ADMINISTRATOR');
    await admin.revokeToken(org.clientId);
    await rejection(VectorDB.fromDatabaseId(org.token, id, { home }), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');

    const dba = await admin.createToken('DATABASE_ADMINISTRATOR', id);
    await rejection(VectorDB.fromDatabaseId('anything', id, { home }), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');
    await admin.revokeToken(dba.clientId);
    // Never again open to any token: it had one.
    await rejection(VectorDB.fromDatabaseId('anything', id, { home }), UnauthorizedException, 'UNAUTHENTICATED_REQUEST');
    await rejection(VectorDB.fromDatabaseId('', id, { home }), UnauthorizedException, 'MISSING_AUTHENTICATION_TOKEN');
  });
});
