/**
 * The type checks that `vitest run` alone would not make: tsc over test/types (so an `@ts-expect-error` that
 * stops being an error, or a type test that stops compiling, fails the suite), and the public declarations
 * compiled on their own, as a user's project sees them: dist/ copied into a fresh node_modules with no
 * dependencies and no @types/node, `skipLibCheck: false`.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, buildPackage } from '../durability/built-package.js';
import { tempDir } from '../support/temp.js';

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

function tsc(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, ...args], { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

const CONSUMER = `import {
  VectorDB, VectorDBAdmin, VectorDBClient, TokenRoles, DataApiException, DatabaseInUseException,
  type StrictFilter, type StrictUpdateFilter, type CommandResponse, type Limits, type VectorProgress,
} from 'vectordb-local';

interface Product { name: string; price: number; tags: string[] }

export async function main(): Promise<void> {
  const db = new VectorDB('token', './data', 'default_keyspace', { onProgress: (p: VectorProgress) => console.log(p.done) });
  const products = await db.createCollection<Product>('products', 3);
  const filter: StrictFilter<Product> = { price: { $lt: 30 } };
  const update: StrictUpdateFilter<Product> = { $inc: { price: 1 }, $push: { tags: 'sale' } };
  await products.updateMany(filter, update);
  const response: CommandResponse = await db.command({ findCollections: {} });
  const limits: Partial<Limits> = { pageSize: 50 };
  const admin: VectorDBAdmin = new VectorDBClient('org-token');
  await admin.createToken(TokenRoles.DATABASE_ADMINISTRATOR, 'catalog');
  try {
    await db.connect();
  } catch (error) {
    if (error instanceof DatabaseInUseException || error instanceof DataApiException) console.log(error.errorCode);
  }
  await using closing = db;
  console.log(response, limits, closing.endpoint);
}
`;

describe('type checks', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it('the type tests of test/types compile, every @ts-expect-error still marking an error', async () => {
    const result = await tsc(['-p', path.join(ROOT, 'test', 'types', 'tsconfig.json')], ROOT);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it("the public .d.ts compile on their own: skipLibCheck false, no @types/node, of the dependencies' types only bignumber.js's", async () => {
    const project = tempDir('vectordb-consumer-');
    const pkg = path.join(project, 'node_modules', 'vectordb-local');
    mkdirSync(pkg, { recursive: true });
    cpSync(path.join(ROOT, 'dist'), path.join(pkg, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.js.map') });
    cpSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
    // ExactDecimal is a bignumber.js BigNumber: its own declarations (no Node types) come with the dependency.
    cpSync(path.join(ROOT, 'node_modules', 'bignumber.js'), path.join(project, 'node_modules', 'bignumber.js'), { recursive: true });
    writeFileSync(path.join(project, 'main.ts'), CONSUMER);
    const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true, types: [] };
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['main.ts'] }));
    const result = await tsc(['-p', project], project);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });
});
