/**
 * Shared suite: database-level keyspace commands (data-api-protocol.md 3.1): createKeyspace, findKeyspaces,
 * dropKeyspace (idempotent, ok:1), name rules (UNSUPPORTED_SCHEMA_NAME), the deprecated *Namespace aliases
 * with their DEPRECATED_COMMAND warning, and UNKNOWN_KEYSPACE for keyspace and collection commands.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { KS, createCollection, expectError, expectWireError, run, useDatabase } from './helpers.js';

export function keyspacesSuite(factory: DbFactory): void {
  describe(`keyspaces [${factory.name}]`, () => {
    const ctx = useDatabase(factory);

    const keyspaces = async (): Promise<string[]> => {
      const response = await run(ctx.db, { findKeyspaces: {} });
      expect(Object.keys(response)).toEqual(['status']);
      return [...(response.status!.keyspaces as string[])].sort();
    };

    it('findKeyspaces lists default_keyspace from the start', async () => {
      expect(await run(ctx.db, { findKeyspaces: {} })).toEqual({ status: { keyspaces: [KS] } });
    });

    it('createKeyspace answers {status:{ok:1}} and is idempotent', async () => {
      expect(await run(ctx.db, { createKeyspace: { name: 'shop' } })).toEqual({ status: { ok: 1 } });
      expect(await run(ctx.db, { createKeyspace: { name: 'shop' } })).toEqual({ status: { ok: 1 } });
      expect(await keyspaces()).toEqual([KS, 'shop'].sort());
    });

    it('createKeyspace accepts replication options', async () => {
      const response = await run(ctx.db, {
        createKeyspace: { name: 'replicated', options: { replication: { class: 'SimpleStrategy', replication_factor: 1 } } },
      });
      expect(response).toEqual({ status: { ok: 1 } });
      expect(await keyspaces()).toContain('replicated');
    });

    it('keyspace names are case-sensitive', async () => {
      await run(ctx.db, { createKeyspace: { name: 'Shop' } });
      await run(ctx.db, { createKeyspace: { name: 'shop' } });
      expect(await keyspaces()).toEqual([KS, 'Shop', 'shop'].sort());
    });

    it('a 48-character name is accepted', async () => {
      const name = `k${'x'.repeat(47)}`;
      expect(await run(ctx.db, { createKeyspace: { name } })).toEqual({ status: { ok: 1 } });
      expect(await keyspaces()).toContain(name);
    });

    it.each([
      ['a dash', 'bad-name'],
      ['a space', 'bad name'],
      ['a dot', 'bad.name'],
      ['the empty string', ''],
      ['49 characters', `k${'x'.repeat(48)}`],
      ['a leading digit', '9lives'],
    ])('createKeyspace refuses a name with %s: UNSUPPORTED_SCHEMA_NAME, nothing created', async (_label, name) => {
      const error = expectError(await run(ctx.db, { createKeyspace: { name } }), 'UNSUPPORTED_SCHEMA_NAME');
      expect(error.scope).toBe('SCHEMA');
      expect(await keyspaces()).toEqual([KS]);
    });

    it('createKeyspace without a name: COMMAND_FIELD_VALUE_INVALID', async () => {
      expectError(await run(ctx.db, { createKeyspace: {} }), 'COMMAND_FIELD_VALUE_INVALID');
    });

    it('dropKeyspace answers ok:1, also for a keyspace that does not exist', async () => {
      await run(ctx.db, { createKeyspace: { name: 'temp' } });
      expect(await run(ctx.db, { dropKeyspace: { name: 'temp' } })).toEqual({ status: { ok: 1 } });
      expect(await keyspaces()).toEqual([KS]);
      expect(await run(ctx.db, { dropKeyspace: { name: 'temp' } })).toEqual({ status: { ok: 1 } });
      expect(await run(ctx.db, { dropKeyspace: { name: 'never_existed' } })).toEqual({ status: { ok: 1 } });
    });

    it('dropKeyspace drops its collections and their documents', async () => {
      await run(ctx.db, { createKeyspace: { name: 'ks2' } });
      await createCollection(ctx.db, 'things', undefined, 'ks2');
      await run(ctx.db, { insertOne: { document: { _id: 'x' } } }, { keyspace: 'ks2', collection: 'things' });
      await run(ctx.db, { dropKeyspace: { name: 'ks2' } });
      expectError(await run(ctx.db, { findCollections: {} }, { keyspace: 'ks2' }), 'UNKNOWN_KEYSPACE');
      await run(ctx.db, { createKeyspace: { name: 'ks2' } });
      expect(await run(ctx.db, { findCollections: {} }, { keyspace: 'ks2' })).toEqual({ status: { collections: [] } });
      await createCollection(ctx.db, 'things', undefined, 'ks2');
      const found = await run(ctx.db, { find: {} }, { keyspace: 'ks2', collection: 'things' });
      expect(found).toEqual({ data: { documents: [], nextPageState: null } });
    });

    it('dropKeyspace frees its collections from the per-database collection count', async () => {
      await run(ctx.db, { createKeyspace: { name: 'ks2' } });
      for (const name of ['a', 'b', 'c', 'd', 'e']) await createCollection(ctx.db, name, undefined, 'ks2');
      expectError(await run(ctx.db, { createCollection: { name: 'f' } }, { keyspace: KS }), 'TOO_MANY_COLLECTIONS');
      await run(ctx.db, { dropKeyspace: { name: 'ks2' } });
      await createCollection(ctx.db, 'f');
    });

    it('dropKeyspace refuses options: COMMAND_ACCEPTS_NO_OPTIONS', async () => {
      await run(ctx.db, { createKeyspace: { name: 'ks2' } });
      expectError(await run(ctx.db, { dropKeyspace: { name: 'ks2', options: { force: true } } }), 'COMMAND_ACCEPTS_NO_OPTIONS');
      expect(await keyspaces()).toContain('ks2');
    });

    describe('deprecated *Namespace aliases', () => {
      const expectDeprecation = (warnings: unknown, oldName: string, newName: string): void => {
        expect(Array.isArray(warnings)).toBe(true);
        const list = warnings as Parameters<typeof expectWireError>[0][];
        expect(list).toHaveLength(1);
        expectWireError(list[0]);
        expect(list[0]!.errorCode).toBe('DEPRECATED_COMMAND');
        expect(list[0]!.scope).toBe('WARNING');
        expect(list[0]!.message).toContain(`The deprecated command is: ${oldName}.`);
        expect(list[0]!.message).toContain(`The new command to use is: ${newName}.`);
      };

      it('createNamespace creates the keyspace, with a warning', async () => {
        const response = await run(ctx.db, { createNamespace: { name: 'legacy' } });
        expect(response.errors).toBeUndefined();
        expect(response.status!.ok).toBe(1);
        expectDeprecation(response.status!.warnings, 'createNamespace', 'createKeyspace');
        expect(await keyspaces()).toContain('legacy');
      });

      it('findNamespaces lists keyspaces under "namespaces", with a warning', async () => {
        await run(ctx.db, { createKeyspace: { name: 'ks2' } });
        const response = await run(ctx.db, { findNamespaces: {} });
        expect(response.errors).toBeUndefined();
        expect(Object.keys(response.status!).sort()).toEqual(['namespaces', 'warnings']);
        expect([...(response.status!.namespaces as string[])].sort()).toEqual([KS, 'ks2']);
        expectDeprecation(response.status!.warnings, 'findNamespaces', 'findKeyspaces');
      });

      it('dropNamespace drops the keyspace, with a warning', async () => {
        await run(ctx.db, { createKeyspace: { name: 'legacy' } });
        const response = await run(ctx.db, { dropNamespace: { name: 'legacy' } });
        expect(response.status!.ok).toBe(1);
        expectDeprecation(response.status!.warnings, 'dropNamespace', 'dropKeyspace');
        expect(await keyspaces()).toEqual([KS]);
      });

      it('createNamespace refuses a bad name like createKeyspace', async () => {
        expectError(await run(ctx.db, { createNamespace: { name: 'bad-name' } }), 'UNSUPPORTED_SCHEMA_NAME');
      });
    });

    describe('UNKNOWN_KEYSPACE', () => {
      it.each([
        ['createCollection', { createCollection: { name: 'c' } }],
        ['findCollections', { findCollections: {} }],
        ['deleteCollection', { deleteCollection: { name: 'c' } }],
      ])('%s in a missing keyspace', async (_label, command) => {
        const error = expectError(await run(ctx.db, command, { keyspace: 'missing_ks' }), 'UNKNOWN_KEYSPACE');
        expect(error.scope).toBe('SCHEMA');
        expect(error.message).toContain('missing_ks');
      });

      it('a collection command in a missing keyspace', async () => {
        const response = await run(ctx.db, { find: {} }, { keyspace: 'missing_ks', collection: 'c' });
        expect(expectError(response, 'UNKNOWN_KEYSPACE').message).toContain('missing_ks');
      });

      it('createCollection in a missing keyspace creates nothing anywhere', async () => {
        await run(ctx.db, { createCollection: { name: 'c' } }, { keyspace: 'missing_ks' });
        expect(await keyspaces()).toEqual([KS]);
        expect(await run(ctx.db, { findCollections: {} }, { keyspace: KS })).toEqual({ status: { collections: [] } });
      });
    });
  });
}
