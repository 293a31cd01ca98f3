/**
 * GraphQL sees every field, whichever API wrote it: a field inserted with astra-db-ts over the real HTTP Data API
 * is in the collection's GraphQL type at the next request, is still there after a restart without any new write,
 * and widens to JSON when seen with two types. The engine's field record (findCollectionFields) is what the schema
 * is built from: each request asks only for its generation (no document read), and a database written before the
 * record existed gets one built from its documents at first use.
 */
import { DataAPIClient } from '@datastax/astra-db-ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { executeCommand, type CommandResponse } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import { repairDirectory } from '../../src/engine/database-files.js';
import { GraphqlService } from '../../src/graphql/index.js';
import { keys } from '../../src/storage/index.js';
import { serve, type Served } from '../http/helpers.js';
import { tempDir } from '../support/temp.js';

const KS = 'default_keyspace';

async function gql(s: Served, query: string): Promise<{ data?: any; errors?: any[] }> {
  const response = await fetch(`${s.url}/api/graphql/${KS}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: s.token },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: any; errors?: any[] };
}

/** The collection type's fields as `name: type` (a list type as `[T]`). */
async function typeFields(s: Served, collection: string): Promise<Record<string, string>> {
  const reply = await gql(s, `{ __type(name: "${collection}") { fields { name type { kind name ofType { name } } } } }`);
  expect(reply.errors).toBeUndefined();
  return Object.fromEntries(reply.data.__type.fields.map((f: any) => [f.name, f.type.kind === 'LIST' ? `[${f.type.ofType.name}]` : (f.type.name ?? f.type.ofType?.name)]));
}

describe('fields written over the Data API, seen by GraphQL', () => {
  let s: Served;
  let client: DataAPIClient;
  const dir = tempDir('vectordb-gql-fields-');

  beforeAll(async () => {
    s = await serve({ dir });
    client = new DataAPIClient(s.token, { environment: 'dse' });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  test('a field inserted with astra-db-ts is in the GraphQL type at the next request, and survives a restart', async () => {
    const db = client.db(s.url, { keyspace: KS });
    const books = await db.createCollection('books');
    await books.insertOne({ _id: 'b1', title: 'Moby Dick' });
    expect(Object.keys(await typeFields(s, 'books'))).not.toContain('pages');

    await books.insertOne({ _id: 'b2', title: 'Dune', pages: 412, tags: ['sf', 'classic'] });
    const fields = await typeFields(s, 'books');
    expect(fields).toMatchObject({ title: 'String', pages: 'Float', tags: '[String]' });
    const read = await gql(s, '{ books(filter: {pages: {gt: 100}}) { values { _id title pages tags } } }');
    expect(read).toEqual({ data: { books: { values: [{ _id: 'b2', title: 'Dune', pages: 412, tags: ['sf', 'classic'] }] } } });

    // A new process's view: close everything, open the same directory, no write.
    await client.close();
    await s.close();
    s = await serve({ dir });
    client = new DataAPIClient(s.token, { environment: 'dse' });
    expect(await typeFields(s, 'books')).toMatchObject({ title: 'String', pages: 'Float', tags: '[String]' });
  });

  test('a field seen with two types widens to JSON with a warning; a deleted field stays (widen-only)', async () => {
    const db = client.db(s.url, { keyspace: KS });
    const notes = await db.createCollection('notes');
    await notes.insertOne({ _id: 'n1', rank: 3, gone: true });
    expect(await typeFields(s, 'notes')).toMatchObject({ rank: 'Float', gone: 'Boolean' });
    await notes.insertOne({ _id: 'n2', rank: 'third' });
    await notes.deleteOne({ _id: 'n1' });
    const fields = await typeFields(s, 'notes');
    expect(fields).toMatchObject({ rank: 'JSON', gone: 'Boolean' });
    const warnings = await gql(s, '{ conversionWarnings }');
    expect(warnings.data.conversionWarnings).toContain("Collection 'notes': field 'rank' is JSON: seen both as String and as Float.");
  });
});

/** Runs `fn` on a database opened on `dir` (a new one by default), closed after. */
async function withDatabase(fn: (db: Database) => Promise<void>, dir = tempDir('vectordb-gql-fields-')): Promise<void> {
  const db = await Database.open(dir);
  try {
    await fn(db);
  } finally {
    await db.close();
  }
}

describe('the field record in the engine', () => {
  test('each GraphQL request asks for generations only: the same commands, no find, whatever the documents', async () => {
    await withDatabase(async (db) => {
      await executeCommand(db, { createCollection: { name: 'items' } }, { keyspace: KS });
      const insert = (document: Record<string, unknown>) => executeCommand(db, { insertOne: { document } }, { keyspace: KS, collection: 'items' });
      await insert({ _id: 'i0', name: 'first' });
      const ran: string[] = [];
      const answers: CommandResponse[] = [];
      const service = new GraphqlService(async (command, target) => {
        ran.push(Object.keys(command)[0]!);
        const answer = await executeCommand(db, command, target);
        if ('findCollectionFields' in command) answers.push(answer);
        return answer;
      });
      const request = async (): Promise<string[]> => {
        ran.length = 0;
        const reply = await service.execute({ query: '{ __type(name: "items") { fields { name } } }' }, KS);
        expect(reply.errors).toBeUndefined();
        return [...ran];
      };
      await request(); // builds the schema
      const quiet = await request();
      expect(quiet).toEqual(['findCollections', 'listTables', 'findCollectionFields']);
      for (let i = 1; i <= 30; i++) await insert({ _id: `i${i}`, name: `n${i}` });
      expect(await request()).toEqual(quiet);
      // Unchanged generation: the answer carries no fields, only the collection's id and the generation.
      const id = db.collection(KS, 'items').record.cid;
      expect((answers.at(-1)!.status!.collections as any[])[0]).toEqual({ name: 'items', id, generation: 1 });
      await insert({ _id: 'i99', price: 9.5 });
      expect(await request()).toEqual(quiet);
      expect((answers.at(-1)!.status!.collections as any[])[0]).toEqual({ name: 'items', id, generation: 2, fields: { name: ['string'], price: ['number'] } });
    });
  });

  test('a database without a field record (written by an earlier build) gets one built from its documents', async () => {
    const dir = tempDir('vectordb-gql-fields-');
    let db = await Database.open(dir);
    await executeCommand(db, { createCollection: { name: 'old', options: { vector: { dimension: 2 } } } }, { keyspace: KS });
    await executeCommand(
      db,
      { insertMany: { documents: [{ _id: 1, a: 'x', $vector: [1, 0] }, { _id: 2, a: 5, when: { $date: 0 }, list: [] }, { _id: 3, big: 12345678901234567890123n }] } },
      { keyspace: KS, collection: 'old' },
    );
    // What a build before the record left: no fld: key at all.
    await db.kvStore.clearRange('fld:', `fld:${keys.HIGH}`);
    await db.close();
    db = await Database.open(dir);
    try {
      const answer = await executeCommand(db, { findCollectionFields: {} }, { keyspace: KS });
      expect(answer.errors).toBeUndefined();
      expect(answer.status!.collections).toEqual([
        { name: 'old', id: db.collection(KS, 'old').record.cid, generation: 6, fields: { $vector: ['vector'], a: ['string', 'number'], big: ['exact-number'], list: ['empty-list'], when: ['ejson'] } },
      ]);
      // Built once and marked complete: the next open reads it as it is.
      await db.close();
      db = await Database.open(dir);
      const id = db.collection(KS, 'old').record.cid;
      const again = await executeCommand(db, { findCollectionFields: { options: { known: { old: { id, generation: 6 } } } } }, { keyspace: KS });
      expect(again.status!.collections).toEqual([{ name: 'old', id, generation: 6 }]);
      expect(await db.kvStore.getString('fld:' + keys.cidText(db.collection(KS, 'old').record.cid))).toBe('1');
    } finally {
      await db.close();
    }
  });

  test('against a Data API without findCollectionFields, fields are sampled from documents and learnt from GraphQL writes', async () => {
    await withDatabase(async (db) => {
      await executeCommand(db, { createCollection: { name: 'plain' } }, { keyspace: KS });
      await executeCommand(db, { insertOne: { document: { _id: 1, sampled: 'yes' } } }, { keyspace: KS, collection: 'plain' });
      const service = new GraphqlService(async (command, target) =>
        'findCollectionFields' in command
          ? { errors: [{ errorCode: 'COMMAND_UNKNOWN', message: 'unknown', family: 'REQUEST', scope: '', title: 'Command not recognised', id: '' }] }
          : executeCommand(db, command, target),
      );
      const names = async (): Promise<string[]> => {
        const reply = await service.execute({ query: '{ __type(name: "plain") { fields { name } } }' }, KS);
        expect(reply.errors).toBeUndefined();
        return (reply.data as any).__type.fields.map((f: any) => f.name);
      };
      expect(await names()).toContain('sampled');
      const inserted = await service.execute({ query: 'mutation { insertplain(document: {_id: "2", learnt: true}) { applied } }' }, KS);
      expect(inserted.errors).toBeUndefined();
      expect(await names()).toContain('learnt');
    });
  });

  test('dropping a collection drops its record; findCollectionFields checks its options', async () => {
    await withDatabase(async (db) => {
      await executeCommand(db, { createCollection: { name: 'temp' } }, { keyspace: KS });
      await executeCommand(db, { insertOne: { document: { _id: 1, x: 1 } } }, { keyspace: KS, collection: 'temp' });
      const cid = db.collection(KS, 'temp').record.cid;
      expect((await executeCommand(db, { findCollectionFields: {} }, { keyspace: KS })).status!.collections).toEqual([{ name: 'temp', id: cid, generation: 1, fields: { x: ['number'] } }]);
      await executeCommand(db, { deleteCollection: { name: 'temp' } }, { keyspace: KS });
      const left: string[] = [];
      for await (const key of db.kvStore.keys({ gte: keys.fieldRecordKey(cid), lt: keys.fieldRecordKey(cid) + keys.HIGH })) left.push(key);
      expect(left).toEqual([]);
      const bad = await executeCommand(db, { findCollectionFields: { options: { know: {} } } }, { keyspace: KS });
      expect(bad.errors?.[0]?.errorCode).toBe('COMMAND_FIELD_UNKNOWN');
    });
  });

  test('a collection dropped and created again under its name between two requests: its own fields, same generation or not', async () => {
    await withDatabase(async (db) => {
      const service = new GraphqlService((command, target) => executeCommand(db, command, target));
      const fieldNames = async (): Promise<string[]> => {
        const reply = await service.execute({ query: '{ __type(name: "notes") { fields { name } } }' }, KS);
        expect(reply.errors).toBeUndefined();
        return (reply.data as any).__type.fields.map((f: any) => f.name).filter((name: string) => name === 'before' || name === 'after');
      };
      const create = async (document: Record<string, unknown>) => {
        await executeCommand(db, { createCollection: { name: 'notes' } }, { keyspace: KS });
        expect((await executeCommand(db, { insertOne: { document } }, { keyspace: KS, collection: 'notes' })).errors).toBeUndefined();
      };
      await create({ _id: 1, before: 'text' });
      const first = db.collection(KS, 'notes').record.cid;
      expect(await fieldNames()).toEqual(['before']);
      // The same options (the same findCollections answer) and as many (field, kind) pairs: one generation.
      await executeCommand(db, { deleteCollection: { name: 'notes' } }, { keyspace: KS });
      await create({ _id: 1, after: 'text' });
      expect(db.collection(KS, 'notes').record.cid).not.toBe(first);
      expect(await fieldNames()).toEqual(['after']);
      const answer = await executeCommand(db, { findCollectionFields: { options: { known: { notes: { id: first, generation: 1 } } } } }, { keyspace: KS });
      expect(answer.status!.collections).toEqual([{ name: 'notes', id: db.collection(KS, 'notes').record.cid, generation: 1, fields: { after: ['string'] } }]);
    });
  });

  test('verify reports a field the record lacks; repair builds the record again from the bodies', async () => {
    const dir = tempDir('vectordb-gql-fields-');
    const db = await Database.open(dir);
    try {
      await executeCommand(db, { createCollection: { name: 'kept' } }, { keyspace: KS });
      await executeCommand(db, { insertMany: { documents: [{ _id: 1, a: 'x' }, { _id: 2, b: [true] }] } }, { keyspace: KS, collection: 'kept' });
      expect((await db.verify()).ok).toBe(true);
      const cid = db.collection(KS, 'kept').record.cid;
      await db.kvStore.batch([{ type: 'del', key: keys.fieldKindKey(cid, 'b', 'list-of-boolean') }]);
      const report = await db.verify();
      expect(report.problems).toEqual([{ kind: 'field-kind-missing', where: expect.stringContaining('2'), detail: 'field "b" of kind list-of-boolean' }]);
    } finally {
      await db.close();
    }
    const repaired = await repairDirectory(dir, { backup: false });
    expect(repaired.verify.ok).toBe(true);
    const reopened = await Database.open(dir);
    try {
      const answer = await executeCommand(reopened, { findCollectionFields: {} }, { keyspace: KS });
      expect(answer.status!.collections).toEqual([{ name: 'kept', id: reopened.collection(KS, 'kept').record.cid, generation: 2, fields: { a: ['string'], b: ['list-of-boolean'] } }]);
    } finally {
      await reopened.close();
    }
  });
});
