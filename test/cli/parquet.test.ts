/**
 * `vectordb-local import` of a Parquet file laid out as pandas/PyArrow write one (strings, INT64, DOUBLE with
 * nulls, the embedding a LIST of DOUBLE, several row groups), written here by hyparquet-writer; a wrong
 * dimension is a reject with its row. `export --format parquet` writes a file hyparquet reads back with the
 * same documents ($vector a LIST of FLOAT), that `import` takes again, also on stdout. Neither library is
 * reachable from the package's entry: the CLI loads them only for a Parquet file.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { parquetWriteFile } from 'hyparquet-writer';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { MAIN, ROOT, cli, documentsOf } from './helpers.js';

beforeAll(buildPackage, 180_000);

const ROWS = Array.from({ length: 25 }, (_, n) => ({
  id: `doc-${n}`,
  title: `title ${n}`,
  year: BigInt(1990 + n),
  score: n % 5 === 0 ? null : n / 4,
  embedding: n === 17 ? [1, 2] : [Math.cos(n), Math.sin(n), n / 25],
}));

/** A file as pandas' to_parquet (PyArrow) writes it: the list column as list<element: double>. */
function writePandasLike(file: string): void {
  parquetWriteFile({
    filename: file,
    rowGroupSize: 10,
    columnData: [
      { name: 'id', data: ROWS.map((r) => r.id) },
      { name: 'title', data: ROWS.map((r) => r.title) },
      { name: 'year', data: ROWS.map((r) => r.year) },
      { name: 'score', data: ROWS.map((r) => r.score) },
      { name: 'embedding', data: ROWS.map((r) => r.embedding) },
    ],
    schema: [
      { name: 'schema', num_children: 5 },
      { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'title', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'year', type: 'INT64', repetition_type: 'OPTIONAL' },
      { name: 'score', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
      { name: 'embedding', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
    ],
  });
}

const float32 = (values: readonly number[]) => values.map((v) => Math.fround(v));
const byId = (docs: readonly Record<string, unknown>[]) => Object.fromEntries(docs.map((d) => [d._id as string, d]));

describe('Parquet import and export', () => {
  const dir = tempDir();
  const data = path.join(dir, 'data');
  const source = path.join(dir, 'pandas.parquet');

  it('imports a pandas-like file: list column as the vector, INT64 and DOUBLE as numbers, nulls absent, a wrong dimension rejected with its row', async () => {
    writePandasLike(source);
    expect((await parquetMetadataAsync(await asyncBufferFromFile(source))).row_groups).toHaveLength(3);
    const result = await cli(['import', source, '--data', data, '-c', 'docs', '--create', '--dimension', '3', '--id-field', 'id', '--vector-field', 'embedding']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/25 records of .*pandas\.parquet into default_keyspace\.docs: inserted 24, rejected 1/);
    const rejects = readFileSync(`${source}.rejects.ndjson`, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { line: number; reason: string });
    expect(rejects).toEqual([expect.objectContaining({ line: 18, reason: expect.stringMatching(/INVALID_VECTOR_LENGTH/) })]);
    const docs = byId(await documentsOf(data, 'docs'));
    expect(Object.keys(docs)).toHaveLength(24);
    for (const row of ROWS.filter((r) => r.id !== 'doc-17')) {
      const expected: Record<string, unknown> = { _id: row.id, title: row.title, year: Number(row.year), $vector: float32(row.embedding) };
      if (row.score !== null) expected.score = row.score;
      const document = docs[row.id]!;
      expect({ ...document, $vector: float32(document.$vector as number[]) }).toEqual(expected); // stored as float32
    }
    const again = await cli(['import', source, '--data', data, '-c', 'docs', '--id-field', 'id', '--vector-field', 'embedding']);
    expect(again.stderr).toMatch(/inserted 0, already present 24, rejected 1/);
  }, 120_000);

  it('exports as Parquet: hyparquet reads the same documents, $vector a LIST of FLOAT, and import takes the file back', async () => {
    const file = path.join(dir, 'docs.parquet');
    const result = await cli(['export', '--data', data, '-c', 'docs', '-o', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/24 documents of default_keyspace\.docs to .*docs\.parquet \(parquet\)/);
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
    const columns = Object.fromEntries(parquetSchema(metadata).children.map((c) => [c.element.name, c]));
    expect(columns.$vector!.element.converted_type).toBe('LIST');
    expect(columns.$vector!.children[0]!.children[0]!.element.type).toBe('FLOAT');
    expect(columns.year!.element.type).toBe('INT64');
    expect(columns.score!.element.type).toBe('DOUBLE');
    expect(columns.title!.element.converted_type).toBe('UTF8');
    const stored = byId(await documentsOf(data, 'docs'));
    const rows = await parquetReadObjects({ file: buffer });
    expect(rows).toHaveLength(24);
    for (const row of rows) {
      const document = stored[row._id as string]!;
      expect(row.$vector).toEqual(float32(document.$vector as number[])); // the same float32s
      expect(Number(row.year)).toBe(document.year);
      expect(row.score ?? undefined).toBe(document.score);
      expect(row.title).toBe(document.title);
    }
    const back = path.join(dir, 'back');
    const reimport = await cli(['import', file, '--data', back, '-c', 'docs', '--create', '--dimension', '3']);
    expect(reimport.code, reimport.stderr).toBe(0);
    expect(byId(await documentsOf(back, 'docs'))).toEqual(stored);
  }, 120_000);

  it('exports Parquet to stdout, with --filter and --projection', async () => {
    const bytes = execFileSync(process.execPath, [MAIN, 'export', '--data', data, '-c', 'docs', '-f', 'parquet', '--filter', '{"year": {"$lt": 2000}}', '--projection', '{"year": 1}'], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    const file = path.join(dir, 'stdout.parquet');
    writeFileSync(file, bytes);
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(file) });
    expect(rows.map((r) => r._id).sort()).toEqual(ROWS.filter((r) => r.year < 2000n).map((r) => r.id).sort());
    expect(Object.keys(rows[0]!).sort()).toEqual(['_id', 'year']);
  }, 120_000);

  it('keeps both libraries off the package entry: only dist/cli/parquet-file.js imports them', () => {
    const importing = (folder: string) =>
      readdirSync(path.join(ROOT, folder))
        .filter((f) => f.endsWith('.js') && /from\s*["']hyparquet/.test(readFileSync(path.join(ROOT, folder, f), 'utf8')))
        .map((f) => `${folder}/${f}`);
    expect([...importing('dist/node'), ...importing('dist/cli')]).toEqual(['dist/cli/parquet-file.js']);
  });
});
