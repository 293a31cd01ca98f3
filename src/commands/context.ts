/**
 * What a command handler receives: the database, the target from the request path and what the request
 * brings besides its command; and the shape of a handler. The query parts of a collection command are
 * parsed by query-parts.ts.
 */
import { VectorDbError } from '../errors/index.js';
import type { Collection } from '../engine/collections/collection.js';
import type { Database } from '../engine/database.js';
import type { Table } from '../engine/tables/table.js';
import type { CommandResult } from './response.js';

export type CommandLevel = 'database' | 'keyspace' | 'collection';

export interface CommandTarget {
  readonly keyspace?: string;
  readonly collection?: string;
}

/** What a request brings besides its command (HTTP headers, in-process options). */
export interface RequestOptions {
  /** The `x-embedding-api-key` header: the key an embedding provider is called with (astra-db-ts's `embeddingApiKey`). */
  readonly embeddingApiKey?: string | undefined;
  /** The `x-rerank-api-key` header: the key a reranking provider is called with (astra-db-ts's `rerankingApiKey`). */
  readonly rerankingApiKey?: string | undefined;
}

export class CommandContext {
  readonly db: Database;
  readonly target: CommandTarget;
  readonly request: RequestOptions;

  constructor(db: Database, target: CommandTarget, request: RequestOptions = {}) {
    this.db = db;
    this.target = target;
    this.request = request;
  }

  get keyspace(): string {
    if (this.target.keyspace === undefined) throw new Error('command context has no keyspace');
    return this.target.keyspace;
  }

  /** The target keyspace, which must exist. */
  existingKeyspace(): string {
    const keyspace = this.keyspace;
    if (!this.db.hasKeyspace(keyspace)) {
      throw VectorDbError.of('UNKNOWN_KEYSPACE', { keyspace, known: this.db.listKeyspaces().join(', ') });
    }
    return keyspace;
  }

  /** The target table, which must exist. */
  table(): Table {
    if (this.target.collection === undefined) throw new Error('command context has no table');
    return this.db.table(this.keyspace, this.target.collection);
  }

  collection(): Collection {
    if (this.target.collection === undefined) throw new Error('command context has no collection');
    return this.db.collection(this.keyspace, this.target.collection);
  }
}

export type CommandHandler = (body: unknown, ctx: CommandContext) => Promise<CommandResult>;

export interface CommandSpec {
  readonly level: CommandLevel;
  readonly run: CommandHandler;
}
