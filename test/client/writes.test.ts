/**
 * VectorDBCollection updates, deletes and counts: updateOne, updateMany, findOneAndUpdate,
 * findOneAndReplace, findOneAndDelete, deleteOne, deleteById, deleteMany, clear, countDocuments and
 * estimatedDocumentCount, in their (filter, ...) and query forms.
 */
import { describe, expect, it } from 'vitest';
import {
  DataApiException,
  DeleteQuery,
  Document,
  DocumentResult,
  Filter,
  TooManyDocumentsToCountException,
  UpdateQuery,
  type VectorDBCollection,
} from '../../src/index.js';
import { numbered, rejection, useDb } from './helpers.js';

class Item {
  n = 0;
  color = '';
}

describe('VectorDBCollection updates, deletes and counts', () => {
  const ctx = useDb();
  const people = async (count = 45): Promise<VectorDBCollection> => {
    const c = await ctx.db.createCollection('people');
    await c.insertMany(numbered(count));
    return c;
  };

  describe('updateOne', () => {
    it('(filter, update, options) and (query) forms', async () => {
      const c = await people(3);
      expect(await c.updateOne({ _id: 'd-01' }, { $set: { color: 'green' } })).toEqual({ matchedCount: 1, modifiedCount: 1 });
      expect(await c.updateOne(UpdateQuery.builder().where('_id').isEqualsTo('d-02').set('color', 'green'))).toEqual({ matchedCount: 1, modifiedCount: 1 });
      expect(await c.updateOne({ filter: { _id: 'd-02' }, update: { $set: { color: 'green' } } })).toEqual({ matchedCount: 1, modifiedCount: 0 });
      expect(await c.countDocuments({ color: 'green' })).toBe(2);
    });

    it('upsert and sort; Dates in updates', async () => {
      const c = await people(5);
      const when = new Date('2024-02-03T00:00:00Z');
      expect(await c.updateOne(UpdateQuery.builder().where('_id').isEqualsTo('new').set('at', when).upsert())).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: 'new' });
      expect(await c.findById('new')).toEqual({ _id: 'new', at: { $date: when.getTime() } });
      await c.updateOne({ color: 'blue' }, { $set: { top: true } }, { sort: { n: -1 } });
      expect(await c.findOne({ filter: { top: true } })).toMatchObject({ _id: 'd-04' });
    });

    it('a query without update operators is a TypeError', async () => {
      const c = await people(1);
      await expect(c.updateOne({ filter: { _id: 'd-00' } })).rejects.toBeInstanceOf(TypeError);
    });
  });

  describe('updateMany', () => {
    it('every match across pages, both forms', async () => {
      const c = await people();
      expect(await c.updateMany({ color: 'blue' }, { $set: { seen: true } })).toEqual({ matchedCount: 30, modifiedCount: 30 });
      expect(await c.updateMany(UpdateQuery.builder().filter(Filter.where('seen').exists(false)).inc('n', 100))).toEqual({ matchedCount: 15, modifiedCount: 15 });
      expect(await c.countDocuments({ n: { $gte: 100 } })).toBe(15);
    });

    it('upsert when nothing matches', async () => {
      const c = await people(2);
      const result = await c.updateMany({ filter: { color: 'purple' }, update: { $set: { v: 1 } }, upsert: true });
      expect(result.matchedCount).toBe(0);
      expect(result.upsertedId).toBeDefined();
    });
  });

  describe('findOneAndUpdate', () => {
    it('returns the document before (default) or after, with counts', async () => {
      const c = await people(3);
      const before = await c.findOneAndUpdate({ _id: 'd-01' }, { $inc: { n: 10 } });
      expect(before).toEqual({ matchedCount: 1, modifiedCount: 1, document: { _id: 'd-01', n: 1, color: 'blue' } });
      const after = await c.findOneAndUpdate({ _id: 'd-01' }, { $inc: { n: 10 } }, { returnDocument: 'after', projection: { n: 1 } });
      expect(after.document).toEqual({ _id: 'd-01', n: 21 });
      const none = await c.findOneAndUpdate({ _id: 'zz' }, { $inc: { n: 1 } });
      expect(none).toEqual({ matchedCount: 0, modifiedCount: 0, document: undefined });
    });

    it('really updates (never deletes), query form with upsert, typed', async () => {
      const c = await people(3);
      await c.findOneAndUpdate(UpdateQuery.builder().where('_id').isEqualsTo('d-00').set('color', 'green'));
      expect(await c.findById('d-00')).toEqual({ _id: 'd-00', n: 0, color: 'green' });
      const upserted = await c.findOneAndUpdate(UpdateQuery.builder().where('_id').isEqualsTo('d-99').set('n', 99).set('color', 'red').upsert().returnDocument('after'), Item);
      expect(upserted.upsertedId).toBe('d-99');
      expect(upserted.document).toBeInstanceOf(DocumentResult);
      expect(upserted.document!.data).toBeInstanceOf(Item);
      expect(upserted.document!.data.n).toBe(99);
    });

    it('sort picks the document', async () => {
      const c = await people(5);
      const result = await c.findOneAndUpdate(UpdateQuery.builder().orderBy('n', -1).set('last', true).returnDocument('after'));
      expect(result.document).toMatchObject({ _id: 'd-04', last: true });
    });
  });

  describe('findOneAndReplace', () => {
    it('replaces the whole document, both forms, upsert, Document<T> replacement', async () => {
      const c = await people(2);
      const replaced = await c.findOneAndReplace({ _id: 'd-00' }, { only: 'this' }, { returnDocument: 'after' });
      expect(replaced.document).toEqual({ _id: 'd-00', only: 'this' });
      const viaQuery = await c.findOneAndReplace(UpdateQuery.builder().where('_id').isEqualsTo('d-01').replaceBy(Document.of({ v: 2 })));
      expect(viaQuery.document).toEqual({ _id: 'd-01', n: 1, color: 'blue' });
      expect(await c.findById('d-01')).toEqual({ _id: 'd-01', v: 2 });
      const upserted = await c.findOneAndReplace(UpdateQuery.builder().where('_id').isEqualsTo('x').replaceBy({ v: 3 }).upsert(), Item);
      expect(upserted.upsertedId).toBe('x');
      expect(upserted.document).toBeUndefined();
      await expect(c.findOneAndReplace({ filter: { _id: 'x' } })).rejects.toBeInstanceOf(TypeError);
    });
  });

  describe('findOneAndDelete', () => {
    it('deletes and returns the document; sort and projection; typed; DeleteQuery', async () => {
      const c = await people(5);
      expect(await c.findOneAndDelete({ _id: 'd-00' })).toEqual({ _id: 'd-00', n: 0, color: 'red' });
      expect(await c.findOneAndDelete({ _id: 'd-00' })).toBeUndefined();
      expect(await c.findOneAndDelete({ color: 'blue' }, { sort: { n: -1 }, projection: { n: 1 } })).toEqual({ _id: 'd-04', n: 4 });
      const typed = await c.findOneAndDelete(DeleteQuery.builder().orderBy('n'), Item);
      expect(typed!.data.n).toBe(1);
      expect(await c.countDocuments()).toBe(2);
    });
  });

  describe('deleteOne, deleteById, deleteMany, clear', () => {
    it('deleteOne with a filter, a Filter, a DeleteQuery with a sort; deleteById', async () => {
      const c = await people(6);
      expect(await c.deleteOne({ _id: 'd-00' })).toBe(1);
      expect(await c.deleteOne({ _id: 'd-00' })).toBe(0);
      expect(await c.deleteOne(Filter.where('n').isEqualsTo(1))).toBe(1);
      expect(await c.deleteOne(DeleteQuery.builder().where('color').isEqualsTo('blue').orderBy('n', -1))).toBe(1);
      expect(await c.isDocumentExists('d-05')).toBe(false);
      expect(await c.deleteOne({ color: 'blue' }, { sort: { n: 1 } })).toBe(1);
      expect(await c.isDocumentExists('d-02')).toBe(false);
      expect(await c.deleteById('d-03')).toBe(1);
      expect(await c.deleteById('d-03')).toBe(0);
      expect(await c.find().map((d) => d._id).toArray()).toEqual(['d-04']);
    });

    it('deleteOne by vector deletes the nearest', async () => {
      const c = await ctx.db.createCollection('v', 2);
      await c.insertMany([{ _id: 'x', $vector: [1, 0] }, { _id: 'y', $vector: [0, 1] }]);
      expect(await c.deleteOne(DeleteQuery.deleteByVector([0.1, 1]))).toBe(1);
      expect(await c.findAll().map((d) => d._id).toArray()).toEqual(['x']);
    });

    it('deleteMany loops over the per-request limit; an empty filter empties the collection (-1)', async () => {
      const c = await people();
      expect(await c.deleteMany({ color: 'blue' })).toBe(30);
      expect(await c.deleteMany(DeleteQuery.of({ filter: { n: { $lt: 10 } } }))).toBe(4);
      expect(await c.deleteMany()).toBe(-1);
      expect(await c.countDocuments()).toBe(0);
    });

    it('clear empties the collection, which stays', async () => {
      const c = await people();
      await c.clear();
      expect(await c.estimatedDocumentCount()).toBe(0);
      expect(await ctx.db.isCollectionExists('people')).toBe(true);
    });
  });

  describe('counts', () => {
    it('countDocuments with a plain filter, a Filter and an upper bound', async () => {
      const c = await people();
      expect(await c.countDocuments()).toBe(45);
      expect(await c.countDocuments({ color: 'red' })).toBe(15);
      expect(await c.countDocuments(Filter.where('n').isGreaterOrEqualsThan(40))).toBe(5);
      const error = await rejection(c.countDocuments({}, 10));
      expect(error).toBeInstanceOf(TooManyDocumentsToCountException);
      expect(error).toBeInstanceOf(DataApiException);
      expect((error as DataApiException).errorCode).toBe('TOO_MANY_DOCUMENTS_TO_COUNT');
    });

    it('estimatedDocumentCount', async () => {
      const c = await people(7);
      expect(await c.estimatedDocumentCount()).toBe(7);
    });
  });
});
