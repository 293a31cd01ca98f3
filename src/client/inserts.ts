/**
 * Insert and upsert of one or many documents, as VectorDBCollection runs them. Many documents go in
 * chunks of the database's insertMany limit (one `insertMany` with returnDocumentResponses each), run by
 * `concurrency` workers; every document gets a status in input order. Upsert = insert, then each
 * ALREADY_EXISTS document is replaced by `_id` (findOneAndReplace with upsert, seed 4.1). Failures throw
 * once everything that can run has run, with every document's status in `error.results`.
 * Internal to the client (not exported by the package).
 */
import type { CommandResponse } from '../commands/response.js';
import type { WireError } from '../errors/index.js';
import type { JsonObject, JsonValue } from '../query/json.js';
import { Document, documentJson } from './documents.js';
import { exceptionFor } from './errors.js';
import { DocumentMutationResult, DocumentMutationStatus, JsonDocumentMutationResult, MutationResult } from './results.js';
import type { DocumentId } from './types.js';
import { parseJson } from './wire.js';
import { ProgressMeter, type ProgressListener } from './progress.js';

/** How a collection reaches its database. */
export interface CollectionChannel {
  /** Runs a command; throws the typed exception of an error response. */
  run(command: JsonObject): Promise<CommandResponse>;
  /** Runs a command; resolves to the envelope, errors included. */
  send(command: JsonObject): Promise<CommandResponse>;
  insertManyLimit(): Promise<number>;
}

export interface WriteManyOptions {
  chunkSize?: number | undefined;
  concurrency?: number | undefined;
  ordered?: boolean | undefined;
  upsert: boolean;
  /** chunkSize must be 1..limit (the chunked forms); otherwise the server judges it. */
  checkChunkSize: boolean;
}

interface Input {
  readonly json: JsonObject;
  readonly typed: Document<unknown> | undefined;
}

interface Outcome {
  result: MutationResult<unknown>;
  error?: WireError;
}

type AnyResult = MutationResult<unknown>;

/** insertOne: CREATED, or the typed exception (DocumentAlreadyExistsException for an existing `_id`). */
export async function insertOne(channel: CollectionChannel, document: unknown): Promise<AnyResult> {
  const input = inputOf(document);
  const response = await channel.run({ insertOne: { document: input.json } });
  const id = (response.status?.insertedIds as DocumentId[] | undefined)?.[0] as DocumentId;
  return resultOf(input, id, DocumentMutationStatus.CREATED);
}

/** upsertOne: replace-with-upsert by `_id` (CREATED, UPDATED or UNCHANGED); without `_id` an insert. */
export async function upsertOne(channel: CollectionChannel, document: unknown): Promise<AnyResult> {
  const input = inputOf(document);
  if (input.json._id === undefined) return insertOne(channel, input.typed ?? input.json);
  const response = await channel.run(replaceCommand(input.json));
  return resultOf(input, input.json._id as DocumentId, replaceStatus(response.status ?? {}));
}

/** What a bulk write of a stream (an AsyncIterable) resolves to: counts only, so memory stays bounded. */
export interface BulkWriteSummary {
  /** Documents read from the input and sent. */
  readonly processed: number;
  /** Inserted (CREATED). */
  readonly inserted: number;
  /** Replaced by upsert (UPDATED). */
  readonly updated: number;
  /** Upserted identical to what was stored (UNCHANGED). */
  readonly unchanged: number;
  /** Failed (each one reported to `onFailure`), including ALREADY_EXISTS of an insert. */
  readonly failed: number;
}

/** One document that was not written, as reported to `onFailure`. */
export interface BulkWriteFailure {
  /** Its position in the input (0-based). */
  readonly index: number;
  readonly document: JsonObject;
  /** ALREADY_EXISTS or NOT_PROCESSED. */
  readonly status: DocumentMutationStatus;
  /** The error the database answered with (absent for a document not sent after an ordered write stopped). */
  readonly error?: WireError;
}

/** The streaming and progress options every bulk write takes. */
export interface BulkWriteHooks {
  onProgress?: ProgressListener | undefined;
  /** Called for each document not written; with it, a stream's failures do not make the write throw. */
  onFailure?: ((failure: BulkWriteFailure) => void) | undefined;
  /** Documents expected, for progress (an array's length is known). */
  total?: number | undefined;
}

/** A chunk of the input and where it starts. */
interface Chunk {
  readonly index: number;
  readonly first: number;
  readonly inputs: Input[];
}

/**
 * insertMany / upsertMany and their chunked forms. An array or iterable resolves to every document's
 * result in input order; an AsyncIterable is read a chunk at a time (at most `concurrency` chunks in
 * memory) and resolves to a {@link BulkWriteSummary}.
 */
