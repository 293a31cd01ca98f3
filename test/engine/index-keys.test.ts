import { describe, expect, it } from 'vitest';
import { compareKeys, encodeNumber, sortKeys } from '../../src/storage/keys.js';

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

describe('key order (LevelDB compares UTF-8 bytes)', () => {
  const pieces = ['a', 'z', '~', '\u00e9', '\u4e2d', '\uD7FF', '\uE000', '\uFFFD', '\uFFFF', '\u{1F600}', '\u{10000}', '\u{10FFFF}', '0', ''];
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const word = () => Array.from({ length: Math.floor(random() * 5) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
  const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

  it('compareKeys agrees with the bytes', () => {
    for (let i = 0; i < 20_000; i++) {
      const a = `s${word()}`;
      const b = `s${word()}`;
      expect(Math.sign(compareKeys(a, b)), JSON.stringify([a, b])).toBe(bytes(a, b));
    }
  });

  it('sortKeys orders as the bytes do, with and without code units past U+D7FF', () => {
    const mixed = Array.from({ length: 2000 }, () => `s${word()}`);
    const plain = Array.from({ length: 2000 }, (_, i) => `sdoc-${(i * 7919) % 2000}`);
    for (const keys of [mixed, plain]) expect(sortKeys([...keys])).toEqual([...keys].sort(bytes));
  });
});
