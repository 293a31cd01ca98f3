/**
 * `vectordb-local export`: writes a collection's documents (all, or those of --filter, up to --limit) as
 * NDJSON, a JSON array, CSV or Parquet (parquet-file.ts, loaded only then), to a file or stdout, through
 * the client's find (projection `{"*": 1}` by default, so `$vector` is kept). CSV cells are written so that `import` reads them back as the same
 * values (export-cells in csvCell). Progress goes to stderr. Exit code: 0, 2 when CSV left fields out, 1 on failure.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { JsonObject, JsonValue } from '../query/json.js';
import { Command, Option } from 'commander';
import { messageOf, openDatabase, withDatabaseOptions, type SourceFlags } from './database-source.js';
import { jsonObject, nameList, positiveInt, progressIntervalOption } from './option-parsers.js';
import { formatOf, looksLikeJson } from './import-records.js';
import { toJsonText } from '../query/exact-number.js';
import { formatCount, formatSeconds, ProgressDisplay } from './progress-display.js';
import { PARQUET_COMPRESSIONS, type ParquetCompression } from './parquet-codecs.js';

export type ExportFormat = 'ndjson' | 'json' | 'csv' | 'parquet';

export interface ExportFlags extends SourceFlags {
  collection: string;
  output?: string;
  format?: ExportFormat;
  filter?: JsonObject;
  projection?: JsonObject;
  limit?: number;
  vector: boolean;
  columns?: string[];
  /** Parquet only: the page compression (parquet-codecs.ts), snappy by default. */
  compression?: ParquetCompression;
  progressInterval: number;
}

/** Documents CSV columns are chosen from when --columns is not given. */
const COLUMN_SAMPLE = 1000;

export async function exportCollection(flags: ExportFlags): Promise<number> {
  const started = performance.now();
  const toStdout = flags.output === undefined || flags.output === '-';
  const format = flags.format ?? (toStdout ? 'ndjson' : formatOf(flags.output!));
  let db;
  try {
    db = await openDatabase(flags);
  } catch (error) {
    console.error(`vectordb-local export: ${messageOf(error)}`);
    return 1;
  }
  let display: ProgressDisplay | undefined;
  try {
    const collection = await db.collection(flags.collection);
    const projection = flags.projection ?? (flags.vector ? { '*': 1 } : {});
    const total = await expectedCount(collection, flags);
    const parquet = format === 'parquet';
    if (flags.compression !== undefined && !parquet) throw new Error(`--compression is for Parquet; the format here is ${format}`);
    const out: Writable | undefined = parquet && !toStdout ? undefined : toStdout ? process.stdout : createWriteStream(flags.output!);
    display = new ProgressDisplay({ label: 'export', total, intervalSeconds: flags.progressInterval });
    // The Parquet writer is loaded here only (parquet-file.ts); it writes its file itself.
    const writer = parquet ? new (await import('./parquet-file.js')).ParquetDocumentWriter(toStdout ? process.stdout : flags.output!, flags.columns, flags.compression) : new DocumentWriter(out!, format, flags.columns);
    let done = 0;
    for await (const document of collection.find({ filter: flags.filter ?? {}, projection })) {
      await writer.write(document as JsonObject);
      done++;
      if (done % 100 === 0) display.update({ done, total, failed: 0, rate: done / ((performance.now() - started) / 1000) });
      if (flags.limit !== undefined && done >= flags.limit) break;
    }
    await writer.end();
    if (!toStdout && out !== undefined) await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    display.stop();
    const seconds = (performance.now() - started) / 1000;
    console.error(`vectordb-local export: ${formatCount(done)} documents of ${flags.keyspace}.${flags.collection} to ${toStdout ? 'stdout' : flags.output} (${format}) in ${formatSeconds(seconds)}`);
    if (writer.leftOut.size > 0) {
      console.error(`vectordb-local export: ${formatCount(writer.documentsLeftOut)} documents had fields that are not ${parquet ? 'Parquet' : 'CSV'} columns (${[...writer.leftOut].join(', ')}): they were left out; name every column with --columns`);
      return 2;
    }
    return 0;
  } catch (error) {
    display?.stop();
    console.error(`vectordb-local export: ${messageOf(error)}`);
    return 1;
  } finally {
    await db.close().catch(() => undefined);
  }
}

async function expectedCount(collection: { countDocuments(filter: JsonObject, upperBound: number): Promise<number>; estimatedDocumentCount(): Promise<number> }, flags: ExportFlags): Promise<number | undefined> {
  let count: number | undefined;
  try {
    count = flags.filter === undefined || Object.keys(flags.filter).length === 0 ? await collection.estimatedDocumentCount() : await collection.countDocuments(flags.filter, 1000);
  } catch {
    count = undefined; // more than the server counts: progress without a total
  }
  return flags.limit !== undefined && (count === undefined || flags.limit < count) ? flags.limit : count;
}

