/**
 * GraphqlService: the per-keyspace schemas of one database and their execution. It runs every Data API command
 * through a CommandRunner (in process: executeCommand; in a client: its transport), and rebuilds a keyspace's
 * schema when findCollections or listTables changes (DDL) or a collection's field record changes generation (or
 * is another collection's: one dropped and created again under its name between two requests).
 * The field record is the engine's (findCollectionFields: every top-level field any write brought, over any API,
 * persisted with the data), asked at each request without reading a document. Against a Data API server without
 * that command, fields are sampled from documents and learnt from those GraphQL reads and writes instead.
 * A field is never dropped.
 */
import { graphql, GraphQLError, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { CommandResponse } from '../commands/index.js';
import type { JsonObject } from '../query/json.js';
import type { CommandRunner } from './command-runner.js';
import { collectionPart } from './collection-schema.js';
import { ddlSchema } from './ddl-schema.js';
import { graphqlErrorOf } from './errors.js';
import { FieldModel } from './field-model.js';
import type { GraphqlResult } from './result.js';
import { assembleSchema } from './schema-parts.js';
import { sharedTypes } from './shared-types.js';
import { tablePart } from './table-schema.js';
import { columnShape } from './table-types.js';

export type { CommandRunner } from './command-runner.js';
export type { GraphqlError, GraphqlResult } from './result.js';

export interface GraphqlServiceOptions {
  /** Documents read per collection to infer its fields (default 200). */
  readonly sampleSize?: number;
  /** Documents per page when the query gives no pageSize (default 20, the Data API's page). */
  readonly defaultPageSize?: number;
}

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null | undefined;
  readonly operationName?: string | null | undefined;
}


interface CollectionDescription {
  name: string;
  options?: JsonObject;
}

interface TableDescription {
  name: string;
  definition: { columns: JsonObject; primaryKey: { partitionBy: string[]; partitionSort: Record<string, number> } };
}

interface KeyspaceState {
  signature: string;
  schema: GraphQLSchema | undefined;
  /** Set when a document showed a field the schema lacks (sampled models only). */
  stale: boolean;
  readonly models: Map<string, FieldModel>;
  /** The collection id and field record generation each collection's model was built from (engine records only). */
  readonly generations: Map<string, RecordVersion>;
}

/** Which collection's record (its id), at which generation. */
interface RecordVersion {
  id: number;
  generation: number;
}

/** One collection's entry of findCollectionFields' answer (`fields` absent: unchanged since `known`). */
interface FieldRecordEntry extends RecordVersion {
  name: string;
  fields?: Record<string, string[]>;
}

export class GraphqlService {
  readonly #run: CommandRunner;
  readonly #sampleSize: number;
  readonly #pageSize: number;
  readonly #keyspaces = new Map<string, KeyspaceState>();
  /** One build at a time per keyspace: concurrent requests share it. */
  readonly #building = new Map<string, Promise<GraphQLSchema>>();
  #ddl: GraphQLSchema | undefined;
  /** Whether the server keeps field records (undefined until asked; false: a Data API without findCollectionFields). */
  #fieldRecords: boolean | undefined;

  constructor(run: CommandRunner, options: GraphqlServiceOptions = {}) {
    this.#run = run;
    this.#sampleSize = options.sampleSize ?? 200;
    this.#pageSize = options.defaultPageSize ?? 20;
  }

  /** The schema of `/api/graphql-schema` (keyspaces and collections). */
  get ddlSchema(): GraphQLSchema {
    this.#ddl ??= ddlSchema(this.#run);
    return this.#ddl;
  }

  /** The keyspace's current schema; throws a GraphQLError (UNKNOWN_KEYSPACE, ...) when it cannot be read. */
  async schema(keyspace: string): Promise<GraphQLSchema> {
    const building = this.#building.get(keyspace);
    if (building) return building;
    const next = this.#current(keyspace).finally(() => this.#building.delete(keyspace));
    this.#building.set(keyspace, next);
    return next;
  }

