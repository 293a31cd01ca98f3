/**
 * Shared suite: `vector.index.quantization: 'int8'` (ours, not the Data API's). Validated like the other
 * index knobs, echoed by findCollections with explain, part of the definition (re-creating it otherwise is
 * refused); an int8 collection's vector search finds the float32 top 10 (recall against a naive scan), with
 * the `$similarity` of an unquantized collection holding the same vectors, through the graph and through
 * a filter's exact scan; its stats show the rows held as int8, in a quarter of the bytes, and count the values
 * coded and those clamped outside the trained range, hinting at drift past 1 % clamped.
 */
import { describe, expect, it } from 'vitest';
import { CollectionDefinition } from '../../src/index.js';
import type { DbFactory } from '../support/factory.js';
import { clustered, naiveTopK, row } from '../vector-index/data.js';
import { createCollection, expectError, insertAll, onCollection, run, useDatabase, type Doc } from './helpers.js';

const DIM = 32;
/** Past INT8_TRAINING_ROWS (1,024): the scale is trained and the rows are codes. */
const N = 1600;
const K = 10;
const GROUPS = 20;
const ALL = clustered(31, N + 20, DIM, 10, 0.5, true);
const DATA = ALL.subarray(0, N * DIM);
const QUERIES = ALL.subarray(N * DIM);
const LABELS = Array.from({ length: N }, (_, i) => i);

const INT8 = { vector: { dimension: DIM, metric: 'cosine', index: { quantization: 'int8' } } };
const FLOAT = { vector: { dimension: DIM, metric: 'cosine' } };

