/**
 * Shared suite: findAndRerank (reference hybrid-search.md 1.4) with the built-in `rrf` provider and with the
 * collection's default `nvidia` block that no provider here answers (RRF order and a warning): the two reads,
 * ranks and reciprocal-rank fusion (k = 60), documents without the passage field dropped, limit, hybridLimits,
 * includeScores, includeSortVector, projection, every error code; and findRerankingProviders.
 */
import { describe, expect, it } from 'vitest';
import type { DbFactory } from '../support/factory.js';
import { createCollection, expectError, expectNoErrors, onCollection, run, useDatabase, KS, type Doc } from './helpers.js';

const DOCS: Doc[] = [
  { _id: 'a', text: 'apple pie', $vector: [1, 0], $lexical: 'apple pie recipe' },
  { _id: 'b', text: 'banana bread', $vector: [0.9, 0.1], $lexical: 'banana bread with apple' },
  { _id: 'c', text: 'cherry tart', $vector: [0, 1], $lexical: 'apple apple apple' },
  { _id: 'd', $vector: [0.95, 0.05], $lexical: 'apple without text' },
];
const RRF = { provider: 'rrf', modelName: 'rrf' };
const rrf = (...ranks: (number | null)[]) => ranks.reduce<number>((sum, rank) => sum + (rank === null ? 0 : 1 / (60 + rank)), 0);

