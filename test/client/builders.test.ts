/**
 * The immutable builders: Filter (every operator, and/or/not, Dates, accumulation), SelectQuery,
 * UpdateQuery (every update operator, run against a database), DeleteQuery and CollectionDefinition.
 */
import { describe, expect, it } from 'vitest';
import {
  CollectionDefinition,
  DeleteQuery,
  Filter,
  SelectQuery,
  SimilarityMetric,
  UpdateQuery,
  type FilterLike,
  type VectorDBCollection,
} from '../../src/index.js';
import { useDb } from './helpers.js';

const JAN = new Date(Date.UTC(2024, 0, 1));
const JUN = new Date(Date.UTC(2024, 5, 1));

describe('Filter', () => {
  it('every condition operator, as Data API JSON', () => {
    const cases: [Filter, object][] = [
      [Filter.where('a').isEqualsTo(1), { a: 1 }],
      [Filter.where('a').isEqualsTo({ b: 1 }), { a: { $eq: { b: 1 } } }],
      [Filter.where('a').isNotEqualsTo(1), { a: { $ne: 1 } }],
      [Filter.where('a').isGreaterThan(1), { a: { $gt: 1 } }],
      [Filter.where('a').isGreaterOrEqualsThan(1), { a: { $gte: 1 } }],
      [Filter.where('a').isLessThan(1), { a: { $lt: 1 } }],
      [Filter.where('a').isLessOrEqualsThan(1), { a: { $lte: 1 } }],
      [Filter.where('a').isInArray([1, 'x']), { a: { $in: [1, 'x'] } }],
      [Filter.where('a').isNotInArray([1]), { a: { $nin: [1] } }],
      [Filter.where('a').exists(), { a: { $exists: true } }],
      [Filter.where('a').exists(false), { a: { $exists: false } }],
      [Filter.where('a').hasSize(2), { a: { $size: 2 } }],
      [Filter.where('a').isAnArrayContaining('x', 'y'), { a: { $all: ['x', 'y'] } }],
      [Filter.where('a').isAnArrayExactlyEqualsTo(['x', 'y']), { a: ['x', 'y'] }],
      [Filter.where('a').hasSubFieldsEqualsTo({ b: 1 }), { a: { $eq: { b: 1 } } }],
      [Filter.where('at').isLessThan(JAN), { at: { $lt: { $date: JAN.getTime() } } }],
      [Filter.where('at').isEqualsTo(JAN), { at: { $date: JAN.getTime() } }],
      [Filter.findById('x'), { _id: 'x' }],
    ];
    for (const [filter, json] of cases) expect(filter.toJSON()).toEqual(json);
  });

  it('chained conditions accumulate; one path merges its operators; conflicts go to $and', () => {
    expect(new Filter().where('a').isEqualsTo(1).where('b').exists().toJSON()).toEqual({ a: 1, b: { $exists: true } });
    expect(Filter.where('n').isGreaterThan(1).where('n').isLessThan(5).toJSON()).toEqual({ n: { $gt: 1, $lt: 5 } });
    expect(Filter.where('n').isGreaterThan(1).where('n').isGreaterThan(3).toJSON()).toEqual({ n: { $gt: 1 }, $and: [{ n: { $gt: 3 } }] });
    expect(Filter.where('n').isEqualsTo(1).where('n').isNotEqualsTo(2).toJSON()).toEqual({ n: 1, $and: [{ n: { $ne: 2 } }] });
  });

  it('and / or / not, static and chained; nested filters; plain objects and JSON strings', () => {
    expect(Filter.and(Filter.where('a').isEqualsTo(1), { b: 2 }).toJSON()).toEqual({ $and: [{ a: 1 }, { b: 2 }] });
    expect(Filter.or({ c: 'red' }, { c: 'blue' }).toJSON()).toEqual({ $or: [{ c: 'red' }, { c: 'blue' }] });
    expect(Filter.not({ c: 'red' }).toJSON()).toEqual({ $not: { c: 'red' } });
    expect(Filter.where('s').isGreaterThan(0).or({ c: 'red' }, { c: 'blue' }).or({ d: 1 }, { d: 2 }).toJSON()).toEqual({
      s: { $gt: 0 },
      $or: [{ c: 'red' }, { c: 'blue' }],
      $and: [{ $or: [{ d: 1 }, { d: 2 }] }],
    });
    expect(Filter.and({ a: 1 }).and({ b: 1 }).toJSON()).toEqual({ $and: [{ a: 1 }, { b: 1 }] });
    expect(new Filter({ price: { $gt: 1 } }).where('price').isLessThan(9).toJSON()).toEqual({ price: { $gt: 1, $lt: 9 } });
    expect(Filter.of('{"a": 1}').where('b').isEqualsTo(2).toString()).toBe('{"a":1,"b":2}');
    expect(() => Filter.and()).toThrow(TypeError);
    expect(() => Filter.where('')).toThrow(TypeError);
    expect(() => Filter.where('a').hasSize(-1)).toThrow(TypeError);
  });

  it('is immutable: branching from a partial filter leaves it unchanged', () => {
    const base = Filter.where('a').isEqualsTo(1);
    const one = base.where('b').isEqualsTo(1);
    const two = base.where('c').isEqualsTo(1);
    expect(base.toJSON()).toEqual({ a: 1 });
    expect(one.toJSON()).toEqual({ a: 1, b: 1 });
    expect(two.toJSON()).toEqual({ a: 1, c: 1 });
    expect(new Filter().isEmpty).toBe(true);
  });

  describe('against a database', () => {
    const ctx = useDb();
    const items = async (): Promise<VectorDBCollection> => {
      const c = await ctx.db.createCollection('items');
      await c.insertMany([
        { _id: 1, n: 1, tags: ['x', 'y'], at: JAN, size: { w: 1, h: 2 } },
        { _id: 2, n: 2, tags: ['y'], at: JUN },
        { _id: 3, n: 3, tags: [], color: 'red' },
      ]);
      return c;
    };
    const ids = async (c: VectorDBCollection, filter: FilterLike): Promise<unknown[]> => (await c.find({ filter }).toArray()).map((d) => d._id).sort();

    it('each operator selects what it says', async () => {
      const c = await items();
      expect(await ids(c, Filter.where('n').isEqualsTo(2))).toEqual([2]);
      expect(await ids(c, Filter.where('n').isNotEqualsTo(2))).toEqual([1, 3]);
      expect(await ids(c, Filter.where('n').isGreaterThan(1))).toEqual([2, 3]);
      expect(await ids(c, Filter.where('n').isGreaterOrEqualsThan(2).where('n').isLessOrEqualsThan(2))).toEqual([2]);
      expect(await ids(c, Filter.where('n').isLessThan(3))).toEqual([1, 2]);
      expect(await ids(c, Filter.where('n').isInArray([1, 3]))).toEqual([1, 3]);
      expect(await ids(c, Filter.where('n').isNotInArray([1, 3]))).toEqual([2]);
      expect(await ids(c, Filter.where('color').exists())).toEqual([3]);
      expect(await ids(c, Filter.where('tags').hasSize(1))).toEqual([2]);
      expect(await ids(c, Filter.where('tags').isAnArrayContaining('y', 'x'))).toEqual([1]);
      expect(await ids(c, Filter.where('tags').isAnArrayExactlyEqualsTo(['y']))).toEqual([2]);
      expect(await ids(c, Filter.where('size').hasSubFieldsEqualsTo({ w: 1, h: 2 }))).toEqual([1]);
      expect(await ids(c, Filter.where('at').isLessThan(new Date(Date.UTC(2024, 2, 1))))).toEqual([1]);
      expect(await ids(c, Filter.where('at').isGreaterOrEqualsThan(JUN))).toEqual([2]);
      expect(await ids(c, Filter.or({ n: 1 }, Filter.where('color').isEqualsTo('red')))).toEqual([1, 3]);
      expect(await ids(c, Filter.not(Filter.where('n').isEqualsTo(1)))).toEqual([2, 3]);
      expect(await ids(c, Filter.where('n').isGreaterThan(1).where('n').isGreaterThan(2))).toEqual([3]);
    });
  });
});

