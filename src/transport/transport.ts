/**
 * The one interface between the client and a database: run a Data API command against a target and get
 * the response envelope. EmbeddedTransport runs it in this process; HttpTransport POSTs it to a server.
 */
import type { CommandResponse, CommandTarget, RequestOptions } from '../commands/index.js';
import type { JsonObject } from '../query/json.js';

export interface Transport {
  /** Where the database is: a directory path or an http(s) URL. */
  readonly endpoint: string;
  /**
   * Runs one command; resolves to the envelope (command errors are in it, not thrown). `request`: what an HTTP
   * request carries besides the command (the provider keys: the `x-embedding-api-key` and `x-rerank-api-key`
   * headers over HTTP).
   */
  execute(command: JsonObject, target: CommandTarget, request?: RequestOptions): Promise<CommandResponse>;
  /** Documents per insertMany request the database accepts (the client chunks by it). */
  insertManyLimit(): Promise<number>;
  /** Opens the database (embedded) or checks the endpoint and token (HTTP). */
  connect(): Promise<void>;
  /**
   * A hint that commands on this collection come next (embedded, before its database is open: it opens
   * now, reading that collection's graph file meanwhile, and loads its vectors first). Never fails; a
   * transport may ignore it.
   */
  warm?(target: Required<CommandTarget>): void;
  /**
   * Copies the whole database, as of one moment, into a new directory `target` (embedded only: a Data API
   * server does not write backups for its clients).
   */
  backup(target: string, onProgress?: (copiedKeys: number) => void): Promise<{ keys: number }>;
  close(): Promise<void>;
}
