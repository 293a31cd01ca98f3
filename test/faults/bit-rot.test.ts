/**
 * Bit rot (#28): bytes flipped inside a LevelDB table file (.ldb), in a document body and in a vector record,
 * as a disk or a torn copy leaves them. Every read afterwards is an error or the right answer, never a wrong
 * one (compared with what was written), and `vectordb-local verify` reports the damage (exit 1), naming the
 * document. Child processes on the built package and a real LevelDB directory.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, ROOT, runFixture } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';

const COUNT = 200;
const docOf = (i: number) => ({ _id: `doc${i}`, text: `the text of ${i}: K${(Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0')}`, tag: `tag${i % 10}`, $vector: [Math.fround(i + 1 + 1 / (i + 3)), (i * 7) % 13, 3, 0.5] });

/** Changes every occurrence of `find` in the directory's table files to `replace` (same length); returns how many. */
function rot(dir: string, find: Buffer, replace: Buffer): number {
  let changed = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ldb'))) {
    const file = path.join(dir, name);
    const bytes = readFileSync(file);
    for (let at = bytes.indexOf(find); at >= 0; at = bytes.indexOf(find, at + 1)) {
      replace.copy(bytes, at);
      changed++;
    }
    writeFileSync(file, bytes);
  }
  return changed;
}

const floats = (values: number[]): Buffer => Buffer.from(new Float32Array(values).buffer);

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'dist', 'cli', 'main.js'), ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(() => buildPackage(), 300_000);

describe('bytes flipped in a table file', () => {
  it('every read is an error or the right answer; verify reports the damage', async () => {
    const dir = tempDir();
    expect((await runFixture('bit-rot.mjs', [dir, 'write'])).code).toBe(0);
    // A body: one character of a text's token changes (the first document whose token is a literal run of
    // the compressed block, as most are).
    const bodyDoc = Array.from({ length: COUNT }, (_, i) => i).find((i) => {
      const token = /K[0-9a-f]{8}/.exec(docOf(i).text)![0];
      return rot(dir, Buffer.from(token), Buffer.from(token.slice(0, -1) + (token.endsWith('0') ? '1' : '0'))) > 0;
    });
    expect(bodyDoc).toBeDefined();
    // A vector record: one value of another document changes by a few ulps.
    const vectorDoc = Array.from({ length: COUNT }, (_, i) => i).find((i) => i !== bodyDoc && rot(dir, floats([docOf(i).$vector[0]!]), floats([docOf(i).$vector[0]! + 1e-4])) > 0);
    const read = await runFixture('bit-rot.mjs', [dir, 'read'], 60_000);
    expect(read.hung).toBe(false);
    const lines = read.stdout.trim().split('\n').map((l) => JSON.parse(l) as { read: string; id?: string; doc?: unknown; error?: string; tag?: string; ids?: string[] });
    const errors: string[] = [];
    for (const l of lines) {
      if (l.error !== undefined) {
        expect(l.error).toBe('DATABASE_CORRUPTED');
        errors.push(l.id ?? l.tag!);
      } else if (l.read === 'id') {
        // Vectors come back as float32's shortest decimals: compared as float32.
        const doc = l.doc as { $vector: number[] };
        expect({ ...doc, $vector: doc.$vector.map(Math.fround) }, l.id).toEqual(docOf(Number(l.id!.slice(3))));
      } else {
        expect(l.ids).toEqual(Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 10 === Number(l.tag!.slice(3))).map((i) => `doc${i}`).sort());
      }
    }
    expect(errors).toContain(`doc${bodyDoc}`);
    // The vector's document reads its values from memory (loaded from the graph file when that holds them):
    // an error, or the right vector, as checked above.
    expect(vectorDoc).toBeDefined();

    const verified = await cli(['verify', dir]);
    expect(verified.code, verified.stderr).toBe(1);
    expect(verified.stdout).toContain(`damaged-record: document _id "doc${bodyDoc}" of collection default_keyspace.docs`);
    expect(verified.stdout).toMatch(/damaged-record: vector record \(label \d+\) of collection default_keyspace\.docs/);
  }, 120_000);
});
