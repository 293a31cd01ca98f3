#!/usr/bin/env node
/**
 * The `vectordb-local` command (package bin): argument parsing and help only. `serve` and `start` run
 * serve.ts; defaults come from PORT, HOST and VECTORDB_TOKEN. No server or database logic here.
 */
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { LIMIT_PRESETS, type LimitsPreset } from '../engine/limits.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../http/index.js';
import { backupCommand, restoreCommand } from './backup.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { gatewayCommand } from './gateway/commands.js';
import { init } from './init.js';
import { megabytes, positiveInt } from './option-parsers.js';
import { statsCommand } from './stats.js';
import { verifyCommand } from './verify.js';
import { repairCommand } from './repair.js';
import { tokenCommand } from './token-command.js';
import { serve } from './serve.js';
import { tokenProblem } from './token.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535 (0 picks a free one)');
  return n;
}

function token(value: string): string {
  const problem = tokenProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}

/** `name=value` pairs of --limit into a limits override (names and values are checked by the engine). */
function limitPair(value: string, previous: Record<string, number> = {}): Record<string, number> {
  const match = /^(\w+)=(\d+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected name=value, e.g. maxInsertManyDocuments=100');
  return { ...previous, [match[1]!]: Number(match[2]) };
}

/** `--reranker name=URL`, `--embedder name=URL`: a provider's name and its endpoint. */
function providerPair(example: string): (value: string, previous?: Record<string, string>) => Record<string, string> {
  return (value, previous = {}) => {
    const match = /^([^=]+)=(https?:\/\/.+)$/.exec(value);
    if (!match) throw new InvalidArgumentError(`expected name=URL, e.g. ${example}`);
    return { ...previous, [match[1]!]: match[2]! };
  };
}

interface ServeFlags {
  limits: LimitsPreset;
  limit?: Record<string, number>;
  data: string;
  home?: string;
  host: string;
  port: number;
  token?: string;
  maxBodyBytes?: number;
  bodyCacheMb?: number;
  durability: 'full' | 'relaxed';
  log: boolean;
  cors?: string[];
  reranker?: Record<string, string>;
  embedder?: Record<string, string>;
}

function serveCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .addOption(new Option('-d, --data <dir>', 'data directory (created if missing)').default('./data'))
    .addOption(new Option('--home <dir>', 'serve every database of a home (see init) at /{id}-{region}/v1, with its tokens and /v2/databases').conflicts(['data', 'token']))
    .addOption(new Option('-p, --port <port>', 'TCP port; 0 picks a free one and prints it').env('PORT').argParser(port).default(DEFAULT_PORT))
    .addOption(new Option('-H, --host <host>', 'interface to listen on; 0.0.0.0 exposes the server to the network').env('HOST').default(DEFAULT_HOST))
    .addOption(new Option('-t, --token <token>', 'the token clients must send; replaces the stored one').env('VECTORDB_TOKEN').argParser(token))
    .addOption(new Option('--max-body-bytes <bytes>', 'largest request body accepted').argParser(positiveInt).default(20 * 1024 * 1024, '20 MB'))
    .addOption(
      new Option('--limits <preset>', "the limits: 'seed' (the seed specification's) or 'data-api' (the Data API server's, for existing Data API apps)")
        .choices(Object.keys(LIMIT_PRESETS))
        .default('seed'),
    )
    .addOption(new Option('--limit <name=value>', 'override one limit of the preset (repeatable), e.g. maxCollections=20').argParser(limitPair))
    .addOption(
      new Option('--body-cache-mb <mb>', 'memory for document bodies kept per database to answer reads without LevelDB (each vector collection keeps up to half as much of search hits); 0 keeps none')
        .argParser(megabytes)
        .default(32 * 1024 * 1024, '32'),
    )
    .addOption(
      new Option('--durability <mode>', 'full: a write is acknowledged once fsynced (survives a power cut); relaxed: once the OS has it (faster bulk loads; a power cut may lose the last writes)')
        .choices(['full', 'relaxed'])
        .default('full'),
    )
    .option('--log', 'print one line per request (method, path, status, the error code of a failed command, time; never tokens)', false)
    .addOption(
      new Option('--cors <origin>', "let pages of this origin call the server from a browser (repeatable; null for file:// pages such as Electron renderers, * for any); tokens are required all the same")
        .argParser((value: string, previous: string[] = []) => [...previous, value]),
    )
    .addOption(
      new Option('--reranker <name=url>', "a reranking provider for findAndRerank: a collection's rerank.service.provider name and the URL of an endpoint speaking NVIDIA's reranking API (repeatable; rrf is built in; each call may take up to 30 s; a request's x-rerank-api-key header is passed on as its bearer token)")
        .argParser(providerPair('nvidia=http://127.0.0.1:8000/v1/ranking')),
    )
    .addOption(
      new Option('--embedder <name=url>', "an embedding provider for $vectorize: a collection's vector.service.provider name and the URL of an endpoint speaking the OpenAI embeddings API, e.g. ollama=http://127.0.0.1:11434/v1/embeddings (repeatable; a request's x-embedding-api-key header is passed on as its bearer token)")
        .argParser(providerPair('ollama=http://127.0.0.1:11434/v1/embeddings')),
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const source = command.getOptionValueSource('token') === 'env' ? 'env' : 'flag';
      const code = await serve({
        data: flags.data,
        ...(flags.home !== undefined ? { home: flags.home } : {}),
        host: flags.host,
        port: flags.port,
        token: flags.token !== undefined ? { token: flags.token, source } : undefined,
        maxBodyBytes: flags.maxBodyBytes,
        ...(flags.bodyCacheMb !== undefined ? { bodyCacheBytes: flags.bodyCacheMb } : {}),
        durability: flags.durability,
        log: flags.log,
        ...(flags.cors !== undefined ? { corsOrigins: flags.cors } : {}),
        ...(flags.reranker !== undefined ? { rerankers: flags.reranker } : {}),
        ...(flags.embedder !== undefined ? { embedders: flags.embedder } : {}),
        version: VERSION,
        limits: { preset: flags.limits, ...flags.limit },
      });
      process.exit(code);
    });
}

