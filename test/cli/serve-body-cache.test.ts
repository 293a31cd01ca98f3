/**
 * `vectordb-local serve --body-cache-mb`: the database option bodyCacheBytes from the command line (0 keeps
 * no bodies, reads still right; the stats say what the caches hold), and a value that is no size refused.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { tempDir } from '../support/temp.js';
import { cli, serve } from './helpers.js';

async function cachedAfterReads(extra: readonly string[]): Promise<number> {
  const server = await serve(path.join(tempDir(), 'served'), 'cache-token', extra);
  try {
    const db = new VectorDB('cache-token', server.url);
    const docs = await db.createCollection('docs', 3, 'cosine');
    await docs.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: `d${i}`, n: i, $vector: [1, i / 10, 0.5] })));
    for (let round = 0; round < 2; round++) {
      expect((await docs.findVector([1, 0.7, 0.5], { limit: 1 })).map((d) => d._id)).toEqual(['d7']);
      expect((await docs.findOne({ filter: { _id: 'd3' } }))?.n).toBe(3);
    }
    const stats = await db.stats();
    await db.close();
    return stats.cachedBytes;
  } finally {
    await server.stop();
  }
}

describe('serve --body-cache-mb', () => {
  it('0 keeps no bodies (reads are right); by default the caches hold the bodies read', async () => {
    expect(await cachedAfterReads(['--body-cache-mb', '0'])).toBe(0);
    expect(await cachedAfterReads([])).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a value that is not a number of megabytes', async () => {
    const refused = await cli(['serve', '--data', tempDir(), '--port', '0', '--body-cache-mb', 'lots']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('must be a number of megabytes');
  });
});
