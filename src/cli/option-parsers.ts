/**
 * commander argument parsers shared by the data commands: each turns a flag's text into a value or throws
 * InvalidArgumentError with what is expected.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { JsonObject } from '../query/json.js';
import type { CellType } from './import-records.js';

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n <= 0) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

/** Megabytes (MiB, fractions allowed, 0 too) as a whole number of bytes: --body-cache-mb. */
export function megabytes(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of megabytes, 0 or more');
  return Math.round(n * 1024 * 1024);
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
}

export function jsonObject(value: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError('must be a JSON object, e.g. \'{"color": "red"}\'');
  return parsed as JsonObject;
}

const CELL_TYPES: readonly CellType[] = ['string', 'number', 'boolean', 'json', 'vector', 'auto'];

/** `name:type,name:type` (repeatable) into a map. */
export function cellTypes(value: string, previous: Record<string, CellType> = {}): Record<string, CellType> {
  const types = { ...previous };
  for (const pair of value.split(',')) {
    const match = /^(.+):(\w+)$/.exec(pair.trim());
    if (!match || !CELL_TYPES.includes(match[2] as CellType)) throw new InvalidArgumentError(`expected column:type with a type of ${CELL_TYPES.join(', ')}, e.g. price:number,tags:json`);
    types[match[1]!] = match[2] as CellType;
  }
  return types;
}

export function nameList(value: string): string[] {
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new InvalidArgumentError('expected comma-separated names');
  return names;
}

/** --progress-interval, which every long command takes. */
export function progressIntervalOption(): Option {
  return new Option('--progress-interval <seconds>', 'when stderr is not a terminal: seconds between progress lines').argParser(positiveNumber).default(10);
}
