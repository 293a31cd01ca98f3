/**
 * `vectordb-local import` and `export` as child processes: bad records go to the rejects file with line numbers
 * (exit code 2); a re-run adds nothing twice; Ctrl+C in the middle then a re-run loses nothing and duplicates
 * nothing; NDJSON, JSON and CSV round trips are byte for byte stable with $vector kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';
import { cli, documentsOf, start, waitFor, writeDocuments } from './helpers.js';

beforeAll(buildPackage, 180_000);

describe('vectordb-local import and export', () => {
  it('rejects bad records with their line numbers and reasons, exits 2, and a re-run adds nothing', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'docs.ndjson');
    writeDocuments(file, 50, 4, 5);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    lines.splice(3, 0, '{"_id": "broken"');
    lines.splice(7, 0, '["not", "an", "object"]');
    lines.push('{"_id": "short", "$vector": [1, 2]}', '');
    writeFileSync(file, lines.join('\n'));
    const data = path.join(dir, 'data');
    const first = await cli(['import', file, '--data', data, '-c', 'docs', '--create', '--dimension', '4']);
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toMatch(/inserted 50, rejected 3/);
    const rejects = readFileSync(`${file}.rejects.ndjson`, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { line: number; reason: string });
    expect(rejects.map((r) => r.line).sort((a, b) => a - b)).toEqual([4, 8, 53]);
    expect(rejects.find((r) => r.line === 4)!.reason).toMatch(/not valid JSON/);
    expect(rejects.find((r) => r.line === 8)!.reason).toMatch(/not a JSON object/);
    expect(rejects.find((r) => r.line === 53)!.reason).toMatch(/INVALID_VECTOR_LENGTH/);
    const again = await cli(['import', file, '--data', data, '-c', 'docs']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/inserted 0, already present 50, rejected 3/);
    const docs = await documentsOf(data, 'docs');
    expect(docs).toHaveLength(50);
    expect(docs.every((d) => Array.isArray(d.$vector) && (d.$vector as number[]).length === 4)).toBe(true);
  }, 60_000);

  it('NDJSON, JSON array and CSV round trips are byte for byte stable and keep vectors and exact numbers', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'source.ndjson');
    writeDocuments(source, 120, 3);
    const extra = ['{"_id": "odd", "s": "007", "t": "true", "e": "", "q": "say \\"hi\\"", "nested": {"a": [1, {"b": null}]}, "multi": "line 1\\nline, 2", "big": 12321321321312312321312312321, "dec": 12.12312321312312312312312321, "$vector": [0.5, 0.25, 1]}'];
    writeFileSync(source, readFileSync(source, 'utf8') + extra.join('\n') + '\n');
    const a = path.join(dir, 'a');
    expect((await cli(['import', source, '--data', a, '-c', 'docs', '--create', '--dimension', '3'])).code).toBe(0);
    for (const format of ['ndjson', 'csv', 'json'] as const) {
      const first = path.join(dir, `first.${format}`);
      const second = path.join(dir, `second.${format}`);
      const b = path.join(dir, `b-${format}`);
      expect((await cli(['export', '--data', a, '-c', 'docs', '-o', first])).code).toBe(0);
      const imported = await cli(['import', first, '--data', b, '-c', 'docs', '--create', '--dimension', '3']);
      expect(imported.code, imported.stderr).toBe(0);
      expect((await cli(['export', '--data', b, '-c', 'docs', '-o', second])).code).toBe(0);
      expect(readFileSync(second, 'utf8')).toBe(readFileSync(first, 'utf8'));
      expect(readFileSync(first, 'utf8')).toMatch(/12321321321312312321312312321[^]*12\.12312321312312312312312321/);
      expect(await documentsOf(b, 'docs')).toEqual(await documentsOf(a, 'docs'));
    }
    const odd = (await documentsOf(path.join(dir, 'b-csv'), 'docs')).find((d) => d._id === 'odd')!;
    expect(odd).toMatchObject({ s: '007', t: 'true', e: '', nested: { a: [1, { b: null }] }, multi: 'line 1\nline, 2', $vector: [0.5, 0.25, 1] });
  }, 90_000);

  it('export to stdout honours --filter, --projection, --limit and --no-vector', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'source.ndjson');
    writeDocuments(source, 30, 3);
    const data = path.join(dir, 'data');
    await cli(['import', source, '--data', data, '-c', 'docs', '--create', '--dimension', '3']);
    const filtered = await cli(['export', '--data', data, '-c', 'docs', '--filter', '{"n": {"$lt": 10}}', '--limit', '4']);
    const docs = filtered.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(docs).toHaveLength(4);
    expect(docs.every((d) => (d.n as number) < 10 && Array.isArray(d.$vector))).toBe(true);
    const plain = await cli(['export', '--data', data, '-c', 'docs', '--no-vector', '--limit', '1']);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('$vector');
    const projected = await cli(['export', '--data', data, '-c', 'docs', '--projection', '{"name": 1}', '--limit', '1']);
    expect(Object.keys(JSON.parse(projected.stdout) as object).sort()).toEqual(['_id', 'name']);
    const bad = await cli(['export', '--data', data, '-c', 'docs', '--filter', '{oops']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/not valid JSON/);
  }, 60_000);

  it('CSV with a vector column, typed and inferred cells, and a bad row', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'products.csv');
    writeFileSync(file, ['sku,price,embedding,active,label', '001,9.5,"[1, 0, 0]",true,lamp', '002,x,0 1 0,false,desk', '003,12,"0,0,1",yes', '004,3,1 1 1,no,"chair, red"', ''].join('\n'));
    const data = path.join(dir, 'data');
    const result = await cli(['import', file, '--data', data, '-c', 'products', '--create', '--dimension', '3', '--id-field', 'sku', '--vector-field', 'embedding', '--types', 'sku:string,price:number,active:boolean']);
    expect(result.code, result.stderr).toBe(2);
    const rejects = readFileSync(`${file}.rejects.ndjson`, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { line: number; reason: string });
    expect(rejects.map((r) => [r.line, r.reason])).toEqual([
      [3, "column 'price': 'x' is not a number"],
      [4, 'has 4 fields, the header has 5'],
    ]);
    const docs = await documentsOf(data, 'products');
    expect(docs).toEqual([
      { _id: '001', price: 9.5, $vector: [1, 0, 0], active: true, label: 'lamp' },
      { _id: '004', price: 3, $vector: [1, 1, 1], active: false, label: 'chair, red' },
    ]);
  }, 60_000);

  it('Ctrl+C in the middle of an import, then the same import again: nothing lost, nothing twice', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'big.ndjson');
    // Large enough that the Ctrl+C lands mid-import on a busy machine (10,000 took ~0.7 s, and once all were in).
    const total = 30_000;
    writeDocuments(file, total, 16, 4); // a quarter without _id: their ids come from line and text
    const data = path.join(dir, 'data');
    expect((await cli(['import', '-', '--data', data, '-c', 'docs', '--create', '--dimension', '16'], { input: '' })).code).toBe(0);
    const run = start(['import', file, '--data', data, '-c', 'docs', '--concurrency', '1', '--progress-interval', '0.1']);
    await waitFor(run.output, /import: [1-9][\d,]* of 30,000/, run.exited);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.output()).toMatch(/interrupted/);
    const partial = await documentsOf(data, 'docs');
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(total);
    const rerun = await cli(['import', file, '--data', data, '-c', 'docs']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(new RegExp(`inserted ${(total - partial.length).toLocaleString('en-US')}, already present ${partial.length.toLocaleString('en-US')}`));
    const docs = await documentsOf(data, 'docs');
    expect(docs).toHaveLength(total);
    expect(new Set(docs.map((d) => d.n)).size).toBe(total);
  }, 120_000);
});

