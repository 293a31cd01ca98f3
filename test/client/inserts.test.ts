/**
 * VectorDBCollection inserts and upserts: insertOne, upsertOne, insertMany, upsertMany, insertManyChunked,
 * upsertManyChunked, with JSON objects, JSON strings, iterables and Document<T>; statuses in input order;
 * failures throw typed exceptions carrying every document's status.
 */
import { describe, expect, it } from 'vitest';
import {
  DataApiException,
  Document,
  DocumentAlreadyExistsException,
  DocumentMutationResult,
  DocumentMutationStatus,
  InvalidArgumentException,
  JsonDocumentMutationResult,
  MutationResult,
} from '../../src/index.js';
import { numbered, rejection, useDb } from './helpers.js';

interface Product {
  name: string;
  price: number;
  added?: Date;
}

describe('VectorDBCollection inserts and upserts', () => {
  const ctx = useDb();

  describe('insertOne', () => {
    it('returns a JsonDocumentMutationResult with the id, status CREATED and the document', async () => {
      const c = await ctx.db.createCollection('c');
      const result = await c.insertOne({ _id: 'a', x: 1 });
      expect(result).toBeInstanceOf(JsonDocumentMutationResult);
      expect(result.id).toBe('a');
      expect(result.status).toBe('CREATED');
      expect(result.document).toEqual({ _id: 'a', x: 1 });
    });

    it('a generated id is reported and put first in the document', async () => {
      const c = await ctx.db.createCollection('c');
      const result = await c.insertOne({ x: 1 });
      expect(typeof result.id).toBe('string');
      expect(Object.keys(result.document)).toEqual(['_id', 'x']);
      expect(await c.findById(result.id)).toEqual({ _id: result.id, x: 1 });
    });

    it('takes a JSON string', async () => {
      const c = await ctx.db.createCollection('c');
      expect((await c.insertOne('{"_id": "j", "v": [1, 2]}')).id).toBe('j');
      expect(await c.findById('j')).toEqual({ _id: 'j', v: [1, 2] });
      await expect(c.insertOne('{not json')).rejects.toBeInstanceOf(TypeError);
    });

    it('takes a Document<T> and returns a DocumentMutationResult<T>; Dates are stored as instants', async () => {
      const c = await ctx.db.createCollection('c', 2);
      const added = new Date('2024-05-01T00:00:00Z');
      const result = await c.insertOne(Document.of<Product>({ name: 'lamp', price: 25, added }, { id: 'lamp', vector: [1, 0] }));
      expect(result).toBeInstanceOf(DocumentMutationResult);
      expect(result.status).toBe(DocumentMutationStatus.CREATED);
      expect(result.document.id).toBe('lamp');
      expect(result.document.data.price).toBe(25);
      expect(await c.findById('lamp', { '*': 1 })).toEqual({ _id: 'lamp', name: 'lamp', price: 25, added: { $date: added.getTime() }, $vector: [1, 0] });
    });

    it('a Document without id gets the generated id in its result', async () => {
      const c = await ctx.db.createCollection('c');
      const result = await c.insertOne(Document.of<Product>({ name: 'bulb', price: 5 }));
      expect(typeof result.id).toBe('string');
      expect(result.document.id).toBe(result.id);
    });

    it('an existing _id throws DocumentAlreadyExistsException and keeps the first document', async () => {
      const c = await ctx.db.createCollection('c');
      await c.insertOne({ _id: 'a', v: 1 });
      const error = await rejection(c.insertOne({ _id: 'a', v: 2 }));
      expect(error).toBeInstanceOf(DocumentAlreadyExistsException);
      expect((error as DataApiException).errorCode).toBe('DOCUMENT_ALREADY_EXISTS');
      expect(await c.findById('a')).toEqual({ _id: 'a', v: 1 });
    });

    it('values JSON cannot hold are TypeErrors before anything is sent', async () => {
      const c = await ctx.db.createCollection('c');
      await expect(c.insertOne({ n: Number.NaN })).rejects.toBeInstanceOf(TypeError);
      await expect(c.insertOne(null as never)).rejects.toBeInstanceOf(TypeError);
      expect(await c.countDocuments()).toBe(0);
    });
  });

  describe('upsertOne', () => {
    it('CREATED, then UNCHANGED for the same document, then UPDATED (the document is replaced)', async () => {
      const c = await ctx.db.createCollection('c');
      expect((await c.upsertOne({ _id: 'a', x: 1, y: 1 })).status).toBe('CREATED');
      expect((await c.upsertOne({ _id: 'a', x: 1, y: 1 })).status).toBe('UNCHANGED');
      const updated = await c.upsertOne({ _id: 'a', x: 2 });
      expect(updated.status).toBe('UPDATED');
      expect(updated.id).toBe('a');
      expect(await c.findById('a')).toEqual({ _id: 'a', x: 2 });
    });

    it('without _id it inserts with a generated id', async () => {
      const c = await ctx.db.createCollection('c');
      const result = await c.upsertOne({ x: 1 });
      expect(result.status).toBe('CREATED');
      expect(await c.countDocuments()).toBe(1);
    });

    it('takes a Document<T> and a JSON string', async () => {
      const c = await ctx.db.createCollection('c');
      const typed = await c.upsertOne(Document.of<Product>({ name: 'lamp', price: 25 }, { id: 'lamp' }));
      expect(typed).toBeInstanceOf(DocumentMutationResult);
      expect(typed.status).toBe('CREATED');
      expect((await c.upsertOne('{"_id": "lamp", "name": "lamp", "price": 20}')).status).toBe('UPDATED');
      expect(await c.findById('lamp')).toEqual({ _id: 'lamp', name: 'lamp', price: 20 });
    });
  });

  describe('insertMany', () => {
    it('any number of documents, chunked by the database limit; results in input order, all CREATED', async () => {
      const c = await ctx.db.createCollection('c');
      const docs = numbered(45);
      const results = await c.insertMany(docs);
      expect(results.map((r) => r.id)).toEqual(docs.map((d) => d._id));
      expect(results.every((r) => r.status === 'CREATED')).toBe(true);
      expect(await c.countDocuments()).toBe(45);
    });

    it('takes a JSON array string and any iterable; an empty list sends nothing', async () => {
      const c = await ctx.db.createCollection('c');
      expect((await c.insertMany('[{"_id": 1}, {"_id": 2}]')).map((r) => r.id)).toEqual([1, 2]);
      function* generate(): Generator<{ _id: number }> {
        for (let i = 3; i <= 25; i++) yield { _id: i };
      }
      expect(await c.insertMany(generate())).toHaveLength(23);
      expect(await c.insertMany([])).toEqual([]);
      expect(await c.countDocuments()).toBe(25);
      await expect(c.insertMany('{"_id": 1}')).rejects.toBeInstanceOf(TypeError);
    });

    it('Document<T>s give DocumentMutationResult<T>s with the generated ids', async () => {
      const c = await ctx.db.createCollection('c');
      const results = await c.insertMany([Document.of<Product>({ name: 'a', price: 1 }), Document.of<Product>({ name: 'b', price: 2 }, { id: 'b' })]);
      expect(results[0]).toBeInstanceOf(DocumentMutationResult);
      expect(typeof results[0]!.id).toBe('string');
      expect(results[0]!.document.id).toBe(results[0]!.id);
      expect(results[1]!.document.data).toEqual({ name: 'b', price: 2 });
    });

    it('ordered (default): a duplicate stops it; error.results has CREATED, ALREADY_EXISTS and NOT_PROCESSED in input order', async () => {
      const c = await ctx.db.createCollection('c');
      await c.insertOne({ _id: 'd-22' });
      const docs = numbered(45);
      const error = (await rejection(c.insertMany(docs))) as DataApiException;
      expect(error).toBeInstanceOf(DocumentAlreadyExistsException);
      const statuses = error.results!.map((r) => r.status);
      expect(statuses.slice(0, 22)).toEqual(Array(22).fill('CREATED'));
      expect(statuses[22]).toBe('ALREADY_EXISTS');
      expect(statuses.slice(23)).toEqual(Array(22).fill('NOT_PROCESSED'));
      expect(error.results!.map((r) => r.id)).toEqual(docs.map((d) => d._id));
      expect(error.response.status?.insertedIds).toHaveLength(22);
      expect(await c.countDocuments()).toBe(23);
    });

    it('unordered: every chunk runs; duplicates are ALREADY_EXISTS and the rest is inserted', async () => {
      const c = await ctx.db.createCollection('c');
      await c.insertMany([{ _id: 'd-05' }, { _id: 'd-30' }]);
      const error = (await rejection(c.insertMany(numbered(45), { ordered: false }))) as DataApiException;
      expect(error).toBeInstanceOf(DocumentAlreadyExistsException);
      expect(error.errors).toHaveLength(2);
      const already = error.results!.filter((r) => r.status === 'ALREADY_EXISTS').map((r) => r.id);
      expect(already).toEqual(['d-05', 'd-30']);
      expect(error.results!.filter((r) => r.status === 'CREATED')).toHaveLength(43);
      expect(await c.countDocuments()).toBe(45);
    });

    it('an id-less document never sent has no id in error.results', async () => {
      const c = await ctx.db.createCollection('c');
      await c.insertOne({ _id: 'x' });
      const docs = [{ _id: 'x' }, ...Array.from({ length: 25 }, () => ({ a: 1 }))];
      const error = (await rejection(c.insertMany(docs))) as DataApiException;
      const last = error.results!.at(-1)!;
      expect(last).toBeInstanceOf(MutationResult);
      expect(last.id).toBeUndefined();
      expect(last.status).toBe('NOT_PROCESSED');
      expect(last.document).toEqual({ a: 1 });
    });

    it('a bad document is NOT_PROCESSED and throws the code of its error', async () => {
      const c = await ctx.db.createCollection('c');
      const error = (await rejection(c.insertMany([{ _id: 1 }, { _id: 2, $bad: 1 }, { _id: 3 }], { ordered: false }))) as DataApiException;
      expect(error.errorCode).toBe('SHRED_BAD_FIELD_NAME');
      expect(error.results!.map((r) => r.status)).toEqual(['CREATED', 'NOT_PROCESSED', 'CREATED']);
    });

    it('concurrency runs chunks in parallel; ordered with concurrency > 1 is a TypeError', async () => {
      const c = await ctx.db.createCollection('c');
      const docs = numbered(60);
      const results = await c.insertMany(docs, { concurrency: 3 });
      expect(results.map((r) => r.id)).toEqual(docs.map((d) => d._id));
      await expect(c.insertMany(docs, { concurrency: 2, ordered: true })).rejects.toBeInstanceOf(TypeError);
      await expect(c.insertMany(docs, { concurrency: 0 })).rejects.toBeInstanceOf(RangeError);
    });
  });

  describe('insertManyChunked', () => {
    it('chunks of chunkSize, concurrency at a time, results in input order', async () => {
      const c = await ctx.db.createCollection('c');
      const docs = numbered(37);
      const results = await c.insertManyChunked(docs, 5, 4);
      expect(results.map((r) => r.id)).toEqual(docs.map((d) => d._id));
      expect(await c.countDocuments()).toBe(37);
    });

    it('chunkSize must be 1 to the insertMany limit', async () => {
      const c = await ctx.db.createCollection('c');
      await expect(c.insertManyChunked(numbered(3), 0, 1)).rejects.toThrow(/between 1 and 20/);
      await expect(c.insertManyChunked(numbered(3), 21, 1)).rejects.toBeInstanceOf(RangeError);
      expect(await c.countDocuments()).toBe(0);
    });

    it('is unordered: every chunk runs despite a duplicate, which throws at the end', async () => {
      const c = await ctx.db.createCollection('c');
      await c.insertOne({ _id: 'd-01' });
      const error = (await rejection(c.insertManyChunked(numbered(10), 2, 2))) as DataApiException;
      expect(error).toBeInstanceOf(DocumentAlreadyExistsException);
      expect(error.results!.map((r) => r.status).filter((s) => s === 'CREATED')).toHaveLength(9);
      expect(await c.countDocuments()).toBe(10);
    });

    it('typed documents', async () => {
      const c = await ctx.db.createCollection('c');
      const results = await c.insertManyChunked([Document.of<Product>({ name: 'a', price: 1 }, { id: 'a' })], 1);
      expect(results[0]!.document.data.name).toBe('a');
    });
  });

  describe('upsertMany and upsertManyChunked', () => {
    it('CREATED for new ids, UPDATED for changed, UNCHANGED for identical, in input order', async () => {
      const c = await ctx.db.createCollection('c');
      await c.insertMany([{ _id: 'same', v: 1 }, { _id: 'changed', v: 1 }]);
      const results = await c.upsertMany([{ _id: 'new', v: 1 }, { _id: 'same', v: 1 }, { _id: 'changed', v: 2 }, { v: 3 }]);
      expect(results.map((r) => r.status)).toEqual(['CREATED', 'UNCHANGED', 'UPDATED', 'CREATED']);
      expect(results.slice(0, 3).map((r) => r.id)).toEqual(['new', 'same', 'changed']);
      expect(await c.findById('changed')).toEqual({ _id: 'changed', v: 2 });
    });

    it('more than one chunk, a JSON string and a repeated id (the last one wins)', async () => {
      const c = await ctx.db.createCollection('c');
      const docs = numbered(30);
      await c.insertMany(docs.slice(0, 10));
      const results = await c.upsertMany(docs.map((d) => ({ ...d, seen: true })));
      expect(results.map((r) => r.status)).toEqual([...Array(10).fill('UPDATED'), ...Array(20).fill('CREATED')]);
      const repeated = await c.upsertMany('[{"_id": "r", "v": 1}, {"_id": "r", "v": 2}]');
      expect(repeated.map((r) => r.status)).toEqual(['CREATED', 'UPDATED']);
      expect(await c.findById('r')).toEqual({ _id: 'r', v: 2 });
    });

    it('upsertManyChunked really upserts (JSON and typed), with chunkSize checked', async () => {
      const c = await ctx.db.createCollection('c');
      await c.insertMany([{ _id: 'a', v: 1 }]);
      const json = await c.upsertManyChunked([{ _id: 'a', v: 2 }, { _id: 'b', v: 1 }], 1, 2);
      expect(json.map((r) => r.status)).toEqual(['UPDATED', 'CREATED']);
      const typed = await c.upsertManyChunked([Document.of({ v: 3 }, { id: 'a' })], 5);
      expect(typed[0]!.status).toBe('UPDATED');
      expect(await c.findById('a')).toEqual({ _id: 'a', v: 3 });
      await expect(c.upsertManyChunked([], 100)).rejects.toBeInstanceOf(RangeError);
    });

    it('a document the database refuses throws with every status', async () => {
      const c = await ctx.db.createCollection('c');
      const error = (await rejection(c.upsertMany([{ _id: 'ok' }, { _id: 'bad', $x: 1 }]))) as DataApiException;
      expect(error).toBeInstanceOf(DataApiException);
      expect(error.results!.map((r) => r.status)).toEqual(['CREATED', 'NOT_PROCESSED']);
    });
  });
});

describe('VectorDBCollection inserts with a lower insertMany limit (5)', () => {
  const ctx = useDb({ maxInsertManyDocuments: 5 });

  it('insertMany chunks by the database limit; insertManyChunked checks against it', async () => {
    const c = await ctx.db.createCollection('c');
    expect(await c.insertMany(numbered(12))).toHaveLength(12);
    await expect(c.insertManyChunked(numbered(3), 6)).rejects.toThrow(/between 1 and 5/);
  });

  it('an explicit insertMany chunkSize over the limit is refused by the database', async () => {
    const c = await ctx.db.createCollection('c');
    const error = (await rejection(c.insertMany(numbered(12), { chunkSize: 6 }))) as DataApiException;
    expect(error).toBeInstanceOf(InvalidArgumentException);
    expect(error.results!.every((r) => r.status === 'NOT_PROCESSED')).toBe(true);
    expect(await c.countDocuments()).toBe(0);
  });
});
