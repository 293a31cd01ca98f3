/**
 * What a cold `import` of the package loads (scripts/build-node.js, storage/, query/deferred-packages.ts,
 * engine/collections/schema.ts, client/vector-db-admin.ts): the packages an app may never need (memory-level,
 * classic-level, mingo, lossless-json, fast-json-stable-stringify, graphql) and the administration layer
 * (with node:crypto) are loaded at first use, not at import, and everything still works once they are; the
 * wasm HNSW backend starts without Node's fetch (vector-index/wasm-loader.ts); the bundled Node entry finds the
 * graph builder's worker file (a wrong path would only switch the worker off, silently).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildPackage, lastJsonLine, runFixture } from './durability/built-package.js';
import { tempDir } from './support/temp.js';

beforeAll(async () => {
  await buildPackage();
});

describe('cold import of the built package', () => {
  it('loads memory-level, classic-level, mingo, lossless-json, fast-json-stable-stringify and graphql only when used, and answers the same', async () => {
    const dir = tempDir('vectordb-cold-import-');
    const result = await runFixture('cold-import.mjs', [dir], 60_000);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { steps, answers } = lastJsonLine(result.stdout);
    const F = 'fast-json-stable-stringify';
    expect(steps).toEqual({
      import: [],
      importCrypto: false,
      memoryFind: ['memory-level', 'abstract-level'],
      compoundFilter: ['memory-level', 'abstract-level', 'mingo'],
      existingCollection: ['memory-level', 'abstract-level', 'mingo', F],
      disk: ['memory-level', 'classic-level', 'abstract-level', 'mingo', F],
      exactNumber: ['memory-level', 'classic-level', 'abstract-level', 'mingo', 'lossless-json', F],
      wasmUndici: false,
      adminCrypto: true,
    });
    expect(answers).toEqual({
      unfiltered: ['b', 'a', 'c'],
      twoConditions: ['b', 'a'],
      orFilter: ['a', 'c'],
      sameDefinition: 'ok',
      otherDefinition: 'EXISTING_COLLECTION_DIFFERENT_SETTINGS',
      reopened: ['b', 'a', 'c'],
      exactInsert: { insertedIds: ['big'] },
      exactRead: '12345678901234567890123',
      wasm: ['b', 'a', 'c'],
      adminCall: 'HOME_NOT_FOUND',
    });
  });

  it("bundles the Node entry so that it finds the graph builder's worker file", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { exports: { '.': { import: string } } };
    const entry = path.join(ROOT, pkg.exports['.'].import);
    const bundleDir = path.dirname(entry);
    const named = readdirSync(bundleDir)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => [...readFileSync(path.join(bundleDir, file), 'utf8').matchAll(/new URL\("([^"]*graph-builder-worker\.js)", import\.meta\.url\)/g)].map((m) => m[1]!));
    expect(named.length).toBe(1);
    const workerFile = fileURLToPath(new URL(named[0]!, `file://${bundleDir}/`));
    expect(existsSync(workerFile)).toBe(true);
  });
});
