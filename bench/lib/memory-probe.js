/**
 * What a process's resident memory is made of (Linux), for issue 31's per-document figure: RSS by kind of
 * mapping (/proc/self/smaps: LevelDB's table files, the node binary, addons, glibc's thread arenas, the
 * main heap, other anonymous memory such as V8's heap pages and large mallocs), V8's own split
 * (process.memoryUsage, heap spaces), glibc's malloc totals (malloc_info read through gdb, when gdb can
 * attach: free bytes held in the arenas vs in use) and what malloc_trim gives back. Bench-only: each
 * probe returns figures in MB and never throws (a figure it cannot read is null).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';

const MB = 1024 * 1024;
const mb = (bytes) => Math.round((bytes / MB) * 10) / 10;
/** glibc's thread arenas are reserved 64 MiB at a time (HEAP_MAX_SIZE on 64-bit), aligned to it. */
const ARENA_BYTES = 64 * MB;

/** Every mapping of /proc/self/smaps: its range, permissions, path (may be empty) and resident bytes. */
function mappings() {
  const out = [];
  let current;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      current = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3], path: head[4].trim(), rss: 0 };
      out.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Number(rss[1]) * 1024;
  }
  return out;
}

function kindOf(m, next) {
  const p = m.path;
  if (/\.(ldb|sst|log)$/.test(p) || /\/MANIFEST-/.test(p)) return 'file: LevelDB';
  if (p.endsWith('.node')) return 'file: addons (.node)';
  if (p === process.execPath || p.endsWith('/node')) return 'file: node binary';
  if (p.startsWith('/')) return 'file: other (libraries)';
  if (p === '[heap]') return 'anon: main malloc heap ([heap])';
  if (p.startsWith('[stack')) return 'anon: stacks';
  if (p.startsWith('[')) return `anon: ${p}`;
  // A thread arena: a read-write part at a 64 MiB boundary, the rest of its 64 MiB reserved (---p) after it.
  const span = next && next.path === '' && next.perms.startsWith('---') && next.start === m.end ? next.end - m.start : m.end - m.start;
  if (m.perms.startsWith('rw') && m.start % BigInt(ARENA_BYTES) === 0n && span === BigInt(ARENA_BYTES)) return 'anon: glibc thread arenas';
  return 'anon: other (V8 heap pages, large mallocs, stacks of threads)';
}

/** Resident MB by kind of mapping. */
export function rssByMapping() {
  try {
    const list = mappings();
    const kinds = {};
    list.forEach((m, i) => {
      const kind = kindOf(m, list[i + 1]);
      kinds[kind] = (kinds[kind] ?? 0) + m.rss;
    });
    return Object.fromEntries(Object.entries(kinds).filter(([, v]) => v >= 0.05 * MB).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, mb(v)]));
  } catch {
    return null;
  }
}

/** V8's split: heap committed and used, external and array buffers, and the larger heap spaces' used MB. */
export function v8Split() {
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().filter((s) => s.space_used_size > MB).map((s) => [s.space_name, mb(s.space_used_size)]));
  return { rss: mb(rss), heapTotal: mb(heapTotal), heapUsed: mb(heapUsed), external: mb(external), arrayBuffers: mb(arrayBuffers), spaces };
}

/**
 * glibc's malloc totals through gdb (malloc_info into a file): bytes the arenas got from the system, of them
 * free (fast and other free chunks), and bytes in mmap'd chunks. Null when gdb is missing or cannot attach.
 * The process stands still meanwhile (gdb stops every thread; this thread waits for gdb).
 */
export function glibcMalloc() {
  const file = path.join(tmpdir(), `malloc-info-${process.pid}.xml`);
  try {
    const run = spawnSync('gdb', ['-nx', '-batch', '-p', String(process.pid), '-ex', `set $f = (void*)fopen("${file}", "w")`, '-ex', 'call (int)malloc_info(0, $f)', '-ex', 'call (int)fclose($f)'], { encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) return null;
    const xml = readFileSync(file, 'utf8');
    // The totals after the last </heap>: the whole process's.
    const totals = xml.slice(xml.lastIndexOf('</heap>'));
    const size = (re) => Number(re.exec(totals)?.[1] ?? NaN);
    const fast = size(/<total type="fast" count="\d+" size="(\d+)"/);
    const rest = size(/<total type="rest" count="\d+" size="(\d+)"/);
    const mmap = size(/<total type="mmap" count="\d+" size="(\d+)"/);
    const system = size(/<system type="current" size="(\d+)"/);
    const arenas = (xml.match(/<heap nr=/g) ?? []).length;
    return { arenas, arenaSystem: mb(system), arenaFree: mb(fast + rest), arenaInUse: mb(system - fast - rest), mmapped: mb(mmap) };
  } catch {
    return null;
  } finally {
    rmSync(file, { force: true });
  }
}

/** Writes a heap snapshot to `file` (summarize it with bench/lib/heap-summary.js). */
export function heapSnapshot(file) {
  return v8.writeHeapSnapshot(file);
}
