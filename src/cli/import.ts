/**
 * `vectordb-local import <file|->`: streams a file's documents (NDJSON, JSON array, CSV, Parquet) into a collection through the client
 * (insertMany / upsertMany of an AsyncIterable), with progress, a rejects file (line number and reason per
 * record not imported) and a summary. Ctrl+C stops reading, lets the chunks in flight land, and reports.
 * Re-running the same import inserts only what is missing: ids present are kept, and a document without an
 * id gets a stable one (import-records.ts stableId). Exit code: 0, 2 when some records were rejected, 1 on failure.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BulkWriteFailure, BulkWriteSummary } from '../client/inserts.js';
import type { SimilarityMetric } from '../client/collection-definition.js';
import type { JsonObject } from '../query/json.js';
import { Command, Option } from 'commander';
import { ensureKeyspace, messageOf, openDatabase, withDatabaseOptions, type SourceFlags } from './database-source.js';
import { cellTypes, positiveInt, progressIntervalOption } from './option-parsers.js';
import { formatOf, mapRecords, readRecords, type CellType, type ImportFormat, type ImportRecord, type RecordOptions } from './import-records.js';
import { formatCount, formatSeconds, ProgressDisplay } from './progress-display.js';

export interface ImportFlags extends SourceFlags {
  collection: string;
  format?: ImportFormat;
  create?: boolean;
  dimension?: number;
  metric: SimilarityMetric;
  mode: 'insert' | 'upsert';
  chunkSize?: number;
  concurrency: number;
  idField?: string;
  vectorField?: string;
  types?: Record<string, CellType>;
  infer: boolean;
  delimiter?: string;
  rejects?: string;
  progressInterval: number;
}

export const EXIT_REJECTED = 2;

/** Resolves with the process exit code. */
export async function importFile(file: string, flags: ImportFlags): Promise<number> {
  const started = performance.now();
  const format = flags.format ?? (file === '-' ? 'ndjson' : formatOf(file));
  let db;
  try {
    db = await openDatabase(flags);
  } catch (error) {
    console.error(`vectordb-local import: ${messageOf(error)}`);
    return 1;
  }
  const rejects = new RejectsFile(flags.rejects ?? (file === '-' ? 'import.rejects.ndjson' : `${file}.rejects.ndjson`));
  let display: ProgressDisplay | undefined;
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write('\nvectordb-local import: interrupted: finishing the chunks in flight (Ctrl+C again to quit at once)\n');
  };
  process.on('SIGINT', onSigint);
  try {
    if (flags.create) {
      await ensureKeyspace(db, flags.keyspace);
      await (flags.dimension !== undefined ? db.createCollection(flags.collection, flags.dimension, flags.metric) : db.createCollection(flags.collection));
    }
    const collection = await db.collection(flags.collection);
    let input: Readable | undefined;
    let raw: AsyncIterable<ImportRecord>;
    let total: number | undefined;
    if (format === 'parquet') {
      if (file === '-') throw new Error('a Parquet file cannot be read from stdin: name the file');
      // Loaded here only: the Parquet reader stays out of every other path (parquet-file.ts).
      ({ total, records: raw } = await (await import('./parquet-file.js')).readParquetRecords(file));
      raw = mapRecords(raw, recordOptions(format, flags));
    } else {
      input = file === '-' ? process.stdin : createReadStream(file);
      total = file === '-' || format === 'json' ? undefined : await countRecords(file, format === 'csv');
      raw = readRecords(input, recordOptions(format, flags));
    }
    display = new ProgressDisplay({ label: 'import', total, intervalSeconds: flags.progressInterval, failedLabel: 'rejected' });
    const lines = new LineMap();
    let parseRejected = 0;
    let alreadyPresent = 0;
    async function* documents(): AsyncGenerator<JsonObject> {
      let index = 0;
      for await (const record of raw) {
        if (interrupted) break;
        if (record.document === undefined) {
          parseRejected++;
          rejects.write(record.line, record.error!, { text: record.text });
          continue;
        }
        lines.note(index++, record.line);
        yield record.document;
      }
      if (interrupted) input?.destroy();
    }
    const onFailure = (failure: BulkWriteFailure): void => {
      if (failure.error?.errorCode === 'DOCUMENT_ALREADY_EXISTS') {
        alreadyPresent++;
        return;
      }
      rejects.write(lines.lineOf(failure.index), failure.error ? `${failure.error.errorCode}: ${failure.error.message}` : 'not processed', { document: failure.document });
    };
    const onProgress = (p: { done: number; failed: number; rate: number }): void => display!.update({ ...p, total, failed: p.failed - alreadyPresent + parseRejected, done: p.done + parseRejected });
    const options = { concurrency: flags.concurrency, ...(flags.chunkSize ? { chunkSize: flags.chunkSize } : {}), onProgress, onFailure };
    const summary: BulkWriteSummary =
      flags.mode === 'upsert' ? await collection.upsertMany(documents(), options) : await collection.insertMany(documents(), { ...options, ordered: false });
    display.stop();
    await rejects.close();
    const rejected = summary.failed - alreadyPresent + parseRejected;
    const seconds = (performance.now() - started) / 1000;
    const parts = [`inserted ${formatCount(summary.inserted)}`];
    if (flags.mode === 'upsert') parts.push(`updated ${formatCount(summary.updated)}`, `unchanged ${formatCount(summary.unchanged)}`);
    if (alreadyPresent > 0) parts.push(`already present ${formatCount(alreadyPresent)}`);
    parts.push(`rejected ${formatCount(rejected)}${rejected > 0 ? ` (see ${rejects.file})` : ''}`);
    const read = summary.processed + parseRejected;
    console.error(
      `vectordb-local import${interrupted ? ' (interrupted: run the same command again to import the rest)' : ''}: ${formatCount(read)} records of ${file === '-' ? 'stdin' : file} into ${flags.keyspace}.${flags.collection}: ${parts.join(', ')} in ${formatSeconds(seconds)} (${formatCount(Math.round(read / Math.max(seconds, 0.001)))} records/s)`,
    );
    if (interrupted) return 130;
    return rejected > 0 ? EXIT_REJECTED : 0;
  } catch (error) {
    display?.stop();
    await rejects.close().catch(() => undefined);
    console.error(`vectordb-local import: ${messageOf(error)}`);
    return 1;
  } finally {
    // Still ours while the database closes (it may be saving its graph): a Ctrl+C then says so instead of killing it.
    await db.close().catch(() => undefined);
    process.off('SIGINT', onSigint);
  }
}

