/**
 * The `vectordb-local/langchain` subpath of the BUILT package: package.json's export resolves (code and
 * declarations), the store works on a VectorDB from the main entry (one shared copy of the client), and no
 * module the main entry can load, at import or later, imports @langchain/core (an optional peer).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';

beforeAll(buildPackage, 180_000);

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };

/** Every file of the bundle that `entry` reaches through static or dynamic imports of relative paths. */
function reachable(entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+\.js)"/g)) visit(path.resolve(path.dirname(file), match[1]!));
  };
  visit(path.join(ROOT, entry));
  return files;
}

describe('vectordb-local/langchain in the built package', () => {
  it('the main entry reaches no module that imports @langchain/core; the subpath does', () => {
    const main = reachable(pkg.exports['.']!.import!);
    expect(main.size).toBeGreaterThan(1);
    expect([...main].filter(([, text]) => text.includes('@langchain/')).map(([file]) => path.relative(ROOT, file))).toEqual([]);
    const langchain = reachable(pkg.exports['./langchain']!.import!);
    expect([...langchain.values()].some((text) => text.includes('"@langchain/core/vectorstores"'))).toBe(true);
    expect(existsSync(path.join(ROOT, pkg.exports['./langchain']!.types!))).toBe(true);
  });

  it('imports by package name and works on a VectorDB of the main entry', async () => {
    const dir = tempDir();
    const script = `
      import { VectorDB } from 'vectordb-local';
      import { VectorDBLocalStore } from 'vectordb-local/langchain';
      import { SyntheticEmbeddings } from '@langchain/core/utils/testing';
      const db = new VectorDB('token', ${JSON.stringify(dir)});
      const store = await VectorDBLocalStore.fromTexts(['red apples', 'green pears', 'blue boats'], [{ n: 1 }, { n: 2 }, { n: 3 }], new SyntheticEmbeddings(), { db, collectionName: 'fruit' });
      const [hit] = await store.similaritySearch('green pears', 1, { n: { $gte: 2 } });
      console.log(JSON.stringify({ text: hit.pageContent, n: hit.metadata.n, same: store.db === db }));
      await db.close();`;
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT }, (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }));
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim())).toEqual({ text: 'green pears', n: 2, same: true });
  });
});
