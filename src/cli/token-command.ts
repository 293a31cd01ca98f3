/**
 * `vectordb-local token create|list|revoke`: the tokens of a home, with an Organization Administrator token
 * (--token or VECTORDB_TOKEN), through VectorDBAdmin. A new token is printed once, on stdout alone, so
 * scripts can capture it; everything else goes to stderr.
 */
import { Command, Option } from 'commander';
import { VectorDBAdmin } from '../client/vector-db-admin.js';
import type { TokenRole } from '../admin/index.js';
import { messageOf } from './database-source.js';

export interface TokenFlags {
  home?: string;
  token?: string;
  json?: boolean;
}

function admin(flags: TokenFlags): VectorDBAdmin {
  if (!flags.token) throw new Error('needs an Organization Administrator token: --token or VECTORDB_TOKEN');
  return new VectorDBAdmin(flags.token, flags.home !== undefined ? { home: flags.home } : {});
}

export async function createToken(flags: TokenFlags & { database?: string }): Promise<number> {
  return run('create', async () => {
    const role: TokenRole = flags.database === undefined ? 'ORGANIZATION_ADMINISTRATOR' : 'DATABASE_ADMINISTRATOR';
    const created = await admin(flags).createToken(role, flags.database);
    console.error(`vectordb-local token: created a ${role === 'ORGANIZATION_ADMINISTRATOR' ? 'Organization' : `Database (${flags.database})`} Administrator token, client id ${created.clientId}; shown this once, store it safely:`);
    console.log(flags.json ? JSON.stringify({ clientId: created.clientId, role, token: created.token }) : created.token);
  });
}

export async function listTokens(flags: TokenFlags): Promise<number> {
  return run('list', async () => {
    const tokens = await admin(flags).listTokens();
    if (flags.json) {
      console.log(JSON.stringify(tokens, null, 2));
      return;
    }
    const rows = tokens.map((t) => [t.clientId, t.role, t.databaseId ?? '-', t.createdAt, t.revoked ? `revoked ${t.revokedAt ?? ''}`.trim() : 'active']);
    const header = ['client id', 'role', 'database', 'created', 'state'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  });
}

export async function revokeToken(tokenOrClientId: string, flags: TokenFlags): Promise<number> {
  return run('revoke', async () => {
    await admin(flags).revokeToken(tokenOrClientId);
    console.error(`vectordb-local token: revoked ${tokenOrClientId.startsWith('VDBL:') ? 'the token' : tokenOrClientId}`);
  });
}

async function run(what: string, fn: () => Promise<void>): Promise<number> {
  try {
    await fn();
    return 0;
  } catch (error) {
    console.error(`vectordb-local token ${what}: ${messageOf(error)}`);
    return 1;
  }
}

export function tokenCommand(): Command {
  const homeOption = () => new Option('--home <dir>', 'the home (default ~/.vectordb-local)').env('VECTORDB_HOME');
  const tokenOption = () => new Option('-t, --token <token>', 'an Organization Administrator token of the home').env('VECTORDB_TOKEN');
  return new Command('token')
    .description('create, list and revoke the tokens of a home (see init)')
    .addCommand(
      new Command('create')
        .description('create a token: Organization Administrator, or Database Administrator of --database; printed once on stdout')
        .addOption(homeOption())
        .addOption(tokenOption())
        .option('--database <id|name>', 'make a Database Administrator token of this database')
        .option('--json', 'print {clientId, role, token} as JSON', false)
        .action(async (flags: TokenFlags & { database?: string }) => process.exit(await createToken(flags))),
    )
    .addCommand(
      new Command('list')
        .description('list the tokens (never their secrets)')
        .addOption(homeOption())
        .addOption(tokenOption())
        .option('--json', 'print JSON', false)
        .action(async (flags: TokenFlags) => process.exit(await listTokens(flags))),
    )
    .addCommand(
      new Command('revoke')
        .description('revoke a token, given itself or its client id')
        .argument('<token|clientId>')
        .addOption(homeOption())
        .addOption(tokenOption())
        .action(async (which: string, flags: TokenFlags) => process.exit(await revokeToken(which, flags))),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ vectordb-local token create --home ./my-home --token "$ORG_TOKEN" --database catalog
  $ vectordb-local token list --home ./my-home --token "$ORG_TOKEN"
  $ vectordb-local token revoke --home ./my-home --token "$ORG_TOKEN" 3b1f...`,
    );
}
