/**
 * The order-preserving key encoding of table values (engine/tables/key-codec.ts): for random values of each
 * key type, LevelDB's order of the encodings (compareKeys) is the order of the values, ascending and, with
 * invertPart, descending; and parts joined by the separator sort part by part, prefixes first.
 */
import { describe, expect, it } from 'vitest';
import { encodeKeyPart, invertPart, joinKeyParts } from '../../src/engine/tables/key-codec.js';
import { coerceValue } from '../../src/engine/tables/values.js';
import type { ScalarType } from '../../src/engine/tables/schema.js';
import { keys } from '../../src/storage/index.js';

const { compareKeys } = keys;
const noTypes = () => undefined;

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Checks that sorting by encoding gives the value order (`compare`), both ways. */
function checkOrder<T>(type: ScalarType, values: readonly T[], input: (v: T) => unknown, compare: (a: T, b: T) => number): void {
  const encoded = values.map((v) => ({ v, key: encodeKeyPart(coerceValue(input(v) as never, { type }, noTypes)!, type) }));
  const byKey = [...encoded].sort((a, b) => compareKeys(a.key, b.key)).map((e) => e.v);
  expect(byKey.map((v) => JSON.stringify(v))).toEqual([...values].sort(compare).map((v) => JSON.stringify(v)));
  const descending = [...encoded].sort((a, b) => compareKeys(invertPart(a.key), invertPart(b.key))).map((e) => e.v);
  expect(descending.map((v) => JSON.stringify(v))).toEqual([...values].sort((a, b) => compare(b, a)).map((v) => JSON.stringify(v)));
  for (const { key } of encoded) expect(key.includes(keys.SEP)).toBe(false);
}

describe('table key encoding', () => {
  const rand = rng(17);
  const many = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make);

  it('int, bigint and varint: integer order across signs and lengths', () => {
    const ints = [...many(300, () => Math.round((rand() - 0.5) * 2 ** (1 + Math.floor(rand() * 31)))), 0, -1, 1, 2147483647, -2147483648];
    checkOrder('int', [...new Set(ints)], (v) => v, (a, b) => a - b);
    const bigs = [...new Set(many(300, () => Math.round((rand() - 0.5) * 2 ** (1 + Math.floor(rand() * 52)))))];
    checkOrder('bigint', bigs, (v) => v, (a, b) => a - b);
    checkOrder('varint', [...bigs, 2 ** 60, -(2 ** 70)], (v) => v, (a, b) => a - b);
  });

  it('decimal: numeric order whatever the exponent, including values a prefix of others', () => {
    const decimals = [...new Set([...many(300, () => Number(((rand() - 0.5) * 10 ** Math.floor(rand() * 12 - 6)).toPrecision(1 + Math.floor(rand() * 8)))), 0, 0.1, 0.15, 1, 10, 100, -0.1, -0.15, -1, -10, 1e-7, -1e-7])];
    checkOrder('decimal', decimals, (v) => v, (a, b) => a - b);
  });

  it('double, date, time, timestamp and timeuuid', () => {
    checkOrder('double', [...new Set([...many(200, () => (rand() - 0.5) * 1e6), 0, -0.5, 'Infinity', '-Infinity'].map(String))], (v) => (v.endsWith('Infinity') ? v : Number(v)), (a, b) => Number(a) - Number(b));
    const dates = ['-0001-12-31', '0000-01-01', '1969-12-31', '1970-01-01', '2024-02-29', '9999-12-31', '+10000-01-01', '-10000-06-01'];
    const dayOf = (d: string): number => {
      const [, y, m, day] = /^([+-]?\d+)-(\d\d)-(\d\d)$/.exec(d)!;
      return Number(y) * 372 + Number(m) * 31 + Number(day);
    };
    checkOrder('date', dates, (v) => v, (a, b) => dayOf(a) - dayOf(b));
    const times = ['00:00:00', '00:00:00.000000001', '09:59:59.9', '10:00:00', '23:59:59.999999999'];
    checkOrder('time', times, (v) => v, (a, b) => (a < b ? -1 : 1));
    const stamps = many(100, () => Math.floor(rand() * 4e12) - 1e12);
    checkOrder('timestamp', [...new Set(stamps)], (v) => new Date(v).toISOString(), (a, b) => a - b);
    // Version 1 UUIDs order by their timestamp, whose high field comes third in the text.
    const uuids = ['00000001-0000-1000-8000-000000000000', 'ffffffff-0000-1000-8000-000000000000', '00000000-0001-1000-8000-000000000000', '00000000-0000-1001-8000-000000000000'];
    checkOrder('timeuuid', uuids, (v) => v, (a, b) => uuids.indexOf(a) - uuids.indexOf(b));
  });

  it('text: UTF-16 code unit order, U+0000 and supplementary characters included', () => {
    const texts = ['', 'a', 'ab', 'a\u0000', 'a\u0001', 'b', '\uffff', '\u{1F600}', '\ue000', 'é', 'z'];
    checkOrder('text', texts, (v) => v, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  });

  it('joined parts sort part by part: a partition is one key range, shorter keys first', () => {
    const row = (...parts: number[]) => joinKeyParts(parts.map((p) => encodeKeyPart(p, 'int')));
    const sorted = [row(1, 5), row(1), row(-1, 9), row(1, -3), row(10, 0), row(2, 0)].sort(compareKeys);
    expect(sorted).toEqual([row(-1, 9), row(1), row(1, -3), row(1, 5), row(2, 0), row(10, 0)]);
  });
});
