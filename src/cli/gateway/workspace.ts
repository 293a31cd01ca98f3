/**
 * The gateway's working directory, laid out as the seed's tool lays it out: `gateway.config.json` (endpoint and
 * sources: URL, prefix, headers; mode 0600, it holds tokens), `index.graphql` listing the imported files, and one
 * folder per import holding its SDL. A second import goes to the next free folder (`graphql-01`) and merges.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const CONFIG_FILE = 'gateway.config.json';

export interface Header {
  readonly name: string;
  readonly value: string;
}

/** `Header-Name: header value`, the seed's tool's accepted form. */
export function parseHeader(text: string): Header {
  const match = /^(?<name>[a-zA-Z0-9!#$%&'*+,\-.^_`|~]+)\s*:(?<value>.*)$/.exec(text.trim());
  if (!match) throw new Error(`'${text}' is not a header: write it as Header-Name: header value`);
  return { name: match.groups!.name!, value: match.groups!.value!.trim() };
}

export interface Source {
  readonly name: string;
  readonly url: string;
  readonly prefix: string;
  readonly headers: readonly Header[];
  /** The imported SDL, relative to the workspace. */
  readonly schema: string;
}

export interface Workspace {
  /** `api/<name>`: served at /api/<name>/__graphql. */
  readonly endpoint: string;
  readonly sources: readonly Source[];
}

export function hasWorkspace(dir: string): boolean {
  return existsSync(path.join(dir, CONFIG_FILE));
}

export async function readWorkspace(dir: string): Promise<Workspace> {
  const file = path.join(dir, CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(`no gateway workspace in ${dir}: run vectordb-local gateway import graphql there first`);
  }
  const workspace = JSON.parse(text) as Workspace;
  if (typeof workspace.endpoint !== 'string' || !Array.isArray(workspace.sources)) throw new Error(`${file} is not a gateway config (endpoint, sources)`);
  return workspace;
}

export function checkEndpoint(endpoint: string): string {
  if (!/^api\/[A-Za-z0-9_-]+$/.test(endpoint)) throw new Error(`the endpoint '${endpoint}' must look like api/<name> (letters, digits, - and _)`);
  return endpoint;
}

/** Adds an import: writes its SDL in a free folder, the config and index.graphql. Returns the source added. */
export async function addSource(dir: string, endpoint: string, source: Omit<Source, 'schema' | 'name'> & { name?: string | undefined }, sdl: string): Promise<Source> {
  const existing = hasWorkspace(dir) ? await readWorkspace(dir) : { endpoint, sources: [] };
  const base = source.name ?? 'graphql';
  let name = base;
  for (let n = 1; existing.sources.some((s) => s.name === name); n++) name = `${base}-${String(n).padStart(2, '0')}`;
  const added: Source = { name, url: source.url, prefix: source.prefix, headers: source.headers, schema: `${name}/index.graphql` };
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, added.schema), `# Imported from ${source.url} by vectordb-local gateway import graphql\n${sdl}\n`);
  const workspace: Workspace = { endpoint: existing.endpoint, sources: [...existing.sources, added] };
  const config = path.join(dir, CONFIG_FILE);
  await writeFile(config, `${JSON.stringify(workspace, null, 2)}\n`, { mode: 0o600 });
  await chmod(config, 0o600);
  const files = workspace.sources.map((s) => JSON.stringify(s.schema)).join(', ');
  await writeFile(path.join(dir, 'index.graphql'), `schema @sdl(files: [${files}]) {\n  query: Query\n}\n`);
  return added;
}
