/**
 * `vector.index.quantization` in a collection's definition (engine/collections/schema.ts): 'none' is stored as
 * no option, 'int8' is kept and described, and a definition stored by an earlier build with an empty `index`
 * is the same collection as one without (re-creating it stays a no-op).
 */
import { describe, expect, it } from 'vitest';
import { describeOptions, parseCollectionOptions, sameOptions } from '../../src/engine/collections/schema.js';
import { resolveLimits } from '../../src/engine/limits.js';

const limits = resolveLimits(undefined);
const parse = (index: unknown) => parseCollectionOptions({ vector: { dimension: 4, metric: 'cosine', index } }, limits);

describe('quantization in the collection definition', () => {
  it("stores 'int8', drops 'none', and describes what it stores", () => {
    expect(parse({ quantization: 'int8', m: 8 }).vector?.index).toEqual({ quantization: 'int8', m: 8 });
    expect(parse({ quantization: 'none' }).vector?.index).toBeUndefined();
    expect(describeOptions(parse({ quantization: 'int8' })).vector).toMatchObject({ index: { quantization: 'int8' } });
  });

  it('compares definitions: int8 differs from none, an empty index from an earlier build equals none', async () => {
    const none = parse(undefined);
    expect(await sameOptions(parse({ quantization: 'int8' }), none)).toBe(false);
    expect(await sameOptions(parse({ quantization: 'none' }), none)).toBe(true);
    const earlier = { ...none, vector: { ...none.vector!, index: {} } };
    expect(await sameOptions(earlier, none)).toBe(true);
    expect(await sameOptions(none, earlier)).toBe(true);
  });
});
