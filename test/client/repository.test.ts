/**
 * VectorDBRepository<T>: the CRUD repository methods, the mirrors of the collection, and how a repository
 * is obtained (db.repository, db.createCollection with a class or a mapper).
 */
import { describe, expect, it } from 'vitest';
import {
  CollectionNotFoundException,
  DeleteQuery,
  Document,
  DocumentAlreadyExistsException,
  DocumentMutationResult,
  DocumentResult,
  SelectQuery,
  TooManyDocumentsToCountException,
  UpdateQuery,
  VectorDBRepository,
  type JsonDocumentResult,
} from '../../src/index.js';
import { rejection, useDb } from './helpers.js';

class Product {
  name = '';
  price = 0;
  label(): string {
    return `${this.name}: ${this.price}`;
  }
}

const product = (name: string, price: number): Product => Object.assign(new Product(), { name, price });
const doc = (id: string, name: string, price: number, vector?: number[]): Document<Product> => Document.of(product(name, price), { id, ...(vector ? { vector } : {}) });

describe('VectorDBRepository', () => {
  const ctx = useDb();
  const repository = async (): Promise<VectorDBRepository<Product>> => {
    const repo = await ctx.db.createCollection('products', 2, Product);
    await repo.saveAll([doc('lamp', 'Desk lamp', 25, [1, 0]), doc('bulb', 'LED bulb', 5, [0.9, 0.1]), doc('chair', 'Chair', 120, [0, 1])]);
    return repo;
  };

  describe('getting one', () => {
    it('db.createCollection(name, dimension, Class) and (name, Class), (definition, mapper)', async () => {
      const repo = await ctx.db.createCollection('products', 2, Product);
      expect(repo).toBeInstanceOf(VectorDBRepository);
      expect(repo.name).toBe('products');
      expect(await ctx.db.findCollectionByName('products')).toMatchObject({ options: { vector: { dimension: 2, metric: 'cosine' } } });
      expect(await ctx.db.createCollection('plain', Product)).toBeInstanceOf(VectorDBRepository);
      expect(await ctx.db.createCollection('dots', 2, 'dot_product', Product)).toBeInstanceOf(VectorDBRepository);
      const mapped = await ctx.db.createCollection({ name: 'mapped' }, (json: JsonDocumentResult) => ({ upper: String(json.name).toUpperCase() }));
      await mapped.collection.insertOne({ _id: 1, name: 'x' });
      expect((await mapped.findById(1))!.data).toEqual({ upper: 'X' });
    });

    it('db.repository<T>(name) over an existing collection: data is the stored JSON typed as T', async () => {
      await ctx.db.createCollection('reviews');
      const repo = await ctx.db.repository<{ stars: number; at: Date }>('reviews');
      await repo.save({ stars: 5, at: new Date(3) });
      const [found] = await repo.findAll().toArray();
      expect(found!.data).toEqual({ stars: 5, at: new Date(3) });
      const withClass = await ctx.db.repository('reviews', Product);
      expect((await withClass.findAll().toArray())[0]!.data).toBeInstanceOf(Product);
      await expect(ctx.db.repository('absent')).rejects.toBeInstanceOf(CollectionNotFoundException);
    });

    it('create() makes the collection when missing', async () => {
      const repo = await (await ctx.db.createCollection('tmp', Product)).create();
      await ctx.db.deleteCollection('tmp');
      await repo.create(2, 'euclidean');
      expect(await ctx.db.findCollectionByName('tmp')).toMatchObject({ options: { vector: { dimension: 2, metric: 'euclidean' } } });
      await repo.create(2, 'euclidean');
    });
  });

  describe('CRUD repository methods', () => {
    it('count, existsById, findById, findAll, findAllById', async () => {
      const repo = await repository();
      expect(await repo.count()).toBe(3);
      expect(await repo.count({ price: { $lt: 30 } })).toBe(2);
      expect(await repo.existsById('lamp')).toBe(true);
      expect(await repo.existsById('none')).toBe(false);
      const lamp = await repo.findById('lamp');
      expect(lamp).toBeInstanceOf(DocumentResult);
      expect(lamp!.data.label()).toBe('Desk lamp: 25');
      expect(await repo.findById('none')).toBeUndefined();
      expect((await repo.findAll().toArray()).map((r) => r.id).sort()).toEqual(['bulb', 'chair', 'lamp']);
      expect((await repo.findAllById(['chair', 'none', 'lamp', 'chair'])).map((r) => r.id)).toEqual(['chair', 'lamp']);
      expect(await repo.findAllById([])).toEqual([]);
    });

    it('save: CREATED, UNCHANGED, UPDATED; a bare T gets a generated id; saveAll in input order', async () => {
      const repo = await ctx.db.createCollection('products', Product);
      const created = await repo.save(doc('a', 'A', 1));
      expect(created).toBeInstanceOf(DocumentMutationResult);
      expect(created.status).toBe('CREATED');
      expect((await repo.save(doc('a', 'A', 1))).status).toBe('UNCHANGED');
      expect((await repo.save(doc('a', 'A', 2))).status).toBe('UPDATED');
      const bare = await repo.save(product('B', 3));
      expect(bare.status).toBe('CREATED');
      expect(typeof bare.id).toBe('string');
      const all = await repo.saveAll([doc('a', 'A', 2), doc('c', 'C', 4), product('D', 5)]);
      expect(all.map((r) => r.status)).toEqual(['UNCHANGED', 'CREATED', 'CREATED']);
      expect(await repo.count()).toBe(4);
    });

    it('deleteById, delete(entity) by id or by vector, deleteAllById, deleteAll(entities), deleteAll(query), deleteAll()', async () => {
      const repo = await repository();
      expect(await repo.deleteById('none')).toBe(false);
      expect(await repo.deleteById('lamp')).toBe(true);
      expect(await repo.delete(doc('lamp', '', 0))).toBe(false);
      expect(await repo.delete(Document.of(product('', 0), { vector: [0, 1] }))).toBe(true);
      expect(await repo.existsById('chair')).toBe(false);
      await expect(repo.delete(Document.of(product('', 0)))).rejects.toBeInstanceOf(TypeError);
      await repo.saveAll([doc('a', 'A', 1), doc('b', 'B', 2), doc('c', 'C', 3), doc('d', 'D', 400)]);
      expect(await repo.deleteAllById(['a', 'b', 'zz'])).toBe(2);
      expect(await repo.deleteAll([doc('c', '', 0), doc('zz', '', 0)])).toBe(1);
      expect(await repo.deleteAll(DeleteQuery.builder().where('price').isGreaterThan(100))).toBe(1);
      expect(await repo.count()).toBe(1);
      expect(await repo.deleteAll()).toBeUndefined();
      expect(await repo.count()).toBe(0);
    });
  });

  describe('mirrors of the collection', () => {
    it('insert one and many; an existing id throws DocumentAlreadyExistsException', async () => {
      const repo = await ctx.db.createCollection('products', Product);
      expect((await repo.insert(doc('a', 'A', 1))).status).toBe('CREATED');
      expect((await repo.insert([doc('b', 'B', 2), product('C', 3)], { chunkSize: 1 })).map((r) => r.status)).toEqual(['CREATED', 'CREATED']);
      expect(await rejection(repo.insert(doc('a', 'A', 1)))).toBeInstanceOf(DocumentAlreadyExistsException);
    });

    it('update replaces an existing entity only', async () => {
      const repo = await repository();
      expect((await repo.update(doc('lamp', 'Lamp', 30))).status).toBe('UPDATED');
      expect((await repo.update(doc('lamp', 'Lamp', 30))).status).toBe('UNCHANGED');
      expect((await repo.update(doc('none', 'X', 1))).status).toBe('NOT_PROCESSED');
      expect(await repo.existsById('none')).toBe(false);
      await expect(repo.update(Document.of(product('x', 1)))).rejects.toBeInstanceOf(TypeError);
    });

    it('updateOne, updateMany, clear', async () => {
      const repo = await repository();
      expect(await repo.updateOne(UpdateQuery.builder().where('_id').isEqualsTo('lamp').inc('price', 1))).toEqual({ matchedCount: 1, modifiedCount: 1 });
      expect((await repo.updateMany(UpdateQuery.builder().set('onSale', true))).modifiedCount).toBe(3);
      await repo.clear();
      expect(await repo.count()).toBe(0);
    });

    it('find, findOne, findPage', async () => {
      const repo = await repository();
      expect((await repo.find(SelectQuery.builder().where('price').isLessThan(30)).toArray()).map((r) => r.data.name).sort()).toEqual(['Desk lamp', 'LED bulb']);
      expect((await repo.find().toArray())).toHaveLength(3);
      expect((await repo.findOne({ sort: { price: -1 } }))!.id).toBe('chair');
      expect(await repo.findOne({ filter: { price: -1 } })).toBeUndefined();
      expect((await repo.findOne())!.data).toBeInstanceOf(Product);
      const page = await repo.findPage({ sort: { price: 1 }, limit: 2 });
      expect(page.results.map((r) => r.id)).toEqual(['bulb', 'lamp']);
    });

    it('findVector and findOneByVector include the similarity', async () => {
      const repo = await repository();
      const near = await repo.findVector([1, 0], { limit: 2 });
      expect(near.map((r) => r.id)).toEqual(['lamp', 'bulb']);
      expect(near[0]!.similarity).toBeCloseTo(1, 5);
      const one = await repo.findOneByVector([0, 1]);
      expect(one!.id).toBe('chair');
      expect(one!.similarity).toBeCloseTo(1, 5);
      expect((await repo.findVector([1, 0], { includeSimilarity: false }))[0]!.similarity).toBeUndefined();
    });
  });
});

describe('VectorDBRepository.count beyond what countDocuments counts (limit 5)', () => {
  const ctx = useDb({ maxCountDocuments: 5 });

  it('count() falls back to the whole collection; count(filter) throws TooManyDocumentsToCountException', async () => {
    const repo = await ctx.db.createCollection('products', Product);
    await repo.saveAll(Array.from({ length: 8 }, (_, i) => doc(`p${i}`, 'P', i)));
    expect(await repo.count()).toBe(8);
    expect(await repo.count({ price: { $lt: 3 } })).toBe(3);
    expect(await rejection(repo.count({ name: 'P' }))).toBeInstanceOf(TooManyDocumentsToCountException);
  });
});
