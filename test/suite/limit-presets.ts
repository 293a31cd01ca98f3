/**
 * Shared suite: the two limits presets. `data-api` serves what the Data API server does (100 documents per
 * insertMany, pages of 50, 50 collections, long texts in fields that are not indexed); `seed` keeps the seed's
 * values (every value at most 5 KiB, indexed or not); overrides apply on top of either preset.
 */
import { describe, expect, it } from 'vitest';
import { createCollection, expectError, expectNoErrors, findOne, insertAll, onCollection, run, useDatabase } from './helpers.js';
import type { DbFactory } from '../support/factory.js';

const longText = 'x'.repeat(12_000);

export function limitPresetsSuite(factory: DbFactory): void {
  describe(`limits preset data-api [${factory.name}]`, () => {
    const ctx = useDatabase(factory, { limits: 'data-api' });

    it('takes 100 documents per insertMany (not 101) and serves pages of 50', async () => {
      await createCollection(ctx.db, 'c');
      const docs = Array.from({ length: 101 }, (_, i) => ({ _id: i }));
      expectNoErrors(await onCollection(ctx.db, 'c', { insertMany: { documents: docs.slice(0, 100) } }));
      expect(expectError(await onCollection(ctx.db, 'c', { insertMany: { documents: docs } }), 'COMMAND_FIELD_VALUE_INVALID').message).toContain('101 vs 100');
      const page = await onCollection(ctx.db, 'c', { find: {} });
      expect((page.data as { documents: unknown[] }).documents).toHaveLength(50);
    });

    it('allows more collections than the seed (6 and beyond)', async () => {
      for (let i = 0; i < 6; i++) await createCollection(ctx.db, `c${i}`);
    });

    it('accepts a 12 KB string in a field that is not indexed, refuses it in an indexed one', async () => {
      await createCollection(ctx.db, 'docs', { indexing: { deny: ['body'] } });
      expectNoErrors(await onCollection(ctx.db, 'docs', { insertOne: { document: { _id: 'long', body: longText } } }));
      expect(await findOne(ctx.db, 'docs', { filter: { _id: 'long' } })).toEqual({ _id: 'long', body: longText });
      const error = expectError(await onCollection(ctx.db, 'docs', { insertOne: { document: { _id: 'indexed', title: longText } } }), 'SHRED_DOC_LIMIT_VIOLATION');
      expect(error.message).toContain("indexed String value (field 'title') length (12000 bytes) exceeds maximum allowed (8000 bytes)");
    });
  });

  describe(`limits preset seed [${factory.name}]`, () => {
    const ctx = useDatabase(factory, { limits: 'seed' });

    it('refuses a 12 KB value even in a field that is not indexed, and says how to allow it', async () => {
      await createCollection(ctx.db, 'docs', { indexing: { deny: ['body'] } });
      const error = expectError(await onCollection(ctx.db, 'docs', { insertOne: { document: { _id: 'long', body: longText } } }), 'SHRED_DOC_LIMIT_VIOLATION');
      expect(error.message).toContain("value of attribute 'body' is 12002 bytes, exceeds maximum allowed (5120 bytes)");
      expect(error.message).toContain("'data-api'");
    });
  });

  describe(`limits overrides on top of a preset [${factory.name}]`, () => {
    const ctx = useDatabase(factory, { limits: { preset: 'data-api', pageSize: 30 } });

    it('keeps the preset for every limit not overridden', async () => {
      await createCollection(ctx.db, 'c');
      await insertAll(ctx.db, 'c', Array.from({ length: 100 }, (_, i) => ({ _id: i })), 100);
      const page = await run(ctx.db, { find: {} }, { collection: 'c' });
      expect((page.data as { documents: unknown[] }).documents).toHaveLength(30);
    });
  });
}
