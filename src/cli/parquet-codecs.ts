/**
 * Parquet page compression for `import` and `export` (the codecs load through parquet-file.ts, so only for
 * Parquet; export's `--compression` choices are PARQUET_COMPRESSIONS).
 * Reading: hyparquet itself knows SNAPPY; a file with GZIP, ZSTD, BROTLI, LZ4 or LZ4_RAW pages gets the
 * decompressors of hyparquet-compressors (pure JS, snappy in a small WASM), imported only for such a file.
 * Writing: `--compression` snappy (hyparquet-writer's own, the default, as pandas), gzip and brotli from
 * node:zlib, zstd from node:zlib where this Node has it (22.15 and later), none.
 */
import zlib from 'node:zlib';
import type { CompressionCodec, Compressors as Decompressors, FileMetaData } from 'hyparquet';
import type { ParquetWriteOptions } from 'hyparquet-writer';

type Compressors = NonNullable<ParquetWriteOptions['compressors']>;

export const PARQUET_COMPRESSIONS = ['snappy', 'gzip', 'zstd', 'brotli', 'none'] as const;
export type ParquetCompression = (typeof PARQUET_COMPRESSIONS)[number];

/** The codecs hyparquet reads without help. */
const BUILT_IN: ReadonlySet<CompressionCodec> = new Set(['UNCOMPRESSED', 'SNAPPY']);

/** The decompressors a file needs beyond hyparquet's own, or undefined when it needs none. */
export async function decompressorsFor(metadata: FileMetaData): Promise<Decompressors | undefined> {
  const codecs = new Set(metadata.row_groups.flatMap((group) => group.columns.map((column) => column.meta_data?.codec ?? 'UNCOMPRESSED')));
  if ([...codecs].every((codec) => BUILT_IN.has(codec))) return undefined;
  return (await import('hyparquet-compressors')).compressors;
}

type ZstdZlib = typeof zlib & { zstdCompressSync?: (input: Uint8Array) => Buffer };

/** hyparquet-writer's codec and compressor for a `--compression` value; throws when this Node cannot write it. */
export function codecFor(compression: ParquetCompression): { codec: CompressionCodec; compressors: Compressors } {
  switch (compression) {
    case 'snappy':
      return { codec: 'SNAPPY', compressors: {} };
    case 'none':
      return { codec: 'UNCOMPRESSED', compressors: {} };
    case 'gzip':
      return { codec: 'GZIP', compressors: { GZIP: (input: Uint8Array) => zlib.gzipSync(input) } };
    case 'brotli':
      return { codec: 'BROTLI', compressors: { BROTLI: (input: Uint8Array) => zlib.brotliCompressSync(input) } };
    case 'zstd': {
      const zstd = (zlib as ZstdZlib).zstdCompressSync;
      if (zstd === undefined) throw new Error(`--compression zstd needs Node 22.15 or later (its zlib compresses zstd; this is Node ${process.versions.node}): use gzip, brotli or snappy here`);
      return { codec: 'ZSTD', compressors: { ZSTD: (input: Uint8Array) => zstd(input) } };
    }
  }
}
