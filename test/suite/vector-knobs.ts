/**
 * Shared suite: the vector knobs of ours (not the Data API's). A find's `options.efSearch` reaches the
 * graph (a small candidate list finds fewer of the true nearest than a large one), is refused where it
 * makes no sense, and `waitForIndex` reports when the background graph holds every vector.
 */
import { describe, expect, it } from 'vitest';
import type { VectorDBCollection } from '../../src/index.js';
import type { DbFactory } from '../support/factory.js';
import { clustered, naiveTopK, row } from '../vector-index/data.js';
import { expectError, expectNoErrors, onCollection, useDatabase } from './helpers.js';

const DIM = 24;
const N = 2500;
const K = 10;
/** N stored vectors, then 40 held-out queries from the same clusters. */
const ALL = clustered(2024, N + 40, DIM, 8, 0.6, true);
const DATA = ALL.subarray(0, N * DIM);
const QUERIES = ALL.subarray(N * DIM);
const LABELS = Array.from({ length: N }, (_, i) => i);

export function vectorKnobsSuite(factory: DbFactory): void {
  describe(`vector knobs: efSearch and waitForIndex [${factory.name}]`, () => {
    const ctx = useDatabase(factory, { limits: { maxInsertManyDocuments: 100 } });

    async function loaded(): Promise<VectorDBCollection> {
      const collection = await ctx.db.createCollection('vecs', DIM);
      const docs = Array.from({ length: N }, (_, i) => ({ _id: i, $vector: Array.from(row(DATA, i, DIM)) }));
      await collection.insertMany(docs, { chunkSize: 100 });
      return collection;
    }

    async function recallAt(collection: VectorDBCollection, efSearch: number): Promise<number> {
      let hits = 0;
      for (let q = 0; q < QUERIES.length / DIM; q++) {
        const query = row(QUERIES, q, DIM);
        const truth = new Set(naiveTopK('cosine', query, DATA, DIM, LABELS, K).map((hit) => hit.label));
        const found = await collection.findVector(Array.from(query), { limit: K, efSearch, projection: { _id: 1 } });
        hits += found.filter((doc) => truth.has(doc._id as number)).length;
      }
      return hits / ((QUERIES.length / DIM) * K);
    }

    it('waitForIndex resolves caught up, then a small efSearch finds fewer true neighbours than a large one', async () => {
      const collection = await loaded();
      expect(await collection.waitForIndex()).toEqual({ caughtUp: true, pendingVectors: 0 });
      const narrow = await recallAt(collection, 1);
      const wide = await recallAt(collection, 1000);
      expect(wide).toBeGreaterThanOrEqual(0.99);
      expect(narrow).toBeLessThan(wide);
    });

    it('waitForIndex on a collection without vectors is caught up at once; the command answers status', async () => {
      const notes = await ctx.db.createCollection('notes');
      await notes.insertOne({ _id: 'a' });
      expect(await notes.waitForIndex({ timeoutMs: 0 })).toEqual({ caughtUp: true, pendingVectors: 0 });
      const response = expectNoErrors(await onCollection(ctx.db, 'notes', { waitForIndex: { options: { maxTimeMS: 5 } } }));
      expect(response).toEqual({ status: { caughtUp: true, pendingVectors: 0 } });
    });

    it('waitForIndex refuses bad options', async () => {
      await ctx.db.createCollection('vecs', DIM);
      expectError(await onCollection(ctx.db, 'vecs', { waitForIndex: { options: { maxTimeMS: -1 } } }), 'COMMAND_FIELD_VALUE_INVALID');
      expectError(await onCollection(ctx.db, 'vecs', { waitForIndex: { options: { wait: 1 } } }), 'COMMAND_FIELD_UNKNOWN');
      expectError(await onCollection(ctx.db, 'none', { waitForIndex: {} }), 'UNKNOWN_COLLECTION_OR_TABLE');
      await expect(ctx.db.collection('vecs').then((c) => c.waitForIndex({ timeoutMs: -5 }))).rejects.toThrow(TypeError);
    });

    it('efSearch is refused without a $vector sort, out of range, or not an integer', async () => {
      const collection = await ctx.db.createCollection('vecs', DIM);
      await collection.insertOne({ _id: 1, $vector: Array.from(row(DATA, 0, DIM)) });
      const vector = Array.from(row(QUERIES, 0, DIM));
      const find = (options: object, sort: object = { $vector: vector }) => onCollection(ctx.db, 'vecs', { find: { sort, options } });
      const reasons = [
        expectError(await find({ efSearch: 16 }, {}), 'COMMAND_FIELD_VALUE_INVALID').message,
        expectError(await find({ efSearch: 16 }, { _id: 1 }), 'COMMAND_FIELD_VALUE_INVALID').message,
        expectError(await onCollection(ctx.db, 'vecs', { findOne: { options: { efSearch: 16 } } }), 'COMMAND_FIELD_VALUE_INVALID').message,
      ];
      for (const reason of reasons) expect(reason).toContain('$vector');
      expect(expectError(await find({ efSearch: 0 }), 'COMMAND_FIELD_VALUE_INVALID').message).toContain('from 1 to 4096');
      expect(expectError(await find({ efSearch: 4097 }), 'COMMAND_FIELD_VALUE_INVALID').message).toContain('from 1 to 4096');
      expectError(await find({ efSearch: 2.5 }), 'COMMAND_FIELD_VALUE_INVALID');
      expectError(await find({ efSearch: '16' }), 'COMMAND_FIELD_VALUE_INVALID');
      const one = expectNoErrors(await onCollection(ctx.db, 'vecs', { findOne: { sort: { $vector: vector }, options: { efSearch: 4096 } } }));
      expect((one.data as { document: { _id: number } }).document._id).toBe(1);
    });
  });
}