export async function writeMany(channel: CollectionChannel, documents: unknown, options: WriteManyOptions & BulkWriteHooks): Promise<AnyResult[] | BulkWriteSummary> {
  if (isAsyncIterable(documents)) return writeStream(channel, documents, options);
  const inputs = inputsOf(documents);
  const { concurrency, chunkSize, ordered } = await checkOptions(channel, options);
  if (inputs.length === 0) return [];
  const outcomes: Outcome[][] = [];
  const meter = new ProgressMeter(options.onProgress, options.total ?? inputs.length);
  let next = 0;
  const pull = async (): Promise<Chunk | undefined> => {
    if (next >= inputs.length) return undefined;
    const first = next;
    next += chunkSize;
    return { index: first / chunkSize, first, inputs: inputs.slice(first, first + chunkSize) };
  };
  await runChunks(channel, pull, { concurrency, ordered, upsert: options.upsert }, (chunk, chunkOutcomes) => {
    outcomes[chunk.index] = chunkOutcomes;
    meter.add(chunkOutcomes.length, chunkOutcomes.filter((o) => o.error).length);
  });
  const all = inputs.map((input, i) => outcomes[Math.floor(i / chunkSize)]?.[i % chunkSize] ?? { result: resultOf(input, input.json._id as DocumentId | undefined, DocumentMutationStatus.NOT_PROCESSED) });
  const errors = all.flatMap((o) => (o.error ? [o.error] : []));
  const results = all.map((o) => o.result);
  all.forEach((o, index) => {
    if (o.result.status === DocumentMutationStatus.ALREADY_EXISTS || o.result.status === DocumentMutationStatus.NOT_PROCESSED) {
      options.onFailure?.({ index, document: inputs[index]!.json, status: o.result.status, ...(o.error ? { error: o.error } : {}) });
    }
  });
  if (errors.length > 0) {
    const insertedIds = results.filter((r) => r.status === DocumentMutationStatus.CREATED).map((r) => r.id as JsonValue);
    throw exceptionFor({ status: { insertedIds }, errors }, { results });
  }
  return results;
}

/** Writes an AsyncIterable chunk by chunk; only counts are kept. */
async function writeStream(channel: CollectionChannel, documents: AsyncIterable<unknown>, options: WriteManyOptions & BulkWriteHooks): Promise<BulkWriteSummary> {
  const { concurrency, chunkSize, ordered } = await checkOptions(channel, options);
  const meter = new ProgressMeter(options.onProgress, options.total);
  const counts = { processed: 0, inserted: 0, updated: 0, unchanged: 0, failed: 0 };
  const firstErrors: WireError[] = [];
  const iterator = documents[Symbol.asyncIterator]();
  let read = 0;
  let index = 0;
  let ended = false;
  // One reader at a time: concurrent workers would otherwise interleave the iterator's steps.
  let reading: Promise<unknown> = Promise.resolve();
  const readChunk = async (): Promise<Chunk | undefined> => {
    const inputs: Input[] = [];
    const first = read;
    while (!ended && inputs.length < chunkSize) {
      const step = await iterator.next();
      if (step.done) {
        ended = true;
        break;
      }
      try {
        inputs.push(inputOf(step.value));
      } catch (error) {
        throw new TypeError(`documents[${read}]: ${(error as Error).message}`);
      }
      read++;
    }
    return inputs.length === 0 ? undefined : { index: index++, first, inputs };
  };
  const pull = (): Promise<Chunk | undefined> => {
    const result = reading.then(readChunk);
    reading = result.catch(() => undefined);
    return result;
  };
  let stoppedAt: number | undefined;
  try {
    stoppedAt = await runChunks(channel, pull, { concurrency, ordered, upsert: options.upsert }, (chunk, outcomes) => {
      let failed = 0;
      outcomes.forEach((outcome, i) => {
        const status = outcome.result.status;
        counts.processed++;
        if (status === DocumentMutationStatus.CREATED) counts.inserted++;
        else if (status === DocumentMutationStatus.UPDATED) counts.updated++;
        else if (status === DocumentMutationStatus.UNCHANGED) counts.unchanged++;
        else {
          failed++;
          if (outcome.error && firstErrors.length < 10) firstErrors.push(outcome.error);
          options.onFailure?.({ index: chunk.first + i, document: chunk.inputs[i]!.json, status, ...(outcome.error ? { error: outcome.error } : {}) });
        }
      });
      counts.failed += failed;
      meter.add(outcomes.length, failed);
    });
  } finally {
    if (!ended) await iterator.return?.();
  }
  if (counts.failed > 0 && options.onFailure === undefined) {
    // The first errors only (a stream's results are not kept); pass onFailure to see every one.
    throw exceptionFor({ status: { insertedCount: counts.inserted, failedCount: counts.failed, ...(stoppedAt !== undefined ? { stoppedAt } : {}) }, errors: firstErrors });
  }
  return counts;
}

/**
 * Runs chunks from `pull` with `concurrency` workers, handing each chunk's outcomes to `done`. An ordered
 * write stops pulling at the first failure; resolves with the input position it stopped at, if it did.
 */
