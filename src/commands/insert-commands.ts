/**
 * insertOne and insertMany. Per-document failures are reported per document (insertedIds or
 * documentResponses plus errors); a failure of the whole command (shape, limit, an embedding provider's)
 * writes nothing.
 */
import { VectorDbError } from '../errors/index.js';
import type { Collection, InsertOutcome } from '../engine/collections/collection.js';
import { isObject, type JsonObject, type JsonValue } from '../query/json.js';
import { CommandBody, invalid } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';
import type { CommandResult } from './response.js';
import { collectionTarget, vectorizeDocuments } from './vectorize.js';

const insertOne: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('insertOne', raw, ['document', 'options']);
  body.noOptions();
  const document = body.get('document');
  if (document === undefined) throw VectorDbError.of('SHRED_BAD_DOCUMENT_TYPE', { type: 'null' });
  const collection = ctx.collection();
  rejectVectorsWithoutVectorSupport(collection, [document]);
  const [outcome] = await collection.insertMany(await vectorizeDocuments(ctx, collectionTarget(collection), [document]), true);
  if (outcome!.status === 'OK') return { status: { insertedIds: [outcome!.id] } };
  return { status: { insertedIds: [] }, errors: [errorOf(outcome!)] };
};

const insertMany: CommandHandler = async (raw, ctx) => {
  const { documents, ordered, withResponses } = readInsertMany(raw, ctx.db.limits.maxInsertManyDocuments, 'documents');
  const collection = ctx.collection();
  rejectVectorsWithoutVectorSupport(collection, documents);
  // Every vector of the command is computed before the first write: a provider failure writes nothing.
  const outcomes = await collection.insertMany(await vectorizeDocuments(ctx, collectionTarget(collection), documents), ordered);
  return withResponses ? documentResponses(outcomes) : insertedIds(outcomes);
};

/** insertMany's body (collections and tables): its options and 1 to `max` documents, checked before any write. */
export function readInsertMany(raw: unknown, max: number, noun: 'documents' | 'rows'): { documents: JsonValue[]; ordered: boolean; withResponses: boolean } {
  const body = new CommandBody('insertMany', raw, ['documents', 'options']);
  const options = body.options(['ordered', 'returnDocumentResponses']);
  const ordered = options.boolean('ordered', false);
  const withResponses = options.boolean('returnDocumentResponses', false);
  const documents = body.require('documents');
  if (!Array.isArray(documents)) throw invalid('documents', documents, `must be an array of ${noun}`);
  if (documents.length === 0) throw invalid('documents', documents, 'must not be empty');
  if (documents.length > max) {
    throw invalid(
      'documents',
      `[${documents.length} ${noun}]`,
      `amount of ${noun} to insert is over the max limit (${documents.length} vs ${max}): send at most ${max} per request (with @datastax/astra-db-ts, pass the insertMany option chunkSize: ${max} or less)`,
    );
  }
  return { documents, ordered, withResponses };
}

function insertedIds(outcomes: readonly InsertOutcome[]): CommandResult {
  const ids: JsonValue[] = [];
  const errors: VectorDbError[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'OK') ids.push(outcome.id);
    else if (outcome.status === 'ERROR') errors.push(errorOf(outcome));
  }
  return { status: { insertedIds: ids }, errors };
}

function documentResponses(outcomes: readonly InsertOutcome[]): CommandResult {
  const errors: VectorDbError[] = [];
  const responses: JsonObject[] = outcomes.map((outcome) => {
    const entry: JsonObject = { _id: outcome.id ?? null, status: outcome.status };
    if (outcome.status === 'ERROR') {
      entry.errorsIdx = errors.length;
      errors.push(errorOf(outcome));
    }
    return entry;
  });
  return { status: { documentResponses: responses }, errors };
}

function errorOf(outcome: InsertOutcome): VectorDbError {
  if (outcome.status !== 'ERROR') throw new Error('not an error outcome');
  const { error, id } = outcome;
  if (error.documentIds !== undefined || id === undefined) return error;
  return new VectorDbError(error.code, error.message, { cause: error.cause, documentIds: [id] });
}

/** A `$vector` sent to a collection without vectors fails the whole command, as in the Data API. */
function rejectVectorsWithoutVectorSupport(collection: Collection, documents: readonly JsonValue[]): void {
  if (collection.record.options.vector) return;
  if (documents.some((d) => isObject(d) && d.$vector !== undefined && d.$vector !== null)) {
    throw VectorDbError.of('VECTOR_SEARCH_NOT_SUPPORTED', { keyspace: collection.record.keyspace, collection: collection.record.name });
  }
}

export const INSERT_COMMANDS: Record<string, CommandSpec> = {
  insertOne: { level: 'collection', run: insertOne },
  insertMany: { level: 'collection', run: insertMany },
};
