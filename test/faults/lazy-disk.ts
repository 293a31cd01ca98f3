/**
 * Power loss for tests, after Jepsen's LazyFS: a child process runs under lazy-disk.c (LD_PRELOAD), which journals
 * every open for writing, fsync and rename of the files under one directory; once the child is SIGKILLed,
 * `dropUnsynced` cuts every file it wrote back to its last synced length (a new file never synced is removed),
 * which is what the disk holds when the page cache is lost. The same shim fails the N-th write or read with EIO.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES, ROOT } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';

let shim: string | undefined;

/** The shim's shared object, compiled once per test file with the machine's C compiler. */
export function lazyDiskShim(): string {
  if (shim !== undefined) return shim;
  const out = path.join(tempDir('lazy-disk-'), 'lazy-disk.so');
  execFileSync('cc', ['-shared', '-fPIC', '-O1', '-o', out, path.join(ROOT, 'test', 'faults', 'lazy-disk.c'), '-ldl']);
  shim = out;
  return out;
}

/** True when a C compiler is on the machine (CI's has one: node-gyp needs it). */
export function canBuildShim(): boolean {
  try {
    execFileSync('cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface LazyDisk {
  /** The directory whose files the shim watches. */
  readonly dir: string;
  readonly journal: string;
  /** Each file's length before the child started: what a file that was there and never synced keeps. */
  readonly before: ReadonlyMap<string, number>;
}

export interface ShimFaults {
  /** The N-th write of a watched file fails with EIO. */
  readonly failWrite?: number;
  /** The N-th read of a watched file fails with EIO. */
  readonly failRead?: number;
}

function lengths(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.set(file, statSync(file).size);
  }
  return found;
}

/** Starts `node test/fixtures/<script> ...args` (or `node <absolute script>`) with the shim watching `dir`. */
export function startUnderShim(script: string, args: readonly string[], dir: string, faults: ShimFaults = {}): { child: ChildProcessWithoutNullStreams; disk: LazyDisk } {
  const journal = path.join(tempDir('lazy-journal-'), 'journal');
  const disk: LazyDisk = { dir: path.resolve(dir), journal, before: lengths(path.resolve(dir)) };
  const env: NodeJS.ProcessEnv = { ...process.env, LD_PRELOAD: lazyDiskShim(), LAZY_DISK_DIR: disk.dir, LAZY_DISK_JOURNAL: journal };
  if (faults.failWrite !== undefined) env['LAZY_DISK_FAIL_WRITE'] = String(faults.failWrite);
  if (faults.failRead !== undefined) env['LAZY_DISK_FAIL_READ'] = String(faults.failRead);
  const child = spawn(process.execPath, [path.isAbsolute(script) ? script : path.join(FIXTURES, script), ...args], { cwd: ROOT, stdio: 'pipe', env });
  return { child, disk };
}

/** What `dropUnsynced` did, for the test's messages. */
export interface Dropped {
  readonly truncated: number;
  readonly removed: number;
  readonly bytes: number;
}

/** Cuts every file the (dead) child wrote back to its last synced length, as a power loss would. */
export function dropUnsynced(disk: LazyDisk): Dropped {
  const synced = new Map<string, number | undefined>(); // path -> last synced length (undefined: never)
  const text = existsSync(disk.journal) ? readFileSync(disk.journal, 'utf8') : '';
  for (const line of text.split('\n')) {
    const [kind, size, a, b] = line.split('\t');
    if (a === undefined) continue;
    if (kind === 'W' && !synced.has(a)) synced.set(a, disk.before.get(a));
    else if (kind === 'S') synced.set(a, Number(size));
    else if (kind === 'R' && b !== undefined) {
      if (synced.has(a)) synced.set(b, synced.get(a));
      synced.delete(a);
    }
  }
  let truncated = 0;
  let removed = 0;
  let bytes = 0;
  for (const [file, length] of synced) {
    if (!existsSync(file)) continue;
    const size = statSync(file).size;
    if (length === undefined) {
      rmSync(file, { force: true });
      removed++;
      bytes += size;
    } else if (size > length) {
      truncateSync(file, length);
      truncated++;
      bytes += size - length;
    }
  }
  return { truncated, removed, bytes };
}
