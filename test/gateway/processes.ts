/**
 * Child processes of the built `vectordb-local` command for the gateway tests: long-running ones (serve,
 * gateway start) waited on until they print a pattern, short ones run to their exit with optional stdin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/main.js');

export interface Running {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output printed after `from` characters. */
  waitFor(pattern: RegExp, from?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

const running: ChildProcess[] = [];

/** Kills what a test file left running (its own children only). */
export function killAll(): void {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of ['VECTORDB_TOKEN', 'PORT', 'HOST']) delete base[name];
  return { ...base, ...env };
}

export function startProcess(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Running {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: options.cwd, env: baseEnv(options.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (d: string): void => {
    output += d;
    for (const l of listeners) l();
  };
  child.stdout!.setEncoding('utf8').on('data', onData);
  child.stderr!.setEncoding('utf8').on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    waitFor(pattern, from = 0) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}:\n${output}`)), 30_000);
        const check = (): void => {
          const match = pattern.exec(output.slice(from));
          if (match) done(undefined, match);
        };
        const onExit = (): void => done(new Error(`exited before printing ${pattern}:\n${output}`));
        const done = (error?: Error, match?: RegExpExecArray): void => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
          if (error) reject(error);
          else resolve(match!);
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: string[], options: { env?: Record<string, string>; cwd?: string; input?: string } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: options.cwd, env: baseEnv(options.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
    running.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not finish:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
