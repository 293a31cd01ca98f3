/**
 * Compressed Parquet through `import` and `export`: a ZSTD file whose pages Debian's `zstd` command compressed
 * (the committed fixture, see test/fixtures/parquet/make-zstd.mjs), GZIP and BROTLI files written here by
 * hyparquet-writer with node:zlib, all imported as the same documents; `export --compression gzip|brotli|none`
 * writes pages of that codec that hyparquet (with hyparquet-compressors) reads back and `import` takes again;
 * zstd is written where this Node's zlib has it and refused with a clear message where it has not.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, type CompressionCodec } from 'hyparquet';
import { compressors as decompressors } from 'hyparquet-compressors';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ROWS, writeFixture } from '../fixtures/parquet/fixture-file.mjs';
import { buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { ROOT, cli, documentsOf } from './helpers.js';

beforeAll(buildPackage, 180_000);

/** Documents in `_id` order with their vectors as the float32s stored. */
const sorted = (docs: readonly Record<string, unknown>[]): Record<string, unknown>[] =>
  [...docs].map((d): Record<string, unknown> => ({ ...d, $vector: (d.$vector as number[]).map(Math.fround) })).sort((a, b) => String(a._id).localeCompare(String(b._id)));
const expected = sorted(FIXTURE_ROWS.map((r) => ({ _id: r.id, title: r.title, year: r.year, $vector: r.embedding })));

async function codecsOf(file: string): Promise<CompressionCodec[]> {
  const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
  return [...new Set(metadata.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data!.codec)))];
}

describe('compressed Parquet', () => {
  const dir = tempDir();
  const data = path.join(dir, 'data');

  async function importAs(file: string, collection: string): Promise<void> {
    const result = await cli(['import', file, '--data', data, '-c', collection, '--create', '--dimension', '3', '--id-field', 'id', '--vector-field', 'embedding']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/inserted 12, rejected 0/);
    expect(sorted(await documentsOf(data, collection))).toEqual(expected);
  }

  it('imports a ZSTD file compressed by the zstd command', async () => {
    const file = path.join(dir, 'zstd.parquet');
    copyFileSync(path.join(ROOT, 'test/fixtures/parquet/zstd.parquet'), file);
    expect(await codecsOf(file)).toEqual(['ZSTD']);
    await importAs(file, 'from_zstd');
  }, 120_000);

  it('imports GZIP and BROTLI files', async () => {
    const gzip = path.join(dir, 'gzip.parquet');
    const brotli = path.join(dir, 'brotli.parquet');
    writeFixture(gzip, 'GZIP', (input) => zlib.gzipSync(input));
    writeFixture(brotli, 'BROTLI', (input) => zlib.brotliCompressSync(input));
    expect(await codecsOf(gzip)).toEqual(['GZIP']);
    expect(await codecsOf(brotli)).toEqual(['BROTLI']);
    await importAs(gzip, 'from_gzip');
    await importAs(brotli, 'from_brotli');
  }, 120_000);

  it.each([
    ['gzip', 'GZIP'],
    ['brotli', 'BROTLI'],
    ['none', 'UNCOMPRESSED'],
  ] as const)('export --compression %s writes %s pages that read back as the documents', async (compression, codec) => {
    const file = path.join(dir, `export-${compression}.parquet`);
    const result = await cli(['export', '--data', data, '-c', 'from_zstd', '-o', file, '--compression', compression]);
    expect(result.code, result.stderr).toBe(0);
    expect(await codecsOf(file)).toEqual([codec]);
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors: decompressors });
    expect(sorted(rows.map((r) => ({ ...r, year: Number(r.year) })))).toEqual(expected);
    const back = path.join(dir, `back-${compression}`);
    const reimport = await cli(['import', file, '--data', back, '-c', 'docs', '--create', '--dimension', '3']);
    expect(reimport.code, reimport.stderr).toBe(0);
    expect(sorted(await documentsOf(back, 'docs'))).toEqual(expected);
  }, 120_000);

  it('export --compression zstd: written where Node has zstd, else refused before any file is made', async () => {
    const file = path.join(dir, 'export-zstd.parquet');
    const result = await cli(['export', '--data', data, '-c', 'from_zstd', '-o', file, '--compression', 'zstd']);
    if ('zstdCompressSync' in zlib) {
      expect(result.code, result.stderr).toBe(0);
      expect(await codecsOf(file)).toEqual(['ZSTD']);
    } else {
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/--compression zstd needs Node 22\.15 or later .*use gzip, brotli or snappy/);
      await expect(asyncBufferFromFile(file)).rejects.toThrow(/ENOENT/);
    }
  }, 120_000);

  it('--compression is refused for a format other than Parquet', async () => {
    const result = await cli(['export', '--data', data, '-c', 'from_zstd', '-f', 'csv', '--compression', 'gzip']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--compression is for Parquet; the format here is csv/);
  }, 120_000);
});
