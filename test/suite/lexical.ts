/**
 * Shared suite: `$lexical` on collections (reference hybrid-search.md 1.2, 1.3): createCollection's `lexical`
 * and `rerank` options with their defaults and errors, findCollections' explain, `$lexical` hidden by the
 * default projection, `$hybrid` on insert, the `$match` filter (every analyzed term) and the BM25 sort,
 * their misuse errors, and the inverted index following inserts, updates, deletes and deleteMany({}).
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { KS, createCollection, expectError, expectNoErrors, findAll, onCollection, run, useDatabase, type Doc } from './helpers.js';

/** What a collection created without `lexical` and `rerank` is (the Data API's defaults). */
export const DEFAULT_HYBRID_OPTIONS = {
  lexical: { enabled: true, analyzer: 'standard' },
  rerank: { enabled: true, service: { provider: 'nvidia', modelName: 'nvidia/llama-3.2-nv-rerankqa-1b-v2' } },
} as const;

const DOCS: Doc[] = [
  { _id: 'd1', kind: 'fruit', $lexical: 'monkey eats banana' },
  { _id: 'd2', kind: 'fruit', $lexical: 'The banana is yellow, a banana a day' },
  { _id: 'd3', kind: 'animal', $lexical: 'monkey climbs trees' },
  { _id: 'd4', kind: 'animal', $lexical: 'bread and butter' },
  { _id: 'd5', kind: 'fruit' },
];

