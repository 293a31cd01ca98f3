/**
 * Parquet for `import` and `export`, loaded only by those commands when the format is parquet (hyparquet to
 * read, hyparquet-writer to write; both pure JS; page compression in parquet-codecs.ts): rows read one row group at a time as documents (a list
 * column is an array, so `--vector-field` takes it as the vector), and documents written with a schema chosen
 * from the first rows (`$vector` a list of FLOAT, numbers INT64 or DOUBLE, strings UTF8, booleans, the rest JSON).
 */
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import type { DecodedArray } from 'hyparquet';
import { ByteWriter, ParquetWriter, fileWriter, type SchemaElement, type Writer } from 'hyparquet-writer';
import type { JsonObject, JsonValue } from '../query/json.js';
import { approximate, isNumberLike, normalizeNumber, toJsonText } from '../query/exact-number.js';
import type { ImportRecord } from './import-records.js';
import { codecFor, decompressorsFor, type ParquetCompression } from './parquet-codecs.js';

/** The rows of a Parquet file as import records (line = row number, from 1), and how many there are. */
export async function readParquetRecords(file: string): Promise<{ total: number; records: AsyncGenerator<ImportRecord> }> {
  const buffer = await asyncBufferFromFile(file);
  const metadata = await parquetMetadataAsync(buffer);
  const compressors = await decompressorsFor(metadata);
  async function* records(): AsyncGenerator<ImportRecord> {
    let rowStart = 0;
    for (const group of metadata.row_groups) {
      const rowEnd = rowStart + Number(group.num_rows);
      const rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, ...(compressors ? { compressors } : {}) });
      for (const [i, row] of rows.entries()) {
        const document = jsonOf(row) as JsonObject;
        // null cells are absent fields, as pandas' NaN/None are "no value"
        for (const key of Object.keys(document)) if (document[key] === null) delete document[key];
        yield { line: rowStart + i + 1, document, text: toJsonText(document) };
      }
      rowStart = rowEnd;
    }
  }
  return { total: Number(metadata.num_rows), records: records() };
}

/** A value read by hyparquet as Data API JSON: integers exact, dates `{"$date": ms}`, bytes `{"$binary": base64}`. */
function jsonOf(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return normalizeNumber(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return { $date: value.getTime() };
  if (value instanceof Uint8Array) return { $binary: Buffer.from(value).toString('base64') };
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number | bigint>, jsonOf);
  if (Array.isArray(value)) return value.map(jsonOf);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonOf(v)]));
  return String(value);
}

type ColumnKind = 'vector' | 'boolean' | 'int' | 'double' | 'string' | 'json';

/** The kind of a column from the values a sample of documents has in it (absent and null values say nothing). */
function kindOf(field: string, values: readonly (JsonValue | undefined)[]): ColumnKind {
  const present = values.filter((v): v is JsonValue => v !== undefined && v !== null);
  if (field === '$vector' && present.every((v) => Array.isArray(v) && v.every((n) => typeof n === 'number'))) return 'vector';
  if (present.length === 0) return 'json';
  if (present.every((v) => typeof v === 'boolean')) return 'boolean';
  if (present.every((v) => isNumberLike(v))) return present.every((v) => (typeof v === 'number' ? Number.isSafeInteger(v) : typeof v === 'bigint' && BigInt.asIntN(64, v) === v)) ? 'int' : 'double';
  if (present.every((v) => typeof v === 'string')) return 'string';
  return 'json';
}

function schemaOf(name: string, kind: ColumnKind): SchemaElement[] {
  const optional = 'OPTIONAL' as const;
  switch (kind) {
    case 'vector':
      return [
        { name, repetition_type: optional, converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'FLOAT', repetition_type: 'REQUIRED' },
      ];
    case 'boolean':
      return [{ name, type: 'BOOLEAN', repetition_type: optional }];
    case 'int':
      return [{ name, type: 'INT64', repetition_type: optional }];
    case 'double':
      return [{ name, type: 'DOUBLE', repetition_type: optional }];
    case 'string':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional }];
    case 'json':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: optional }];
  }
}

/** A document's value as the column's kind wants it (undefined and null as null). */
function cellOf(kind: ColumnKind, value: JsonValue | undefined): unknown {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'int':
      return typeof value === 'bigint' ? value : BigInt(value as number);
    case 'double':
      return approximate(value as number);
    case 'json':
      return JSON.parse(toJsonText(value)) as unknown; // hyparquet-writer serialises it; exact numbers approximated
    default:
      return value;
  }
}

/** Rows per row group: small enough to hold in memory, large enough for pandas and DuckDB to read fast. */
const ROW_GROUP = 10_000;
/** Documents the columns and their types are chosen from. */
const COLUMN_SAMPLE = 1000;

/**
 * Writes documents as Parquet to a file (in chunks) or, for stdout, to memory and then `out`. Columns are the
 * fields of the first 1,000 documents (or `columns`); a later document's other fields are left out and counted.
 */
export class ParquetDocumentWriter {
  readonly leftOut = new Set<string>();
  documentsLeftOut = 0;
  readonly #target: string | NodeJS.WritableStream;
  readonly #writer: Writer;
  #columns: string[] | undefined;
  #kinds: ColumnKind[] = [];
  #parquet: ParquetWriter | undefined;
  #rows: JsonObject[] = [];
  readonly #compression: ReturnType<typeof codecFor>;

  /** Throws before writing anything when this Node cannot write `compression` (see parquet-codecs.ts). */
  constructor(target: string | NodeJS.WritableStream, columns: string[] | undefined, compression: ParquetCompression = 'snappy') {
    this.#compression = codecFor(compression);
    this.#target = target;
    this.#writer = typeof target === 'string' ? fileWriter(target) : new ByteWriter();
    this.#columns = columns;
  }

  async write(document: JsonObject): Promise<void> {
    this.#rows.push(document);
    if (this.#rows.length >= (this.#parquet === undefined ? COLUMN_SAMPLE : ROW_GROUP)) this.#flush();
  }

  async end(): Promise<void> {
    this.#flush();
    this.#start(); // a file without rows still has its schema
    await this.#parquet!.finish();
    if (typeof this.#target !== 'string') {
      const target = this.#target;
      await new Promise<void>((resolve, reject) => target.write(this.#writer.getBytes(), (error) => (error ? reject(error) : resolve())));
    }
  }

  #start(): void {
    if (this.#parquet !== undefined) return;
    const columns = this.#columns ?? [...new Set(this.#rows.flatMap((d) => Object.keys(d)))];
    this.#columns = columns;
    this.#kinds = columns.map((c) => kindOf(c, this.#rows.map((d) => d[c])));
    const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }, ...columns.flatMap((c, i) => schemaOf(c, this.#kinds[i]!))];
    this.#parquet = new ParquetWriter({ writer: this.#writer, schema, ...this.#compression, createdBy: 'vectordb-local export (hyparquet-writer)' });
  }

  #flush(): void {
    this.#start();
    const rows = this.#rows.splice(0);
    if (rows.length === 0) return;
    const columns = this.#columns!;
    for (const document of rows) {
      const missing = Object.keys(document).filter((key) => !columns.includes(key));
      if (missing.length > 0) {
        this.documentsLeftOut++;
        for (const key of missing) this.leftOut.add(key);
      }
    }
    const columnData = columns.map((name, i) => ({ name, data: rows.map((d) => cellOf(this.#kinds[i]!, d[name])) as DecodedArray }));
    this.#parquet!.write({ columnData, rowGroupSize: ROW_GROUP });
  }
}
