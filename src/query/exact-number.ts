/**
 * Numbers as the Data API keeps them (BigDecimal, exact): the one place that decides how a number is held.
 * A JSON number whose text a double names exactly (its shortest decimal, as JSON.stringify writes it) is a
 * plain `number`; any other is a `bigint` (integers) or an `ExactDecimal` (bignumber.js). Also: exact
 * comparison across the three, and JSON text in and out without losing digits (lossless-json).
 */
import BigNumber from 'bignumber.js';
import { losslessJsonModule } from './deferred-packages.js';

/**
 * The decimal type of numbers no double names exactly: a bignumber.js BigNumber (`BigNumber.isBigNumber`
 * is true; every BigNumber method works). Like a bigint, JSON.stringify refuses it rather than writing a
 * string: write JSON with lossless-json's stringify, or read the digits with `toFixed()`.
 */
export const ExactDecimal = BigNumber.clone();
export type ExactDecimal = BigNumber;
ExactDecimal.prototype.toJSON = function refuse(): string {
  throw new ExactNumberInJsonError();
};

/** Thrown by JSON.stringify on an ExactDecimal; the lossless writers catch it. */
class ExactNumberInJsonError extends TypeError {
  constructor() {
    super('JSON.stringify cannot write an ExactDecimal without losing digits: use lossless-json stringify, or toFixed()');
  }
}

export type ExactNumber = bigint | ExactDecimal;
export type AnyNumber = number | ExactNumber;

export function isExactNumber(value: unknown): value is ExactNumber {
  return typeof value === 'bigint' || value instanceof ExactDecimal;
}

/** Any numeric value an application may hand in: a number, a bigint or a BigNumber from any copy of bignumber.js. */
export function isNumberLike(value: unknown): value is number | bigint | BigNumber {
  return typeof value === 'number' || typeof value === 'bigint' || BigNumber.isBigNumber(value);
}

/** The Data API's longest number literal. */
export const MAX_NUMBER_CHARS = 100;
const MAX_EXPONENT = 1000;

/** The held form of a JSON number's text (see the header). */
export function numberFromText(text: string): AnyNumber {
  // The Data API's parser refuses numbers longer than 100 characters; the exponent bound keeps digits finite.
  if (text.length > MAX_NUMBER_CHARS) throw new RangeError(`Number value length (${text.length}) exceeds the maximum allowed (${MAX_NUMBER_CHARS})`);
  const plain = Number(text);
  if (Number.isFinite(plain) && (String(plain) === text || new BigNumber(text).isEqualTo(plain))) return plain;
  const exact = new ExactDecimal(text);
  if (Math.abs(exact.e ?? 0) > MAX_EXPONENT) throw new RangeError(`Number value ${text} is out of range (exponent beyond ${MAX_EXPONENT})`);
  return exact.isInteger() ? BigInt(exact.toFixed()) : exact;
}

/** The held form of a numeric value (a bigint that a double names exactly becomes a number, and so on). */
export function normalizeNumber(value: number | bigint | BigNumber): AnyNumber {
  if (typeof value === 'number') return value;
  return numberFromText(typeof value === 'bigint' ? value.toString() : value.toFixed());
}

/** Any held number as a BigNumber, for exact arithmetic. */
export const toBigNumber = (value: AnyNumber): BigNumber => (typeof value === 'bigint' ? new BigNumber(value.toString()) : new BigNumber(value));

/** The held form of an arithmetic result (no length limit: only parsed text is held to one). */
export function fromBigNumber(value: BigNumber): AnyNumber {
  const plain = value.toNumber();
  if (Number.isFinite(plain) && value.isEqualTo(plain)) return plain;
  return value.isInteger() ? BigInt(value.toFixed()) : new ExactDecimal(value);
}

/** Exact numeric order of two numbers of any held form: negative, zero or positive. */
export function compareNumbers(a: AnyNumber, b: AnyNumber): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a !== 'object' && typeof b !== 'object') return a < b ? -1 : a > b ? 1 : 0; // number and bigint compare exactly
  return toBigNumber(a).comparedTo(toBigNumber(b)) ?? 0;
}

/** The digits of an exact number, as JSON writes it. */
export function exactText(value: ExactNumber): string {
  return typeof value === 'bigint' ? value.toString() : value.toFixed();
}

/** A double near the value (for ordering keys and anything that needs a float, such as vector components). */
export function approximate(value: AnyNumber): number {
  return typeof value === 'number' ? value : Number(exactText(value));
}

const NUMBER_WRITERS = [{ test: (value: unknown) => value instanceof ExactDecimal, stringify: (value: unknown) => (value as ExactDecimal).toFixed() }];

/** JSON text of a value with exact numbers written digit for digit (JSON.stringify's speed when there are none). */
export function toJsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof ExactNumberInJsonError) && !/BigInt/.test(String(error))) throw error;
    return losslessJsonModule().stringify(value, null, undefined, NUMBER_WRITERS) as string;
  }
}

/** A number no double may name exactly has more than 15 significant digits, or a 3-digit exponent. */
const MAYBE_EXACT = /[0-9][0-9.]{15}|[eE][+-]?[0-9]{3}/;

/** Parses JSON text, numbers held as numberFromText says (JSON.parse's speed when no number can need it). */
export function parseJsonText(text: string): unknown {
  return MAYBE_EXACT.test(text) ? parseLosslessJsonText(text) : JSON.parse(text);
}

/** Parses JSON text that is known to hold exact numbers. */
export function parseLosslessJsonText(text: string): unknown {
  return losslessJsonModule().parse(text, null, numberFromText);
}
