/**
 * The records of an import file, one at a time with their line numbers: NDJSON (one document per line),
 * a JSON array (streamed; line = the element's position), or CSV (csv-parse; a header row, cells typed by
 * --types or inferred); Parquet rows come from parquet-file.ts. Each record is a document or the reason it cannot be one. Also the field mapping
 * every format shares: --id-field, --vector-field, and the stable id given to a document without one.
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { JsonObject, JsonValue } from '../query/json.js';
import { isNumberLike, parseJsonText, toJsonText } from '../query/exact-number.js';
import { jsonArrayElements } from './json-array-stream.js';

export type ImportFormat = 'ndjson' | 'json' | 'csv' | 'parquet';
export type CellType = 'string' | 'number' | 'boolean' | 'json' | 'vector' | 'auto';

export interface ImportRecord {
  /** 1-based line of the record's start (for a JSON array, the element's position). */
  readonly line: number;
  readonly document?: JsonObject;
  /** Why the record is rejected. */
  readonly error?: string;
  /** The record's text, for the rejects file. */
  readonly text: string;
}

export interface RecordOptions {
  readonly format: ImportFormat;
  readonly idField?: string | undefined;
  readonly vectorField?: string | undefined;
  /** CSV: the type of named columns (others: `auto`, or `string` with inference off). */
  readonly types: Readonly<Record<string, CellType>>;
  readonly infer: boolean;
  readonly delimiter?: string;
}

export async function* readRecords(input: Readable, options: RecordOptions): AsyncGenerator<ImportRecord> {
  if (options.format === 'parquet') throw new Error('a Parquet file is read from its path (parquet-file.ts readParquetRecords), not from a stream');
  yield* mapRecords(options.format === 'csv' ? csvRecords(input, options) : options.format === 'json' ? jsonArrayRecords(input) : ndjsonRecords(input), options);
}

/** Records with the shared field mapping applied (--id-field, --vector-field, a stable id): for every format. */
export async function* mapRecords(raw: AsyncIterable<ImportRecord>, options: RecordOptions): AsyncGenerator<ImportRecord> {
  for await (const record of raw) yield record.document === undefined ? record : mapFields(record, options);
}

async function* ndjsonRecords(input: Readable): AsyncGenerator<ImportRecord> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    yield objectRecord(line, text, () => parseJsonText(text));
  }
}

async function* jsonArrayRecords(input: Readable): AsyncGenerator<ImportRecord> {
  input.setEncoding('utf8');
  for await (const { position, text } of jsonArrayElements(input as AsyncIterable<string>)) {
    const record = objectRecord(position, text, () => parseJsonText(text));
    // The record's text is the element's compact JSON whatever the file's layout (stable ids depend on it).
    yield record.document === undefined ? record : { ...record, text: toJsonText(record.document) };
  }
}

