/**
 * VectorDB: the entry point for one database. The endpoint picks the transport: a directory path or
 * `file:` URL runs in-process; an http(s) URL talks to a Data API server. Storage opens on first use
 * (or `await db.connect()`); `await db.close()` releases it.
 */
/// <reference lib="esnext.disposable" preserve="true" />
import type { VerifyReport } from '../engine/integrity/verify-report.js';
import type { RepairOptions, RepairReport } from '../engine/integrity/repair-report.js';
import type { CommandResponse } from '../commands/response.js';
import type { GraphqlService } from '../graphql/index.js';
import type { GraphqlResult } from '../graphql/result.js';
import { EmbeddedTransport } from '../transport/embedded.js';
import type { Transport } from '../transport/transport.js';
import type { JsonObject } from '../query/json.js';
import { ClusteredMetadataVectorTable, MetadataVectorTable } from './cassio-tables.js';
import { VectorDBCollection } from './collection.js';
import { connectDatabaseById } from './database-by-id.js';
import { CollectionDefinitionBuilder, type CollectionDefinition, type SimilarityMetric } from './collection-definition.js';
import type { JsonDocument } from './documents.js';
import { clientException, exceptionFor, typedErrors } from './errors.js';
import { VectorDBRepository } from './repository.js';
import type { ResultMapping } from './results.js';
import { rejectUnknownMembers } from './wire.js';
import { checkProviderKeys, requestWithKeys, type ProviderKeys } from './provider-keys.js';
import { connectionOf } from './vector-db-connection.js';
import { databaseStats, type DatabaseStats } from './stats.js';
import {
  checkKeyspaceName,
  COLLECTION_OPTIONS,
  COMMAND_TARGET_OPTIONS,
  DATABASE_BY_ID_OPTIONS,
  GRAPHQL_OPTIONS,
  REPAIR_OPTIONS,
  type CollectionOptions,
  type CommandTargetOptions,
  type DatabaseByIdOptions,
  type GraphqlOptions,
  type VectorDBOptions,
} from './vector-db-options.js';

export type { CollectionOptions, CommandTargetOptions, GraphqlOptions, VectorDBOptions } from './vector-db-options.js';

export class VectorDB {
  /**
   * A connected VectorDB on the database `databaseId` (its UUID) of a home of databases, after checking the
   * token against the home (a database that never had a Database Administrator token accepts any token in
   * process). DatabaseNotFoundException for an unknown database or region, KeyspaceNotFoundException for a
   * missing keyspace, UnauthorizedException for a refused token. Covers the seed's id-based constructors.
   * @example
   * const db = await VectorDB.fromDatabaseId(token, '3f0c2b1e-...', { keyspace: 'default_keyspace', home: '/srv/vectordb' });
   */
  static async fromDatabaseId(token: string, databaseId: string, options: DatabaseByIdOptions = {}): Promise<VectorDB> {
    rejectUnknownMembers(options, DATABASE_BY_ID_OPTIONS, 'DatabaseByIdOptions');
    return connectDatabaseById(token, databaseId, options, (endpoint, keyspace, vectorDbOptions) => new VectorDB(token, endpoint, keyspace, vectorDbOptions));
  }

  readonly #transport: Transport;
  /** The provider keys of every command that names none (VectorDBOptions.embeddingApiKey, rerankingApiKey). */
  readonly #keys: ProviderKeys;
  #graphql: GraphqlService | undefined;
  #keyspace: string;

