/**
 * decodeVector (query/vector-value.ts) on arrays: every kind of JS array gives the same float32s, and a
 * bad element is named as before (the first one, NaN and float32's range checked after the loop); query
 * vectors cut from a shared buffer (queryVectorArray) decode the same and stay independent.
 */
import { describe, expect, it } from 'vitest';
import { VectorDbError } from '../../src/errors/index.js';
import { numberFromText } from '../../src/query/exact-number.js';
import type { JsonValue } from '../../src/query/json.js';
import { decodeVector, encodeBinaryVector, queryVectorArray } from '../../src/query/vector-value.js';

const FLOAT32_MAX = 3.4028234663852886e38;

function reasonOf(value: JsonValue[]): string {
  try {
    decodeVector(value);
  } catch (error) {
    expect(error).toBeInstanceOf(VectorDbError);
    expect((error as VectorDbError).code).toBe('SHRED_BAD_VECTOR_VALUE');
    return (error as VectorDbError).message;
  }
  throw new Error('expected an error');
}

describe('decodeVector of arrays', () => {
  it('packed, holey-then-filled, integer and mixed arrays give the same float32s', () => {
    const numbers = [0.1, -2, 3.5e-20, 7, -0, FLOAT32_MAX, -FLOAT32_MAX];
    const holey = new Array<number>(numbers.length);
    numbers.forEach((n, i) => (holey[i] = n));
    const want = Float32Array.from(numbers);
    for (const array of [numbers, holey, [...numbers]]) expect(decodeVector(array)!.values).toEqual(want);
    expect(decodeVector([1, 2, 3])!.values).toEqual(Float32Array.from([1, 2, 3]));
    // An exact number (more digits than a double holds) is rounded like any other component.
    expect(decodeVector([numberFromText('0.1000000000000000000001'), 2])!.values).toEqual(Float32Array.from([0.1, 2]));
  });

  it('names the first bad element, whatever is wrong with it', () => {
    // NaN is described as JSON would write it.
    expect(reasonOf([1, Number.NaN, 'x'])).toContain('element 1 is null');
    expect(reasonOf([1, 'x', Number.NaN])).toContain('element 1 is "x"');
    expect(reasonOf([1e39, 'x'])).toContain('element 0 is out of range');
    expect(reasonOf([1, 2, null])).toContain('element 2 is null');
    expect(reasonOf([1, { a: 1 }])).toContain('element 1 is');
    // eslint-disable-next-line no-sparse-arrays
    expect(reasonOf([1, , 3] as JsonValue[])).toContain('element 1 is');
  });

  it("float32's range: its largest value is accepted, anything past it refused (even if it would round to it)", () => {
    expect(decodeVector([FLOAT32_MAX, -FLOAT32_MAX])!.values).toEqual(Float32Array.from([FLOAT32_MAX, -FLOAT32_MAX]));
    const justPast = FLOAT32_MAX * (1 + 2 ** -40); // rounds to FLOAT32_MAX in float32
    expect(Math.fround(justPast)).toBe(FLOAT32_MAX);
    expect(reasonOf([0, justPast])).toContain('element 1 is out of range');
    expect(reasonOf([-justPast])).toContain('element 0 is out of range');
    expect(reasonOf([0, Infinity])).toContain('element 1 is out of range');
    expect(reasonOf([0, -1e300])).toContain('element 1 is out of range');
  });
});

describe('query vectors from a shared buffer (queryVectorArray)', () => {
  it('decode to the same float32s as a vector of its own, array or $binary, and refuse the same bad elements', () => {
    const numbers = [0.1, -2, 3.5e-20, 7, -0, FLOAT32_MAX, -FLOAT32_MAX];
    const own = decodeVector(numbers)!;
    const cut = decodeVector(numbers, queryVectorArray)!;
    expect(cut).toEqual(own);
    expect(decodeVector({ $binary: encodeBinaryVector(own.values) }, queryVectorArray)).toEqual({ values: own.values, form: 'binary' });
    expect(() => decodeVector([1, Number.NaN], queryVectorArray)).toThrow(/element 1 is null/);
  });

  it('many vectors in a row (past one buffer) each keep their own values; large ones get a buffer of their own', () => {
    const vectors: Float32Array[] = [];
    for (let i = 0; i < 300; i++) vectors.push(decodeVector(Array.from({ length: 128 }, (_, j) => i * 1000 + j), queryVectorArray)!.values);
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from({ length: 128 }, (_, j) => i * 1000 + j)));
    expect(new Set(vectors.map((v) => v.buffer)).size).toBeGreaterThan(1);
    const large = queryVectorArray(8192);
    expect(large.length).toBe(8192);
    expect(large.byteOffset).toBe(0);
    expect(large.buffer.byteLength).toBe(8192 * 4);
  });
});
