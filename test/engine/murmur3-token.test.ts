/**
 * The Murmur3Partitioner token (engine/tables/murmur3.ts, partition-token.ts) against Cassandra's own
 * values: int partition keys 1..6 as Cassandra's SAI test VectorHybridSearchTest notes their tokens (and
 * cqlsh's test_cqlsh_parsing.py, token(1)), and raw key bytes whose tails have the high bit set (where
 * Cassandra's sign-extending hash3_x64_128 differs from the reference MurmurHash3), as Cassandra computes them.
 */
import { describe, expect, it } from 'vitest';
import { murmur3Token } from '../../src/engine/tables/murmur3.js';
import { partitionToken, tokenKeyPart } from '../../src/engine/tables/partition-token.js';
import type { TableRecord } from '../../src/engine/tables/schema.js';

const intTable = { primaryKey: { partitionBy: ['pk'], partitionSort: [] }, columns: { pk: { type: 'int' } } } as unknown as TableRecord;

describe('Murmur3Partitioner tokens', () => {
  it('int partition keys take the tokens Cassandra gives them', () => {
    const expected: Record<number, bigint> = {
      1: -4069959284402364209n,
      2: -3248873570005575792n,
      3: 9010454139840013625n,
      4: -2729420104000364805n,
      5: -7509452495886106294n,
      6: 2705480034054113608n,
    };
    for (const [pk, token] of Object.entries(expected)) expect(partitionToken({ pk: Number(pk) }, intTable), `token(${pk})`).toBe(token);
  });

  it('raw key bytes, blocks and tails (sign-extended tail bytes included), hash as in Cassandra', () => {
    const cases: [number[], bigint][] = [
      [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], -5563837382979743776n],
      [[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17], -1513403162740402161n],
      [Array(16).fill(255), -2824192546314762522n],
      [[0, 1, 2, 3, ...Array(12).fill(255)], 6463632673159404390n],
      [Array(17).fill(254), -1672437813826982685n],
      [[254, 254, 254, 254], 4566408979886474012n],
      [[0, 0, 0, 0], -3485513579396041028n],
      [[0, 1, 127, 127], 6573459401642635627n],
      [[226, 231, 226, 231, 226, 231, 1], 2222373981930033306n],
    ];
    for (const [bytes, token] of cases) expect(murmur3Token(Uint8Array.from(bytes)), JSON.stringify(bytes)).toBe(token);
  });

  it('the key part of a token sorts as the signed token does', () => {
    const tokens = [-(1n << 63n), -5n, -1n, 0n, 1n, 9010454139840013625n, (1n << 63n) - 1n];
    const parts = tokens.map(tokenKeyPart);
    expect([...parts].sort()).toEqual(parts);
    expect(new Set(parts.map((p) => p.length))).toEqual(new Set([16]));
  });
});
