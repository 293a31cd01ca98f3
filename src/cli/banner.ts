/**
 * What `serve` prints at start: where the data is, the endpoint, where the token came from, and how to connect
 * (astra-db-ts, VectorDB, curl). Text only; prints a token solely when it was generated just now.
 */
import { LIMIT_PRESETS, type Limits, type LimitsPreset } from '../engine/limits.js';
import type { TokenSource } from './token.js';

export interface BannerInfo {
  readonly version: string;
  readonly data: string;
  readonly url: string;
  readonly host: string;
  readonly source: TokenSource;
  readonly generated?: string | undefined;
  /** The limits served (a Database has both). */
  readonly limits: { readonly limitsPreset: LimitsPreset; readonly limits: Limits };
  /** Origins allowed to call from a browser (--cors), if any. */
  readonly corsOrigins?: readonly string[] | undefined;
  /** When a write is acknowledged (--durability); 'full' when not given. */
  readonly durability?: 'full' | 'relaxed' | undefined;
}

const TOKEN_NOTES: Record<Exclude<TokenSource, 'generated'>, string> = {
  flag: 'from --token (stored hashed in the database; it replaces any earlier token)',
  env: 'from VECTORDB_TOKEN (stored hashed in the database; it replaces any earlier token)',
  stored:
    'the one printed when this data directory was first served (only its hash is stored, so it cannot be shown again).\n' +
    '             Lost it? Restart with --token <new-token> or VECTORDB_TOKEN=<new-token> to replace it.',
};

export function banner(info: BannerInfo): string {
  const lines = [
    `vectordb-local ${info.version}: Data API server`,
    `  data:      ${info.data}`,
    `  endpoint:  ${info.url}   (POST ${info.url}/v1[/{keyspace}[/{collection}]], also under /api/json/v1)`,
    `  graphql:   ${info.url}/api/graphql/{keyspace} and ${info.url}/api/graphql-schema (open one in a browser for GraphiQL)`,
    `  explorer:  ${info.url}/ (the Data Explorer: open it in a browser, enter the token)`,
  ];
  if (info.source === 'generated') {
    lines.push(
      '  token:     generated for this data directory. It is shown only this once and stored hashed:',
      '',
      `             ${info.generated ?? ''}`,
      '',
      '             Keep it, e.g. export VECTORDB_TOKEN=<the token above>. To change it: --token or VECTORDB_TOKEN.',
    );
  } else {
    lines.push(`  token:     ${TOKEN_NOTES[info.source]}`);
  }
  lines.push(`  limits:    ${describeLimits(info.limits.limitsPreset, info.limits.limits)}`);
  lines.push(
    info.durability === 'relaxed'
      ? '  durability: relaxed: a write is acknowledged once the OS has it (a power cut may lose the last writes)'
      : '  durability: full: a write is acknowledged once it is on disk (fsynced)',
  );
  if (info.corsOrigins !== undefined && info.corsOrigins.length > 0) {
    lines.push(`  cors:      pages of ${info.corsOrigins.join(', ')} may call this server from a browser (with the token)`);
  }
  if (!isLoopback(info.host)) {
    lines.push(`  warning:   listening on ${info.host}: other machines can reach this server; anyone with the token can read and write.`);
  }
  lines.push(
    '',
    'Connect with @datastax/astra-db-ts:',
    `  const client = new DataAPIClient(process.env.VECTORDB_TOKEN, { environment: 'dse' });`,
    `  const db = client.db('${info.url}', { keyspace: 'default_keyspace' });`,
    `  const docs = db.collection('my_collection');`,
    ...(info.limits.limits.maxInsertManyDocuments < ASTRA_DB_TS_CHUNK
      ? [
          `  // astra-db-ts sends ${ASTRA_DB_TS_CHUNK} documents per insertMany request; these limits take ${info.limits.limits.maxInsertManyDocuments}:`,
          `  await docs.insertMany(documents, { chunkSize: ${info.limits.limits.maxInsertManyDocuments} });   // or serve with --limits data-api`,
        ]
      : []),
    'or with vectordb-local:',
    `  const db = new VectorDB(process.env.VECTORDB_TOKEN, '${info.url}');`,
    'or with curl:',
    `  curl -X POST ${info.url}/v1 -H "Token: $VECTORDB_TOKEN" -H 'Content-Type: application/json' -d '{"findKeyspaces":{}}'`,
    '',
    'Ctrl+C (SIGINT) or SIGTERM stops the server after the requests in flight.',
  );
  return lines.join('\n');
}

/** What astra-db-ts sends per insertMany request unless told `chunkSize`. */
const ASTRA_DB_TS_CHUNK = 50;

/** The preset, its headline values, and every value overridden on top of it. */
export function describeLimits(preset: LimitsPreset, limits: Limits): string {
  const base = LIMIT_PRESETS[preset];
  const perValue = limits.maxAttributeValueBytes === Number.POSITIVE_INFINITY ? 'no per-value size limit' : `${limits.maxAttributeValueBytes} bytes per value`;
  const headline = `${limits.maxInsertManyDocuments} documents per insertMany, pages of ${limits.pageSize}, ${limits.maxCollections} collections, ${perValue}`;
  const overridden = (Object.keys(base) as (keyof Limits)[]).filter((name) => limits[name] !== base[name]).map((name) => `${name}=${limits[name]}`);
  const other = preset === 'seed' ? "--limits data-api for the Data API server's" : "--limits seed for the seed specification's";
  return `${preset} (${headline})${overridden.length > 0 ? `, overridden: ${overridden.join(' ')}` : ''}; ${other}`;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
