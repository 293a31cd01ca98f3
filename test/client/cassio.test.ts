/**
 * The CassIO companion tables, embedded and over HTTP: CassIO's columns and indexes, put (upsert) / get /
 * delete / clear / drop, partitions newest first, ANN search with top K, thresholds, metric and metadata
 * filters (coerced to strings), partition scope, and the data still there after the database is reopened.
 */
import { describe, expect, it } from 'vitest';
import { ClusteredMetadataVectorRecord, MetadataVectorRecord, VectorDB, metadataString, timeUuid } from '../../src/index.js';
import { embeddedFactory, type DbFactory } from '../support/factory.js';
import { httpFactory } from '../support/http-factory.js';

for (const factory of [embeddedFactory, httpFactory] as DbFactory[]) {
  describe(`CassIO tables (${factory.name})`, () => {
    it('metadata_vector: CassIO columns and indexes, put / get / delete / clear / drop', async () => {
      const t = await factory.create();
      try {
        const table = await t.db.metadataVectorTable('vector_store', 3);
        await t.db.metadataVectorTable('vector_store', 3); // exists: no error, nothing changes
        const described = await t.db.command({ listTables: { options: { explain: true } } }, { keyspace: 'default_keyspace' });
        expect((described.status?.tables as { definition: unknown }[])[0]!.definition).toEqual({
          columns: {
            row_id: { type: 'text' },
            body_blob: { type: 'text' },
            attributes_blob: { type: 'text' },
            metadata_s: { type: 'map', keyType: 'text', valueType: 'text' },
            vector: { type: 'vector', dimension: 3 },
          },
          primaryKey: { partitionBy: ['row_id'], partitionSort: {} },
        });
        const indexes = await t.db.command({ listIndexes: { options: { explain: true } } }, { collection: 'vector_store' });
        expect(indexes.status?.indexes).toEqual([
          { name: 'idx_vector_vector_store', definition: { column: 'vector', options: { metric: 'cosine', sourceModel: 'other' } }, indexType: 'vector' },
          // The entries index is listed by the plain column name, as the Data API lists it (issue #30; was { metadata_s: '$entries' }).
          { name: 'eidx_metadata_s_vector_store', definition: { column: 'metadata_s', options: {} }, indexType: 'regular' },
        ]);
        expect(await t.db.findAllCollectionsNames()).toEqual([]);

        const record = new MetadataVectorRecord({ rowId: 'r1', vector: [1, 0, 0], body: 'hello', attributes: '{"a":1}', metadata: { lang: 'en', n: 3, ok: true } });
        expect(record.metadata).toEqual({ lang: 'en', n: '3.0', ok: 'true' });
        await table.put(record);
        expect(await table.get('r1')).toEqual(record);
        await table.put(new MetadataVectorRecord({ rowId: 'r1', vector: [0, 1, 0], body: 'replaced' }));
        const replaced = await table.get('r1');
        expect(replaced).toMatchObject({ rowId: 'r1', vector: [0, 1, 0], body: 'replaced', attributes: null, metadata: {} });
        const generated = new MetadataVectorRecord([0, 0, 1]);
        expect(generated.rowId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        await table.put(generated);
        await table.delete('r1');
        await table.delete('missing');
        expect(await table.get('r1')).toBeUndefined();
        expect(await table.get(generated.rowId)).toBeDefined();
        await table.clear();
        expect(await table.get(generated.rowId)).toBeUndefined();
        await expect(table.put(new MetadataVectorRecord({ vector: [1, 2] }))).rejects.toBeInstanceOf(TypeError);
        await table.drop();
        expect((await t.db.command({ listTables: {} }, { keyspace: 'default_keyspace' })).status?.tables).toEqual([]);
      } finally {
        await t.close();
      }
    });

    it('metadata_vector: ANN search with top K, threshold, metric and metadata filters', async () => {
      const t = await factory.create();
      try {
        const table = await t.db.metadataVectorTable('docs', 2, 'cosine');
        for (let i = 0; i < 12; i++) {
          const angle = (i * Math.PI) / 24;
          await table.put(new MetadataVectorRecord({ rowId: `r${i}`, vector: [Math.cos(angle), Math.sin(angle)], body: `doc ${i}`, metadata: { parity: i % 2 === 0 ? 'even' : 'odd', i, flag: i < 6 } }));
        }
        const top = await table.similaritySearch({ embeddings: [1, 0] });
        expect(top.map((r) => r.embedded.rowId)).toEqual(['r0', 'r1', 'r2', 'r3']); // CassIO's default top 4
        expect(top[0]!.similarity).toBeCloseTo(1, 5);
        expect(top.every((r, i) => i === 0 || r.similarity <= top[i - 1]!.similarity)).toBe(true);
        const odd = await table.similaritySearch({ embeddings: [1, 0], recordCount: 3, metaData: { parity: 'odd' } });
        expect(odd.map((r) => r.embedded.rowId)).toEqual(['r1', 'r3', 'r5']);
        // Metadata filter values are coerced as stored: 4 and true match "4.0" and "true".
        const coerced = await table.similaritySearch({ embeddings: [1, 0], recordCount: 10, metaData: { i: 4, flag: true } });
        expect(coerced.map((r) => r.embedded.rowId)).toEqual(['r4']);
        expect(await table.similaritySearch({ embeddings: [1, 0], metaData: { parity: 'none' } })).toEqual([]);
        // The threshold applies after the top K: cos(15°) = 0.966 -> similarity 0.983.
        const close = await table.similaritySearch({ embeddings: [1, 0], recordCount: 10, threshold: 0.98 });
        expect(close.map((r) => r.embedded.rowId)).toEqual(['r0', 'r1', 'r2']);
        // Another metric scores the same top K with that metric's function.
        const euclid = await table.similaritySearch({ embeddings: [1, 0], recordCount: 2, metric: 'euclidean' });
        expect(euclid[0]!.similarity).toBeCloseTo(1, 5);
        expect(euclid[1]!.similarity).toBeCloseTo(1 / (1 + (1 - Math.cos(Math.PI / 24)) ** 2 + Math.sin(Math.PI / 24) ** 2), 4);
        // An option the query does not take is a TypeError naming the known ones, never ignored (issue #30).
        const misspelt = { embeddings: [1, 0], topK: 5, metadata: { parity: 'odd' } } as unknown as Parameters<typeof table.similaritySearch>[0];
        await expect(table.similaritySearch(misspelt)).rejects.toThrow(/similaritySearch query has no member 'topK': it takes embeddings, recordCount, threshold, metric, metaData/);
        expect(() => new MetadataVectorRecord({ vector: [1, 0], metaData: { a: 1 } } as never)).toThrow(TypeError);
        expect(() => new ClusteredMetadataVectorRecord({ vector: [1, 0], partitionID: 'p' } as never)).toThrow(/no member 'partitionID'/);
        expect(new ClusteredMetadataVectorRecord({ vector: [1, 0], partitionId: 'p' }).partitionId).toBe('p');
        await expect(table.put({ rowId: 'x', vector: [1, 0], metaData: {} } as never)).rejects.toThrow(/put record has no member 'metaData'/);
      } finally {
        await t.close();
      }
    });

    it('clustered_metadata_vector: partitions newest first, get / delete / deletePartition, partition-scoped search', async () => {
      const t = await factory.create();
      try {
        const chat = await t.db.clusteredMetadataVectorTable('chat', 2);
        const pk = (await t.db.command({ listTables: { options: { explain: true } } }, { keyspace: 'default_keyspace' })).status?.tables as { definition: { columns: object; primaryKey: unknown } }[];
        expect(pk[0]!.definition.primaryKey).toEqual({ partitionBy: ['partition_id'], partitionSort: { row_id: -1 } });
        expect(pk[0]!.definition.columns).toMatchObject({ partition_id: { type: 'text' }, row_id: { type: 'timeuuid' } });
        const written: ClusteredMetadataVectorRecord[] = [];
        for (let i = 0; i < 25; i++) {
          const record = new ClusteredMetadataVectorRecord({ partitionId: i % 5 === 0 ? 'other' : 'session', vector: [1, i / 8], body: `message ${i}`, metadata: { turn: i } });
          written.push(record);
          await chat.put(record);
        }
        const defaulted = new ClusteredMetadataVectorRecord([1, 1]);
        expect(defaulted.partitionId).toBe('default');
        const session = await chat.getPartition('session');
        expect(session.map((r) => r.body)).toEqual(written.filter((r) => r.partitionId === 'session').map((r) => r.body).reverse());
        expect((await chat.getPartition('session', 3)).map((r) => r.body)).toEqual(['message 24', 'message 23', 'message 22']);
        const one = written[7]!;
        expect(await chat.get('session', one.rowId)).toEqual(one);
        expect(await chat.get('other', one.rowId)).toBeUndefined();
        const scoped = await chat.similaritySearch({ embeddings: [1, 0], recordCount: 3, metaData: { partition_id: 'other' } });
        expect(scoped.map((r) => r.embedded.body)).toEqual(['message 0', 'message 5', 'message 10']);
        const metaData = { partition_id: 'session', turn: 8 };
        const filtered = await chat.similaritySearch({ embeddings: [1, 0], metaData });
        expect(filtered.map((r) => r.embedded.body)).toEqual(['message 8']);
        expect(metaData).toEqual({ partition_id: 'session', turn: 8 }); // the caller's object is not changed
        const everywhere = await chat.similaritySearch({ embeddings: [1, 0], recordCount: 2 });
        expect(everywhere.map((r) => r.embedded.body)).toEqual(['message 0', 'message 1']);
        await chat.delete('session', one.rowId);
        expect(await chat.get('session', one.rowId)).toBeUndefined();
        await chat.deletePartition('session');
        expect(await chat.getPartition('session')).toEqual([]);
        expect(await chat.getPartition('other')).toHaveLength(5);
      } finally {
        await t.close();
      }
    });
  });
}

describe('CassIO tables across a reopen', () => {
  it('rows, partitions and the vector index are there after close and reopen', async () => {
    const t = await embeddedFactory.create();
    const store = await t.db.metadataVectorTable('kept', 2, 'dot_product');
    const chat = await t.db.clusteredMetadataVectorTable('kept_chat', 2);
    for (let i = 0; i < 30; i++) {
      await store.put(new MetadataVectorRecord({ rowId: `r${i}`, vector: [i % 2, 1 - (i % 2)], metadata: { i } }));
      await chat.put(new ClusteredMetadataVectorRecord({ partitionId: `p${i % 3}`, rowId: timeUuid(), vector: [1, 0], body: `b${i}` }));
    }
    await t.close();
    const db = new VectorDB('token', t.dir);
    try {
      const again = await db.metadataVectorTable('kept', 2, 'dot_product');
      expect(await again.get('r7')).toMatchObject({ rowId: 'r7', vector: [1, 0], metadata: { i: metadataString(7) } });
      const hits = await again.similaritySearch({ embeddings: [1, 0], recordCount: 20, threshold: 0.75 });
      expect(hits).toHaveLength(15);
      expect(hits.every((h) => Number(h.embedded.rowId.slice(1)) % 2 === 1)).toBe(true);
      const chatAgain = await db.clusteredMetadataVectorTable('kept_chat', 2);
      expect((await chatAgain.getPartition('p1')).map((r) => r.body)).toEqual(['b28', 'b25', 'b22', 'b19', 'b16', 'b13', 'b10', 'b7', 'b4', 'b1']);
    } finally {
      await db.close();
    }
  });
});