describe('SelectQuery', () => {
  it('the builder sets each part and is immutable; shortcuts', () => {
    const base = SelectQuery.builder().where('a').isEqualsTo(1);
    const query = base.filter({ b: 2 }).select('a', 'b').orderBy('a', -1).orderBy('b').skip(1).limit(5).includeSimilarity().build();
    expect(query.filter).toBeInstanceOf(Filter);
    expect((query.filter as Filter).toJSON()).toEqual({ a: 1, b: 2 });
    expect(query).toMatchObject({ projection: { a: 1, b: 1 }, sort: { a: -1, b: 1 }, skip: 1, limit: 5, includeSimilarity: true });
    expect(Object.isFrozen(query)).toBe(true);
    expect((base.build().filter as Filter).toJSON()).toEqual({ a: 1 });
    expect(SelectQuery.builder().exclude('body').build().projection).toEqual({ body: 0 });
    expect(SelectQuery.builder().includeVector().build().projection).toEqual({ '*': 1 });
    expect(SelectQuery.builder().select('a').includeVector().build().projection).toEqual({ a: 1, $vector: 1 });
    expect(SelectQuery.builder().projection({ x: 1 }).build().projection).toEqual({ x: 1 });
    expect(SelectQuery.builder().orderBy('a').orderByVector(new Float32Array([1, 0])).build().sort).toEqual({ $vector: [1, 0] });
    expect(SelectQuery.builder().pageState('abc').pageState(null).build()).toEqual({});
    expect((SelectQuery.findById('x').filter as Filter).toJSON()).toEqual({ _id: 'x' });
    expect(SelectQuery.findByVector([1, 2]).sort).toEqual({ $vector: [1, 2] });
    expect(SelectQuery.findWithFilter({ a: 1 }).filter).toBeInstanceOf(Filter);
  });

  it('bad limits and skips are TypeErrors, never silently dropped', () => {
    expect(() => SelectQuery.builder().limit(0)).toThrow(TypeError);
    expect(() => SelectQuery.builder().limit(2.5)).toThrow(TypeError);
    expect(() => SelectQuery.builder().skip(-1)).toThrow(TypeError);
    expect(() => SelectQuery.builder().orderBy('a', 2 as 1)).toThrow(TypeError);
    expect(SelectQuery.builder().limit(500).build().limit).toBe(500);
  });
});

