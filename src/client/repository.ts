/**
 * VectorDBRepository<T>: the repository pattern over one collection. Entities are `Document<T>`s (or bare
 * `T`s, given an id by the database), stored as JSON; reads return `DocumentResult<T>`, built by the class
 * or mapper the repository was made with, or as the stored JSON typed as `T`. CRUD names follow the common
 * CRUD repository interface (count, delete, deleteAll, deleteAllById, deleteById, existsById, findAll,
 * findAllById, findById, save, saveAll); the rest mirrors VectorDBCollection.
 */
import type { JsonValue } from '../query/json.js';
import type { FindIterable } from './find-iterable.js';
import type { FindVectorOptions, InsertManyOptions, UpsertManyOptions } from './collection-options.js';
import type { VectorDBCollection } from './collection.js';
import type { SimilarityMetric } from './collection-definition.js';
import { DeleteQuery, deleteQueryOf, type DeleteQueryLike } from './delete-query.js';
import { Document, type JsonDocument } from './documents.js';
import { TooManyDocumentsToCountException } from './errors.js';
import type { FilterLike } from './filter.js';
import { DocumentMutationResult, toDocumentResult, type DocumentResult, type Page, type ResultMapping } from './results.js';
import type { SelectQueryLike } from './select-query.js';
import type { DocumentId, UpdateResult, Vector } from './types.js';
import type { UpdateQueryLike } from './update-query.js';
import { toJson } from './wire.js';

/** How many ids one `$in` holds (the Data API's limit). */
const IDS_PER_REQUEST = 100;

/**
 * A typed repository of `T`s in one collection.
 * @example
 * class Product { name = ''; price = 0 }
 * const products = await db.createCollection('products', 3, Product);   // VectorDBRepository<Product>
 * await products.save(Document.of(Object.assign(new Product(), { name: 'lamp', price: 25 }), { id: 'lamp', vector: [0.9, 0.1, 0.1] }));
 * const lamp = await products.findById('lamp');                          // DocumentResult<Product> | undefined
 */
export class VectorDBRepository<T> {
  /** The collection behind the repository. */
  readonly collection: VectorDBCollection<JsonDocument>;
  readonly #as: ResultMapping<T> | undefined;

  /**
   * A repository over a collection; prefer `db.repository(name, Class?)`.
   * @example const products = new VectorDBRepository(await db.collection('products'), Product);
   */
  constructor(collection: VectorDBCollection<JsonDocument>, as?: ResultMapping<T>) {
    this.collection = collection;
    this.#as = as;
  }

