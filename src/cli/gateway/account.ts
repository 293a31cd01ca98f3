/**
 * `gateway login` / `whoami`: the account stored on this machine (file mode 0600) and its API key, derived
 * from the admin key (HMAC-SHA256 of the account name), so the admin key itself is never written to disk.
 */
import { createHmac } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

export interface Account {
  readonly account: string;
  readonly apiKey: string;
}

/** Where the account is kept: VECTORDB_GATEWAY_HOME, else ~/.vectordb-local-gateway. */
export function gatewayHome(): string {
  return path.resolve(process.env.VECTORDB_GATEWAY_HOME || path.join(homedir(), '.vectordb-local-gateway'));
}

const accountFile = (): string => path.join(gatewayHome(), 'account.json');

export function deriveApiKey(account: string, adminKey: string): string {
  return `${account}::local::${createHmac('sha256', adminKey).update(account, 'utf8').digest('hex')}`;
}

export async function saveAccount(account: string, adminKey: string): Promise<Account> {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/.test(account)) throw new Error(`the account name '${account}' must be letters, digits, - and _ (at most 63)`);
  if (adminKey.trim().length < 8) throw new Error('the admin key must be at least 8 characters');
  const stored: Account = { account, apiKey: deriveApiKey(account, adminKey.trim()) };
  await mkdir(gatewayHome(), { recursive: true, mode: 0o700 });
  await writeFile(accountFile(), `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  return stored;
}

/** The stored account, or an error that says to log in. */
export async function loadAccount(): Promise<Account> {
  let text: string;
  try {
    text = await readFile(accountFile(), 'utf8');
  } catch {
    throw new Error('Could not proceed while not logged in. Log in first: vectordb-local gateway login -a <ACCOUNT>');
  }
  return JSON.parse(text) as Account;
}