describe('UpdateQuery', () => {
  it('the builder accumulates operators and options', () => {
    const query = UpdateQuery.builder()
      .where('_id').isEqualsTo('a')
      .set('x', 1).set({ y: 2 }).setOnInsert('created', JAN).unset('u', 'v').inc('n').inc('m', -2).mul('p', 2)
      .min('lo', 1).max('hi', 9).push('list', 1).pushEach('list2', [1, 2], 0).pop('queue', -1)
      .addToSet('set', 'a').addToSetEach('set2', ['a', 'b']).rename('old', 'new').rename({ o2: 'n2' }).currentDate('touched')
      .orderBy('n', -1).projection({ x: 1 }).upsert().returnDocument('after')
      .build();
    expect(query.update).toEqual({
      $set: { x: 1, y: 2 },
      $setOnInsert: { created: JAN },
      $unset: { u: '', v: '' },
      $inc: { n: 1, m: -2 },
      $mul: { p: 2 },
      $min: { lo: 1 },
      $max: { hi: 9 },
      $push: { list: 1, list2: { $each: [1, 2], $position: 0 } },
      $pop: { queue: -1 },
      $addToSet: { set: 'a', set2: { $each: ['a', 'b'] } },
      $rename: { old: 'new', o2: 'n2' },
      $currentDate: { touched: true },
    });
    expect(query).toMatchObject({ sort: { n: -1 }, projection: { x: 1 }, upsert: true, returnDocument: 'after' });
    expect(UpdateQuery.builder().orderByVector([1, 0]).replaceBy({ a: 1 }).build()).toEqual({ sort: { $vector: [1, 0] }, replacement: { a: 1 } });
    expect(() => UpdateQuery.builder().set('x')).toThrow(TypeError);
    expect(() => UpdateQuery.builder().returnDocument('later' as 'after')).toThrow(TypeError);
    expect(() => UpdateQuery.builder().inc('n', Number.NaN)).toThrow(TypeError);
  });

  describe('against a database: every update operator', () => {
    const ctx = useDb();

    it('applies each operator', async () => {
      const c = await ctx.db.createCollection('c');
      await c.insertOne({ _id: 'a', n: 5, p: 3, lo: 4, hi: 4, list: [1], queue: [1, 2, 3], set: ['a'], old: 'o', gone: 1 });
      const update = UpdateQuery.builder()
        .where('_id').isEqualsTo('a')
        .set('s', 'x').unset('gone').inc('n', 2).mul('p', 2).min('lo', 1).max('hi', 9).pushEach('list', [0], 0)
        .pop('queue', -1).addToSet('set', 'a').addToSetEach('set2', ['b']).rename('old', 'renamed').currentDate('touched');
      expect(await c.updateOne(update)).toEqual({ matchedCount: 1, modifiedCount: 1 });
      const doc = await c.findById('a');
      expect(doc).toMatchObject({ s: 'x', n: 7, p: 6, lo: 1, hi: 9, list: [0, 1], queue: [2, 3], set: ['a'], set2: ['b'], renamed: 'o' });
      expect(doc).not.toHaveProperty('gone');
      expect(doc!.touched).toEqual({ $date: expect.any(Number) });
      await c.updateOne(UpdateQuery.builder().where('_id').isEqualsTo('b').setOnInsert('created', JAN).push('list', 1).upsert());
      expect(await c.findById('b')).toEqual({ _id: 'b', created: { $date: JAN.getTime() }, list: [1] });
    });
  });
});