async function runChunks(
  channel: CollectionChannel,
  pull: () => Promise<Chunk | undefined>,
  options: { concurrency: number; ordered: boolean; upsert: boolean },
  done: (chunk: Chunk, outcomes: Outcome[]) => void,
): Promise<number | undefined> {
  let stoppedAt: number | undefined;
  const worker = async (): Promise<void> => {
    while (stoppedAt === undefined) {
      const chunk = await pull();
      if (chunk === undefined) return;
      const outcomes = await writeChunk(channel, chunk.inputs, options.ordered, options.upsert);
      done(chunk, outcomes);
      if (options.ordered && outcomes.some((o) => o.error)) stoppedAt = chunk.first + chunk.inputs.length;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return stoppedAt;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === 'object' && Symbol.asyncIterator in value && !Array.isArray(value);
}

async function writeChunk(channel: CollectionChannel, chunk: readonly Input[], ordered: boolean, upsert: boolean): Promise<Outcome[]> {
  const response = await channel.send({
    insertMany: { documents: chunk.map((input) => input.json), options: { ordered: ordered && !upsert, returnDocumentResponses: true } },
  });
  const responses = response.status?.documentResponses as { _id: DocumentId; status: string; errorsIdx?: number }[] | undefined;
  const errors = response.errors ?? [];
  if (!responses) {
    // The whole command failed (shape, limit, collection): nothing of the chunk was written.
    return chunk.map((input, i) => ({ result: resultOf(input, input.json._id as DocumentId | undefined, DocumentMutationStatus.NOT_PROCESSED), ...(i === 0 && errors[0] ? { error: errors[0] } : {}) }));
  }
  const outcomes: Outcome[] = [];
  for (const [i, input] of chunk.entries()) {
    const { _id: id, status, errorsIdx } = responses[i]!;
    const error = errorsIdx === undefined ? undefined : errors[errorsIdx];
    if (status === 'OK') outcomes.push({ result: resultOf(input, id, DocumentMutationStatus.CREATED) });
    else if (error?.errorCode === 'DOCUMENT_ALREADY_EXISTS' && upsert) outcomes.push(await replace(channel, input, id));
    else if (error?.errorCode === 'DOCUMENT_ALREADY_EXISTS') outcomes.push({ result: resultOf(input, id, DocumentMutationStatus.ALREADY_EXISTS), error });
    else outcomes.push({ result: resultOf(input, id, DocumentMutationStatus.NOT_PROCESSED), ...(error ? { error } : {}) });
  }
  return outcomes;
}

async function replace(channel: CollectionChannel, input: Input, id: DocumentId): Promise<Outcome> {
  const response = await channel.send(replaceCommand({ ...input.json, _id: id as JsonValue }));
  const error = response.errors?.[0];
  if (error) return { result: resultOf(input, id, DocumentMutationStatus.NOT_PROCESSED), error };
  return { result: resultOf(input, id, replaceStatus(response.status ?? {})) };
}

function replaceCommand(json: JsonObject): JsonObject {
  return { findOneAndReplace: { filter: { _id: json._id! }, replacement: json, projection: { _id: 1 }, options: { upsert: true } } };
}

function replaceStatus(status: JsonObject): DocumentMutationStatus {
  if (status.upsertedId !== undefined) return DocumentMutationStatus.CREATED;
  return status.modifiedCount === 0 ? DocumentMutationStatus.UNCHANGED : DocumentMutationStatus.UPDATED;
}

async function checkOptions(channel: CollectionChannel, options: WriteManyOptions): Promise<{ concurrency: number; chunkSize: number; ordered: boolean }> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be an integer of at least 1, got ${String(concurrency)}`);
  const ordered = options.ordered ?? false;
  if (ordered && concurrency > 1) throw new TypeError('an ordered insertMany cannot run chunks concurrently: pass ordered: false or concurrency: 1');
  let chunkSize = options.chunkSize;
  if (chunkSize === undefined || options.checkChunkSize) {
    const limit = await channel.insertManyLimit();
    chunkSize ??= limit;
    if (options.checkChunkSize && (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > limit)) {
      throw new RangeError(`chunkSize must be between 1 and ${limit}, got ${String(chunkSize)}`);
    }
  }
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer, got ${String(chunkSize)}`);
  return { concurrency, chunkSize, ordered };
}

function inputOf(document: unknown): Input {
  return { json: documentJson(document), typed: document instanceof Document ? (document as Document<unknown>) : undefined };
}

function inputsOf(documents: unknown): Input[] {
  const list = typeof documents === 'string' ? parseJson(documents, 'documents') : documents;
  if (list === null || typeof list !== 'object' || !(Symbol.iterator in list)) throw new TypeError('documents must be an array or iterable of documents, or a JSON array string');
  return Array.from(list as Iterable<unknown>, (document, i) => {
    try {
      return inputOf(document);
    } catch (error) {
      throw new TypeError(`documents[${i}]: ${(error as Error).message}`);
    }
  });
}

function resultOf(input: Input, id: DocumentId | undefined, status: DocumentMutationStatus): AnyResult {
  if (id === undefined) return new MutationResult<unknown>(undefined, status, input.typed ?? input.json);
  if (input.typed) return new DocumentMutationResult<unknown>(id, status, input.typed.withId(id));
  const { _id: _ignored, ...rest } = input.json;
  return new JsonDocumentMutationResult(id, status, { _id: id as JsonValue, ...rest } as JsonObject & { _id: DocumentId });
}
