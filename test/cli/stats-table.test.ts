/**
 * `vectordb-local stats` as a table (cli/stats.ts statsTable): a vector collection's cell says how its rows are
 * held, int8 or not, and marks an int8 collection whose stats hint at quantization drift.
 */
import { describe, expect, it } from 'vitest';
import { statsTable } from '../../src/cli/stats.js';
import type { CollectionStats, DatabaseStats, VectorStats } from '../../src/client/stats.js';

const vector = (rows: Partial<VectorStats>): VectorStats => ({
  dimension: 384,
  metric: 'cosine',
  hnsw: { m: 16, efConstruction: 200, efSearch: 100 },
  backend: 'wasm',
  vectors: 2000,
  inGraph: 2000,
  pending: 0,
  graphElements: 2000,
  compactions: 0,
  flatRows: 2000,
  flatRowsAs: 'float32',
  flatBytes: 2000 * 384 * 4,
  codedValues: 0,
  clampedValues: 0,
  quantizationDrift: false,
  snapshotSavedAt: null,
  ...rows,
});

const collection = (name: string, stats: VectorStats): CollectionStats => ({ keyspace: 'ks', name, documents: 2000, bytesOnDisk: 0, indexEntries: 0, cachedBytes: 0, vector: stats });

describe('stats table', () => {
  it('marks int8 rows, and int8 rows whose stats hint at drift', () => {
    const coded = 2000 * 384;
    const result: DatabaseStats = {
      bytesOnDisk: 0,
      cachedBytes: 0,
      keyspaces: ['ks'],
      tables: [],
      collections: [
        collection('plain', vector({})),
        collection('steady', vector({ flatRowsAs: 'int8', flatBytes: coded, codedValues: coded, clampedValues: 10 })),
        collection('drifted', vector({ flatRowsAs: 'int8', flatBytes: coded, codedValues: coded, clampedValues: coded / 50, quantizationDrift: true })),
      ],
    };
    const lines = statsTable(result, 'test').split('\n');
    const cell = (name: string) => lines.find((line) => line.startsWith(`ks.${name} `))!;
    expect(cell('plain')).toContain('384 cosine ');
    expect(cell('plain')).not.toContain('int8');
    expect(cell('steady')).toContain('384 cosine int8 ');
    expect(cell('steady')).not.toContain('(drift)');
    expect(cell('drifted')).toContain('384 cosine int8 (drift)');
  });
});
