/**
 * Helpers of the GraphQL tests: one database with a `products` vector collection, reached either in process
 * (`db.graphql`) or over HTTP (POST /api/graphql/{keyspace} on the real server), so one suite runs on both.
 */
import type { CommandResponse } from '../../src/commands/index.js';
import { VectorDB } from '../../src/index.js';
import { serve, type Served } from '../http/helpers.js';
import { executeCommand } from '../../src/commands/index.js';
import type { Database } from '../../src/engine/database.js';

export interface GqlReply {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

export interface GqlClient {
  readonly name: string;
  gql(query: string, variables?: Record<string, unknown>, keyspace?: string): Promise<GqlReply>;
  /** The Data API command the GraphQL request must agree with. */
  command(command: Record<string, unknown>, target?: { keyspace?: string; collection?: string }): Promise<CommandResponse>;
  close(): Promise<void>;
}

export async function httpClient(): Promise<GqlClient & { served: Served }> {
  const served = await serve();
  return {
    name: 'http',
    served,
    async gql(query, variables, keyspace = 'default_keyspace') {
      const response = await fetch(`${served.url}/api/graphql/${keyspace}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-vendor-token': served.token },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GqlReply;
    },
    command: (command, target = {}) => executeCommand(served.db, command, { keyspace: 'default_keyspace', ...target }),
    close: () => served.close(),
  };
}

export async function inProcessClient(dir: string): Promise<GqlClient> {
  const db = new VectorDB('unused-in-process', dir);
  await db.connect();
  return {
    name: 'in-process',
    gql: (query, variables, keyspace) => db.graphql(query, { ...(variables ? { variables } : {}), ...(keyspace ? { keyspace } : {}) }) as Promise<GqlReply>,
    command: (command, target = {}) => db.command(command as never, { keyspace: 'default_keyspace', ...target }),
    close: () => db.close(),
  };
}

export type { Database };