describe('DeleteQuery', () => {
  it('builder, of, deleteById, deleteByVector', () => {
    const built = DeleteQuery.builder().where('a').isEqualsTo(1).filter({ b: 2 }).orderBy('n', -1).build();
    expect((built.filter as Filter).toJSON()).toEqual({ a: 1, b: 2 });
    expect(built.sort).toEqual({ n: -1 });
    expect(Object.isFrozen(built)).toBe(true);
    expect(DeleteQuery.builder().orderByVector([1, 0]).build().sort).toEqual({ $vector: [1, 0] });
    expect(DeleteQuery.of({ filter: { a: 1 } })).toEqual({ filter: { a: 1 } });
    expect((DeleteQuery.deleteById('x').filter as Filter).toJSON()).toEqual({ _id: 'x' });
    expect(DeleteQuery.deleteByVector([0, 1]).sort).toEqual({ $vector: [0, 1] });
  });
});

describe('CollectionDefinition', () => {
  it('the builder', () => {
    expect(CollectionDefinition.builder().name('c').build()).toEqual({ name: 'c' });
    expect(CollectionDefinition.builder().name('c').vector(3, SimilarityMetric.DOT_PRODUCT).indexingDeny('body').defaultId('uuidv7').build()).toEqual({
      name: 'c',
      options: { vector: { dimension: 3, metric: 'dot_product' }, indexing: { deny: ['body'] }, defaultId: { type: 'uuidv7' } },
    });
    expect(CollectionDefinition.builder().name('c').similarityMetric('euclidean').vectorDimension(4).vectorIndex({ m: 8 }).indexingAllow('a').build()).toEqual({
      name: 'c',
      options: { vector: { dimension: 4, metric: 'euclidean', index: { m: 8 } }, indexing: { allow: ['a'] } },
    });
    expect(CollectionDefinition.builder().name('c').vectorDimension(2).build().options?.vector?.metric).toBe('cosine');
    expect(SimilarityMetric).toEqual({ COSINE: 'cosine', EUCLIDEAN: 'euclidean', DOT_PRODUCT: 'dot_product' });
  });

  it('refuses what cannot be built', () => {
    expect(() => CollectionDefinition.builder().build()).toThrow(TypeError);
    expect(() => CollectionDefinition.builder().name('c').similarityMetric('cosine').build()).toThrow(TypeError);
    expect(() => CollectionDefinition.builder().name('c').indexingDeny('a').indexingAllow('b')).toThrow(/mutually exclusive/);
    expect(() => CollectionDefinition.builder().indexingAllow('b').indexingDeny('a')).toThrow(/mutually exclusive/);
    expect(() => CollectionDefinition.builder().vector(0)).toThrow(TypeError);
  });
});