export function lexicalSuite(factory: DbFactory): void {
  describe(`lexical [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const explained = async (): Promise<unknown[]> => (await run(ctx.db, { findCollections: { options: { explain: true } } }, { keyspace: KS })).status!.collections as unknown[];
    const create = (name: string, options?: unknown) => run(ctx.db, { createCollection: options === undefined ? { name } : { name, options } }, { keyspace: KS });
    const ids = async (find: Doc) => (await findAll(ctx.db, 'texts', find)).map((d) => d._id);
    const seed = async () => {
      await createCollection(ctx.db, 'texts');
      expectNoErrors(await onCollection(ctx.db, 'texts', { insertMany: { documents: DOCS } }));
    };

    it('a new collection is lexical-enabled (standard) with the default rerank block; both can be set or disabled', async () => {
      await createCollection(ctx.db, 'plain');
      await createCollection(ctx.db, 'custom', { lexical: { enabled: true, analyzer: { tokenizer: { name: 'standard' }, filters: [{ name: 'lowercase' }, { name: 'stop' }, { name: 'porterstem' }] } }, rerank: { enabled: false } });
      await createCollection(ctx.db, 'off', { lexical: { enabled: false, analyzer: {} }, rerank: { enabled: true, service: { provider: 'mine', modelName: 'm1' } } });
      expect(await explained()).toEqual([
        { name: 'custom', options: { lexical: { enabled: true, analyzer: { tokenizer: { name: 'standard' }, filters: [{ name: 'lowercase' }, { name: 'stop' }, { name: 'porterstem' }] } }, rerank: { enabled: false } } },
        { name: 'off', options: { lexical: { enabled: false }, rerank: { enabled: true, service: { provider: 'mine', modelName: 'm1' } } } },
        { name: 'plain', options: DEFAULT_HYBRID_OPTIONS },
      ]);
      // Re-creating with the defaults spelled out is the same collection.
      expect(await create('plain', DEFAULT_HYBRID_OPTIONS)).toEqual({ status: { ok: 1 } });
      expectError(await create('plain', { lexical: { enabled: false } }), 'EXISTING_COLLECTION_DIFFERENT_SETTINGS');
    });

    it.each([
      ['lexical without enabled', { lexical: { analyzer: 'standard' } }, "'enabled' is required property for 'lexical' Object value"],
      ['disabled lexical with an analyzer', { lexical: { enabled: false, analyzer: 'standard' } }, "'lexical' is disabled, but 'lexical.analyzer' property was provided"],
      ['an unknown analyzer field', { lexical: { enabled: true, analyzer: { tokenizer: { name: 'standard' }, extra: 1 } } }, "Invalid field for 'lexical.analyzer'"],
      ['a tokenizer that is not an object', { lexical: { enabled: true, analyzer: { tokenizer: 'standard' } } }, "'tokenizer' property of 'lexical.analyzer' must be JSON Object"],
      ['an analyzer of a wrong type', { lexical: { enabled: true, analyzer: 3 } }, "'analyzer' property of 'lexical' must be either JSON Object or String"],
      ['an unknown analyzer', { lexical: { enabled: true, analyzer: 'klingon' } }, 'offers the analyzers'],
      ['rerank without enabled', { rerank: { service: { provider: 'nvidia' } } }, "'enabled' is required property for 'rerank' Object value"],
      ['disabled rerank with a service', { rerank: { enabled: false, service: { provider: 'nvidia' } } }, "'rerank' is disabled, but 'rerank.service' configuration is provided"],
    ])('%s: INVALID_CREATE_COLLECTION_OPTIONS', async (_label, options, message) => {
      expect(expectError(await create('c', options), 'INVALID_CREATE_COLLECTION_OPTIONS').message).toContain(message);
    });

    it('$lexical is stored, hidden by the default projection, and matched by every analyzed term', async () => {
      await seed();
      const d1 = (await findAll(ctx.db, 'texts', { filter: { _id: 'd1' } }))[0]!;
      expect(d1).toEqual({ _id: 'd1', kind: 'fruit' });
      expect((await findAll(ctx.db, 'texts', { filter: { _id: 'd1' }, projection: { $lexical: 1 } }))[0]).toEqual({ _id: 'd1', kind: 'fruit', $lexical: 'monkey eats banana' });
      expect(await ids({ filter: { $lexical: { $match: 'BANANA' } } })).toEqual(['d1', 'd2']);
      expect(await ids({ filter: { $lexical: { $match: 'banana monkey' } } })).toEqual(['d1']);
      expect(await ids({ filter: { $lexical: { $match: 'monkey' }, kind: 'animal' } })).toEqual(['d3']);
      expect(await ids({ filter: { $and: [{ $lexical: { $match: 'monkey' } }, { $or: [{ kind: 'fruit' }, { kind: 'x' }] }] } })).toEqual(['d1']);
      expect((await onCollection(ctx.db, 'texts', { countDocuments: { filter: { $lexical: { $match: 'banana' } } } })).status).toEqual({ count: 2 });
    });

    it('the $lexical sort ranks by BM25, best first, only documents with every term, without $similarity', async () => {
      await seed();
      // d2 says banana twice, but in 8 tokens against d1's 3 (mean 4.25): BM25 1.10 against 1.14.
      expect(await ids({ sort: { $lexical: 'banana' } })).toEqual(['d1', 'd2']);
      expect(await ids({ sort: { $lexical: 'monkey banana' } })).toEqual(['d1']);
      expect(await ids({ filter: { kind: 'animal' }, sort: { $lexical: 'monkey' } })).toEqual(['d3']);
      expect(await ids({ sort: { $lexical: 'banana' }, options: { limit: 1 } })).toEqual(['d1']);
      const found = await findAll(ctx.db, 'texts', { sort: { $lexical: 'banana' }, options: { includeSimilarity: true } });
      expect(found.every((d) => !('$similarity' in d))).toBe(true);
      const one = await onCollection(ctx.db, 'texts', { findOne: { sort: { $lexical: 'monkey' }, filter: { kind: 'animal' } } });
      expect(((one.data as { document: Doc }).document)._id).toBe('d3');
      expect(await ids({ sort: { $lexical: 'nothing here' } })).toEqual([]);
    });

    it('the inverted index follows updates, deletes and deleteMany({})', async () => {
      await seed();
      expectNoErrors(await onCollection(ctx.db, 'texts', { updateOne: { filter: { _id: 'd4' }, update: { $set: { $lexical: 'banana bread' } } } }));
      expect(await ids({ sort: { $lexical: 'banana' } })).toContain('d4');
      expectNoErrors(await onCollection(ctx.db, 'texts', { updateOne: { filter: { _id: 'd2' }, update: { $unset: { $lexical: 1 } } } }));
      expectNoErrors(await onCollection(ctx.db, 'texts', { deleteOne: { filter: { _id: 'd1' } } }));
      expect(await ids({ sort: { $lexical: 'banana' } })).toEqual(['d4']);
      expectNoErrors(await onCollection(ctx.db, 'texts', { findOneAndReplace: { filter: { _id: 'd3' }, replacement: { $lexical: 'banana monkey' } } }));
      expect(await ids({ sort: { $lexical: 'banana' } })).toEqual(['d3', 'd4']); // equal scores: by key
      expectNoErrors(await onCollection(ctx.db, 'texts', { deleteMany: {} }));
      expect(await ids({ sort: { $lexical: 'banana' } })).toEqual([]);
      expectNoErrors(await onCollection(ctx.db, 'texts', { insertOne: { document: { _id: 'n', $lexical: 'banana' } } }));
      expect(await ids({ sort: { $lexical: 'banana' } })).toEqual(['n']);
    });

    it('$hybrid on insert expands to $lexical; conflicts and bad values are refused', async () => {
      await createCollection(ctx.db, 'texts');
      expectNoErrors(await onCollection(ctx.db, 'texts', { insertOne: { document: { _id: 'h', $hybrid: { $lexical: 'hybrid words' } } } }));
      expect((await findAll(ctx.db, 'texts', { projection: { '*': 1 } }))[0]).toEqual({ _id: 'h', $lexical: 'hybrid words' });
      expectError(await onCollection(ctx.db, 'texts', { insertOne: { document: { $hybrid: 'x', $lexical: 'y' } } }), 'HYBRID_FIELD_CONFLICT');
      expectError(await onCollection(ctx.db, 'texts', { insertOne: { document: { $hybrid: 5 } } }), 'HYBRID_FIELD_UNSUPPORTED_VALUE_TYPE');
      expectError(await onCollection(ctx.db, 'texts', { insertOne: { document: { $hybrid: { $other: 'x' } } } }), 'HYBRID_FIELD_UNKNOWN_SUBFIELDS');
      // The string form asks for $vectorize too, which needs an embedding provider.
      expectError(await onCollection(ctx.db, 'texts', { insertOne: { document: { $hybrid: 'text' } } }), 'VECTORIZE_FEATURE_NOT_AVAILABLE');
      expectError(await onCollection(ctx.db, 'texts', { insertOne: { document: { $lexical: ['a'] } } }), 'SHRED_BAD_DOCUMENT_LEXICAL_TYPE');
      expectError(await onCollection(ctx.db, 'texts', { insertOne: { document: { $lexical: 'x'.repeat(1_000_001) } } }), 'LEXICAL_CONTENT_TOO_LONG');
    });

    it('misuse: the reference error codes and messages', async () => {
      await seed();
      const find = (body: Doc) => onCollection(ctx.db, 'texts', { find: body });
      const message = async (body: Doc, code: string) => expectError(await find(body), code).message;
      expect(await message({ filter: { kind: { $match: 'x' } } }, 'FILTER_INVALID_EXPRESSION')).toContain("'$match' operator can only be used with the '$lexical' field, not 'kind'");
      expect(await message({ filter: { $lexical: { $match: ['x'] } } }, 'FILTER_INVALID_EXPRESSION')).toContain("'$match' operator must have `String` value, was `Array`");
      expect(await message({ filter: { $not: { $lexical: { $match: 'x' } } } }, 'FILTER_INVALID_EXPRESSION')).toContain("cannot use '$not' to invert '$match' operator");
      expect(await message({ filter: { $lexical: 'x' } }, 'FILTER_INVALID_EXPRESSION')).toContain("only '$match' is supported");
      expect(await message({ sort: { $lexical: 'x', kind: 1 } }, 'SORT_CLAUSE_INVALID')).toContain("when sorting by field '$lexical' no other sort expressions allowed");
      expect(await message({ sort: { $lexical: 1 } }, 'SORT_CLAUSE_INVALID')).toContain('value must be String, not Number');
      expect(await message({ sort: { $lexical: 'x' }, options: { pageState: 'abc' } }, 'SORT_CLAUSE_INVALID')).toContain("'pageState' is not supported with non-empty sort clause");
      await createCollection(ctx.db, 'nolex', { lexical: { enabled: false } });
      const onNolex = (command: Doc) => onCollection(ctx.db, 'nolex', command);
      expectError(await onNolex({ find: { filter: { $lexical: { $match: 'x' } } } }), 'LEXICAL_NOT_ENABLED_FOR_COLLECTION');
      expectError(await onNolex({ find: { sort: { $lexical: 'x' } } }), 'LEXICAL_NOT_ENABLED_FOR_COLLECTION');
      expectError(await onNolex({ insertOne: { document: { $lexical: 'x' } } }), 'LEXICAL_NOT_ENABLED_FOR_COLLECTION');
    });
  });
}
