/**
 * Type-level tests of the client surface: `Document<Product>` results are typed without casts, whether
 * the type comes from a class, a mapper or a type parameter; untyped reads are JSON documents; queries and
 * builders keep their types. These run `expectTypeOf` (checked by tsc and by vitest's typecheck mode);
 * the runtime bodies never touch a database.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  Document,
  DocumentMutationResult,
  DocumentResult,
  Filter,
  FindIterable,
  JsonDocument,
  JsonDocumentMutationResult,
  SelectQuery,
  UpdateQuery,
  VectorDB,
  VectorDBCollection,
  VectorDBRepository,
  type DocumentId,
  type DocumentMutationStatus,
  type FindAndUpdateResult,
  type FoundDocument,
  type JsonDocumentResult,
  type Page,
} from '../../src/index.js';

class Product {
  name = '';
  price = 0;
  added: Date = new Date(0);
}

interface Review {
  stars: number;
  text: string;
}

/** Declared only: type tests need values of these types, never a running database. */
declare const db: VectorDB;
declare const json: VectorDBCollection;
declare const reviews: VectorDBCollection<Review>;
declare const repo: VectorDBRepository<Product>;

describe('client types', () => {
  it('typed reads with a class give DocumentResult<Product> with typed data', () => {
    const read = async () => {
      const byId = await json.findById('lamp', Product);
      expectTypeOf(byId).toEqualTypeOf<DocumentResult<Product> | undefined>();
      expectTypeOf(byId!.data.price).toBeNumber();
      expectTypeOf(byId!.data.added).toEqualTypeOf<Date>();
      expectTypeOf(byId!.similarity).toEqualTypeOf<number | undefined>();
      expectTypeOf(byId!.id).toEqualTypeOf<DocumentId | undefined>();
      expectTypeOf(await json.findOne({ filter: { a: 1 } }, Product)).toEqualTypeOf<DocumentResult<Product> | undefined>();
      expectTypeOf(await json.findOneByVector([1, 0], Product)).toEqualTypeOf<DocumentResult<Product> | undefined>();
      expectTypeOf(await json.findVector([1, 0], { limit: 3 }, Product)).toEqualTypeOf<DocumentResult<Product>[]>();
      expectTypeOf(await json.findPage({}, Product)).toEqualTypeOf<Page<DocumentResult<Product>>>();
      expectTypeOf(json.find({}, Product)).toEqualTypeOf<FindIterable<DocumentResult<Product>>>();
      expectTypeOf(json.findAll(Product)).toEqualTypeOf<FindIterable<DocumentResult<Product>>>();
      for await (const result of json.find(SelectQuery.builder().where('price').isLessThan(30), Product)) expectTypeOf(result.data.name).toBeString();
    };
    expectTypeOf(read).returns.resolves.toBeVoid();
  });

  it('a mapper gives DocumentResult of what it returns (or of the DocumentResult it builds)', () => {
    const read = async () => {
      const toReview = (doc: JsonDocumentResult): Review => ({ stars: Number(doc.stars), text: String(doc.text) });
      expectTypeOf(await json.findById('r1', toReview)).toEqualTypeOf<DocumentResult<Review> | undefined>();
      const toResult = (doc: JsonDocumentResult) => new DocumentResult<Review>({ id: doc._id, data: { stars: 5, text: '' } });
      expectTypeOf(await json.findOne({}, toResult)).toEqualTypeOf<DocumentResult<Review> | undefined>();
    };
    expectTypeOf(read).returns.resolves.toBeVoid();
  });

  it('untyped reads are JSON documents; a typed collection returns its own type with _id', () => {
    const read = async () => {
      expectTypeOf(await json.findById('x')).toEqualTypeOf<JsonDocumentResult | undefined>();
      expectTypeOf(await json.findVector([1, 0])).toEqualTypeOf<JsonDocumentResult[]>();
      const review = await reviews.findOne({ filter: { stars: 5 } });
      expectTypeOf(review).toEqualTypeOf<FoundDocument<Review> | undefined>();
      expectTypeOf(review!.stars).toBeNumber();
      expectTypeOf(review!._id).toEqualTypeOf<DocumentId>();
      expectTypeOf(review!.$similarity).toEqualTypeOf<number | undefined>();
      expectTypeOf(await reviews.find().toArray()).toEqualTypeOf<FoundDocument<Review>[]>();
      expectTypeOf(await db.collection<Review>('reviews')).toEqualTypeOf<VectorDBCollection<Review>>();
    };
    expectTypeOf(read).returns.resolves.toBeVoid();
  });

  it('writes: Document<Product> gives DocumentMutationResult<Product>; JSON gives JsonDocumentMutationResult', () => {
    const write = async () => {
      const lamp = Document.of(new Product(), { id: 'lamp' });
      expectTypeOf(lamp).toEqualTypeOf<Document<Product>>();
      const inserted = await json.insertOne(lamp);
      expectTypeOf(inserted).toEqualTypeOf<DocumentMutationResult<Product>>();
      expectTypeOf(inserted.document.data.price).toBeNumber();
      expectTypeOf(inserted.status).toEqualTypeOf<DocumentMutationStatus>();
      expectTypeOf(inserted.id).toEqualTypeOf<DocumentId>();
      expectTypeOf(await json.upsertMany([lamp])).toEqualTypeOf<DocumentMutationResult<Product>[]>();
      expectTypeOf(await json.insertManyChunked([lamp], 10, 2)).toEqualTypeOf<DocumentMutationResult<Product>[]>();
      expectTypeOf(await json.insertOne({ a: 1 })).toEqualTypeOf<JsonDocumentMutationResult<JsonDocument>>();
      expectTypeOf(await json.insertMany('[{"a": 1}]')).toEqualTypeOf<JsonDocumentMutationResult<JsonDocument>[]>();
      expectTypeOf(await reviews.upsertOne({ stars: 4, text: 'ok' })).toEqualTypeOf<JsonDocumentMutationResult<Review>>();
      expectTypeOf(await json.insertOne({ at: new Date(), note: undefined })).toEqualTypeOf<JsonDocumentMutationResult<JsonDocument>>();
      // @ts-expect-error a Review collection takes Reviews
      await reviews.insertOne({ stars: 'five' });
    };
    expectTypeOf(write).returns.resolves.toBeVoid();
  });

  it('repositories are typed from a type parameter or a class', () => {
    const use = async () => {
      expectTypeOf(await db.repository<Review>('reviews')).toEqualTypeOf<VectorDBRepository<Review>>();
      expectTypeOf(await db.createCollection('products', 3, Product)).toEqualTypeOf<VectorDBRepository<Product>>();
      expectTypeOf(await db.createCollection('products', 3, 'dot_product', Product)).toEqualTypeOf<VectorDBRepository<Product>>();
      expectTypeOf(await db.createCollection('notes')).toEqualTypeOf<VectorDBCollection<JsonDocument>>();
      expectTypeOf(await db.createCollection<Review>('reviews', 3)).toEqualTypeOf<VectorDBCollection<Review>>();
      expectTypeOf(await repo.findById('lamp')).toEqualTypeOf<DocumentResult<Product> | undefined>();
      expectTypeOf(await repo.findAllById(['a'])).toEqualTypeOf<DocumentResult<Product>[]>();
      expectTypeOf(await repo.save(new Product())).toEqualTypeOf<DocumentMutationResult<Product>>();
      expectTypeOf(await repo.deleteAll()).toBeVoid();
      expectTypeOf(await repo.deleteAll([Document.of(new Product())])).toBeNumber();
      expectTypeOf(await repo.findVector([1, 0])).toEqualTypeOf<DocumentResult<Product>[]>();
    };
    expectTypeOf(use).returns.resolves.toBeVoid();
  });

  it('queries and builders', () => {
    expectTypeOf(Filter.where('a').isEqualsTo(1)).toEqualTypeOf<Filter>();
    expectTypeOf(SelectQuery.builder().where('a').isGreaterThan(new Date()).limit(3).build()).toEqualTypeOf<SelectQuery>();
    expectTypeOf(UpdateQuery.builder().set('a', 1).upsert().build()).toEqualTypeOf<UpdateQuery>();
    const change = async () => {
      expectTypeOf(await json.findOneAndUpdate({ _id: 'a' }, { $set: { b: 1 } })).toEqualTypeOf<FindAndUpdateResult<JsonDocumentResult>>();
      expectTypeOf(await json.findOneAndUpdate(UpdateQuery.builder().set('b', 1), Product)).toEqualTypeOf<FindAndUpdateResult<DocumentResult<Product>>>();
    };
    expectTypeOf(change).returns.resolves.toBeVoid();
  });
});
