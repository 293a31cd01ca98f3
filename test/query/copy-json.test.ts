/**
 * copyJson (the copies the hit cache hands out) and the projections' key loops: deep, independent
 * copies in the same key order, and a `__proto__` field name stays an own field (JSON.parse makes it
 * one; plain assignment would set the prototype instead).
 */
import { describe, expect, it } from 'vitest';
import { copyJson, type JsonObject } from '../../src/query/json.js';
import { parseProjection } from '../../src/query/projection.js';

const withProtoField = (): JsonObject => JSON.parse('{"_id":1,"__proto__":{"polluted":true},"b":[1,{"c":2}],"$vector":[1,2]}') as JsonObject;

describe('copyJson', () => {
  it('copies every container, keeps key order and leaves the original alone', () => {
    const original = JSON.parse('{"z":1,"a":{"y":[1,[2,{"x":null}]],"b":"s"},"2":true,"1":false,"m":[]}') as JsonObject;
    const copy = copyJson(original);
    expect(copy).toEqual(original);
    expect(Object.keys(copy)).toEqual(Object.keys(original));
    expect(Object.keys(copy.a as JsonObject)).toEqual(['y', 'b']);
    expect(copy.a).not.toBe(original.a);
    expect((copy.a as JsonObject).y).not.toBe((original.a as JsonObject).y);
    ((((copy.a as JsonObject).y as JsonObject[])[1] as unknown as JsonObject[])[1] as JsonObject).x = 'changed';
    (copy.m as number[]).push(1);
    expect(original).toEqual(JSON.parse('{"z":1,"a":{"y":[1,[2,{"x":null}]],"b":"s"},"2":true,"1":false,"m":[]}'));
  });

  it('returns scalars as they are', () => {
    for (const value of [null, 0, -1.5, '', 'text', true, false]) expect(copyJson(value)).toBe(value);
  });

  it('keeps a `__proto__` field an own field, at every level', () => {
    const original = withProtoField();
    const copy = copyJson({ outer: original });
    const inner = copy.outer as JsonObject;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(inner, '__proto__')).toBe(true);
    expect(Object.keys(inner)).toEqual(['_id', '__proto__', 'b', '$vector']);
    expect(JSON.stringify(inner)).toBe(JSON.stringify(original));
    expect(inner.__proto__).not.toBe(original.__proto__);
  });
});

describe('projections over a `__proto__` field', () => {
  it('keep it as an own field in the default, `*` and path projections', () => {
    const doc = withProtoField();
    const byDefault = parseProjection(undefined).apply(doc, 0.5);
    expect(JSON.stringify(byDefault)).toBe('{"_id":1,"__proto__":{"polluted":true},"b":[1,{"c":2}],"$similarity":0.5}');
    expect(Object.getPrototypeOf(byDefault)).toBe(Object.prototype);
    expect(JSON.stringify(parseProjection({ '*': 1 }).apply(doc))).toBe(JSON.stringify(doc));
    expect(JSON.stringify(parseProjection({ b: 0 }).apply(doc))).toBe('{"_id":1,"__proto__":{"polluted":true}}');
    expect(JSON.stringify(parseProjection({ '__proto__.polluted': 1 }).apply(doc))).toBe('{"_id":1,"__proto__":{"polluted":true}}');
  });
});
