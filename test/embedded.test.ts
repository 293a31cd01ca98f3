/**
 * Runs every shared suite (test/suite/) in-process: each test gets a fresh database in a temporary
 * directory from embeddedFactory (the int8 suite again on flatRowsFactory). test/http/shared-suites.test.ts runs the same suites over a real HTTP server.
 * Below them, the few behaviours only an embedded client can have (it knows its database's limits).
 */
import { describe, expect, it } from 'vitest';
import { embeddedFactory, flatRowsFactory } from './support/factory.js';
import { allSuites, vectorQuantizationSuite } from './suite/index.js';

allSuites(embeddedFactory);
// int8 rows are the native addon's under 'auto' when it is built: the FlatVectorStore's are checked too.
vectorQuantizationSuite(flatRowsFactory);

describe('embedded only: the client follows the limits its database was opened with', () => {
  it('insertMany without chunkSize chunks by the database insertMany limit', async () => {
    const { db, close } = await embeddedFactory.create({ limits: { maxInsertManyDocuments: 5 } });
    try {
      const collection = await db.createCollection('c');
      const docs = Array.from({ length: 12 }, (_, i) => ({ _id: i }));
      expect((await collection.insertMany(docs)).map((r) => r.id)).toEqual(docs.map((d) => d._id));
      expect(await collection.countDocuments()).toBe(12);
    } finally {
      await close();
    }
  });

  it('find pages follow the database page size', async () => {
    const { db, close } = await embeddedFactory.create({ limits: { pageSize: 7 } });
    try {
      await db.command({ createCollection: { name: 'c' } }, { keyspace: 'default_keyspace' });
      await db.command({ insertMany: { documents: Array.from({ length: 16 }, (_, i) => ({ _id: i })) } }, { collection: 'c' });
      const first = await db.command({ find: {} }, { collection: 'c' });
      const data = first.data as { documents: unknown[]; nextPageState: string | null };
      expect(data.documents).toHaveLength(7);
      expect(typeof data.nextPageState).toBe('string');
      expect(await (await db.collection('c')).find().toArray()).toHaveLength(16);
    } finally {
      await close();
    }
  });
});