  /**
   * A database by endpoint: a directory path or `file:` URL (in-process) or an `http(s)://` Data API endpoint.
   * Or the seed's id-based forms, `(token, databaseId[, keyspace])`, `(token, databaseId, region, keyspace)` and
   * `(token, databaseId, region, environment, keyspace)`: the database of that UUID in the home
   * (`$VECTORDB_HOME`, else `~/.vectordb-local`), found at first use (DatabaseNotFoundException for an unknown
   * id or region; the home plays the role of the environment, whose value is not used).
   * @param token the database token (any non-empty string for an embedded database without registered tokens)
   * @example
   * const db = new VectorDB('token', './data');
   * const products = await db.createCollection('products', 3, 'cosine');
   * const byId = new VectorDB(token, '8edd726f-efe5-4c59-a1a0-22fdc40d8904', 'default_keyspace');
   */
  constructor(token: string, apiEndpoint: string, keyspace?: string, options?: VectorDBOptions);
  constructor(token: string, databaseId: string, region: string, keyspace: string, options?: VectorDBOptions);
  constructor(token: string, databaseId: string, region: string, environment: string, keyspace: string, options?: VectorDBOptions);
  constructor(token: string, apiEndpoint: string, ...rest: (string | VectorDBOptions | undefined)[]) {
    const connection = connectionOf(token, apiEndpoint, rest);
    this.#transport = connection.transport;
    this.#keys = connection.keys;
    this.#keyspace = connection.keyspace;
  }

  /** The directory or URL this database is at. @example console.log(db.endpoint) */
  get endpoint(): string {
    return this.#transport.endpoint;
  }

