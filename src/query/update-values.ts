/**
 * Value helpers for the update operators: decimal-exact $inc/$mul arithmetic, strict equality for
 * change detection, and type labels for error messages. Internal to update-*.ts.
 */
import { fromBigNumber, isExactNumber, toBigNumber, type AnyNumber } from './exact-number.js';
import { ejsonKeyOf, type JsonValue } from './json.js';

/**
 * Exact structural equality, sensitive to key order, with no EJSON folding: decides whether a
 * document really changed (jsonEquals treats `{"$uuid": u}` and `u` as equal, but replacing one by
 * the other is a change that must be written).
 */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (isExactNumber(a) || isExactNumber(b)) return isExactNumber(a) && isExactNumber(b) && typeof a === typeof b && a.toString() === b.toString();
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => sameJson(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson(a[k], b[k]));
}

/** The type name used in update error messages ("String", "Array", "Date", ...). */
export function typeLabel(value: JsonValue): string {
  if (value === null) return 'Null';
  if (Array.isArray(value)) return 'Array';
  switch (typeof value) {
    case 'string':
      return 'String';
    case 'number':
    case 'bigint':
      return 'Number';
    case 'boolean':
      return 'Boolean';
    default:
      return isExactNumber(value) ? 'Number' : (EJSON_LABELS[ejsonKeyOf(value) ?? ''] ?? 'Object');
  }
}

const EJSON_LABELS: Readonly<Record<string, string>> = {
  $date: 'Date',
  $uuid: 'UUID',
  $objectId: 'ObjectId',
  $binary: 'Binary',
};

/**
 * Decimal sums and products, as the Data API computes them with BigDecimal: `0.1 + 0.2` is `0.3`, not
 * `0.30000000000000004`, and `9000000000000000000 + 123` is exact. The result is held as any number is
 * (exact-number.ts): a plain number when a double names it exactly.
 */
export function decimalAdd(a: AnyNumber, b: AnyNumber): AnyNumber {
  return fromBigNumber(toBigNumber(a).plus(toBigNumber(b)));
}

export function decimalMultiply(a: AnyNumber, b: AnyNumber): AnyNumber {
  return fromBigNumber(toBigNumber(a).times(toBigNumber(b)));
}