export function rerankSuite(factory: DbFactory): void {
  describe(`findAndRerank [${factory.name}]`, () => {
    const ctx = useDatabase(factory);
    const seed = async (options: Doc = { vector: { dimension: 2, metric: 'cosine' } }) => {
      await createCollection(ctx.db, 'hy', options);
      expectNoErrors(await onCollection(ctx.db, 'hy', { insertMany: { documents: DOCS } }));
    };
    const farr = (body: Doc) => onCollection(ctx.db, 'hy', { findAndRerank: body });
    const sort = { $hybrid: { $vector: [1, 0], $lexical: 'apple' } };

    it('merges the vector and BM25 reads by _id and orders by reciprocal-rank fusion, with every score', async () => {
      await seed();
      const response = expectNoErrors(await farr({ sort, options: { rerankOn: 'text', rerankQuery: 'apple', includeScores: true, rerank: RRF } }));
      const documents = (response.data as { documents: Doc[] }).documents;
      // Vector ranks: a 1, d 2, b 3, c 4. BM25 ranks for 'apple': c 1 (three times), a 2, d 3, b 4 (the longest).
      expect(documents.map((d) => d._id)).toEqual(['a', 'c', 'b']); // d has no `text`: dropped
      expect(documents[0]).toEqual({ _id: 'a', text: 'apple pie' });
      const scores = (response.status!.documentResponses as { scores: Doc }[]).map((r) => r.scores);
      expect(scores[0]).toEqual({ $rerank: 0, $vector: expect.closeTo(1, 6), $vectorRank: 1, $bm25Rank: 2, $rrf: expect.closeTo(rrf(1, 2), 12) });
      expect(scores[1]).toMatchObject({ $vectorRank: 4, $bm25Rank: 1, $rrf: expect.closeTo(rrf(4, 1), 12) });
      expect(scores[2]).toMatchObject({ $vectorRank: 3, $bm25Rank: 4, $rrf: expect.closeTo(rrf(3, 4), 12) });
      expect(response.status!.warnings).toBeUndefined();
      expect((response.data as { nextPageState: unknown }).nextPageState).toBeNull();
    });

    it('limit, hybridLimits per read, filter, projection, includeSortVector', async () => {
      await seed();
      const one = expectNoErrors(await farr({ sort, options: { rerankOn: 'text', rerankQuery: 'apple', limit: 1, rerank: RRF, includeSortVector: true } }));
      expect((one.data as { documents: Doc[] }).documents.map((d) => d._id)).toEqual(['a']);
      expect(one.status).toEqual({ sortVector: [1, 0] });
      // One document of each read: the vector read's a, the BM25 read's c.
      const small = expectNoErrors(await farr({ sort, options: { rerankOn: 'text', rerankQuery: 'x', hybridLimits: { $vector: 1, $lexical: 1 }, rerank: RRF, includeScores: true } }));
      expect((small.data as { documents: Doc[] }).documents.map((d) => d._id)).toEqual(['a', 'c']);
      const filtered = expectNoErrors(await farr({ filter: { _id: { $in: ['b', 'c'] } }, projection: { text: 0 }, sort, options: { rerankOn: 'text', rerankQuery: 'x', rerank: RRF } }));
      expect((filtered.data as { documents: Doc[] }).documents).toEqual([{ _id: 'b' }, { _id: 'c' }]); // equal fusion scores: the vector read's order
      const vectorOnly = expectNoErrors(await farr({ sort: { $hybrid: { $vector: [0, 1], $lexical: null } }, options: { rerankOn: 'text', rerankQuery: 'x', rerank: RRF } }));
      expect((vectorOnly.data as { documents: Doc[] }).documents.map((d) => d._id)).toEqual(['c', 'b', 'a']);
    });

    it("the documents returned are the caller's own: changing one changes no later answer", async () => {
      await createCollection(ctx.db, 'nested', { vector: { dimension: 2, metric: 'cosine' } });
      expectNoErrors(await onCollection(ctx.db, 'nested', { insertMany: { documents: [{ _id: 'n', $vector: [1, 0], $lexical: 'apple', text: 'apple', meta: { tags: ['x'] } }] } }));
      const ask = async () => (expectNoErrors(await onCollection(ctx.db, 'nested', { findAndRerank: { sort, options: { rerankOn: 'text', rerankQuery: 'apple', rerank: RRF } } })).data as { documents: Doc[] }).documents;
      const first = await ask();
      (first[0]!.meta as { tags: string[] }).tags.push('changed');
      expect((await ask())[0]).toEqual({ _id: 'n', text: 'apple', meta: { tags: ['x'] } });
    });

    it("the default 'nvidia' block without a registered provider: RRF order and a warning saying how to register one", async () => {
      await seed();
      const response = expectNoErrors(await farr({ sort, options: { rerankOn: 'text', rerankQuery: 'apple' } }));
      expect((response.data as { documents: Doc[] }).documents.map((d) => d._id)).toEqual(['a', 'c', 'b']);
      const warnings = response.status!.warnings as { errorCode: string; message: string }[];
      expect(warnings[0]!.errorCode).toBe('RERANKING_PROVIDER_NOT_REGISTERED');
      expect(warnings[0]!.message).toContain('--reranker nvidia=URL');
    });

    it('errors of the reference', async () => {
      await seed();
      const options = { rerankOn: 'text', rerankQuery: 'apple' };
      expectError(await farr({ options }), 'SORT_CLAUSE_INVALID');
      expectError(await farr({ sort: { $hybrid: 'apple' }, options }), 'UNSUPPORTED_VECTORIZE_SORT_FOR_COLLECTION');
      expectError(await farr({ sort: { $hybrid: { $lexical: 'apple' } }, options }), 'SORT_CLAUSE_INVALID');
      expectError(await farr({ sort, options: { ...options, hybridLimits: 0 } }), 'COMMAND_FIELD_VALUE_INVALID');
      expectError(await farr({ sort, options: { ...options, hybridLimits: { $vector: 101 } } }), 'COMMAND_FIELD_VALUE_INVALID');
      expectError(await farr({ sort, options: { ...options, limit: 0 } }), 'COMMAND_FIELD_VALUE_INVALID');
      expectError(await farr({ sort, options: { rerankOn: 'text' } }), 'MISSING_RERANK_QUERY_TEXT');
      expectError(await farr({ sort, options: { rerankQuery: 'x' } }), 'COMMAND_FIELD_VALUE_INVALID');
      expectError(await farr({ sort, options: { ...options, rerank: { modelName: 'm' } } }), 'INVALID_RERANK_OVERRIDE');
      expectError(await farr({ sort, options: { ...options, colour: 1 } }), 'COMMAND_FIELD_UNKNOWN');
      await createCollection(ctx.db, 'plain', { vector: { dimension: 2 }, lexical: { enabled: false }, rerank: { enabled: false } });
      const onPlain = (body: Doc) => onCollection(ctx.db, 'plain', { findAndRerank: body });
      expectError(await onPlain({ sort, options }), 'LEXICAL_NOT_ENABLED_FOR_COLLECTION');
      expectError(await onPlain({ sort: { $hybrid: { $vector: [1, 0] } }, options }), 'UNSUPPORTED_RERANKING_COMMAND');
      expectNoErrors(await onPlain({ sort: { $hybrid: { $vector: [1, 0] } }, options: { ...options, rerank: RRF } }));
      await createCollection(ctx.db, 'novec');
      expectError(await onCollection(ctx.db, 'novec', { findAndRerank: { sort, options } }), 'VECTOR_SEARCH_NOT_SUPPORTED');
    });

    it('findRerankingProviders lists the built-in rrf provider', async () => {
      const response = expectNoErrors(await run(ctx.db, { findRerankingProviders: {} }));
      const providers = response.status!.rerankingProviders as Record<string, Doc>;
      expect(providers.rrf).toMatchObject({ isDefault: true, models: [{ name: 'reciprocal-rank-fusion', isDefault: true }] });
      void KS;
    });
  });
}
