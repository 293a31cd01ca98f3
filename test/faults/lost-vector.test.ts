/**
 * A document whose vector record is gone (a damaged directory, a copy cut short): reading it with its `$vector`
 * is a coded error that names the document and says to repair, never a retry loop. Before, the read re-read the
 * body forever at 100 % CPU with timers frozen; so the read runs in a child process with a deadline.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ClassicLevel } from 'classic-level';
import { beforeAll, describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { tempDir } from '../support/temp.js';
import { buildPackage, lastJsonLine, runFixture } from '../durability/built-package.js';

const VECTOR_PREFIXES = ['vkey:', 'vval:', 'vidx:', 'vmeta:'];

/** Writes a few vector documents, then removes every vector record and graph file, as a partial copy has them. */
async function databaseWithoutVectors(): Promise<string> {
  const dir = tempDir('lost-vector-');
  const db = new VectorDB('token', dir);
  await db.command({ createCollection: { name: 'docs', options: { vector: { dimension: 3, metric: 'cosine' } } } }, { keyspace: 'default_keyspace' });
  const docs = await db.collection('docs');
  await docs.insertMany([
    { _id: 'a', $vector: [1, 0, 0] },
    { _id: 'b', $vector: [0, 1, 0] },
  ]);
  await db.close();
  const level = new ClassicLevel<string, Uint8Array>(dir, { valueEncoding: 'view' });
  for (const prefix of VECTOR_PREFIXES) await level.clear({ gte: prefix, lt: `${prefix}\u{10FFFF}` });
  await level.close();
  rmSync(path.join(dir, 'side'), { recursive: true, force: true });
  return dir;
}

describe('a lost vector record', () => {
  beforeAll(async () => {
    await buildPackage();
  }, 180_000);

  it('is a coded error naming the document, not an endless retry', async () => {
    const dir = await databaseWithoutVectors();
    const result = await runFixture('open-database.mjs', [dir, 'dump', 'docs'], 60_000);
    expect(result.hung, 'the read never ended').toBe(false);
    const outcome = lastJsonLine(result.stdout);
    expect(outcome.ok).toBe(false);
    expect(String(outcome.message)).toContain('DATABASE_CORRUPTED');
    expect(String(outcome.message)).toMatch(/vector record of document \\"[ab]\\"/);
    expect(String(outcome.message)).toContain('vectordb-local repair');
  }, 90_000);
});
