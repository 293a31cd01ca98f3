/**
 * IdleFlush: the store's write buffer is flushed once writes have stopped for `idleMs`, never while they
 * go on, only when enough was written, once per quiet spell, and not after close; on a real LevelDB the
 * flush writes the memtable to a table file and every value reads back, before and after a reopen.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KvStore, bytesToString } from '../../src/storage/index.js';
import { IdleFlush } from '../../src/storage/idle-flush.js';
import { tempDir } from '../support/temp.js';

const MB = 1024 * 1024;

function counted(options: { idleMs?: number; minBytes?: number } = {}) {
  let calls = 0;
  let finish: () => void = () => undefined;
  const idle = new IdleFlush({
    flush: () => {
      calls++;
      return new Promise<void>((resolve) => (finish = resolve));
    },
    idleMs: options.idleMs ?? 1000,
    minBytes: options.minBytes ?? MB,
    bufferBytes: 32 * MB,
  });
  return { idle, calls: () => calls, finish: () => finish() };
}

describe('IdleFlush', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does not flush while writes go on, and flushes once after they stop', async () => {
    vi.useFakeTimers();
    const { idle, calls, finish } = counted();
    for (let i = 0; i < 50; i++) {
      idle.wrote(MB);
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(calls()).toBe(0);
    await vi.advanceTimersByTimeAsync(600);
    expect(calls()).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(1);
  });

  it('does not flush a buffer holding less than minBytes, until more comes', async () => {
    vi.useFakeTimers();
    const { idle, calls } = counted({ minBytes: 4 * MB });
    idle.wrote(MB);
    await vi.advanceTimersByTimeAsync(5000);
    idle.wrote(MB);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls()).toBe(0);
    idle.wrote(2 * MB);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls()).toBe(1);
  });

  it('writes during a flush get their own flush once they stop', async () => {
    vi.useFakeTimers();
    const { idle, calls, finish } = counted();
    idle.wrote(2 * MB);
    await vi.advanceTimersByTimeAsync(1500);
    expect(calls()).toBe(1);
    idle.wrote(2 * MB);
    finish();
    await vi.advanceTimersByTimeAsync(1500);
    expect(calls()).toBe(2);
  });

  it('close stops the timer and waits for a flush under way', async () => {
    vi.useFakeTimers();
    const first = counted();
    first.idle.wrote(2 * MB);
    await first.idle.close();
    await vi.advanceTimersByTimeAsync(5000);
    expect(first.calls()).toBe(0);

    const second = counted();
    second.idle.wrote(2 * MB);
    await vi.advanceTimersByTimeAsync(1500);
    let closed = false;
    const closing = second.idle.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(closed).toBe(false);
    second.finish();
    await closing;
    expect(closed).toBe(true);
  });
});

/** The LevelDB table files of a store's directory. */
const tables = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.ldb'));
/** The bytes of the write-ahead logs (the memtable's contents until a flush). */
const logBytes = (dir: string): number =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.log') && name !== 'LOG')
    .reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);

describe('KvStore flushes LevelDB memtable once writes stop', () => {
  it('writes the memtable to a table file after a write burst, and every value reads back after a reopen', async () => {
    const dir = tempDir();
    const kv = await KvStore.open(dir);
    const value = 'x'.repeat(1000);
    const keys: string[] = [];
    // About 4.5 MB: past the idle flush's 4 MB, short of the 8 MB write buffer (LevelDB would flush itself).
    for (let b = 0; b < 10; b++) {
      const ops = [];
      for (let i = 0; i < 450; i++) {
        const key = `k${String(b * 450 + i).padStart(6, '0')}`;
        keys.push(key);
        ops.push({ type: 'put' as const, key, value: `${key}:${value}` });
      }
      await kv.batch(ops);
    }
    expect(tables(dir)).toEqual([]); // all in the memtable (and its log)
    // The idle flush comes about a second after the last write: wait for its table file, and for LevelDB to
    // drop the old log (just after it writes the table).
    const flushed = (): boolean => tables(dir).length > 0 && logBytes(dir) < MB;
    for (let waited = 0; !flushed() && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(tables(dir).length).toBeGreaterThan(0);
    expect(logBytes(dir)).toBeLessThan(MB);
    expect(bytesToString((await kv.get(keys[1234]!))!)).toBe(`${keys[1234]}:${value}`);
    await kv.close();

    const again = await KvStore.open(dir);
    const read = await again.getMany(keys);
    expect(read.every((v, i) => v !== undefined && bytesToString(v) === `${keys[i]}:${value}`)).toBe(true);
    await again.close();
  });
});