/** Writes documents in one format, waiting when the output is full. */
class DocumentWriter {
  readonly #out: Writable;
  readonly #format: ExportFormat;
  #columns: string[] | undefined;
  readonly #sample: JsonObject[] = [];
  #count = 0;
  readonly leftOut = new Set<string>();
  documentsLeftOut = 0;

  constructor(out: Writable, format: ExportFormat, columns: string[] | undefined) {
    this.#out = out;
    this.#format = format;
    this.#columns = columns;
  }

  async write(document: JsonObject): Promise<void> {
    if (this.#format === 'csv' && this.#columns === undefined) {
      this.#sample.push(document);
      if (this.#sample.length >= COLUMN_SAMPLE) await this.#flushSample();
      return;
    }
    await this.#emit(document);
  }

  async end(): Promise<void> {
    if (this.#format === 'csv' && this.#columns === undefined) await this.#flushSample();
    if (this.#format === 'csv' && this.#count === 0) await this.#put(stringify([this.#columns ?? []]));
    if (this.#format === 'json') await this.#put(this.#count === 0 ? '[]\n' : '\n]\n');
  }

  async #flushSample(): Promise<void> {
    const columns: string[] = [];
    for (const document of this.#sample) for (const key of Object.keys(document)) if (!columns.includes(key)) columns.push(key);
    this.#columns = columns;
    for (const document of this.#sample.splice(0)) await this.#emit(document);
  }

  async #emit(document: JsonObject): Promise<void> {
    const first = this.#count === 0;
    this.#count++;
    if (this.#format === 'ndjson') return this.#put(`${toJsonText(document)}\n`);
    if (this.#format === 'json') return this.#put(`${first ? '[\n' : ',\n'}${toJsonText(document)}`);
    const columns = this.#columns!;
    const missing = Object.keys(document).filter((key) => !columns.includes(key));
    if (missing.length > 0) {
      this.documentsLeftOut++;
      for (const key of missing) this.leftOut.add(key);
    }
    const row = columns.map((column) => csvCell(document[column]));
    await this.#put(first ? stringify([columns, row]) : stringify([row]));
  }

  async #put(text: string): Promise<void> {
    if (!this.#out.write(text)) await once(this.#out, 'drain');
  }
}

/**
 * A value as CSV cell text that `import` infers back to the same value: JSON for everything but strings; a
 * string as itself unless it would read as JSON (a number, true, a quoted text...) or is empty, then quoted JSON.
 */
export function csvCell(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value === '' || looksLikeJson(value) ? JSON.stringify(value) : value;
  return toJsonText(value); // exact numbers digit for digit
}

export function exportCommand(): Command {
  return withDatabaseOptions(new Command('export'), 'source')
    .description('export a collection to NDJSON, a JSON array, CSV or Parquet, in a file or on stdout ($vector included)')
    .requiredOption('-c, --collection <name>', 'the collection to export')
    .option('-o, --output <file>', 'the file to write; - or none: stdout')
    .addOption(new Option('-f, --format <format>', 'the format (default: from the extension of --output, .csv, .json, .parquet, else NDJSON)').choices(['ndjson', 'json', 'csv', 'parquet']))
    .addOption(new Option('--filter <json>', 'only documents matching this Data API filter').argParser(jsonObject))
    .addOption(new Option('--projection <json>', 'a Data API projection (default {"*": 1}: everything, $vector included)').argParser(jsonObject))
    .addOption(new Option('--limit <n>', 'at most this many documents').argParser(positiveInt))
    .option('--no-vector', 'leave $vector out (the default projection of find)')
    .addOption(new Option('--columns <names>', 'CSV, Parquet: the columns, in order (default: the fields of the first 1,000 documents)').argParser(nameList))
    .addOption(new Option('--compression <codec>', 'Parquet: the page compression (default snappy, as pandas; zstd needs Node 22.15 or later)').choices(PARQUET_COMPRESSIONS))
    .addOption(progressIntervalOption())
    .addHelpText(
      'after',
      `
CSV cells hold JSON for numbers, booleans, null, objects and arrays ($vector as [..]); a string is written as
itself unless it would read back as something else, then as quoted JSON: \`import\` reads the file back unchanged.
Parquet columns take their type from the first 1,000 documents: $vector a list of FLOAT (what pandas and
PyArrow read as an array column), integers INT64, other numbers DOUBLE, strings UTF8, booleans, the rest JSON.
Exit code: 0, 2 when CSV or Parquet documents had fields outside the columns (left out), 1 on a failure.

Examples:
  $ vectordb-local export --data ./data -c docs -o docs.ndjson
  $ vectordb-local export --data ./data -c products --filter '{"category": "lamps"}' --limit 100 -f csv > lamps.csv
  $ vectordb-local export --data ./data -c docs -o docs.parquet
  $ vectordb-local export --data ./data -c docs -o docs.parquet --compression gzip
  $ vectordb-local export --endpoint http://127.0.0.1:8181 --token "$TOKEN" -c docs -o docs.json`,
    )
    .action(async (flags: ExportFlags) => process.exit(await exportCollection(flags)));
}
