/**
 * The HTTP factory for shared suites: a Database on a temporary directory served by the real HTTP adapter on
 * 127.0.0.1 (random port, random token), reached through `new VectorDB(token, url)`, i.e. HttpTransport.
 */
import { randomBytes } from 'node:crypto';
import { Database } from '../../src/engine/database.js';
import { createServer } from '../../src/http/index.js';
import { VectorDB } from '../../src/index.js';
import type { DbFactory } from './factory.js';
import { tempDir } from './temp.js';

export const httpFactory: DbFactory = {
  name: 'http',
  async create(options = {}) {
    const dir = tempDir('vectordb-http-test-');
    const database = await Database.open(dir, options.limits ? { limits: options.limits } : {});
    const token = `VDBL:${randomBytes(16).toString('hex')}`;
    const server = createServer({ db: database, token, host: '127.0.0.1', port: 0, ...(options.limits ? { limits: options.limits } : {}) });
    try {
      await server.listen();
    } catch (error) {
      await database.close();
      throw error;
    }
    const db = new VectorDB(token, server.url);
    return {
      db,
      dir,
      async close() {
        await db.close();
        await server.close();
        await database.close();
      },
    };
  },
};
