/**
 * Helpers of the data-command tests: run the built `vectordb-local` as a child process (with its exit code,
 * stdout and stderr), start `serve` on port 0 with a token, and write test files of documents.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VectorDB } from '../../src/index.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MAIN = path.join(ROOT, 'dist/cli/main.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['VECTORDB_TOKEN', 'VECTORDB_HOME', 'PORT', 'HOST']) delete env[name];
  return env;
}

/** Runs `vectordb-local ...args` to the end. */
export function cli(args: readonly string[], options: { cwd?: string; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [MAIN, ...args], { cwd: options.cwd ?? ROOT, env: cleanEnv(), maxBuffer: 256 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** Starts `vectordb-local ...args` in the background, collecting its output. */
export function start(args: readonly string[], cwd = ROOT): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Waits until the output matches (or the process exits first). */
export async function waitFor(output: () => string, pattern: RegExp, exited: Promise<unknown>, ms = 30_000): Promise<RegExpExecArray> {
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(output());
    if (match) return match;
    if (ended || Date.now() > deadline) throw new Error(`never printed ${pattern}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `serve` of a data directory on port 0 with a token (and `extra` flags); resolves with its endpoint. */
export async function serve(data: string, token: string, extra: readonly string[] = []): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = start(['serve', '--data', data, '--port', '0', '--token', token, ...extra]);
  const [, url] = await waitFor(server.output, /endpoint:\s+(http:\/\/\S+)/, server.exited);
  return {
    url: url!,
    stop: async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    },
  };
}

/** An NDJSON file of `count` documents with `dimension`-dim vectors; every `withoutIdEvery`-th has no _id. */
export function writeDocuments(file: string, count: number, dimension: number, withoutIdEvery = 0): void {
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    const vector = Array.from({ length: dimension }, (_, i) => Math.round(Math.sin(n * 7 + i) * 1000) / 1000 + 1.5);
    const doc: Record<string, unknown> = { n, name: `doc ${n}`, tags: ['t', n % 3], $vector: vector };
    if (withoutIdEvery === 0 || n % withoutIdEvery !== 0) doc._id = `d${n}`;
    lines.push(JSON.stringify(doc));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** Every document of a collection of a data directory, $vector included. */
export async function documentsOf(data: string, collection: string): Promise<Record<string, unknown>[]> {
  await using db = new VectorDB('t', data);
  return (await (await db.collection(collection)).find({ projection: { '*': 1 } }).toArray()) as Record<string, unknown>[];
}
