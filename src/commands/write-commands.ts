/**
 * updateOne, updateMany, findOneAndUpdate, findOneAndReplace, findOneAndDelete, deleteOne, deleteMany:
 * the status counts, upsertedId, moreData / nextPageState paging and returnDocument of the Data API.
 */
import { VectorDbError } from '../errors/index.js';
import type { SingleChange, UpdateOutcome } from '../engine/collections/collection.js';
import { isObject, type JsonObject } from '../query/json.js';
import { CommandBody, invalid, type Options } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';
import { QueryParts } from './query-parts.js';
import { project } from './read-commands.js';
import { collectionTarget, vectorizeDocuments } from './vectorize.js';

function updateStatus(outcome: Pick<UpdateOutcome, 'matchedCount' | 'modifiedCount' | 'upsertedId'>): JsonObject {
  const status: JsonObject = {};
  if (outcome.upsertedId !== undefined) status.upsertedId = outcome.upsertedId;
  status.matchedCount = outcome.matchedCount;
  status.modifiedCount = outcome.modifiedCount;
  return status;
}

function returnDocumentOf(options: Options): 'before' | 'after' {
  const value = options.string('returnDocument') ?? 'before';
  if (value !== 'before' && value !== 'after') throw invalid('options.returnDocument', value, "returnDocument value can only be 'before' or 'after'");
  return value;
}

const updateOne: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('updateOne', raw, ['filter', 'update', 'sort', 'options']);
  const options = body.options(['upsert']);
  const collection = ctx.collection();
  const parts = new QueryParts(ctx, collection, body);
  const filter = parts.filter();
  const sort = await parts.sort();
  const change: SingleChange = { kind: 'update', update: await parts.update(), upsert: options.boolean('upsert', false) };
  const outcome = await collection.changeOne(filter, sort, change);
  return { status: updateStatus(outcome) };
};

const updateMany: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('updateMany', raw, ['filter', 'update', 'options']);
  const options = body.options(['upsert', 'pageState', 'pagingState']);
  const collection = ctx.collection();
  const parts = new QueryParts(ctx, collection, body);
  const filter = parts.filter();
  const update = await parts.update();
  const pageState = options.string('pageState') ?? options.string('pagingState');
  const outcome = await collection.updateMany(filter, update, options.boolean('upsert', false), pageState || undefined);
  const status = updateStatus(outcome);
  if (outcome.nextPageState !== null) {
    status.moreData = true;
    status.nextPageState = outcome.nextPageState;
  }
  return { status };
};

function findOneAndChange(command: 'findOneAndUpdate' | 'findOneAndReplace'): CommandHandler {
  const changeField = command === 'findOneAndUpdate' ? 'update' : 'replacement';
  return async (raw, ctx) => {
    const body = new CommandBody(command, raw, ['filter', 'sort', 'projection', changeField, 'options']);
    const options = body.options(['returnDocument', 'upsert']);
    const returnDocument = returnDocumentOf(options);
    const upsert = options.boolean('upsert', false);
    const collection = ctx.collection();
    const parts = new QueryParts(ctx, collection, body);
    const filter = parts.filter();
    const sort = await parts.sort();
    const projection = parts.projection();
    let change: SingleChange;
    if (command === 'findOneAndUpdate') {
      change = { kind: 'update', update: await parts.update(), upsert };
    } else {
      const replacement = body.get('replacement');
      if (replacement === undefined) throw invalid('replacement', replacement, 'must not be null');
      if (!isObject(replacement)) throw VectorDbError.of('SHRED_BAD_DOCUMENT_TYPE', { type: 'non-Object replacement' });
      const [vectorized] = await vectorizeDocuments(ctx, collectionTarget(collection), [replacement]);
      change = { kind: 'replace', replacement: vectorized as JsonObject, upsert };
    }
    const outcome = await collection.changeOne(filter, sort, change);
    const chosen = returnDocument === 'after' ? outcome.after : outcome.before;
    return {
      data: { document: chosen === null ? null : project({ key: '', doc: chosen }, projection, false) },
      status: updateStatus(outcome),
    };
  };
}

const findOneAndDelete: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('findOneAndDelete', raw, ['filter', 'sort', 'projection']);
  const collection = ctx.collection();
  const parts = new QueryParts(ctx, collection, body);
  const filter = parts.filter();
  const sort = await parts.sort();
  const projection = parts.projection();
  const deleted = await collection.deleteOne(filter, sort);
  return {
    data: { document: deleted === null ? null : project({ key: '', doc: deleted }, projection, false) },
    status: { deletedCount: deleted === null ? 0 : 1 },
  };
};

const deleteOne: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('deleteOne', raw, ['filter', 'sort', 'options']);
  body.noOptions();
  body.require('filter');
  const collection = ctx.collection();
  const parts = new QueryParts(ctx, collection, body);
  const filter = parts.filter();
  const deleted = await collection.deleteOne(filter, await parts.sort());
  return { status: { deletedCount: deleted === null ? 0 : 1 } };
};

const deleteMany: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('deleteMany', raw, ['filter', 'options']);
  body.noOptions();
  const collection = ctx.collection();
  const { deletedCount, moreData } = await collection.deleteMany(new QueryParts(ctx, collection, body).filter());
  const status: JsonObject = { deletedCount };
  if (moreData) status.moreData = true;
  return { status };
};

export const WRITE_COMMANDS: Record<string, CommandSpec> = {
  updateOne: { level: 'collection', run: updateOne },
  updateMany: { level: 'collection', run: updateMany },
  findOneAndUpdate: { level: 'collection', run: findOneAndChange('findOneAndUpdate') },
  findOneAndReplace: { level: 'collection', run: findOneAndChange('findOneAndReplace') },
  findOneAndDelete: { level: 'collection', run: findOneAndDelete },
  deleteOne: { level: 'collection', run: deleteOne },
  deleteMany: { level: 'collection', run: deleteMany },
};
