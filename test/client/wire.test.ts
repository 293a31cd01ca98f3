/**
 * The client's outgoing JSON (client/wire.ts toJson) and query vectors (vectorArray): the fast paths for
 * arrays of numbers and typed arrays give what the general path gave, and errors still name the element.
 */
import { describe, expect, it } from 'vitest';
import { vectorArray } from '../../src/client/documents.js';
import { toJson } from '../../src/client/wire.js';

describe('toJson of arrays', () => {
  it('numbers as they are, other elements converted (Dates, nested arrays, typed arrays, toJSON)', () => {
    const at = new Date(7);
    expect(toJson([1, -0.5, 3e-7, at, [2, { d: at }], new Float32Array([0.5, 0.25]), { toJSON: () => 'x' }])).toEqual([
      1,
      -0.5,
      3e-7,
      { $date: 7 },
      [2, { d: { $date: 7 } }],
      [0.5, 0.25],
      'x',
    ]);
    expect(toJson(new Float64Array([0.1, 2]))).toEqual([0.1, 2]);
    expect(toJson(new BigInt64Array([5n]))).toEqual([5]);
  });

  it('undefined, functions and holes become null (as JSON.stringify writes them)', () => {
    // eslint-disable-next-line no-sparse-arrays
    const sparse = [1, , 3];
    expect(toJson([undefined, () => 1, 2])).toEqual([null, null, 2]);
    expect(toJson(sparse)).toEqual([1, null, 3]);
  });

  it('a non-finite number or a circular array is refused with its path', () => {
    expect(() => toJson({ $vector: [0.5, Number.NaN] }, 'sort')).toThrow('sort.$vector[1]: NaN is not a JSON number');
    expect(() => toJson([1, Infinity])).toThrow('value[1]: Infinity is not a JSON number');
    const loop: unknown[] = [1];
    loop.push(loop);
    expect(() => toJson(loop)).toThrow('value[1]: circular reference');
  });
});

describe('vectorArray', () => {
  it('a Float32Array or an array as plain numbers (a new array)', () => {
    const values = new Float32Array([0.1, -2, 3.5]);
    const out = vectorArray(values);
    expect(Array.isArray(out)).toBe(true);
    expect(out).toEqual([values[0], -2, 3.5]);
    const plain = [1, 2];
    expect(vectorArray(plain)).not.toBe(plain);
    expect(vectorArray(plain)).toEqual([1, 2]);
  });

  it('is its own JSON when every value is finite (not copied again); otherwise toJson still names the bad value', () => {
    const out = vectorArray(new Float32Array([0.5, -1]));
    const sort = toJson({ $vector: out }, 'sort') as { $vector: number[] };
    expect(sort.$vector).toBe(out);
    expect(sort.$vector).toEqual([0.5, -1]);
    const other = [0.5, -1];
    expect((toJson({ $vector: other }, 'sort') as { $vector: number[] }).$vector).not.toBe(other); // a caller's array is copied
    expect(() => toJson({ $vector: vectorArray([1, Number.NaN]) }, 'sort')).toThrow('sort.$vector[1]: NaN is not a JSON number');
    expect(() => toJson({ $vector: vectorArray(new Float32Array([Infinity])) }, 'sort')).toThrow('sort.$vector[0]: Infinity is not a JSON number');
  });

  it('refuses anything else', () => {
    expect(() => vectorArray('1,2' as never)).toThrow(TypeError);
    expect(() => vectorArray(new Float64Array([1]) as never)).toThrow('vector must be an array of numbers or a Float32Array');
  });
});
