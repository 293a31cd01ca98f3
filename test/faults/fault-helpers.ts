/**
 * Helpers of the fault tests: run test/fixtures/fault-child.mjs (on the built package) in a child process, and
 * fingerprint a directory (every file's path, size and SHA-256) to prove a refused open changed nothing.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { finish, lastJsonLine, startFixture, type ChildResult } from '../durability/built-package.js';

export interface ChildOutcome extends Record<string, unknown> {
  readonly ok: boolean;
  readonly errorCode?: string;
  readonly name?: string;
  readonly message?: string;
}

/** Runs `fault-child.mjs <mode> ...args` (with `env` added) to its end; its last JSON line, and the whole result. */
export async function child(mode: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ outcome: ChildOutcome; result: ChildResult }> {
  const process = startFixture('fault-child.mjs', [mode, ...args], env);
  process.stdin.end();
  const result = await finish(process, 60_000);
  if (result.hung) throw new Error(`fault-child ${mode} hung:\n${result.stdout}${result.stderr}`);
  try {
    return { outcome: lastJsonLine(result.stdout) as ChildOutcome, result };
  } catch {
    throw new Error(`fault-child ${mode} printed no outcome (code ${result.code}):\n${result.stdout}${result.stderr}`);
  }
}

/** Every file under `dir` as "path size sha256", sorted. */
export function fingerprint(dir: string): string[] {
  const lines: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        lines.push(`${path.relative(dir, full)}/`);
        walk(full);
      } else {
        const hash = createHash('sha256').update(readFileSync(full)).digest('hex');
        lines.push(`${path.relative(dir, full)} ${statSync(full).size} ${hash}`);
      }
    }
  };
  walk(dir);
  return lines.sort();
}
