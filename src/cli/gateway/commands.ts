/**
 * `vectordb-local gateway login|whoami|import graphql|start`: the seed's four gateway steps, offline. Each
 * prompt has a flag, so scripts and tests run without a terminal (--non-interactive refuses to prompt).
 */
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { loadAccount, saveAccount } from './account.js';
import { Prompter } from './prompts.js';
import { addSource, checkEndpoint, hasWorkspace, parseHeader, readWorkspace, type Header } from './workspace.js';

// The GraphQL libraries load only when a command needs them: every other `vectordb-local` command starts faster.
const introspection = () => import('./introspect.js');

const DEFAULT_EXPLORER_PORT = 5001;

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535 (0 picks a free one)');
  return n;
}

function headerFlag(value: string, previous: Header[] = []): Header[] {
  try {
    return [...previous, parseHeader(value)];
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** Runs a command body; a failure prints `Error: ...` and exits 1 (no stack: these are user errors). */
function action<A extends unknown[]>(run: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args) => {
    try {
      await run(...args);
    } catch (error) {
      process.stderr.write(`Error: ${(error as Error).message}\n`);
      process.exit(1);
    }
  };
}

export function gatewayCommand(): Command {
  const gateway = new Command('gateway').description('import a database GraphQL endpoint into a local GraphQL gateway and serve it (the seed\'s gateway tool)');

  gateway
    .command('login')
    .description('store the account and derive its API key (prompts for the admin key)')
    .requiredOption('-a, --account <ACCOUNT>', 'account name')
    .option('-k, --adminkey <ADMIN_KEY>', 'admin key (prompted for when missing)')
    .option('--non-interactive', 'never prompt')
    .action(
      action(async (flags: { account: string; adminkey?: string; nonInteractive?: boolean }) => {
        let adminKey = flags.adminkey;
        if (adminKey === undefined) {
          if (flags.nonInteractive) throw new Error('--adminkey is required with --non-interactive');
          const prompter = new Prompter();
          adminKey = await prompter.ask('What is your admin key?').finally(() => prompter.close());
        }
        const account = await saveAccount(flags.account, adminKey);
        process.stdout.write(`You have successfully logged in with the ${account.account} account.\n`);
      }),
    );

  gateway
    .command('whoami')
    .description('print the account, or its API key with --apikey')
    .option('--apikey', 'print the API key (for Authorization: Apikey <API_KEY>)')
    .option('--account', 'print the account name')
    .action(
      action(async (flags: { apikey?: boolean; account?: boolean }) => {
        const account = await loadAccount();
        if (flags.apikey) process.stdout.write(`${account.apiKey}\n`);
        else if (flags.account) process.stdout.write(`${account.account}\n`);
        else process.stdout.write(`You are logged in as ${account.account}.\n`);
      }),
    );

  const importCommand = gateway.command('import').description('import a data source into the gateway workspace');
  importCommand
    .command('graphql')
    .description('introspect a GraphQL endpoint ({api_endpoint}/api/graphql/<keyspace>) and merge it into the workspace')
    .argument('[URL]', 'the GraphQL endpoint URL (prompted for when missing)')
    .option('--dir <dir>', 'working directory', '.')
    .option('--name <name>', 'subfolder for the imported schema (default graphql, then graphql-01, ...)')
    .option('--prefix <prefix>', 'prefix for every generated type name and root field (advised for several sources)')
    .addOption(new Option('-H, --header <header>', 'request header "Header-Name: header value" (repeatable)').argParser(headerFlag))
    .option('--endpoint <api/name>', 'endpoint of a new workspace (default api/<directory name>)')
    .option('--non-interactive', 'never prompt')
    .action(
      action(async (url: string | undefined, flags: { dir: string; name?: string; prefix?: string; header?: Header[]; endpoint?: string; nonInteractive?: boolean }) => {
        const dir = path.resolve(flags.dir);
        const prompter = new Prompter();
        const interactive = !flags.nonInteractive;
        try {
          let endpoint = flags.endpoint;
          if (!hasWorkspace(dir) && endpoint === undefined) {
            const fallback = `api/${path.basename(dir).replace(/[^A-Za-z0-9_-]/g, '_') || 'gateway'}`;
            endpoint = interactive ? await prompter.ask('What would you like your endpoint to be called?', fallback) : fallback;
          }
          endpoint = hasWorkspace(dir) ? (await readWorkspace(dir)).endpoint : checkEndpoint(endpoint!);
          if (url === undefined) {
            if (!interactive) throw new Error('the endpoint URL is required with --non-interactive');
            url = await prompter.ask('What is the GraphQL endpoint URL?');
          }
          let prefix = flags.prefix;
          if (prefix === undefined && interactive) prefix = await prompter.ask('Prefix to add to all generated type names (leave blank for none)');
          if (prefix && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) throw new Error(`the prefix '${prefix}' must be a GraphQL name (letters, digits, _)`);
          const headers = [...(flags.header ?? [])];
          if (flags.header === undefined && interactive) {
            const answer = await prompter.ask('Add an HTTP header, e.g. Header-Name: header value (leave blank for none)');
            if (answer) headers.push(parseHeader(answer));
          }
          process.stdout.write('Generating schemas......');
          const { introspect } = await introspection();
          const { printSchema } = await import('graphql');
          const schema = await introspect(url, headers).catch((error: Error) => {
            process.stdout.write(' failed\n');
            throw error;
          });
          process.stdout.write(' done\n');
          const source = await addSource(dir, endpoint, { url, prefix: prefix ?? '', headers, name: flags.name }, printSchema(schema));
          process.stdout.write(`Successfully imported schema ${source.name} from ${url} into ${path.join(dir, source.schema)}\n`);
        } finally {
          prompter.close();
        }
      }),
    );

  gateway
    .command('start')
    .description('serve the workspace through the gateway (schema delegation), print the endpoint, and redeploy on changes')
    .option('--dir <dir>', 'working directory', '.')
    .addOption(new Option('-p, --port <port>', 'port of the gateway and its explorer').argParser(port).default(DEFAULT_EXPLORER_PORT))
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .action(
      action(async (flags: { dir: string; port: number; host: string }) => {
        const dir = path.resolve(flags.dir);
        const account = await loadAccount();
        const workspace = await readWorkspace(dir);
        const started = performance.now();
        const { introspect } = await introspection();
        const { startGateway } = await import('./gateway-server.js');
        for (const source of workspace.sources) {
          const schema = await introspect(source.url, source.headers);
          process.stdout.write(`Introspected ${source.url}: ${Object.keys(schema.getQueryType()?.getFields() ?? {}).length} query fields\n`);
        }
        const gatewayServer = await startGateway({
          dir,
          apiKey: account.apiKey,
          host: flags.host,
          port: flags.port,
          onRedeploy: (error) => process.stdout.write(error ? `Redeploy failed, still serving the previous schema: ${error.message}\n` : `Redeployed ${gatewayServer.endpoint}\n`),
        });
        // Stop handlers before the first line: a supervisor may send SIGTERM as soon as it reads the url.
        const stop = (): void => {
          gatewayServer.close().finally(() => process.exit(0));
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        const url = `${gatewayServer.url}/${workspace.endpoint}/__graphql`;
        const port = new URL(gatewayServer.url).port;
        process.stdout.write(
          [
            `Deploying ${workspace.endpoint} to the local gateway... done in ${Math.round(performance.now() - started)}ms`,
            '',
            `Your API url is  ${url}`,
            '',
            'You can test your hosted API with curl:',
            '',
            `curl ${url} \\`,
            '   --header "Authorization: Apikey $(vectordb-local gateway whoami --apikey)" \\',
            '   --header "Content-Type: application/json" \\',
            `   --data '{"query": "{ __typename }"}'`,
            '',
            `Or explore it with GraphiQL at http://localhost:${port}/${workspace.endpoint}`,
            '',
            `Watching ${dir} for changes...`,
            '',
          ].join('\n'),
        );
      }),
    );
  return gateway;
}
