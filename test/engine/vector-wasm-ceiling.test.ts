/**
 * A wasm collection that outgrows the WebAssembly heaps it may have (issue 31): reached here with one heap
 * (VECTORDB_WASM_HEAPS) whose ceiling is lowered by VECTORDB_WASM_HEAP_BYTES (the real one takes ~600k
 * vectors of 768 dimensions per heap, and a graph spreads over as many heaps as the process can have). Its vector
 * searches, and other vector collections then, are answered with the coded VECTOR_INDEX_CAPACITY error,
 * never a crash, a hang or an unhandled rejection; what was acknowledged stays readable, and a reopen
 * with the real ceiling builds the graph.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../src/commands/index.js';
import { Database } from '../../src/engine/database.js';
import type { JsonObject } from '../../src/query/json.js';
import { WASM_HEAP_ENV, WASM_HEAPS_ENV, wasmBytesPerElement } from '../../src/vector-index/wasm-capacity.js';
import { tempDir } from '../support/temp.js';
import { clustered } from '../vector-index/data.js';

const KS = { keyspace: 'default_keyspace' };
const DIM = 64;
/** Room for about this many vectors beside the runtime's reserve (96 MiB). */
const ROOM = 1500;
const dir = tempDir();
let db: Database;

const open = (): Promise<Database> => Database.open(dir, { limits: { maxInsertManyDocuments: 100 }, vectorBackend: 'wasm' });

async function command(collection: string, body: JsonObject): Promise<JsonObject> {
  return (await executeCommand(db, body, { ...KS, collection })) as unknown as JsonObject;
}

const errorCodes = (response: JsonObject): unknown[] => ((response.errors as JsonObject[] | undefined) ?? []).map((e) => e.errorCode);

beforeAll(async () => {
  process.env[WASM_HEAP_ENV] = String(96 * 2 ** 20 + ROOM * wasmBytesPerElement(DIM, 16));
  process.env[WASM_HEAPS_ENV] = '1';
  db = await open();
});

afterAll(async () => {
  delete process.env[WASM_HEAP_ENV];
  delete process.env[WASM_HEAPS_ENV];
  await db.close();
});

describe('the wasm heap ceiling', () => {
  it('answers with VECTOR_INDEX_CAPACITY once a collection cannot fit, and nothing else breaks', async () => {
    await executeCommand(db, { createCollection: { name: 'big', options: { vector: { dimension: DIM, metric: 'cosine' } } } }, KS);
    const vectors = clustered(5, 3 * ROOM, DIM);
    const codes: unknown[] = [];
    let acknowledged = 0;
    for (let i = 0; i < 3 * ROOM; i += 100) {
      const documents = [];
      for (let j = i; j < i + 100; j++) documents.push({ _id: j, $vector: Array.from(vectors.subarray(j * DIM, (j + 1) * DIM)) });
      const response = await command('big', { insertMany: { documents } });
      codes.push(...errorCodes(response));
      acknowledged += ((response.status as JsonObject).insertedIds as unknown[]).length;
    }
    const query = Array.from(vectors.subarray(0, DIM));
    const found = await command('big', { find: { sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 3 } } });
    // Inserts are acknowledged (the graph catches up in the background); its failure is reported by every
    // vector search from then on.
    expect([codes, acknowledged]).toEqual([[], 3 * ROOM]);
    expect(errorCodes(found)).toEqual(['VECTOR_INDEX_CAPACITY']);
    const message = String((found.errors as JsonObject[])[0]!.message);
    expect(message).toMatch(/hnswlib-wasm.*'default_keyspace\.big'.*64 dimensions.*VECTORDB_WASM_HEAPS.*VECTORDB_WASM_HEAP_BYTES/);
    // What was acknowledged is stored and readable without the graph.
    const last = await command('big', { findOne: { filter: { _id: 3 * ROOM - 1 }, projection: { $vector: 1 } } });
    expect(((last.data as JsonObject).document as JsonObject).$vector).toHaveLength(DIM);
    // Every wasm index of the process shares the heaps: another vector collection is refused too, with the
    // same code (never an unhandled rejection); one without vectors works.
    await executeCommand(db, { createCollection: { name: 'small', options: { vector: { dimension: 4, metric: 'cosine' } } } }, KS);
    const small = await command('small', { find: { sort: { $vector: [1, 0.1, 0, 0] }, projection: { _id: 1 }, options: { limit: 1 } } });
    expect(errorCodes(small)).toEqual(['VECTOR_INDEX_CAPACITY']);
    const refused = await command('small', { insertOne: { document: { _id: 'a', $vector: [1, 0, 0, 0] } } });
    expect(errorCodes(refused)).toEqual(['VECTOR_INDEX_CAPACITY']);
    await executeCommand(db, { createCollection: { name: 'plain' } }, KS);
    await command('plain', { insertOne: { document: { _id: 'a', n: 1 } } });
    expect(((await command('plain', { findOne: { filter: { _id: 'a' } } })).data as JsonObject).document).toEqual({ _id: 'a', n: 1 });
  });

  it('with the real ceiling again, the reopened collection builds and answers', async () => {
    await db.close();
    delete process.env[WASM_HEAP_ENV];
    delete process.env[WASM_HEAPS_ENV];
    db = await open();
    const query = Array.from(clustered(5, 1, DIM));
    const found = await command('big', { find: { sort: { $vector: query }, projection: { _id: 1 }, options: { limit: 1 } } });
    expect(found.errors).toBeUndefined();
    expect((found.data as JsonObject).documents).toEqual([{ _id: 0 }]);
    await command('small', { insertOne: { document: { _id: 'a', $vector: [1, 0, 0, 0] } } });
    const small = await command('small', { find: { sort: { $vector: [1, 0.1, 0, 0] }, projection: { _id: 1 }, options: { limit: 1 } } });
    expect((small.data as JsonObject).documents).toEqual([{ _id: 'a' }]);
  });
});