function recordOptions(format: ImportFormat, flags: ImportFlags): RecordOptions {
  return { format, idField: flags.idField, vectorField: flags.vectorField, types: flags.types ?? {}, infer: flags.infer, ...(flags.delimiter ? { delimiter: flags.delimiter } : {}) };
}

/** Maps a document's position in the stream to its line: a list of the points where the offset changes. */
class LineMap {
  readonly #starts: number[] = [];
  readonly #offsets: number[] = [];

  note(index: number, line: number): void {
    if (this.#offsets.at(-1) !== line - index) {
      this.#starts.push(index);
      this.#offsets.push(line - index);
    }
  }

  lineOf(index: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return index + (this.#offsets[lo] ?? 1);
  }
}

/** The rejects file, created at the first reject: one JSON object per line {line, reason, text|document}. */
class RejectsFile {
  readonly file: string;
  #stream: WriteStream | undefined;

  constructor(file: string) {
    this.file = path.resolve(file);
  }

  write(line: number, reason: string, what: { text?: string; document?: JsonObject }): void {
    this.#stream ??= createWriteStream(this.file);
    this.#stream.write(`${JSON.stringify({ line, reason, ...what })}\n`);
  }

  async close(): Promise<void> {
    const stream = this.#stream;
    if (stream) await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}

/** Records in a file for the progress total: its lines (less a CSV's header), counted in one quick pass. */
async function countRecords(file: string, csv: boolean): Promise<number | undefined> {
  if (!(await stat(file)).isFile()) return undefined;
  let lines = 0;
  let last = 10;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    if (chunk.length > 0) last = chunk[chunk.length - 1]!;
  }
  if (last !== 10) lines++; // a last line without a newline
  return Math.max(0, csv ? lines - 1 : lines);
}

export function importCommand(): Command {
  return withDatabaseOptions(new Command('import').argument('<file>', 'the file to import; - reads stdin (NDJSON unless --format says otherwise)'), 'target')
    .description('import documents from NDJSON, a JSON array, CSV or Parquet into a collection, with progress and a rejects file')
    .requiredOption('-c, --collection <name>', 'the collection to import into')
    .addOption(new Option('-f, --format <format>', 'the file format (default: from the extension, .csv, .json, .parquet, else NDJSON)').choices(['ndjson', 'json', 'csv', 'parquet']))
    .option('--create', 'create the collection (and keyspace) when missing', false)
    .addOption(new Option('--dimension <n>', 'with --create: the vector dimension (no vectors without it)').argParser(positiveInt))
    .addOption(new Option('--metric <metric>', 'with --create: the vector similarity metric').choices(['cosine', 'dot_product', 'euclidean']).default('cosine'))
    .addOption(new Option('-m, --mode <mode>', 'insert (documents whose _id exists are skipped) or upsert (they are replaced)').choices(['insert', 'upsert']).default('insert'))
    .addOption(new Option('--chunk-size <n>', 'documents per insertMany request (default: the database limit, 20)').argParser(positiveInt))
    .addOption(new Option('--concurrency <n>', 'requests in flight at once').argParser(positiveInt).default(4))
    .option('--id-field <field>', 'the field that holds the document id (becomes _id)')
    .option('--vector-field <field>', 'the field or column that holds the vector (becomes $vector; a Parquet list column, or [1, 2], NumPy [1. 2.], "1 2", "1,2" or {"$binary": ...})')
    .addOption(new Option('--types <column:type,...>', 'CSV: the type of columns: string, number, boolean, json, vector, auto (repeatable)').argParser(cellTypes))
    .option('--no-infer', 'CSV: keep untyped cells as strings (default: read numbers, true/false, null, JSON and "quoted" text)')
    .option('--delimiter <char>', 'CSV: the field delimiter', ',')
    .option('--rejects <file>', 'where rejected records go, one JSON line each with its line number and reason (default: <file>.rejects.ndjson)')
    .addOption(progressIntervalOption())
    .addHelpText(
      'after',
      `
A progress bar shows on a terminal (count, rate, ETA), a plain line every --progress-interval seconds elsewhere,
and a summary at the end. A record that cannot be imported (bad JSON, a wrong field count, a value the database
refuses) does not stop the import: it goes to the rejects file. Documents without an _id get one derived from
their line number and text, so running the same import again after a crash or Ctrl+C inserts only what is missing.
Exit code: 0 when every record was imported (or already there), ${EXIT_REJECTED} when some were rejected, 1 on a failure, 130 after Ctrl+C.

Examples:
  $ vectordb-local import docs.ndjson --data ./data -c docs --create --dimension 384 --metric cosine
  $ vectordb-local import products.csv --data ./data -c products --vector-field embedding --types sku:string,price:number
  $ cat docs.ndjson | vectordb-local import - --endpoint http://127.0.0.1:8181 --token "$TOKEN" -c docs --mode upsert
  $ vectordb-local import embeddings.parquet --data ./data -c docs --create --dimension 384 --vector-field embedding
  $ vectordb-local import dump.json --home ~/.vectordb-local --database catalog --token "$ORG_TOKEN" -c items --id-field sku`,
    )
    .action(async (file: string, flags: ImportFlags) => process.exit(await importFile(file, flags)));
}