  /** Runs a request on a keyspace's schema, or on the DDL schema when `keyspace` is undefined. */
  async execute(request: GraphqlRequest, keyspace: string | undefined): Promise<GraphqlResult> {
    let schema: GraphQLSchema;
    try {
      schema = keyspace === undefined ? this.ddlSchema : await this.schema(keyspace);
    } catch (error) {
      return { errors: [(error instanceof GraphQLError ? error : new GraphQLError(String((error as Error)?.message ?? error))).toJSON()] };
    }
    const result: ExecutionResult = await graphql({
      schema,
      source: request.query,
      variableValues: request.variables ?? undefined,
      operationName: request.operationName ?? undefined,
    });
    return { ...(result.data !== undefined ? { data: result.data as Record<string, unknown> | null } : {}), ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}) };
  }

  async #current(keyspace: string): Promise<GraphQLSchema> {
    const listed = await this.#run({ findCollections: { options: { explain: true } } }, { keyspace });
    if (listed.errors?.[0]) throw graphqlErrorOf(listed.errors[0]);
    const collections = (listed.status?.collections ?? []) as unknown as CollectionDescription[];
    const tablesListed = await this.#run({ listTables: { options: { explain: true } } }, { keyspace });
    if (tablesListed.errors?.[0]) throw graphqlErrorOf(tablesListed.errors[0]);
    const tables = (tablesListed.status?.tables ?? []) as unknown as TableDescription[];
    // Tables' definitions (with their user-defined types' fields) are in the signature: DDL rebuilds the schema.
    const signature = JSON.stringify([collections, tables]);
    let state = this.#keyspaces.get(keyspace);
    if (state === undefined) {
      state = { signature: '', schema: undefined, stale: true, models: new Map(), generations: new Map() };
      this.#keyspaces.set(keyspace, state);
    }
    const listedNames = new Set(collections.map((c) => c.name));
    for (const name of state.generations.keys()) if (!listedNames.has(name)) state.generations.delete(name); // dropped: read again if it comes back
    const fieldsChanged = this.#fieldRecords === false ? false : await this.#readFieldRecords(keyspace, state);
    if (state.schema !== undefined && !state.stale && !fieldsChanged && state.signature === signature) return state.schema;
    if (this.#fieldRecords === false) {
      for (const c of collections) {
        if (!state.models.has(c.name)) state.models.set(c.name, await this.#sample(keyspace, c.name));
      }
    }
    state.signature = signature;
    state.stale = false;
    state.schema = this.#build(keyspace, collections, tables, state);
    return state.schema;
  }

  /**
   * Asks the engine for its field records, sending the ids and generations known (no document is read); replaces
   * the model of each collection whose record changed or is another collection's. False (and field records off) on a server without them.
   */
  async #readFieldRecords(keyspace: string, state: KeyspaceState): Promise<boolean> {
    const known: JsonObject = Object.fromEntries([...state.generations].map(([name, { id, generation }]) => [name, { id, generation }]));
    const response = await this.#run({ findCollectionFields: { options: { known } } }, { keyspace });
    const error = response.errors?.[0];
    if (error !== undefined && this.#fieldRecords === undefined && (error.errorCode === 'COMMAND_UNKNOWN' || error.errorCode === 'NO_COMMAND_MATCHED')) {
      this.#fieldRecords = false;
      return false;
    }
    if (error !== undefined) throw graphqlErrorOf(error);
    this.#fieldRecords = true;
    let changed = false;
    for (const entry of (response.status?.collections ?? []) as unknown as FieldRecordEntry[]) {
      if (entry.fields === undefined) continue;
      state.models.set(entry.name, FieldModel.fromRecord(entry.fields));
      state.generations.set(entry.name, { id: entry.id, generation: entry.generation });
      changed = true;
    }
    return changed;
  }

  async #sample(keyspace: string, collection: string): Promise<FieldModel> {
    const model = new FieldModel();
    let pageState: string | null = null;
    let seen = 0;
    do {
      const response: CommandResponse = await this.#run(
        { find: { projection: { '*': 1 }, ...(pageState ? { options: { pageState } } : {}) } },
        { keyspace, collection },
      );
      if (response.errors?.[0]) throw graphqlErrorOf(response.errors[0]);
      const data = response.data as { documents: JsonObject[]; nextPageState: string | null };
      for (const doc of data.documents) model.observe(doc);
      seen += data.documents.length;
      pageState = data.nextPageState;
    } while (pageState && seen < this.#sampleSize);
    return model;
  }

  #build(keyspace: string, collections: CollectionDescription[], tables: TableDescription[], state: KeyspaceState): GraphQLSchema {
    const shared = sharedTypes(this.#pageSize);
    const warnings: string[] = [];
    const parts = collections.map((c) => {
      const model = state.models.get(c.name) ?? new FieldModel(); // created after the field records were read: next request
      const fields = model.entries();
      for (const [name, info] of fields) {
        if (info.widened) warnings.push(`Collection '${c.name}': field '${name}' is JSON: ${info.widened}.`);
      }
      return collectionPart({ name: c.name, fields: fields.map(([name, info]) => [name, info.type] as const), vector: c.options?.vector !== undefined }, shared, {
        run: (command) => this.#run(command, { keyspace, collection: c.name }),
        // With the engine's records, every write (this one too) reaches the next request's record.
        observe: this.#fieldRecords === true ? () => undefined : (doc) => {
          if (model.observe(doc)) state.stale = true;
        },
        defaultPageSize: this.#pageSize,
      });
    });
    const tableParts = tables.map((t) =>
      tablePart(
        {
          name: t.name,
          columns: Object.entries(t.definition.columns).map(([name, type]) => [name, columnShape(type)] as const),
          primaryKey: [...t.definition.primaryKey.partitionBy, ...Object.keys(t.definition.primaryKey.partitionSort ?? {})],
        },
        shared,
        { run: (command) => this.#run(command, { keyspace, collection: t.name }), defaultPageSize: this.#pageSize },
      ),
    );
    return assembleSchema([...parts, ...tableParts], warnings);
  }
}
