/**
 * VectorDB: the entry point for one database. The endpoint picks the transport: a directory path or
 * `file:` URL runs in-process; an http(s) URL talks to a Data API server. Storage opens on first use
 * (or `await db.connect()`); `await db.close()` releases it.
 */
import type { CommandResponse } from '../commands/index.js';
import { DEFAULT_KEYSPACE } from '../engine/database.js';
import type { Limits } from '../engine/limits.js';
import type { VectorProgress } from '../engine/collection-vectors.js';
import { EmbeddedTransport } from '../transport/embedded.js';
import { HttpTransport } from '../transport/http.js';
import type { Transport } from '../transport/transport.js';
import { VectorDBCollection } from './collection.js';
import { CollectionNotFoundException, exceptionFor } from './errors.js';
import type { CollectionDefinition, JsonDocument, JsonObject, SimilarityMetric } from './types.js';

export interface VectorDBOptions {
  /** Limits of an embedded database (defaults: the seed's values). */
  limits?: Partial<Limits>;
  /**
   * HNSW backend of an embedded database: 'auto' (default: hnswlib-node when installed, else
   * hnswlib-wasm), 'wasm' or 'native'. An index saved by the other backend is rebuilt.
   */
  vectorBackend?: 'auto' | 'wasm' | 'native';
  /** Progress of long work, such as rebuilding a vector index. */
  onProgress?: (progress: VectorProgress) => void;
}

const KEYSPACE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;

export class VectorDB {
  readonly #transport: Transport;
  #keyspace: string;

  /**
   * @param token the database token (any non-empty string for an embedded database without registered tokens)
   * @param apiEndpoint a directory path, a `file:` URL, or an `http(s)://` Data API endpoint
   * @param keyspace the keyspace to work in (default `default_keyspace`)
   * @example
   * const db = new VectorDB('token', './data');
   * const products = await db.createCollection('products', 3, 'cosine');
   */
  constructor(token: string, apiEndpoint: string, keyspace: string = DEFAULT_KEYSPACE, options: VectorDBOptions = {}) {
    if (typeof token !== 'string' || token.length === 0) throw new TypeError('VectorDB: token must be a non-empty string');
    if (typeof apiEndpoint !== 'string' || apiEndpoint.length === 0) throw new TypeError('VectorDB: apiEndpoint must be a directory path, a file: URL or an http(s) URL');
    checkKeyspaceName(keyspace);
    this.#transport = /^https?:\/\//i.test(apiEndpoint)
      ? new HttpTransport(apiEndpoint, token)
      : new EmbeddedTransport(apiEndpoint, {
          ...(options.limits ? { limits: options.limits } : {}),
          ...(options.vectorBackend ? { vectorBackend: options.vectorBackend } : {}),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        });
    this.#keyspace = keyspace;
  }

  /** The directory or URL this database is at. */
  get endpoint(): string {
    return this.#transport.endpoint;
  }

  /** Opens storage now (it opens on first use otherwise); fails at once if another process holds the directory. */
  async connect(): Promise<this> {
    await this.#transport.connect();
    return this;
  }

