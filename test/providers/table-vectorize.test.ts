/**
 * Vectorize on tables, in process, with the OpenAI-format server of ours (feature-hashing vectors): a vector
 * column's `service` in createTable (its dimension from the provider), text inserted into it embedded in one
 * batch, `{column: "text"}` sorts (refused on a column without a service), updateOne's `$set` of text, alterTable addVectorize / dropVectorize and their
 * errors, and a provider failure writing nothing.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorDB, type CommandResponse, type JsonObject } from '../../src/index.js';
import { hashVector, startEmbedServer, type EmbedServer } from '../support/embed-server.js';
import { tempDir } from '../support/temp.js';

const DIM = 8;
type Row = Record<string, unknown>;
const codeOf = (response: CommandResponse) => response.errors?.[0]?.errorCode;
const rowsOf = (response: CommandResponse) => (response.data as { documents: Row[] }).documents;
const near = (vector: number[]) => vector.map((x) => expect.closeTo(x, 6));

describe('vectorize on tables', () => {
  let server: EmbedServer;
  let db: VectorDB;

  beforeAll(async () => {
    server = await startEmbedServer(DIM);
    db = new VectorDB('t', path.join(tempDir('vectordb-table-embed-'), 'db'), 'default_keyspace', { embedders: { hashing: { url: server.url, dimension: DIM } } });
  });

  afterAll(async () => {
    await db.close();
    await server.close();
  });

  const onTable = (command: Row) => db.command(command as JsonObject, { collection: 'items' });

  it('a vectorize column: created with its provider, text embedded on insert and update, sorted by text', async () => {
    const created = await db.command({
      createTable: {
        name: 'items',
        definition: { columns: { id: 'text', body: 'text', v: { type: 'vector', service: { provider: 'hashing', modelName: 'm' } }, plain: { type: 'vector', dimension: 2 } }, primaryKey: 'id' },
      },
    });
    expect(codeOf(created)).toBeUndefined();
    const listed = await db.command({ listTables: { options: { explain: true } } });
    expect((listed.status!.tables as Row[])[0]).toMatchObject({ definition: { columns: { v: { type: 'vector', dimension: DIM, service: { provider: 'hashing', modelName: 'm' } } } } });
    await onTable({ createVectorIndex: { name: 'items_v', definition: { column: 'v' } } });
    server.requests.length = 0;
    const texts = ['apple pie', 'banana bread', 'cherry tart'];
    const inserted = await onTable({ insertMany: { documents: texts.map((t, i) => ({ id: `r${i}`, body: t, v: t })) } });
    expect(codeOf(inserted)).toBeUndefined();
    expect(server.requests.map((r) => r.body.input)).toEqual([texts]);
    const row = await onTable({ findOne: { filter: { id: 'r1' } } });
    expect((row.data as { document: Row }).document.v).toEqual(near(hashVector('banana bread', DIM)));
    const sorted = await onTable({ find: { sort: { v: 'banana' }, options: { limit: 2, includeSortVector: true } } });
    expect(rowsOf(sorted)[0]!.id).toBe('r1');
    expect(sorted.status!.sortVector).toEqual(near(hashVector('banana', DIM)));
    await onTable({ updateOne: { filter: { id: 'r0' }, update: { $set: { v: 'banana split' } } } });
    const updated = await onTable({ findOne: { filter: { id: 'r0' } } });
    expect((updated.data as { document: Row }).document.v).toEqual(near(hashVector('banana split', DIM)));
    // Text for a vector column without a service: the Data API's code, naming both kinds of column; nothing embedded or written.
    server.requests.length = 0;
    const refused = await onTable({ insertMany: { documents: [{ id: 'x1', v: 'fine' }, { id: 'x2', plain: 'text' }], options: { ordered: false } } });
    expect(codeOf(refused)).toBe('UNSUPPORTED_VECTORIZE_WHEN_MISSING_VECTORIZE_DEFINITION');
    expect(refused.errors![0]!.message).toContain('The table default_keyspace.items defines the vector columns with vectorize definition: v(vector).');
    expect(refused.errors![0]!.message).toContain('The command included the following vector columns without vectorize definition: plain.');
    expect(codeOf(await onTable({ updateOne: { filter: { id: 'r0' }, update: { $set: { plain: 'text' } } } }))).toBe('UNSUPPORTED_VECTORIZE_WHEN_MISSING_VECTORIZE_DEFINITION');
    // A text sort on it: the Data API's sort code, naming both kinds of column, nothing embedded.
    for (const sorting of [{ find: { sort: { plain: 'text' } } }, { findOne: { sort: { plain: 'text' } } }]) {
      const sortRefused = await onTable(sorting);
      expect(codeOf(sortRefused)).toBe('CANNOT_VECTORIZE_SORT_WHEN_MISSING_VECTORIZE_DEFINITION');
      expect(sortRefused.errors![0]!.message).toContain('The table default_keyspace.items defines the vector columns with vectorize definition: v(vector).');
      expect(sortRefused.errors![0]!.message).toContain('The command included the following vector columns without vectorize definition: plain.');
    }
    expect(server.requests).toEqual([]);
    expect(rowsOf(await onTable({ find: { filter: { id: { $in: ['x1', 'x2'] } } } }))).toEqual([]);
    // A wrong value that is not text keeps the column's own error.
    expect(codeOf(await onTable({ insertOne: { document: { id: 'x', plain: [1, 2, 3] } } }))).toBe('INVALID_COLUMN_VALUES');

    // A provider failing: nothing written.
    server.mode = 'http-500';
    try {
      expect(codeOf(await onTable({ insertMany: { documents: [{ id: 'f1', v: 'one' }, { id: 'f2', v: 'two' }] } }))).toBe('EMBEDDING_PROVIDER_SERVER_ERROR');
    } finally {
      server.mode = 'ok';
    }
    expect(rowsOf(await onTable({ find: { filter: { id: { $in: ['f1', 'f2'] } } } }))).toEqual([]);
  });

  it('alterTable addVectorize / dropVectorize, and their errors', async () => {
    await db.command({ createTable: { name: 'items2', definition: { columns: { id: 'text', v: { type: 'vector', dimension: DIM }, n: 'int' }, primaryKey: 'id' } } });
    const alter = (operation: Row) => db.command({ alterTable: { operation } } as JsonObject, { collection: 'items2' });
    expect(codeOf(await alter({ addVectorize: { columns: { v: { provider: 'hashing' } } } }))).toBeUndefined();
    expect(codeOf(await db.command({ insertOne: { document: { id: 'a', v: 'apple' } } }, { collection: 'items2' }))).toBeUndefined();
    expect(codeOf(await alter({ addVectorize: { columns: { nope: { provider: 'hashing' } } } }))).toBe('CANNOT_VECTORIZE_UNKNOWN_COLUMNS');
    expect(codeOf(await alter({ addVectorize: { columns: { n: { provider: 'hashing' } } } }))).toBe('CANNOT_VECTORIZE_NON_VECTOR_COLUMNS');
    expect(codeOf(await alter({ addVectorize: { columns: { v: { provider: 'missing' } } } }))).toBe('INVALID_VECTORIZE_FIELD_CONFIGURATION');
    expect(codeOf(await alter({ dropVectorize: { columns: ['n'] } }))).toBe('CANNOT_DROP_VECTORIZE_FROM_NON_VECTOR_COLUMNS');
    expect(codeOf(await alter({ dropVectorize: { columns: ['v'] } }))).toBeUndefined();
    const listed = await db.command({ listTables: { options: { explain: true } } });
    const items2 = (listed.status!.tables as { name: string; definition: { columns: Row } }[]).find((t) => t.name === 'items2')!;
    expect(items2.definition.columns.v).toEqual({ type: 'vector', dimension: DIM });
    // Without its service the column takes no text: the table now has no vectorize column at all.
    const refused = await db.command({ insertOne: { document: { id: 'b', v: 'banana' } } }, { collection: 'items2' });
    expect(codeOf(refused)).toBe('UNSUPPORTED_VECTORIZE_WHEN_MISSING_VECTORIZE_DEFINITION');
    expect(refused.errors![0]!.message).toContain('defines the vector columns with vectorize definition: [None].');
    const sortRefused = await db.command({ find: { sort: { v: 'banana' } } }, { collection: 'items2' });
    expect(codeOf(sortRefused)).toBe('CANNOT_VECTORIZE_SORT_WHEN_MISSING_VECTORIZE_DEFINITION');
    expect(sortRefused.errors![0]!.message).toContain('defines the vector columns with vectorize definition: [None].');
    // A vector sort on it is still answered.
    await db.command({ createVectorIndex: { name: 'items2_v', definition: { column: 'v' } } }, { collection: 'items2' });
    expect(rowsOf(await db.command({ find: { sort: { v: hashVector('apple', DIM) } } }, { collection: 'items2' })).map((r) => r.id)).toEqual(['a']);
  });
});
