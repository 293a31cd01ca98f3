import { describe, expect, it } from 'vitest';
import { encodeNumber } from '../../src/storage/keys.js';

/** The reference encoding (the one the stored index was written with): big-endian float64, sign flipped. */
function reference(value: number): string {
  const buffer = Buffer.alloc(8);
  buffer.writeDoubleBE(value === 0 ? 0 : value);
  if (buffer[0]! & 0x80) for (let i = 0; i < 8; i++) buffer[i] = ~buffer[i]! & 0xff;
  else buffer[0] = buffer[0]! | 0x80;
  return buffer.toString('hex');
}

describe('index number encoding', () => {
  const values = [0, -0, 1, -1, 0.5, -0.5, 1e-300, -1e-300, 1e300, -1e300, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, 1_700_000_000_000, -42.25];
  for (let i = 0; i < 500; i++) values.push((i % 2 ? -1 : 1) * (i * 7919.123) ** ((i % 7) - 3));

  it('is unchanged on disk (same digits as the stored format)', () => {
    for (const value of values) expect(encodeNumber(value)).toBe(reference(value));
  });

  it('sorts as the numbers do, with -0 equal to 0', () => {
    const sorted = [...values].sort((a, b) => a - b);
    const encoded = sorted.map(encodeNumber);
    for (let i = 1; i < encoded.length; i++) expect(encoded[i - 1]! <= encoded[i]!).toBe(true);
    expect(encodeNumber(-0)).toBe(encodeNumber(0));
  });
});