  #mapping(): ResultMapping<T> {
    // Without a class or mapper, results carry the stored JSON as T (see DocumentResult.fromJson).
    return this.#as ?? ((json) => toDocumentResult<T>(json, undefined));
  }

  /** The collection's name. @example products.name // 'products' */
  get name(): string {
    return this.collection.name;
  }

  // ---- create ---------------------------------------------------------------------------------

  /**
   * Creates the collection when it does not exist (vectors of this dimension and metric, if given).
   * @example await db.repository<Product>('products').create(3, 'cosine');
   */
  async create(dimension?: number, metric?: SimilarityMetric): Promise<this> {
    const db = this.collection.db;
    if (!(await db.isCollectionExists(this.name))) {
      await (dimension === undefined ? db.createCollection(this.name) : db.createCollection(this.name, dimension, metric));
    }
    return this;
  }

  // ---- CRUD repository --------------------------------------------------------------------------

  /**
   * How many entities (match the filter); without a filter, the whole collection, however large.
   * @example const n = await products.count();
   */
  async count(filter?: FilterLike): Promise<number> {
    try {
      return await this.collection.countDocuments(filter ?? {});
    } catch (error) {
      if (filter === undefined && error instanceof TooManyDocumentsToCountException) return this.collection.estimatedDocumentCount();
      throw error;
    }
  }

  /**
   * Deletes an entity by its id, or without an id the document nearest its vector; true when one was deleted.
   * @example await products.delete(lamp);
   */
  async delete(entity: Document<T>): Promise<boolean> {
    if (entity.id !== undefined) return this.deleteById(entity.id);
    if (entity.vector !== undefined) return (await this.collection.deleteOne(DeleteQuery.deleteByVector(entity.vector))) > 0;
    throw new TypeError('VectorDBRepository.delete: the entity has neither an id nor a vector');
  }

  /**
   * Without arguments, deletes every entity; with entities, deletes those and returns how many were
   * deleted; with a DeleteQuery (or filter), deletes the matches and returns how many.
   * @example
   * await products.deleteAll([lamp, bulb]);
   * await products.deleteAll(DeleteQuery.builder().where('price').isGreaterThan(100));
   * await products.deleteAll();
   */
  deleteAll(): Promise<void>;
  deleteAll(entities: Iterable<Document<T>>): Promise<number>;
  deleteAll(query: DeleteQueryLike | FilterLike): Promise<number>;
  async deleteAll(what?: Iterable<Document<T>> | DeleteQueryLike | FilterLike): Promise<number | void> {
    if (what === undefined) return this.collection.clear();
    if (typeof what === 'object' && what !== null && Symbol.iterator in what) {
      let deleted = 0;
      for (const entity of what as Iterable<Document<T>>) if (await this.delete(entity)) deleted++;
      return deleted;
    }
    const query = deleteQueryOf(what as DeleteQueryLike);
    return this.collection.deleteMany(query.filter ?? {});
  }

  /**
   * Deletes the entities with these ids; returns how many were deleted.
   * @example await products.deleteAllById(['lamp', 'bulb']);
   */
  async deleteAllById(ids: Iterable<DocumentId>): Promise<number> {
    let deleted = 0;
    for (const chunk of idChunks(ids)) deleted += await this.collection.deleteMany({ _id: { $in: chunk } });
    return deleted;
  }

  /** Deletes the entity with this id; true when it existed. @example await products.deleteById('lamp'); */
  async deleteById(id: DocumentId): Promise<boolean> {
    return (await this.collection.deleteById(id)) > 0;
  }

  /** True when an entity has this id. @example if (await products.existsById('lamp')) ... */
  existsById(id: DocumentId): Promise<boolean> {
    return this.collection.isDocumentExists(id);
  }

  /** Every entity, page after page. @example for await (const p of products.findAll()) console.log(p.data.name); */
  findAll(): FindIterable<DocumentResult<T>> {
    return this.collection.findAll(this.#mapping());
  }

  /**
   * The entities with these ids, in the order of the ids (missing ones left out).
   * @example const [lamp, bulb] = await products.findAllById(['lamp', 'bulb']);
   */
  async findAllById(ids: Iterable<DocumentId>): Promise<DocumentResult<T>[]> {
    const byId = new Map<string, DocumentResult<T>>();
    const order: string[] = [];
    for (const chunk of idChunks(ids)) {
      order.push(...chunk.map((id) => JSON.stringify(id)));
      for await (const result of this.collection.find({ filter: { _id: { $in: chunk } } }, this.#mapping())) byId.set(JSON.stringify(toJson(result.id, '_id')), result);
    }
    return [...new Set(order)].flatMap((key) => byId.get(key) ?? []);
  }

  /** The entity with this id, or undefined. @example const lamp = await products.findById('lamp'); */
  findById(id: DocumentId): Promise<DocumentResult<T> | undefined> {
    return this.collection.findById(id, this.#mapping());
  }

  /**
   * Inserts or replaces an entity by id (CREATED, UPDATED or UNCHANGED); an entity without an id is inserted.
   * @example const { status } = await products.save(Document.of(lamp, { id: 'lamp' }));
   */
  save(entity: Document<T> | T): Promise<DocumentMutationResult<T>> {
    return this.collection.upsertOne(documentOf(entity));
  }

  /** save for many entities (chunked, input order). @example await products.saveAll([lamp, bulb]); */
  saveAll(entities: Iterable<Document<T> | T>, options?: UpsertManyOptions): Promise<DocumentMutationResult<T>[]> {
    return this.collection.upsertMany(Array.from(entities, documentOf), options);
  }

  // ---- mirrors of the collection ----------------------------------------------------------------

  /**
   * Inserts one entity (DocumentAlreadyExistsException when its id exists), or many (chunked).
   * @example
   * await products.insert(Document.of(lamp, { id: 'lamp' }));
   * await products.insert([lamp, bulb], { chunkSize: 10, concurrency: 2 });
   */
  insert(entity: Document<T> | T): Promise<DocumentMutationResult<T>>;
  insert(entities: Iterable<Document<T> | T>, options?: InsertManyOptions): Promise<DocumentMutationResult<T>[]>;
  insert(what: Document<T> | T | Iterable<Document<T> | T>, options?: InsertManyOptions): Promise<DocumentMutationResult<T> | DocumentMutationResult<T>[]> {
    if (isIterableEntities(what)) return this.collection.insertMany(Array.from(what, documentOf), options);
    return this.collection.insertOne(documentOf(what as Document<T> | T));
  }

  /**
   * Replaces an existing entity by id: UPDATED, UNCHANGED, or NOT_PROCESSED when there is none (no insert).
   * @example await products.update(lamp.withData({ ...lamp.data, price: 20 }));
   */
  async update(entity: Document<T>): Promise<DocumentMutationResult<T>> {
    if (entity.id === undefined) throw new TypeError('VectorDBRepository.update: the entity has no id');
    const result = await this.collection.findOneAndReplace({ _id: toJson(entity.id, '_id') }, entity, { projection: { _id: 1 } });
    const status = result.matchedCount === 0 ? 'NOT_PROCESSED' : result.modifiedCount === 0 ? 'UNCHANGED' : 'UPDATED';
    return new DocumentMutationResult<T>(entity.id, status, entity);
  }

  /** updateOne of the collection. @example await products.updateOne(UpdateQuery.builder().where('_id').isEqualsTo('lamp').inc('price', 1)) */
  updateOne(query: UpdateQueryLike): Promise<UpdateResult> {
    return this.collection.updateOne(query);
  }

  /** updateMany of the collection. @example await products.updateMany(UpdateQuery.builder().filter({}).set('onSale', true)) */
  updateMany(query: UpdateQueryLike): Promise<UpdateResult> {
    return this.collection.updateMany(query);
  }

  /** Deletes every entity (the collection stays). @example await products.clear(); */
  clear(): Promise<void> {
    return this.collection.clear();
  }

  /** The entities a query selects, page after page. @example await products.find(SelectQuery.findWithFilter({ price: { $lt: 30 } })).toArray() */
  find(query?: SelectQueryLike): FindIterable<DocumentResult<T>> {
    return this.collection.find(query ?? {}, this.#mapping());
  }

  /** The first entity a query selects. @example await products.findOne({ filter: { name: 'lamp' } }) */
  findOne(query?: SelectQueryLike): Promise<DocumentResult<T> | undefined> {
    return this.collection.findOne(query ?? {}, this.#mapping());
  }

  /** One page of entities. @example const page = await products.findPage({ sort: { price: 1 } }); */
  findPage(query?: SelectQueryLike): Promise<Page<DocumentResult<T>>> {
    return this.collection.findPage(query ?? {}, this.#mapping());
  }

  /**
   * The entities nearest to a vector, best first (with their similarity unless includeSimilarity is false).
   * @example const similar = await products.findVector([0.9, 0.1, 0.1], { limit: 3 });
   */
  findVector(vector: Vector, options: FindVectorOptions = {}): Promise<DocumentResult<T>[]> {
    return this.collection.findVector(vector, { includeSimilarity: true, ...options }, this.#mapping());
  }

  /** The entity nearest to a vector. @example const nearest = await products.findOneByVector([0.9, 0.1, 0.1]); */
  findOneByVector(vector: Vector, options: Omit<FindVectorOptions, 'limit'> = {}): Promise<DocumentResult<T> | undefined> {
    return this.collection.findOneByVector(vector, { includeSimilarity: true, ...options }, this.#mapping());
  }
}

function documentOf<T>(entity: Document<T> | T): Document<T> {
  if (entity instanceof Document) return entity as Document<T>;
  if (entity === null || typeof entity !== 'object') throw new TypeError('an entity must be an object or a Document');
  return new Document<T>({ data: entity });
}

function isIterableEntities<T>(value: unknown): value is Iterable<Document<T> | T> {
  return typeof value === 'object' && value !== null && !(value instanceof Document) && Symbol.iterator in value;
}

function* idChunks(ids: Iterable<DocumentId>): Generator<JsonValue[]> {
  const all = Array.from(ids, (id) => toJson(id, '_id'));
  for (let i = 0; i < all.length; i += IDS_PER_REQUEST) yield all.slice(i, i + IDS_PER_REQUEST);
}
