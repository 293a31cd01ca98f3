/**
 * Database-level commands (POST /v1): createKeyspace, findKeyspaces, dropKeyspace, their deprecated
 * *Namespace aliases (with a DEPRECATED_COMMAND warning), and the embedding provider listing (the reranking
 * one is rerank-commands.ts').
 */
import { VectorDbError } from '../errors/index.js';
import { embeddersOf } from '../providers/embedders.js';
import type { JsonObject } from '../query/json.js';
import { CommandBody, invalid } from './command-body.js';
import type { CommandHandler, CommandSpec } from './context.js';

const createKeyspace: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('createKeyspace', raw, ['name', 'options']);
  const name = body.require('name');
  if (typeof name !== 'string') throw invalid('name', name, 'must be a string');
  body.options(['replication']);
  await ctx.db.createKeyspace(name);
  return { status: { ok: 1 } };
};

const findKeyspaces: CommandHandler = async (raw, ctx) => {
  new CommandBody('findKeyspaces', raw, ['options']).noOptions();
  return { status: { keyspaces: ctx.db.listKeyspaces() } };
};

const dropKeyspace: CommandHandler = async (raw, ctx) => {
  const body = new CommandBody('dropKeyspace', raw, ['name', 'options']);
  body.noOptions();
  const name = body.require('name');
  if (typeof name !== 'string') throw invalid('name', name, 'must be a string');
  await ctx.db.dropKeyspace(name);
  return { status: { ok: 1 } };
};

/** The old name of a command: same behaviour, plus a warning naming the new command. */
function deprecated(oldName: string, newName: string, handler: CommandHandler, rename?: (status: Record<string, unknown>) => void): CommandHandler {
  return async (raw, ctx) => {
    const result = await handler(raw, ctx);
    const status = { ...(result.status ?? {}) };
    rename?.(status);
    return { ...result, status: status as typeof result.status, warnings: [VectorDbError.warning('DEPRECATED_COMMAND', { command: oldName, replacement: newName })] };
  };
}

/** The registered embedding providers in the Data API's shape (astra-db-ts's FindEmbeddingProvidersResult). */
const findEmbeddingProviders: CommandHandler = async (raw, ctx) => {
  new CommandBody('findEmbeddingProviders', raw, ['options']).options(['filterModelStatus']);
  const providers: JsonObject = {};
  for (const embedder of embeddersOf(ctx.db)) {
    providers[embedder.name] = {
      displayName: embedder.name,
      url: embedder.url ?? null,
      // The request's x-embedding-api-key is passed on as `Authorization: Bearer`; the provider's own key is the shared secret.
      supportedAuthentication: {
        NONE: { enabled: true, tokens: [] },
        HEADER: { enabled: true, tokens: [{ accepted: 'x-embedding-api-key', forwarded: 'Authorization' }] },
        SHARED_SECRET: { enabled: embedder.hasOwnKey, tokens: [{ accepted: 'providerKey', forwarded: 'Authorization' }] },
      },
      parameters: [],
      models: [{ name: embedder.model ?? 'default', vectorDimension: embedder.dimension ?? null, parameters: [], apiModelSupport: { status: 'SUPPORTED' } }],
    };
  }
  return { status: { embeddingProviders: providers } };
};

export const DATABASE_COMMANDS: Record<string, CommandSpec> = {
  createKeyspace: { level: 'database', run: createKeyspace },
  findKeyspaces: { level: 'database', run: findKeyspaces },
  dropKeyspace: { level: 'database', run: dropKeyspace },
  createNamespace: { level: 'database', run: deprecated('createNamespace', 'createKeyspace', createKeyspace) },
  findNamespaces: {
    level: 'database',
    run: deprecated('findNamespaces', 'findKeyspaces', findKeyspaces, (status) => {
      status.namespaces = status.keyspaces;
      delete status.keyspaces;
    }),
  },
  dropNamespace: { level: 'database', run: deprecated('dropNamespace', 'dropKeyspace', dropKeyspace) },
  findEmbeddingProviders: { level: 'database', run: findEmbeddingProviders },
};
