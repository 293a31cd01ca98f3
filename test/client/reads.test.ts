/**
 * VectorDBCollection reads: findById, isDocumentExists, findOne, findOneByVector, find, findAll, findPage
 * and findVector, untyped (JSON documents) and typed (a class, a mapper), with plain and built queries.
 */
import { describe, expect, it } from 'vitest';
import { DocumentResult, Filter, FindIterable, SelectQuery, type JsonDocumentResult, type VectorDBCollection } from '../../src/index.js';
import { numbered, useDb } from './helpers.js';

class Product {
  name = '';
  price = 0;
  added: Date | undefined;
  label(): string {
    return `${this.name} (${this.price})`;
  }
}

const PRODUCTS = [
  { _id: 'lamp', name: 'Desk lamp', price: 25, added: { $date: Date.UTC(2024, 0, 1) }, $vector: [0.9, 0.1, 0.1] },
  { _id: 'bulb', name: 'LED bulb', price: 5, $vector: [0.8, 0.2, 0.1] },
  { _id: 'chair', name: 'Office chair', price: 120, $vector: [0.1, 0.9, 0.2] },
];

describe('VectorDBCollection reads', () => {
  const ctx = useDb();
  const products = async (): Promise<VectorDBCollection> => {
    const c = await ctx.db.createCollection('products', 3);
    await c.insertMany(PRODUCTS);
    return c;
  };
  const people = async (count = 45): Promise<VectorDBCollection> => {
    const c = await ctx.db.createCollection('people');
    await c.insertMany(numbered(count));
    return c;
  };

  it('a query object with a member its type lacks is a TypeError, not a query without a filter', async () => {
    const c = await products();
    // From plain JS, a filter passed where the query goes: it used to match every document.
    const filterAsQuery = { name: 'LED bulb' } as SelectQuery;
    expect(() => c.find(filterAsQuery)).toThrow(/no member 'name'.*pass \{ filter: \{ "name": \.\.\. \} \}/);
    await expect(c.findOne(filterAsQuery)).rejects.toThrow(TypeError);
    await expect(c.updateOne({ name: 'LED bulb', update: { $set: { price: 6 } } } as never)).rejects.toThrow(/UpdateQuery has no member 'name'/);
    expect(await c.find({ filter: { name: 'LED bulb' } }).toArray()).toEqual([{ _id: 'bulb', name: 'LED bulb', price: 5 }]);
    expect((await c.findById('bulb'))?.price).toBe(5);
  });

  it('findVector and findOneByVector apply each option given, and only those (every combination)', async () => {
    const c = await products();
    const v = new Float32Array([0.9, 0.1, 0.1]);
    const sent: unknown[] = [];
    const run = ctx.db.command.bind(ctx.db);
    ctx.db.command = (command, target) => {
      sent.push(command);
      return run(command, target);
    };
    try {
      for (let mask = 0; mask < 32; mask++) {
        const options = {
          ...(mask & 1 ? { filter: { price: { $lt: 100 } } } : {}),
          ...(mask & 2 ? { projection: { name: 1 } } : {}),
          ...(mask & 4 ? { includeSimilarity: true } : {}),
          ...(mask & 8 ? { efSearch: 40 } : {}),
        };
        const found = await c.findVector(v, { ...options, ...(mask & 16 ? { limit: 1 } : {}) });
        expect(found.map((d) => d._id)).toEqual(mask & 16 ? ['lamp'] : mask & 1 ? ['lamp', 'bulb'] : ['lamp', 'bulb', 'chair']);
        expect(Object.keys(found[0]!).sort()).toEqual([...(mask & 4 ? ['$similarity'] : []), '_id', 'name', ...(mask & 2 ? [] : ['added', 'price'])].sort());
        const one = await c.findOneByVector(v, options);
        expect(one?._id).toBe('lamp');
        expect(one?.$similarity !== undefined).toBe((mask & 4) !== 0);
        const [find, findOne] = sent.splice(0) as { find: Record<string, unknown> }[] & { findOne: Record<string, unknown> }[];
        const want = {
          sort: { $vector: [v[0], v[1], v[2]] },
          ...(mask & 1 ? { filter: { price: { $lt: 100 } } } : {}),
          ...(mask & 2 ? { projection: { name: 1 } } : {}),
        };
        expect(find).toEqual({ find: { ...want, options: { ...(mask & 16 ? { limit: 1 } : {}), ...(mask & 4 ? { includeSimilarity: true } : {}), ...(mask & 8 ? { efSearch: 40 } : {}) } } });
        expect(findOne).toEqual({ findOne: { ...want, options: { ...(mask & 4 ? { includeSimilarity: true } : {}), ...(mask & 8 ? { efSearch: 40 } : {}) } } });
      }
    } finally {
      ctx.db.command = run;
    }
  });

  it('an options object with a member its type lacks is a TypeError, and nothing runs', async () => {
    const c = await products();
    const v = [0.9, 0.1, 0.1];
    await expect(c.findVector(v, { fliter: { name: 'LED bulb' } } as never)).rejects.toThrow(/FindVectorOptions has no member 'fliter'/);
    await expect(c.findOneByVector(v, { limit: 3 } as never)).rejects.toThrow(/findOneByVector options has no member 'limit'/);
    await expect(c.insertMany([{ _id: 'x' }], { ordred: false } as never)).rejects.toThrow(/InsertManyOptions has no member 'ordred'/);
    await expect(c.upsertMany([{ _id: 'x' }], { ordered: false } as never)).rejects.toThrow(/UpsertManyOptions has no member 'ordered'/);
    await expect(c.updateOne({ _id: 'new' }, { $set: { price: 1 } }, { upsrt: true } as never)).rejects.toThrow(/updateOne options has no member 'upsrt'/);
    await expect(c.updateMany({}, { $set: { price: 1 } }, { sort: { price: 1 } } as never)).rejects.toThrow(/updateMany options has no member 'sort'/);
    await expect(c.findOneAndUpdate({ _id: 'bulb' }, { $set: { price: 1 } }, { returnDoc: 'after' } as never)).rejects.toThrow(/findOneAndUpdate options has no member 'returnDoc'/);
    expect(await c.findById('x')).toBeUndefined();
    expect(await c.findById('new')).toBeUndefined();
    expect((await c.findById('bulb'))?.price).toBe(5);
    expect((await c.findVector(v, { filter: { name: 'LED bulb' }, limit: 2 })).map((d) => d._id)).toEqual(['bulb']);
  });

  describe('findById', () => {
    it('the JSON document, undefined for a miss, a projection', async () => {
      const c = await products();
      expect(await c.findById('bulb')).toEqual({ _id: 'bulb', name: 'LED bulb', price: 5 });
      expect(await c.findById('none')).toBeUndefined();
      expect(await c.findById('bulb', { price: 1 })).toEqual({ _id: 'bulb', price: 5 });
    });

    it('with a class: DocumentResult<Product> whose data is a Product (dates revived, methods kept)', async () => {
      const c = await products();
      const lamp = await c.findById('lamp', Product);
      expect(lamp).toBeInstanceOf(DocumentResult);
      expect(lamp!.id).toBe('lamp');
      expect(lamp!.data).toBeInstanceOf(Product);
      expect(lamp!.data.label()).toBe('Desk lamp (25)');
      expect(lamp!.data.added).toEqual(new Date(Date.UTC(2024, 0, 1)));
      expect(lamp!.vector).toBeUndefined();
      expect(lamp!.similarity).toBeUndefined();
      expect(await c.findById('none', Product)).toBeUndefined();
    });

    it('with a projection and a class, the vector comes through', async () => {
      const c = await products();
      const lamp = await c.findById('lamp', { '*': 1 }, Product);
      expect(lamp!.vector).toEqual([0.9, 0.1, 0.1]);
      expect(Object.keys(lamp!.data)).not.toContain('$vector');
    });

    it('with a mapper returning data, or a whole DocumentResult', async () => {
      const c = await products();
      const mapped = await c.findById('bulb', (json: JsonDocumentResult) => ({ title: String(json.name).toUpperCase() }));
      expect(mapped).toBeInstanceOf(DocumentResult);
      expect(mapped!.data).toEqual({ title: 'LED BULB' });
      expect(mapped!.id).toBe('bulb');
      const whole = await c.findById('bulb', (json: JsonDocumentResult) => new DocumentResult({ id: 'renamed', data: json.price }));
      expect(whole!.id).toBe('renamed');
      expect(whole!.data).toBe(5);
    });
  });

  it('isDocumentExists', async () => {
    const c = await products();
    expect(await c.isDocumentExists('lamp')).toBe(true);
    expect(await c.isDocumentExists('none')).toBe(false);
  });

  describe('findOne', () => {
    it('plain query, built query and a Filter; a miss is undefined', async () => {
      const c = await products();
      expect(await c.findOne({ filter: { price: { $gt: 100 } } })).toMatchObject({ _id: 'chair' });
      expect(await c.findOne(SelectQuery.builder().where('price').isLessThan(10).build())).toMatchObject({ _id: 'bulb' });
      expect(await c.findOne(SelectQuery.builder().orderBy('price', -1).select('name'))).toEqual({ _id: 'chair', name: 'Office chair' });
      expect(await c.findOne({ filter: Filter.where('name').isEqualsTo('Desk lamp') })).toMatchObject({ _id: 'lamp' });
      expect(await c.findOne({ filter: { price: -1 } })).toBeUndefined();
      expect(await c.findOne()).toBeDefined();
    });

    it('typed', async () => {
      const c = await products();
      const cheapest = await c.findOne(SelectQuery.builder().orderBy('price'), Product);
      expect(cheapest!.data.name).toBe('LED bulb');
      expect(await c.findOne({ filter: { price: -1 } }, Product)).toBeUndefined();
    });
  });

  describe('findOneByVector', () => {
    it('the nearest document, with similarity when asked, filtered when asked', async () => {
      const c = await products();
      expect(await c.findOneByVector([0.1, 0.9, 0.2])).toMatchObject({ _id: 'chair' });
      const withScore = await c.findOneByVector(new Float32Array([0.9, 0.1, 0.1]), { includeSimilarity: true });
      expect(withScore!._id).toBe('lamp');
      expect(withScore!.$similarity).toBeCloseTo(1, 5);
      expect(await c.findOneByVector([0.1, 0.9, 0.2], { filter: { price: { $lt: 100 } } })).toMatchObject({ _id: 'bulb' });
    });

    it('typed, with and without options', async () => {
      const c = await products();
      const typed = await c.findOneByVector([0.9, 0.1, 0.1], { includeSimilarity: true }, Product);
      expect(typed!.data.name).toBe('Desk lamp');
      expect(typed!.similarity).toBeCloseTo(1, 5);
      expect((await c.findOneByVector([0.1, 0.9, 0.2], Product))!.id).toBe('chair');
    });

    it('undefined when no document has a vector', async () => {
      const c = await ctx.db.createCollection('empty', 3);
      expect(await c.findOneByVector([1, 0, 0])).toBeUndefined();
    });
  });

  describe('find and findAll', () => {
    it('lazy async iterables over every page (45 documents, pages of 20)', async () => {
      const c = await people();
      const iterable = c.find({ filter: { color: 'blue' } });
      expect(iterable).toBeInstanceOf(FindIterable);
      const seen: string[] = [];
      for await (const doc of iterable) seen.push(doc._id as string);
      expect(seen).toHaveLength(30);
      expect(await c.findAll().toArray()).toHaveLength(45);
      expect(await c.find().toArray()).toHaveLength(45);
    });

    it('limit across pages, skip with a sort, a built query, and map', async () => {
      const c = await people();
      expect(await c.find({ limit: 25 }).toArray()).toHaveLength(25);
      const sorted = SelectQuery.builder().orderBy('n', -1).skip(2).limit(3).select('n');
      expect(await c.find(sorted).toArray()).toEqual([
        { _id: 'd-42', n: 42 },
        { _id: 'd-41', n: 41 },
        { _id: 'd-40', n: 40 },
      ]);
      expect(await c.find({ filter: { n: { $lt: 3 } } }).map((d) => d.n).toArray()).toEqual([0, 1, 2]);
    });

    it('the query object is never changed by paging', async () => {
      const c = await people();
      const query = SelectQuery.builder().where('color').isEqualsTo('blue').build();
      await c.find(query).toArray();
      expect(query).toEqual({ filter: expect.any(Filter) });
      expect(Object.isFrozen(query)).toBe(true);
    });

    it('typed find and findAll', async () => {
      const c = await products();
      const all = await c.findAll(Product).toArray();
      expect(all).toHaveLength(3);
      expect(all.every((r) => r instanceof DocumentResult && r.data instanceof Product)).toBe(true);
      const cheap = await c.find(SelectQuery.findWithFilter(Filter.where('price').isLessThan(30)), Product).toArray();
      expect(cheap.map((r) => r.data.name).sort()).toEqual(['Desk lamp', 'LED bulb']);
    });
  });

  describe('findPage', () => {
    it('one page and its pageState; the next page from it; null after the last', async () => {
      const c = await people();
      const first = await c.findPage();
      expect(first.results).toHaveLength(20);
      expect(typeof first.pageState).toBe('string');
      const second = await c.findPage(SelectQuery.builder().pageState(first.pageState));
      const third = await c.findPage({ pageState: second.pageState! });
      expect(third.results).toHaveLength(5);
      expect(third.pageState).toBeNull();
      const ids = [...first.results, ...second.results, ...third.results].map((d) => d._id);
      expect(new Set(ids).size).toBe(45);
    });

    it('typed, and a vector search page with similarity', async () => {
      const c = await products();
      const page = await c.findPage(SelectQuery.builder().orderByVector([0.9, 0.1, 0.1]).limit(2).includeSimilarity(), Product);
      expect(page.results.map((r) => r.id)).toEqual(['lamp', 'bulb']);
      expect(page.results[0]!.similarity).toBeCloseTo(1, 5);
      expect(page.pageState).toBeNull();
    });
  });

  describe('findVector', () => {
    it('the nearest documents first, limit, filter, similarity, projection', async () => {
      const c = await products();
      const nearest = await c.findVector([0.9, 0.1, 0.1], { limit: 2, includeSimilarity: true });
      expect(nearest.map((d) => d._id)).toEqual(['lamp', 'bulb']);
      expect(nearest[0]!.$similarity).toBeCloseTo(1, 5);
      expect((await c.findVector([0.9, 0.1, 0.1], { filter: { price: { $gt: 50 } } })).map((d) => d._id)).toEqual(['chair']);
      expect(await c.findVector([0.9, 0.1, 0.1], { limit: 1, projection: { price: 1 } })).toEqual([{ _id: 'lamp', price: 25 }]);
      expect(await c.findVector([0.9, 0.1, 0.1])).toHaveLength(3);
    });

    it('typed, and from a query with a vector sort; a query without one is a TypeError', async () => {
      const c = await products();
      const typed = await c.findVector([0.1, 0.9, 0.2], { limit: 1 }, Product);
      expect(typed[0]!.data.name).toBe('Office chair');
      expect((await c.findVector([0.1, 0.9, 0.2], Product))).toHaveLength(3);
      const fromQuery = await c.findVector(SelectQuery.findByVector([0.8, 0.2, 0.1]));
      expect(fromQuery[0]!._id).toBe('bulb');
      expect((await c.findVector(SelectQuery.builder().orderByVector([0.8, 0.2, 0.1]).limit(1), Product))[0]!.data.price).toBe(5);
      await expect(c.findVector({ filter: { a: 1 } })).rejects.toBeInstanceOf(TypeError);
    });

    it('a limit over 20 is sent as is (up to the vector search maximum)', async () => {
      const c = await ctx.db.createCollection('many', 2);
      await c.insertMany(Array.from({ length: 30 }, (_, i) => ({ _id: i, $vector: [1, i + 1] })));
      expect(await c.findVector([1, 1], { limit: 25 })).toHaveLength(25);
    });
  });
});
