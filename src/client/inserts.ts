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

/** insertMany / upsertMany and their chunked forms. */
export async function writeMany(channel: CollectionChannel, documents: unknown, options: WriteManyOptions): Promise<AnyResult[]> {
  const inputs = inputsOf(documents);
  const { concurrency, chunkSize, ordered } = await checkOptions(channel, options);
  if (inputs.length === 0) return [];
  const chunks: Input[][] = [];
  for (let i = 0; i < inputs.length; i += chunkSize) chunks.push(inputs.slice(i, i + chunkSize));
  const outcomes: Outcome[][] = new Array(chunks.length);
  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    while (!stopped && next < chunks.length) {
      const index = next++;
      outcomes[index] = await writeChunk(channel, chunks[index]!, ordered, options.upsert);
      if (ordered && outcomes[index]!.some((o) => o.error)) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  const all = chunks.flatMap((chunk, i) => outcomes[i] ?? chunk.map((input) => ({ result: resultOf(input, input.json._id as DocumentId | undefined, DocumentMutationStatus.NOT_PROCESSED) })));
  const errors = all.flatMap((o) => (o.error ? [o.error] : []));
  const results = all.map((o) => o.result);
  if (errors.length > 0) {
    const insertedIds = results.filter((r) => r.status === DocumentMutationStatus.CREATED).map((r) => r.id as JsonValue);
    throw exceptionFor({ status: { insertedIds }, errors }, { results });
  }
  return results;
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
