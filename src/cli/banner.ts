/**
 * What `serve` prints at start: where the data is, the endpoint, where the token came from, and how to connect
 * (astra-db-ts, VectorDB, curl). Text only; prints a token solely when it was generated just now.
 */
import type { TokenSource } from './token.js';

export interface BannerInfo {
  readonly version: string;
  readonly data: string;
  readonly url: string;
  readonly host: string;
  readonly source: TokenSource;
  readonly generated?: string | undefined;
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
  if (!isLoopback(info.host)) {
    lines.push(`  warning:   listening on ${info.host}: other machines can reach this server; anyone with the token can read and write.`);
  }
  lines.push(
    '',
    'Connect with @datastax/astra-db-ts:',
    `  const client = new DataAPIClient(process.env.VECTORDB_TOKEN, { environment: 'dse' });`,
    `  const db = client.db('${info.url}', { keyspace: 'default_keyspace' });`,
    `  const docs = db.collection('my_collection');`,
    'or with vectordb-local:',
    `  const db = new VectorDB(process.env.VECTORDB_TOKEN, '${info.url}');`,
    'or with curl:',
    `  curl -X POST ${info.url}/v1 -H "Token: $VECTORDB_TOKEN" -H 'Content-Type: application/json' -d '{"findKeyspaces":{}}'`,
    '',
    'Ctrl+C (SIGINT) or SIGTERM stops the server after the requests in flight.',
  );
  return lines.join('\n');
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