const program = new Command('vectordb-local')
  .version(VERSION)
  .description(
    'An embedded vector document database that speaks the Data API. Serves a data directory over HTTP for ' +
      '@datastax/astra-db-ts (environment "dse") and VectorDB("<token>", "http://...").',
  )
  .addCommand(serveCommand('serve', 'serve a data directory over the Data API HTTP protocol'))
  .addCommand(
    new Command('init')
      .description('create a home of databases and print its first Organization Administrator token (once)')
      .addOption(new Option('--home <dir>', 'the home directory (default ~/.vectordb-local)').env('VECTORDB_HOME'))
      .action(async (flags: { home?: string }) => process.exit(await init(flags.home))),
  )
  .addCommand(serveCommand('start', 'what `npm start` runs: serve ./data on 127.0.0.1:8181 (PORT and HOST override)'))
  .addCommand(importCommand())
  .addCommand(exportCommand())
  .addCommand(backupCommand())
  .addCommand(restoreCommand())
  .addCommand(statsCommand())
  .addCommand(verifyCommand())
  .addCommand(repairCommand())
  .addCommand(tokenCommand())
  .addCommand(gatewayCommand())
  .addHelpText(
    'after',
    `
Token: --token, else VECTORDB_TOKEN, else the token stored (hashed) in the data directory, else a new one is
generated on first start and printed once. Clients send it in the Token header.

Examples:
  $ vectordb-local start
  $ vectordb-local init --home ./my-home && vectordb-local serve --home ./my-home
  $ vectordb-local serve --data ./my-data --port 8181 --token my-secret-token
  $ vectordb-local serve --limits data-api --limit maxCollections=100
  $ PORT=9000 VECTORDB_TOKEN=my-secret-token npm start
  $ vectordb-local import docs.ndjson --data ./data -c docs --create --dimension 384
  $ vectordb-local export --data ./data -c docs -o docs.csv`,
  );

// `VECTORDB_TOKEN=` (empty) means unset, as in most shells' idiom, not an empty token.
for (const name of ['PORT', 'HOST', 'VECTORDB_TOKEN', 'VECTORDB_HOME']) if (process.env[name] === '') delete process.env[name];

await program.parseAsync(process.argv);