function objectRecord(line: number, text: string, parse: () => unknown): ImportRecord {
  let value: unknown;
  try {
    value = parse();
  } catch (error) {
    return { line, text, error: `not valid JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { line, text, error: `not a JSON object (a document must be an object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})` };
  return { line, text, document: value as JsonObject };
}

async function* csvRecords(input: Readable, options: RecordOptions): AsyncGenerator<ImportRecord> {
  const skipped: ImportRecord[] = [];
  const parser = input.pipe(
    parse({
      info: true,
      raw: true,
      bom: true,
      delimiter: options.delimiter ?? ',',
      skip_empty_lines: true,
      relax_column_count: true,
      skip_records_with_error: true,
      on_skip: (error, raw) => {
        skipped.push({ line: (error as { lines?: number } | undefined)?.lines ?? 0, text: raw ?? '', error: `not valid CSV: ${error?.message ?? 'unreadable record'}` });
        return undefined;
      },
    }),
  );
  let header: string[] | undefined;
  for await (const { record, info, raw } of parser as AsyncIterable<{ record: string[]; info: { lines: number }; raw: string }>) {
    yield* skipped.splice(0);
    const text = raw.replace(/\r?\n$/, '');
    const line = info.lines - (text.match(/\n/g)?.length ?? 0);
    if (header === undefined) {
      header = record;
      const duplicate = header.find((name, i) => header!.indexOf(name) !== i);
      if (duplicate !== undefined) throw new Error(`the CSV header names the column '${duplicate}' twice`);
      for (const name of Object.keys(options.types)) if (!header.includes(name)) throw new Error(`--types names '${name}', which is not a column of the CSV header (${header.join(', ')})`);
      continue;
    }
    if (record.length !== header.length) {
      yield { line, text, error: `has ${record.length} fields, the header has ${header.length}` };
      continue;
    }
    try {
      const document: JsonObject = {};
      header.forEach((name, i) => {
        const type = options.types[name] ?? (name === options.vectorField ? 'vector' : options.infer ? 'auto' : 'string');
        const value = cellValue(record[i]!, type, name);
        if (value !== undefined) document[name] = value;
      });
      yield { line, text, document };
    } catch (error) {
      yield { line, text, error: (error as Error).message };
    }
  }
  yield* skipped.splice(0);
}

/** A CSV cell as a JSON value; undefined (the field is left out) for an empty cell. */
export function cellValue(cell: string, type: CellType, column: string): JsonValue | undefined {
  if (cell === '') return undefined;
  switch (type) {
    case 'string':
      return cell;
    case 'number': {
      const n = numberCell(cell.trim());
      if (n === undefined) throw new Error(`column '${column}': '${cell}' is not a number`);
      return n;
    }
    case 'boolean':
      if (/^(true|1|yes)$/i.test(cell.trim())) return true;
      if (/^(false|0|no)$/i.test(cell.trim())) return false;
      throw new Error(`column '${column}': '${cell}' is not a boolean (true/false, 1/0, yes/no)`);
    case 'json':
      try {
        return parseJsonText(cell) as JsonValue;
      } catch (error) {
        throw new Error(`column '${column}': not valid JSON (${(error as Error).message})`);
      }
    case 'vector':
      return parseVector(cell, column);
    case 'auto':
      return inferValue(cell);
  }
}

/**
 * An inferred cell: what it reads as in JSON (a number, true, false, null, an object, an array or a quoted
 * string), else the text itself. The CSV export writes strings that would read otherwise as quoted JSON, so
 * its files come back unchanged.
 */
export function inferValue(cell: string): JsonValue {
  if (!looksLikeJson(cell)) return cell;
  try {
    return parseJsonText(cell) as JsonValue;
  } catch {
    return cell;
  }
}

/** A number cell held exactly (as a JSON number's text would be), or undefined when it is not a number. */
function numberCell(text: string): JsonValue | undefined {
  if (!/^-?\d/.test(text) && !/^[+.]\d/.test(text)) return undefined;
  try {
    const value = parseJsonText(text.replace(/^\+/, '').replace(/^(-?)\./, '$10.'));
    return isNumberLike(value) ? (value as JsonValue) : undefined;
  } catch {
    return undefined;
  }
}

export function looksLikeJson(text: string): boolean {
  return /^(-?\d|true$|false$|null$|[[{"])/.test(text);
}

/** What a vector cell may look like, for the messages of a cell that is none of them. */
const VECTOR_SPELLINGS = `[0.1, 0.2] (JSON), [0.1 0.2] (NumPy/pandas), '0.1 0.2', '0.1,0.2' or {"$binary": "<base64 float32>"}`;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A vector from its text, in every spelling a CSV file has it: a JSON array `[1, 2, 3]`; NumPy's and so
 * pandas' `[1. 2. 3.]` (spaces, line breaks inside the brackets; `np.float32(1.0)` items as NumPy 2 prints a
 * list of its scalars); bare `1 2 3` or `1,2,3`; or the Data API's `{"$binary": "<base64>"}`, kept as it is
 * (the database decodes it). The dimension is the collection's to check, so a wrong one is a reject with its
 * line like any other document the database refuses.
 */
export function parseVector(text: string, column: string): JsonValue {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return binaryVector(trimmed, column);
  let body = trimmed;
  if (trimmed.startsWith('[')) {
    try {
      const values: unknown = JSON.parse(trimmed);
      if (Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'number')) return values as number[];
    } catch {
      // Not JSON: NumPy's spelling, read below.
    }
    if (!trimmed.endsWith(']')) throw new Error(`vector '${column}': '[' without its closing ']'; expected ${VECTOR_SPELLINGS}`);
    body = trimmed.slice(1, -1).replace(/np\.float(?:16|32|64)\(([^()]*)\)/g, '$1');
  }
  const parts = body.split(/[\s,]+/).filter((part) => part !== '');
  if (parts.length === 0) throw new Error(`vector '${column}': empty; expected ${VECTOR_SPELLINGS}`);
  if (parts.includes('...')) {
    throw new Error(`vector '${column}': cut short with '...' (NumPy summarises long arrays when printing them: write them with .tolist(), or np.set_printoptions(threshold=sys.maxsize))`);
  }
  return parts.map((part) => {
    if (!DECIMAL.test(part)) throw new Error(`vector '${column}': '${part}' is not a finite number; expected ${VECTOR_SPELLINGS}`);
    return Number(part);
  });
}

function binaryVector(text: string, column: string): JsonValue {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`vector '${column}': not valid JSON (${(error as Error).message}); expected ${VECTOR_SPELLINGS}`);
  }
  const binary = (value as { $binary?: unknown } | null)?.$binary;
  if (typeof binary !== 'string' || Object.keys(value as object).length !== 1) throw new Error(`vector '${column}': an object must be {"$binary": "<base64 float32>"} alone`);
  if (!BASE64.test(binary) || binary.length % 4 !== 0) throw new Error(`vector '${column}': $binary is not base64 text`);
  return { $binary: binary };
}

/** --id-field and --vector-field, and a stable `_id` for a document without one (see stableId). */
function mapFields(record: ImportRecord, options: RecordOptions): ImportRecord {
  const document = { ...record.document! };
  try {
    const { idField, vectorField } = options;
    if (idField !== undefined && idField !== '_id') {
      if (document[idField] === undefined) throw new Error(`no '${idField}' field (--id-field)`);
      document._id = document[idField]!;
      delete document[idField];
    }
    if (vectorField !== undefined && vectorField !== '$vector' && document[vectorField] !== undefined) {
      const value = document[vectorField]!;
      document.$vector = typeof value === 'string' ? parseVector(value, vectorField) : value;
      delete document[vectorField];
    } else if (typeof document.$vector === 'string') {
      document.$vector = parseVector(document.$vector, '$vector');
    }
    if (document._id === undefined) return { ...record, document: { _id: stableId(record), ...document } };
    return { ...record, document };
  } catch (error) {
    return { line: record.line, text: record.text, error: (error as Error).message };
  }
}

/**
 * The id of a document that has none: a UUID-shaped hash of its line number and text, so re-running the
 * same import after a crash or Ctrl+C finds it already there instead of inserting it twice.
 */
export function stableId(record: { line: number; text: string }): string {
  const hex = createHash('sha256').update(`${record.line}\n${record.text}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The format a file name implies (NDJSON when none does). */
export function formatOf(file: string): ImportFormat {
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.json$/i.test(file)) return 'json';
  if (/\.parquet$/i.test(file)) return 'parquet';
  return 'ndjson';
}