export function vectorQuantizationSuite(factory: DbFactory): void {
  describe(`vector quantization int8 [${factory.name}]`, () => {
    const ctx = useDatabase(factory, { limits: { maxInsertManyDocuments: 100 } });

    const create = (name: string, options: unknown) => run(ctx.db, { createCollection: { name, options } }, { keyspace: 'default_keyspace' });

    it('is validated, echoed by explain, and part of the definition', async () => {
      await createCollection(ctx.db, 'q', INT8);
      const listed = await run(ctx.db, { findCollections: { options: { explain: true } } }, { keyspace: 'default_keyspace' });
      const q = (listed.status!.collections as { name: string; options: { vector: Doc } }[]).find((c) => c.name === 'q')!;
      expect(q.options.vector.index).toEqual({ quantization: 'int8' });
      expect(await create('q', INT8)).toEqual({ status: { ok: 1 } }); // the same definition: a no-op
      expectError(await create('q', FLOAT), 'EXISTING_COLLECTION_DIFFERENT_SETTINGS');
      expectError(await create('q', { vector: { dimension: DIM, metric: 'cosine', index: { quantization: 'none' } } }), 'EXISTING_COLLECTION_DIFFERENT_SETTINGS');
      // 'none' is the default: the same collection as no option
      await createCollection(ctx.db, 'f', FLOAT);
      expect(await create('f', { vector: { dimension: DIM, metric: 'cosine', index: { quantization: 'none' } } })).toEqual({ status: { ok: 1 } });
      for (const bad of ['int4', 'INT8', 8, null, { type: 'int8' }]) {
        const error = expectError(await create('bad', { vector: { dimension: DIM, index: { quantization: bad } } }), 'INVALID_CREATE_COLLECTION_OPTIONS');
        expect(error.message).toContain("'vector.index.quantization' must be one of 'none', 'int8'");
      }
      expect(expectError(await create('bad', { vector: { dimension: DIM, index: { quantize: 'int8' } } }), 'INVALID_CREATE_COLLECTION_FIELD').message).toContain("'quantization'");
      // The client's builder sends it.
      await ctx.db.createCollection(CollectionDefinition.builder().name('built').vector(DIM, 'cosine').vectorIndex({ quantization: 'int8' }).build());
      expect((await ctx.db.findCollectionByName('built'))?.options?.vector?.index).toEqual({ quantization: 'int8' });
    });

    it('finds the float32 top 10 with the float32 $similarity, by the graph and by a filter, in a quarter of the bytes', async () => {
      await createCollection(ctx.db, 'q', INT8);
      await createCollection(ctx.db, 'f', FLOAT);
      const docs = LABELS.map((i) => ({ _id: i, group: i % GROUPS, $vector: Array.from(row(DATA, i, DIM)) }));
      await insertAll(ctx.db, 'q', docs, 100);
      await insertAll(ctx.db, 'f', docs, 100);
      const quantized = await ctx.db.collection('q');
      await quantized.waitForIndex();
      const stats = await quantized.stats();
      expect(stats.vector).toMatchObject({ flatRowsAs: 'int8', vectors: N });
      const floatStats = await (await ctx.db.collection('f')).stats();
      expect(floatStats.vector).toMatchObject({ flatRowsAs: 'float32', codedValues: 0, clampedValues: 0, quantizationDrift: false });
      expect(stats.vector!.flatBytes * 4).toBeLessThanOrEqual(floatStats.vector!.flatBytes);

      const search = async (collection: string, query: Float32Array, filter: Doc = {}) => {
        const response = await onCollection(ctx.db, collection, { find: { filter, sort: { $vector: Array.from(query) }, projection: { _id: 1 }, options: { limit: K, includeSimilarity: true } } });
        return (response.data as unknown as { documents: { _id: number; $similarity: number }[] }).documents;
      };
      let found = 0;
      let wanted = 0;
      for (let q = 0; q < QUERIES.length / DIM; q++) {
        const query = row(QUERIES, q, DIM);
        for (const group of [undefined, q % GROUPS]) {
          // Unfiltered: the graph; a group (5 % of the documents): the exact scan of its candidates.
          const allowed = group === undefined ? undefined : (i: number) => i % GROUPS === group;
          const truth = new Set(naiveTopK('cosine', query, DATA, DIM, LABELS, K, allowed).map((hit) => hit.label));
          const filter = group === undefined ? {} : { group };
          const hits = await search('q', query, filter);
          found += hits.filter((hit) => truth.has(hit._id)).length;
          wanted += truth.size;
          // The float32 collection's score of each document found: the same number.
          const reference = new Map((await search('f', query, filter)).map((hit) => [hit._id, hit.$similarity]));
          for (const hit of hits) if (reference.has(hit._id)) expect(hit.$similarity).toBe(reference.get(hit._id));
        }
      }
      expect(found / wanted).toBeGreaterThanOrEqual(0.95);
    });

    it('counts the values coded and those clamped outside the trained range, and hints at drift past 1 %', async () => {
      await createCollection(ctx.db, 'drift', INT8);
      const trained = 1100; // past the training size: every row is coded (the few after the first 1,024 may clamp a value)
      await insertAll(ctx.db, 'drift', LABELS.slice(0, trained).map((i) => ({ _id: i, $vector: Array.from(row(DATA, i, DIM)) })), 100);
      const collection = await ctx.db.collection('drift');
      // The addon's rows are coded once the graph's inserts leave them (FlatVectorStore's at once).
      await collection.waitForIndex();
      const vectorStats = async () => (await collection.stats()).vector!;
      const base = await vectorStats();
      expect(base).toMatchObject({ flatRowsAs: 'int8', codedValues: trained * DIM, quantizationDrift: false });
      // Unit vectors' values lie within [-1, 1]: every value of these is outside the trained range.
      const outliers = (from: number, count: number, value: number) => Array.from({ length: count }, (_, i) => ({ _id: `out${from + i}`, $vector: new Array<number>(DIM).fill(value) }));
      await insertAll(ctx.db, 'drift', outliers(0, 5, 10), 100);
      // 160 more of 35,360 values clamped: still under 1 %.
      expect(await vectorStats()).toMatchObject({ codedValues: (trained + 5) * DIM, clampedValues: base.clampedValues + 5 * DIM, quantizationDrift: false });
      await insertAll(ctx.db, 'drift', outliers(5, 10, -10), 100);
      // 480 more of 35,680: past 1 %.
      expect(await vectorStats()).toMatchObject({ codedValues: (trained + 15) * DIM, clampedValues: base.clampedValues + 15 * DIM, quantizationDrift: true });
    });
  });
}
