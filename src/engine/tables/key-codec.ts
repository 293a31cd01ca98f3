/**
 * The order-preserving encoding of table values in keys (format in storage/keys.ts): each stored scalar
 * becomes a string without U+0000 whose code point order is the value order of its type; U+0000 sorts
 * below every character used, so parts joined by it sort part by part.
 */
import type { JsonValue } from '../../query/json.js';
import { keys } from '../../storage/index.js';
import type { ScalarType } from './schema.js';

const { SEP, escapeString, encodeNumber } = keys;

/** Encodes one stored scalar of `type` (see tables/values.ts for the stored forms). */
export function encodeKeyPart(value: JsonValue, type: ScalarType): string {
  switch (type) {
    case 'tinyint':
    case 'smallint':
    case 'int':
      return encodeInteger(String(value));
    case 'bigint':
    case 'varint':
      return encodeInteger(value as string);
    case 'decimal':
      return encodeDecimal(value as string);
    case 'float':
    case 'double':
      return encodeNumber(typeof value === 'number' ? value : Number(value));
    case 'boolean':
      return value ? '1' : '0';
    case 'timestamp':
      return encodeInteger(String(value));
    case 'date':
      return encodeDate(value as string);
    case 'time':
      return encodeTime(value as string);
    case 'timeuuid': {
      // Time order: the 60-bit timestamp (high, mid, low fields), then clock sequence and node.
      const s = value as string;
      return `${s.slice(15, 18)}${s.slice(9, 13)}${s.slice(0, 8)}${s.slice(19, 23)}${s.slice(24)}`;
    }
    default:
      // text, ascii, varchar, uuid, inet, duration, blob (base64 is not byte order, but equality is all they need)
      return escapeString(value as string);
  }
}

/**
 * An integer given as decimal digits: sign class ('0' negative, '1' zero, '2' positive), then the digit
 * count (its own length first), then the digits; negatives have that tail inverted so larger magnitudes sort first.
 */
export function encodeInteger(text: string): string {
  const negative = text.startsWith('-');
  const digits = text.replace(/^[+-]?0*/, '');
  if (digits === '') return '1';
  const tail = lengthPrefix(digits.length) + digits;
  return negative ? `0${invertAscii(tail)}` : `2${tail}`;
}

function lengthPrefix(length: number): string {
  const text = String(length);
  return String.fromCharCode(0x21 + text.length) + text;
}

/** ASCII 0x21..0x7e mirrored, so the order of ASCII tails reverses. */
function invertAscii(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += String.fromCharCode(0x9f - s.charCodeAt(i));
  return out;
}

/**
 * A canonical decimal as sign class, then its exponent (as encodeInteger) and its significant digits;
 * negatives invert both and end with U+007F so that a shorter significand sorts after a longer one.
 */
function encodeDecimal(text: string): string {
  if (text === '0') return '1';
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace(/^-/, '').split('.');
  const all = whole + fraction;
  const lead = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(lead).replace(/0+$/, '');
  const exponent = whole.replace(/^0+/, '').length > 0 ? whole.length : -lead + whole.length;
  const tail = encodeInteger(String(exponent)) + digits;
  return negative ? `0${invertAscii(tail)}\u007f` : `2${tail}`;
}

function encodeDate(text: string): string {
  const [, year, month, day] = /^([+-]?\d+)-(\d{2})-(\d{2})$/.exec(text)!;
  return encodeInteger(String(daysFromCivil(Number(year), Number(month), Number(day))));
}

/** Days since 1970-01-01 of a proleptic Gregorian date, for any year (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function encodeTime(text: string): string {
  const [hms, fraction = ''] = text.split('.');
  const [h, m, s] = hms!.split(':').map(Number);
  return encodeInteger(String(((BigInt(h!) * 60n + BigInt(m!)) * 60n + BigInt(s!)) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0') || '0')));
}

/**
 * A descending part: every code point c becomes 0x10FFFF - c in four fixed-width ASCII characters, then
 * U+007F, which is above all of them, so the order reverses and stays prefix-free.
 */
export function invertPart(part: string): string {
  let out = '';
  for (const ch of part) {
    const v = 0x10ffff - ch.codePointAt(0)!;
    out += String.fromCharCode(0x30 + ((v >> 18) & 63), 0x30 + ((v >> 12) & 63), 0x30 + ((v >> 6) & 63), 0x30 + (v & 63));
  }
  return out + '\u007f';
}

/** A row key: the primary key's parts joined by the separator (descending clustering parts inverted). */
export function joinKeyParts(parts: readonly string[]): string {
  return parts.join(SEP);
}
