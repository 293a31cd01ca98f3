/**
 * The document-size limit (maxDocumentChars) is exact at its edge whatever the `$vector` holds: the shredder
 * bounds a vector of numbers instead of writing it out as text, and must still accept a document of exactly
 * the limit's length and refuse one a character longer, naming its exact size.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/engine/limits.js';
import { MAX_NUMBER_CHARS, shredDocument, type ShredContext } from '../../src/engine/collections/shredder.js';
import { VectorDbError } from '../../src/errors/index.js';
import type { JsonObject } from '../../src/query/json.js';

function context(maxDocumentChars: number): ShredContext {
  return {
    keyspace: 'ks',
    collectionName: 'c',
    options: { vector: { dimension: 3, metric: 'euclidean' } } as ShredContext['options'],
    limits: { ...DEFAULT_LIMITS, maxDocumentChars },
    isIndexed: () => true,
  };
}

function sizeError(doc: JsonObject, limit: number): string | undefined {
  try {
    shredDocument(doc, context(limit));
    return undefined;
  } catch (error) {
    if (error instanceof VectorDbError && error.code === 'SHRED_DOC_LIMIT_VIOLATION') return error.message;
    throw error;
  }
}

const VECTORS: number[][] = [
  [0.1, -0.2, 0.3],
  [-1.2345678901234567e-6, -1.2345678901234567e-30, -1.2345678901234567e30],
  [-0, 123456789012345680000, -5e-324],
  [1, 2, 3],
];

describe('document size limit with a $vector', () => {
  for (const vector of VECTORS) {
    it(`is exact at the edge for ${JSON.stringify(vector)}`, () => {
      const doc: JsonObject = { _id: 'a', name: 'lamp', $vector: vector, tail: 'x' };
      const chars = JSON.stringify(doc).length;
      expect(sizeError(doc, chars)).toBeUndefined();
      expect(sizeError(doc, chars - 1)).toContain(`document size (${chars} chars) exceeds maximum allowed (${chars - 1})`);
      // Far below the limit: the bound path (no text written) accepts it.
      expect(sizeError(doc, chars + 3 * MAX_NUMBER_CHARS + 10)).toBeUndefined();
    });
  }

  it('counts a $binary vector and a vector with a non-number exactly', () => {
    const binary: JsonObject = { _id: 'b', $vector: { $binary: 'AAAAAAAAAAAAAAAA' } };
    const chars = JSON.stringify(binary).length;
    expect(sizeError(binary, chars - 1)).toContain(`document size (${chars} chars)`);
    const odd: JsonObject = { _id: 'c', $vector: [1, 'x', 3] };
    const oddChars = JSON.stringify(odd).length;
    expect(sizeError(odd, oddChars - 1)).toContain(`document size (${oddChars} chars)`);
  });

  it('bounds every finite double by MAX_NUMBER_CHARS', () => {
    const extremes = [-1.2345678901234567e-6, -1.2345678901234567e-7, -2.2250738585072014e-308, -1.7976931348623157e308, -123456789012345680000, -0.12345678901234568, -5e-324];
    for (const x of extremes) expect(JSON.stringify(x).length).toBeLessThanOrEqual(MAX_NUMBER_CHARS);
    expect(JSON.stringify(-1.2345678901234567e-6).length).toBe(MAX_NUMBER_CHARS);
  });
});
