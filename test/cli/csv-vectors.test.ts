/**
 * `vectordb-local import` of CSV files whose vector column is spelled as people's tools write it: JSON arrays,
 * NumPy/pandas `[a b c]` (line breaks inside the brackets too), `a,b,c`, `a b c`, NumPy 2's `np.float32(x)`
 * items and `{"$binary": ...}`; a wrong dimension or an unreadable vector is a reject with its line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { cli, documentsOf } from './helpers.js';

beforeAll(buildPackage, 180_000);

/** The Data API's $binary of a vector: big-endian float32s in base64. */
function binary(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => bytes.writeFloatBE(v, i * 4));
  return bytes.toString('base64');
}

const csvQuote = (cell: string): string => `"${cell.replace(/"/g, '""')}"`;

/** Rows of id, vector cell, spelling; the file's line of each row is noted where a reject is expected. */
const ROWS: readonly (readonly [string, string])[] = [
  ['json', '[0.5, 0.25, 1]'],
  ['numpy', '[0.5  0.25 1.  ]'],
  ['numpy-lines', '[ 5.0e-01\n  2.5e-01\n -1.25e+00]'],
  ['comma', '0.5,0.25,1'],
  ['space', '0.5 0.25 1'],
  ['numpy2-list', '[np.float32(0.5), np.float32(0.25), np.float64(1.0)]'],
  ['binary', JSON.stringify({ $binary: binary([0.5, 0.25, 1]) })],
  ['short', '[0.5 0.25]'],
  ['summarised', '[0.5 ... 1. ]'],
  ['binary-short', JSON.stringify({ $binary: binary([0.5, 0.25]) })],
  ['word', '[0.5 two 1]'],
];

function writeCsv(file: string, vectorColumn: string): void {
  const lines = [`id,${vectorColumn},note`, ...ROWS.map(([id, cell]) => `${id},${csvQuote(cell)},${id === 'comma' ? '"a, b"' : 'x'}`)];
  writeFileSync(file, `${lines.join('\n')}\n`);
}

async function importAndCheck(dir: string, vectorColumn: string, extra: readonly string[]): Promise<void> {
  const file = path.join(dir, `${vectorColumn.replace('$', '')}.csv`);
  writeCsv(file, vectorColumn);
  const data = path.join(dir, 'data');
  const result = await cli(['import', file, '--data', data, '-c', 'docs', '--create', '--dimension', '3', '--id-field', 'id', ...extra]);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(/inserted 7, rejected 4/);
  const rejects = readFileSync(`${file}.rejects.ndjson`, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { line: number; reason: string });
  // Line 1 is the header, and numpy-lines spans lines 4 to 6: rows after it sit two lines further down.
  expect(rejects.map((r) => r.line).sort((a, b) => a - b)).toEqual([11, 12, 13, 14]);
  const reason = (line: number): string => rejects.find((r) => r.line === line)!.reason;
  expect(reason(11)).toMatch(/INVALID_VECTOR_LENGTH/);
  expect(reason(12)).toMatch(/cut short with '\.\.\.'/);
  expect(reason(13)).toMatch(/INVALID_VECTOR_LENGTH/);
  expect(reason(14)).toMatch(/'two' is not a finite number/);
  const docs = await documentsOf(data, 'docs');
  const vectors = Object.fromEntries(docs.map((d) => [d._id as string, d.$vector]));
  expect(Object.keys(vectors).sort()).toEqual(['binary', 'comma', 'json', 'numpy', 'numpy-lines', 'numpy2-list', 'space']);
  for (const id of ['json', 'numpy', 'comma', 'space', 'numpy2-list']) expect(vectors[id], id).toEqual([0.5, 0.25, 1]);
  expect(vectors['numpy-lines']).toEqual([0.5, 0.25, -1.25]);
  expect(vectors.binary).toEqual({ $binary: binary([0.5, 0.25, 1]) });
  expect(docs.find((d) => d._id === 'comma')).toMatchObject({ note: 'a, b' });
}

describe('vectordb-local import: CSV vectors in every common spelling', () => {
  it('a column named by --vector-field', async () => {
    await importAndCheck(tempDir(), 'embedding', ['--vector-field', 'embedding']);
  }, 60_000);

  it('a $vector column, its cells inferred', async () => {
    await importAndCheck(tempDir(), '$vector', []);
  }, 60_000);
});