  /** Finishes pending writes and releases the database. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Runs any Data API command; resolves to the response envelope exactly as the HTTP server sends it.
   * Command errors are in `errors`, never thrown. With `collection` and no `keyspace`, the current keyspace is used.
   * @example await db.command({ findCollections: {} }, { keyspace: 'default_keyspace' })
   */
  command(command: JsonObject, target: { keyspace?: string; collection?: string } = {}): Promise<CommandResponse> {
    const keyspace = target.keyspace ?? (target.collection !== undefined ? this.#keyspace : undefined);
    return this.#transport.execute(command, { ...(keyspace !== undefined ? { keyspace } : {}), ...(target.collection !== undefined ? { collection: target.collection } : {}) });
  }

  /** Documents per insertMany request the database accepts. @internal */
  insertManyLimit(): Promise<number> {
    return this.#transport.insertManyLimit();
  }

  /** Runs a command and throws its typed exception when it answers with errors. @internal */
  async run(command: JsonObject, target: { keyspace?: string; collection?: string }): Promise<CommandResponse> {
    const response = await this.command(command, target);
    if (response.errors && response.errors.length > 0) throw exceptionFor(response);
    return response;
  }

  // ---- keyspaces ----------------------------------------------------------------------------

  getCurrentKeyspace(): string {
    return this.#keyspace;
  }

  /** Switches the keyspace later calls work in (it must exist). */
  async changeKeyspace(keyspace: string): Promise<void> {
    checkKeyspaceName(keyspace);
    if (!(await this.isKeyspaceExists(keyspace))) {
      throw exceptionFor({ errors: [{ id: '', family: 'REQUEST', scope: 'SCHEMA', errorCode: 'UNKNOWN_KEYSPACE', title: 'Unknown keyspace', message: `Keyspace '${keyspace}' does not exist.` }] });
    }
    this.#keyspace = keyspace;
  }

  async findAllKeyspaceNames(): Promise<string[]> {
    const response = await this.run({ findKeyspaces: {} }, {});
    return (response.status?.keyspaces as string[] | undefined) ?? [];
  }

  async isKeyspaceExists(keyspace: string): Promise<boolean> {
    return (await this.findAllKeyspaceNames()).includes(keyspace);
  }

  // ---- collections --------------------------------------------------------------------------

  /**
   * Creates a collection (no-op when an identical one exists) and returns it.
   * @example
   * await db.createCollection('notes');                       // no vectors
   * await db.createCollection('products', 1536, 'cosine');    // vectors of 1536 dimensions
   * await db.createCollection({ name: 'docs', options: { indexing: { deny: ['body'] } } });
   */
  createCollection(name: string): Promise<VectorDBCollection>;
  createCollection(name: string, dimension: number, metric?: SimilarityMetric): Promise<VectorDBCollection>;
  createCollection(definition: CollectionDefinition): Promise<VectorDBCollection>;
  async createCollection(nameOrDefinition: string | CollectionDefinition, dimension?: number, metric?: SimilarityMetric): Promise<VectorDBCollection> {
    const definition: CollectionDefinition =
      typeof nameOrDefinition === 'string'
        ? { name: nameOrDefinition, ...(dimension !== undefined ? { options: { vector: { dimension, metric: metric ?? 'cosine' } } } : {}) }
        : nameOrDefinition;
    const command: JsonObject = { name: definition.name };
    if (definition.options) command.options = definition.options as JsonObject;
    await this.run({ createCollection: command }, { keyspace: this.#keyspace });
    return new VectorDBCollection(this, this.#keyspace, definition.name);
  }

  async findAllCollections(): Promise<CollectionDefinition[]> {
    const response = await this.run({ findCollections: { options: { explain: true } } }, { keyspace: this.#keyspace });
    return (response.status?.collections ?? []) as unknown as CollectionDefinition[];
  }

  async findAllCollectionsNames(): Promise<string[]> {
    const response = await this.run({ findCollections: {} }, { keyspace: this.#keyspace });
    return (response.status?.collections ?? []) as string[];
  }

  /** The collection's definition, or undefined when there is none of that name. */
  async findCollectionByName(name: string): Promise<CollectionDefinition | undefined> {
    return (await this.findAllCollections()).find((c) => c.name === name);
  }

  async isCollectionExists(name: string): Promise<boolean> {
    return (await this.findAllCollectionsNames()).includes(name);
  }

  /** Deletes a collection and its documents; no error when it does not exist. */
  async deleteCollection(name: string): Promise<void> {
    await this.run({ deleteCollection: { name } }, { keyspace: this.#keyspace });
  }

  /** An existing collection; throws CollectionNotFoundException when there is none of that name. */
  async collection<T extends JsonDocument = JsonDocument>(name: string): Promise<VectorDBCollection<T>> {
    const names = await this.findAllCollectionsNames();
    if (!names.includes(name)) {
      throw new CollectionNotFoundException({
        errors: [{ id: '', family: 'REQUEST', scope: 'SCHEMA', errorCode: 'UNKNOWN_COLLECTION_OR_TABLE', title: 'Unknown collection', message: `Collection '${name}' does not exist in keyspace '${this.#keyspace}'. Existing collections: [${names.join(', ')}].` }],
      });
    }
    return new VectorDBCollection<T>(this, this.#keyspace, name);
  }
}

function checkKeyspaceName(keyspace: unknown): void {
  if (typeof keyspace !== 'string' || !KEYSPACE_NAME.test(keyspace)) {
    throw new TypeError(`VectorDB: keyspace '${String(keyspace)}' is not a valid name (letters, digits and underscores, starting with a letter or underscore, at most 48 characters)`);
  }
}
