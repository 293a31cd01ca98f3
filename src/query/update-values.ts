/**
 * Value helpers for the update operators: decimal-exact $inc/$mul arithmetic, strict equality for
 * change detection, and type labels for error messages. Internal to update-*.ts.
 */
import { ejsonKeyOf, type JsonValue } from './json.js';

/**
 * Exact structural equality, sensitive to key order, with no EJSON folding: decides whether a
 * document really changed (jsonEquals treats `{"$uuid": u}` and `u` as equal, but replacing one by
 * the other is a change that must be written).
 */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
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
      return 'Number';
    case 'boolean':
      return 'Boolean';
    default:
      return EJSON_LABELS[ejsonKeyOf(value) ?? ''] ?? 'Object';
  }
}

const EJSON_LABELS: Readonly<Record<string, string>> = {
  $date: 'Date',
  $uuid: 'UUID',
  $objectId: 'ObjectId',
  $binary: 'Binary',
};

/** A finite double as an exact decimal: `digits * 10^-scale`, from its shortest text form. */
interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

function toDecimal(n: number): Decimal {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n));
  if (m === null) throw new RangeError(`not a finite number: ${n}`);
  const fraction = m[3] ?? '';
  const scale = fraction.length - Number(m[4] ?? 0);
  const digits = BigInt(`${m[1]}${m[2]}${fraction}`);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

function fromDecimal({ digits, scale }: Decimal): number {
  const negative = digits < 0n;
  let text = (negative ? -digits : digits).toString();
  if (scale > 0) {
    text = text.padStart(scale + 1, '0');
    text = `${text.slice(0, -scale)}.${text.slice(-scale)}`;
  }
  return Number(`${negative ? '-' : ''}${text}`);
}

/**
 * Decimal sums and products, as the Data API computes them with BigDecimal: `0.1 + 0.2` is `0.3`, not
 * `0.30000000000000004`. The result is the double nearest to the exact decimal result; it may be
 * infinite when it overflows (callers reject that).
 */
export function decimalAdd(a: number, b: number): number {
  const x = toDecimal(a);
  const y = toDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  const digits = x.digits * 10n ** BigInt(scale - x.scale) + y.digits * 10n ** BigInt(scale - y.scale);
  return fromDecimal({ digits, scale });
}

export function decimalMultiply(a: number, b: number): number {
  const x = toDecimal(a);
  const y = toDecimal(b);
  return fromDecimal({ digits: x.digits * y.digits, scale: x.scale + y.scale });
}
