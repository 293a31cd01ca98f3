/**
 * Helpers of the tests that run child processes on the BUILT package: building dist/ once (guarded by a lock
 * directory so test files running in parallel do not build over each other), and running a fixture script with
 * node, with a generous deadline that only exists to turn a hang into a failure.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = path.join(ROOT, 'test', 'fixtures');
/** The package's Node entry (bundled by scripts/build-node.js from tsc's output): written last. */
const DIST_ENTRY = path.join(ROOT, 'dist', 'node', 'index.js');
const LOCK = path.join(tmpdir(), `vectordb-local-build-${createHash('sha1').update(ROOT).digest('hex').slice(0, 12)}.lock`);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function isFresh(): boolean {
  return existsSync(DIST_ENTRY) && statSync(DIST_ENTRY).mtimeMs >= newestMtime(path.join(ROOT, 'src'));
}

async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a killed run is stale after a few minutes.
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 5 * 60_000) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // removed meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds dist/ with `tsc -p tsconfig.build.json` and bundles the Node entry, unless it is newer than every source file. */
export async function buildPackage(): Promise<void> {
  await withBuildLock(async () => {
    if (isFresh()) return;
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const outcome = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      });
    });
    if (outcome.code !== 0) {
      // tsc still emits on type errors; other work in progress must not hide these tests, but a missing build must.
      if (!existsSync(DIST_ENTRY)) throw new Error(`build failed:\n${outcome.output}`);
      console.warn(`tsc -p tsconfig.build.json reported errors (dist/ was still emitted):\n${outcome.output.slice(0, 4000)}`);
    }
    const bundle = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, [path.join(ROOT, 'scripts', 'build-node.js')], { cwd: ROOT }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      });
    });
    if (bundle.code !== 0) throw new Error(`bundling the Node entry failed:\n${bundle.output}`);
  });
}

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when the child had to be killed because it did not finish before the deadline (a hang). */
  readonly hung: boolean;
}

/** Starts `node test/fixtures/<script> ...args`, with `env` added to this process's environment. */
export function startFixture(script: string, args: readonly string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [path.join(FIXTURES, script), ...args], { cwd: ROOT, stdio: 'pipe', env: { ...process.env, ...env } });
}

/** Waits for a child to end, collecting its output; kills it and reports `hung` after `deadlineMs`. */
export function finish(child: ChildProcessWithoutNullStreams, deadlineMs = 20_000): Promise<ChildResult> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, hung });
    });
  });
}

/** Runs a fixture to its end. */
export function runFixture(script: string, args: readonly string[], deadlineMs?: number): Promise<ChildResult> {
  const child = startFixture(script, args);
  child.stdin.end();
  return finish(child, deadlineMs);
}

/** The last line of a child's stdout parsed as JSON. */
export function lastJsonLine(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n').filter((l) => l.startsWith('{'));
  if (lines.length === 0) throw new Error(`no JSON line in child output: ${stdout}`);
  return JSON.parse(lines.at(-1)!) as Record<string, unknown>;
}

/** Resolves once a child has printed `text` on stdout; rejects if it ends first. */
export function untilPrinted(child: ChildProcessWithoutNullStreams, text: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
    child.on('close', () => reject(new Error(`the child ended before it printed ${text}: ${seen}`)));
  });
}
