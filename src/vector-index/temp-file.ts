/**
 * Graph bytes through a temporary file, for the native backends whose libraries read and write only
 * files (hnswlib-node, our addon): a save into bytes, and bytes into a load.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendBytes } from './index-format.js';

/** What `write` puts into a temporary file, read back as bytes. */
export async function bytesThroughFile(write: (file: string) => Promise<unknown>): Promise<Uint8Array> {
  return withTempFile(async (file) => {
    await write(file);
    const buf = await readFile(file);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  });
}

/** `bytes` written to a temporary file (streamed pieces as they come), for `read` to load. */
export async function fileOfBytes<T>(bytes: BackendBytes, read: (file: string) => Promise<T>): Promise<T> {
  return withTempFile(async (file) => {
    await writeFile(file, bytes);
    return read(file);
  });
}

async function withTempFile<T>(work: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'vectordb-hnsw-'));
  try {
    return await work(join(dir, 'index.bin'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