  /**
   * Opens storage now (it opens on first use otherwise); fails at once if another process holds the directory.
   * @example const db = await new VectorDB('token', './data').connect();
   */
  async connect(): Promise<this> {
    await typedErrors(() => this.#transport.connect());
    return this;
  }

  /** Finishes pending writes and releases the database. @example await db.close(); */
  async close(): Promise<void> {
    await typedErrors(() => this.#transport.close());
  }

  /** Closes the database at the end of an `await using` block. @example await using db = new VectorDB('token', './data'); */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Runs any Data API command; resolves to the response envelope exactly as the HTTP server sends it.
   * Command errors are in `errors`, never thrown (a database that cannot be opened throws its typed exception).
   * The target follows astra-db-ts: no `keyspace` means the working keyspace, `keyspace: null` the general
   * (database) level; with `collection` the command runs on that collection of the keyspace.
   * @example
   * await db.command({ findCollections: {} });                              // the working keyspace
   * await db.command({ find: { filter: { a: 1 } } }, { collection: 'c' });  // a collection of it
   * await db.command({ findKeyspaces: {} }, { keyspace: null });            // the database
   */
  command(command: JsonObject, target: CommandTargetOptions = {}): Promise<CommandResponse> {
    rejectUnknownMembers(target, COMMAND_TARGET_OPTIONS, 'VectorDB.command target');
    if (target.keyspace === null && target.collection !== undefined) throw new TypeError('VectorDB.command: a collection needs a keyspace (give none for the working keyspace, not null)');
    const keyspace = target.keyspace === null ? undefined : (target.keyspace ?? this.#keyspace);
    const resolved: { keyspace?: string; collection?: string } = {};
    if (keyspace !== undefined) resolved.keyspace = keyspace;
    if (target.collection !== undefined) resolved.collection = target.collection;
    const request = requestWithKeys(checkProviderKeys(target, 'VectorDB.command target'), this.#keys);
    return typedErrors(() => this.#transport.execute(command, resolved, request));
  }

  /**
   * Runs a GraphQL request on a keyspace's schema (default: the current keyspace), the same schema the server
   * serves at /api/graphql/{keyspace}; `schema: true` runs it on /api/graphql-schema's (keyspaces, collections).
   * Resolves to `{ data, errors }`; errors carry the Data API code in `extensions.code`.
   * @example const { data } = await db.graphql('{ products(options: {limit: 5}) { values { _id name } } }');
   */
  async graphql(query: string, options: GraphqlOptions = {}): Promise<GraphqlResult> {
    rejectUnknownMembers(options, GRAPHQL_OPTIONS, 'GraphqlOptions');
    if (this.#graphql === undefined) {
      const { GraphqlService } = await import('../graphql/index.js'); // graphql-js loads only for apps that use it
      const request = requestWithKeys({}, this.#keys);
      this.#graphql ??= new GraphqlService((command, target) => this.#transport.execute(command, target, request));
    }
    const request = { query, variables: options.variables, operationName: options.operationName };
    return this.#graphql.execute(request, options.schema ? undefined : (options.keyspace ?? this.#keyspace));
  }

  /** Documents per insertMany request the database accepts. @internal */
  insertManyLimit(): Promise<number> {
    return typedErrors(() => this.#transport.insertManyLimit());
  }

  /** Runs a command and throws its typed exception when it answers with errors. @internal */
  async run(command: JsonObject, target: CommandTargetOptions): Promise<CommandResponse> {
    const response = await this.command(command, target);
    if (response.errors && response.errors.length > 0) throw exceptionFor(response);
    return response;
  }

  // ---- stats, backup and restore -------------------------------------------------------------

  /**
   * What the database holds: per collection its documents, bytes on disk, index entries and vector index
   * state, and the directory's size (of the current keyspace with `{ keyspace }`, else of all). Against a
   * Data API server without vectordb-local's stats commands, counts only (bytesOnDisk NaN).
   * @example for (const c of (await db.stats()).collections) console.log(c.name, c.documents, c.vector?.pending);
   */
  async stats(options: { keyspace?: string } = {}): Promise<DatabaseStats> {
    return databaseStats(this, options.keyspace === undefined ? undefined : [options.keyspace]);
  }

  /**
   * Checks the whole database, as SQLite's PRAGMA integrity_check (vectordb-local's `verify` command): every
   * record's checksum, every index entry against its document (both ways), every vector record against the
   * documents, the flat store and the graph; counts per collection and table. `report.ok` when clean.
   * @example const report = await db.verify(); if (!report.ok) console.log(report.problems);
   */
  async verify(): Promise<VerifyReport> {
    const response = await this.command({ verify: {} }, { keyspace: null });
    if (response.errors && response.errors.length > 0) throw exceptionFor(response);
    return (response.status as unknown as { verify: VerifyReport }).verify;
  }

  /**
   * Copies the whole database as of one moment (one LevelDB snapshot; writers go on) into `target`, a new
   * or empty directory, which `new VectorDB(token, target)` opens as is. Embedded databases only.
   * @example await db.backup('./backups/2026-11-25');
   */
  async backup(target: string, options: { onProgress?: (progress: { copiedKeys: number }) => void } = {}): Promise<{ keys: number }> {
    const onProgress = options.onProgress;
    return this.#transport.backup(target, onProgress ? (copiedKeys) => onProgress({ copiedKeys }) : undefined);
  }

  /**
   * Makes `directory` a copy of the database (a backup) in `source`. `directory` may be absent, empty or a
   * database not in use, which is replaced; a database in use (open here or in another process) is refused
   * with DATABASE_LOCKED, a directory of other files with STORAGE_TARGET_NOT_EMPTY.
   * @example await VectorDB.restore('./backups/2026-11-25', './data');
   */
  static async restore(source: string, directory: string, options: { onProgress?: (progress: { copiedKeys: number }) => void } = {}): Promise<{ keys: number }> {
    const onProgress = options.onProgress;
    return EmbeddedTransport.restore(source, directory, onProgress ? (copiedKeys) => onProgress({ copiedKeys }) : undefined);
  }

  /**
   * Repairs a damaged data directory not in use (`vectordb-local repair`): copies it aside to a sibling
   * `<dir>.before-repair-<UTC time>` (unless `backup: false`), runs LevelDB's repair, keeps every record whose
   * checksum holds (the others go to `<dir>.lost+found-<UTC time>.ndjson`), rebuilds index entries and
   * vector graphs, then verifies: `report.verify.ok` says whether the repaired database is clean.
   * @example const report = await VectorDB.repair('./data'); console.log(report.objects, report.lostAndFound);
   */
  static async repair(directory: string, options: RepairOptions = {}): Promise<RepairReport> {
    rejectUnknownMembers(options, REPAIR_OPTIONS, 'RepairOptions');
    return EmbeddedTransport.repair(directory, options);
  }

  // ---- keyspaces ----------------------------------------------------------------------------

  /** The keyspace collections are created and found in. @example db.getCurrentKeyspace() // 'default_keyspace' */
  getCurrentKeyspace(): string {
    return this.#keyspace;
  }

  /**
   * Switches the keyspace later calls work in; KeyspaceNotFoundException when it does not exist.
   * @example await db.changeKeyspace('archive');
   */
  async changeKeyspace(keyspace: string): Promise<void> {
    checkKeyspaceName(keyspace);
    if (!(await this.isKeyspaceExists(keyspace))) {
      throw exceptionFor({ errors: [{ id: '', family: 'REQUEST', scope: 'SCHEMA', errorCode: 'UNKNOWN_KEYSPACE', title: 'Unknown keyspace', message: `Keyspace '${keyspace}' does not exist.` }] });
    }
    this.#keyspace = keyspace;
  }

  /** Every keyspace of the database. @example const keyspaces = await db.findAllKeyspaceNames(); */
  async findAllKeyspaceNames(): Promise<string[]> {
    const response = await this.run({ findKeyspaces: {} }, { keyspace: null });
    return (response.status?.keyspaces as string[] | undefined) ?? [];
  }

  /** True when the keyspace exists. @example if (await db.isKeyspaceExists('archive')) ... */
  async isKeyspaceExists(keyspace: string): Promise<boolean> {
    return (await this.findAllKeyspaceNames()).includes(keyspace);
  }

  // ---- collections --------------------------------------------------------------------------

  /**
   * Creates a collection (no-op when an identical one exists; InvalidArgumentException when it exists with
   * other settings) and returns it; given a class or mapper last, returns a typed repository instead.
   * @example
   * await db.createCollection('notes');                       // no vectors
   * await db.createCollection('products', 1536, 'cosine');    // vectors of 1536 dimensions
   * await db.createCollection(CollectionDefinition.builder().name('docs').indexingDeny('body').build());
   * const typed = await db.createCollection<Product>('products', 3);   // VectorDBCollection<Product>
   * const repo = await db.createCollection('products', 3, Product);     // VectorDBRepository<Product>
   */
  createCollection<R>(name: string, as: ResultMapping<R>): Promise<VectorDBRepository<R>>;
  createCollection<R>(name: string, dimension: number, as: ResultMapping<R>): Promise<VectorDBRepository<R>>;
  createCollection<R>(name: string, dimension: number, metric: SimilarityMetric, as: ResultMapping<R>): Promise<VectorDBRepository<R>>;
  createCollection<R>(definition: CollectionDefinition | CollectionDefinitionBuilder, as: ResultMapping<R>): Promise<VectorDBRepository<R>>;
  createCollection<T extends object = JsonDocument>(name: string): Promise<VectorDBCollection<T>>;
  createCollection<T extends object = JsonDocument>(name: string, dimension: number, metric?: SimilarityMetric): Promise<VectorDBCollection<T>>;
  createCollection<T extends object = JsonDocument>(definition: CollectionDefinition | CollectionDefinitionBuilder): Promise<VectorDBCollection<T>>;
  async createCollection(nameOrDefinition: string | CollectionDefinition | CollectionDefinitionBuilder, ...rest: unknown[]): Promise<unknown> {
    const as = typeof rest.at(-1) === 'function' ? (rest.pop() as ResultMapping<unknown>) : undefined;
    const [dimension, metric] = rest as [number | undefined, SimilarityMetric | undefined];
    const definition: CollectionDefinition =
      typeof nameOrDefinition === 'string'
        ? { name: nameOrDefinition, ...(dimension !== undefined ? { options: { vector: { dimension, metric: metric ?? 'cosine' } } } : {}) }
        : nameOrDefinition instanceof CollectionDefinitionBuilder
          ? nameOrDefinition.build()
          : nameOrDefinition;
    const command: JsonObject = { name: definition.name };
    if (definition.options) command.options = definition.options as JsonObject;
    await this.run({ createCollection: command }, { keyspace: this.#keyspace });
    const collection = new VectorDBCollection<JsonDocument>(this, this.#keyspace, definition.name);
    return as === undefined ? collection : new VectorDBRepository(collection, as);
  }

  /**
   * Every collection of the current keyspace with its options.
   * @example for (const { name, options } of await db.findAllCollections()) console.log(name, options?.vector?.dimension);
   */
  async findAllCollections(): Promise<CollectionDefinition[]> {
    const response = await this.run({ findCollections: { options: { explain: true } } }, { keyspace: this.#keyspace });
    return (response.status?.collections ?? []) as unknown as CollectionDefinition[];
  }

  /** The names of the current keyspace's collections. @example const names = await db.findAllCollectionsNames(); */
  async findAllCollectionsNames(): Promise<string[]> {
    const response = await this.run({ findCollections: {} }, { keyspace: this.#keyspace });
    return (response.status?.collections ?? []) as string[];
  }

  /**
   * The collection's definition, or undefined when there is none of that name.
   * @example const dimension = (await db.findCollectionByName('products'))?.options?.vector?.dimension;
   */
  async findCollectionByName(name: string): Promise<CollectionDefinition | undefined> {
    return (await this.findAllCollections()).find((c) => c.name === name);
  }

  /** True when the collection exists. @example if (!(await db.isCollectionExists('products'))) await db.createCollection('products', 3); */
  async isCollectionExists(name: string): Promise<boolean> {
    return (await this.findAllCollectionsNames()).includes(name);
  }

  /** Deletes a collection and its documents; no error when it does not exist. @example await db.deleteCollection('products'); */
  async deleteCollection(name: string): Promise<void> {
    await this.run({ deleteCollection: { name } }, { keyspace: this.#keyspace });
  }

  /**
   * An existing collection; throws CollectionNotFoundException when there is none of that name. `options.embeddingApiKey`
   * and `options.rerankingApiKey`: the keys its commands call providers with (default: the VectorDB's).
   * @example
   * const products = await db.collection<Product>('products');
   * const articles = await db.collection('articles', { embeddingApiKey: process.env.OPENAI_API_KEY });
   */
  async collection<T extends object = JsonDocument>(name: string, options: CollectionOptions = {}): Promise<VectorDBCollection<T>> {
    rejectUnknownMembers(options, COLLECTION_OPTIONS, 'CollectionOptions');
    const keys = checkProviderKeys(options, 'CollectionOptions');
    // Its vectors (and a reopened graph) start loading while the name is checked.
    this.#transport.warm?.({ keyspace: this.#keyspace, collection: name });
    const names = await this.findAllCollectionsNames();
    if (!names.includes(name)) {
      throw clientException(
        'UNKNOWN_COLLECTION_OR_TABLE',
        'SCHEMA',
        'Unknown collection',
        `Collection '${name}' does not exist in keyspace '${this.#keyspace}'. Existing collections: [${names.join(', ')}].`,
      );
    }
    return new VectorDBCollection<T>(this, this.#keyspace, name, keys);
  }

  /**
   * A typed repository over an existing collection (CollectionNotFoundException otherwise). Results are
   * built by the class or mapper, or, with only a type parameter, are the stored JSON typed as `T`.
   * @example
   * const products = await db.repository<Product>('products');
   * const withClass = await db.repository('products', Product);
   */
  async repository<T>(name: string, as?: ResultMapping<T>): Promise<VectorDBRepository<T>> {
    return new VectorDBRepository<T>(await this.collection<JsonDocument>(name), as);
  }

  // ---- CassIO tables ------------------------------------------------------------------------

  /**
   * The CassIO `metadata_vector` table of that name in the current keyspace, created (with its vector and
   * metadata indexes) when missing. `metric` (default cosine) is the vector index's similarity function.
   * @example const store = await db.metadataVectorTable('vector_store', 1536);
   */
  async metadataVectorTable(name: string, dimension: number, metric: SimilarityMetric = 'cosine'): Promise<MetadataVectorTable> {
    const table = new MetadataVectorTable(this, this.#keyspace, name, dimension, metric);
    await table.create();
    return table;
  }

  /**
   * The CassIO `clustered_metadata_vector` table of that name (partition_id, then row_id timeuuid newest
   * first), created when missing.
   * @example const memory = await db.clusteredMetadataVectorTable('chat_memory', 1536, 'dot_product');
   */
  async clusteredMetadataVectorTable(name: string, dimension: number, metric: SimilarityMetric = 'cosine'): Promise<ClusteredMetadataVectorTable> {
    const table = new ClusteredMetadataVectorTable(this, this.#keyspace, name, dimension, metric);
    await table.create();
    return table;
  }
}
