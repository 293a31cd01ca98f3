/**
 * Persistence across close and reopen, in-process: keyspaces, collection definitions, documents (every id form,
 * EJSON, both $vector forms), updates and deletes, dropped collections, and secondary indexes that still answer
 * filters exactly like a full scan. Also the lifecycle around close: idempotent, use after close refused, and
 * acknowledged writes racing a close are kept.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VectorDB, type CommandResponse, type JsonObject } from '../../src/index.js';
import { tempDir } from '../support/temp.js';
import { DEFAULT_HYBRID_OPTIONS } from '../suite/lexical.js';

const KS = 'default_keyspace';
type Doc = Record<string, unknown>;

function binaryVector(values: readonly number[]): { $binary: string } {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => bytes.writeFloatBE(v, i * 4));
  return { $binary: bytes.toString('base64') };
}

const cmd = (db: VectorDB, command: unknown, target: { keyspace?: string | null; collection?: string } = { keyspace: null }): Promise<CommandResponse> =>
  db.command(command as JsonObject, target);

async function ok(db: VectorDB, command: unknown, target: { keyspace?: string | null; collection?: string } = { keyspace: null }): Promise<CommandResponse> {
  const response = await cmd(db, command, target);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response;
}

async function findAll(db: VectorDB, target: { keyspace?: string; collection: string }, body: Doc = {}): Promise<Doc[]> {
  const all: Doc[] = [];
  let pageState: string | null = null;
  do {
    const response = await ok(db, { find: { ...body, options: pageState ? { pageState } : {} } }, target);
    const data = response.data as { documents: Doc[]; nextPageState: string | null };
    all.push(...data.documents);
    pageState = data.nextPageState;
  } while (pageState !== null);
  return all;
}

const byId = (docs: readonly Doc[]): Doc[] => [...docs].sort((a, b) => JSON.stringify(a._id).localeCompare(JSON.stringify(b._id)));

const UUID = '123e4567-e89b-12d3-a456-426614174000';
const OBJECT_ID = '507f1f77bcf86cd799439011';
const ITEMS: Doc[] = [
  ...Array.from({ length: 57 }, (_, i) => ({
    _id: `item-${String(i).padStart(3, '0')}`,
    n: i,
    price: i * 1.25 - 10,
    color: ['red', 'green', 'blue'][i % 3],
    tags: i % 4 === 0 ? ['sale', 'new'] : ['new'],
    dims: { w: i % 5, h: 10 - (i % 5) },
    when: { $date: 1_600_000_000_000 + i * 86_400_000 },
    ...(i % 6 === 0 ? { note: null } : {}),
  })),
  { _id: 42, kind: 'number id' },
  { _id: true, kind: 'boolean id' },
  { _id: { $uuid: UUID }, kind: 'uuid id', ref: { $objectId: OBJECT_ID } },
  { _id: { $objectId: OBJECT_ID }, kind: 'objectId id' },
  { _id: { $date: 1_000 }, kind: 'date id' },
];
const VECTORS: Doc[] = [
  { _id: 'v1', $vector: [0.1, 0.2, 0.3], label: 'array' },
  { _id: 'v2', $vector: binaryVector([0.5, -0.5, 1]), label: 'binary' },
  { _id: 'v3', label: 'no vector' },
];

/** Filters checked against a full scan: [filter, predicate on the scanned documents]. */
const FILTERS: [Doc, (d: Doc) => boolean][] = [
  [{ color: 'red' }, (d) => d.color === 'red'],
  [{ n: { $gte: 50 } }, (d) => typeof d.n === 'number' && d.n >= 50],
  [{ price: { $lt: 0 } }, (d) => typeof d.price === 'number' && d.price < 0],
  [{ 'dims.w': 3 }, (d) => (d.dims as { w?: number } | undefined)?.w === 3],
  [{ tags: 'sale' }, (d) => Array.isArray(d.tags) && d.tags.includes('sale')],
  [{ note: null }, (d) => 'note' in d && d.note === null],
  [{ note: { $exists: true } }, (d) => 'note' in d],
  [{ kind: { $in: ['uuid id', 'date id'] } }, (d) => d.kind === 'uuid id' || d.kind === 'date id'],
  [{ when: { $lt: { $date: 1_600_000_000_000 + 5 * 86_400_000 } } }, (d) => ((d.when as { $date?: number } | undefined)?.$date ?? Infinity) < 1_600_000_000_000 + 5 * 86_400_000],
  [{ ref: OBJECT_ID }, (d) => (d.ref as { $objectId?: string } | undefined)?.$objectId === OBJECT_ID],
  [{ $or: [{ color: 'blue' }, { n: { $lt: 3 } }] }, (d) => d.color === 'blue' || (typeof d.n === 'number' && d.n < 3)],
];

async function expectIndexesMatchScan(db: VectorDB, collection: string): Promise<void> {
  const scan = await findAll(db, { collection });
  for (const [filter, predicate] of FILTERS) {
    const expected = byId(scan.filter(predicate));
    expect(byId(await findAll(db, { collection }, { filter })), JSON.stringify(filter)).toEqual(expected);
    expect(await cmd(db, { countDocuments: { filter } }, { collection })).toEqual({ status: { count: expected.length } });
  }
}

describe('persistence across close and reopen', () => {
  it('keeps keyspaces, collections, documents, changes and indexes', async () => {
    const dir = tempDir();
    const first = new VectorDB('token', dir);
    await ok(first, { createKeyspace: { name: 'shop' } });
    await ok(first, { createKeyspace: { name: 'doomed' } });
    await ok(first, { createCollection: { name: 'items', options: { indexing: { deny: ['secret'] }, defaultId: { type: 'objectId' } } } }, { keyspace: KS });
    await ok(first, { createCollection: { name: 'vecs', options: { vector: { dimension: 3, metric: 'euclidean' } } } }, { keyspace: 'shop' });
    await ok(first, { createCollection: { name: 'dropped' } }, { keyspace: KS });
    await ok(first, { createCollection: { name: 'lost' } }, { keyspace: 'doomed' });
    for (let i = 0; i < ITEMS.length; i += 20) await ok(first, { insertMany: { documents: ITEMS.slice(i, i + 20) } }, { collection: 'items' });
    await ok(first, { insertMany: { documents: VECTORS } }, { keyspace: 'shop', collection: 'vecs' });
    await ok(first, { insertOne: { document: { _id: 'x', secret: 's' } } }, { collection: 'dropped' });
    const generated = (await ok(first, { insertOne: { document: { made: 'here', secret: 'not indexed' } } }, { collection: 'items' })).status!.insertedIds as unknown[];
    // Changes that must persist too.
    await ok(first, { updateMany: { filter: { color: 'green' }, update: { $set: { restocked: true }, $inc: { n: 1000 } } } }, { collection: 'items' });
    await ok(first, { deleteMany: { filter: { color: 'blue', n: { $lt: 30 } } } }, { collection: 'items' });
    await ok(first, { findOneAndReplace: { filter: { _id: 42 }, replacement: { kind: 'replaced' } } }, { collection: 'items' });
    await ok(first, { deleteCollection: { name: 'dropped' } }, { keyspace: KS });
    await ok(first, { dropKeyspace: { name: 'doomed' } });

    const keyspacesBefore = await ok(first, { findKeyspaces: {} });
    const collectionsBefore = await ok(first, { findCollections: { options: { explain: true } } }, { keyspace: KS });
    const shopBefore = await ok(first, { findCollections: { options: { explain: true } } }, { keyspace: 'shop' });
    const itemsBefore = byId(await findAll(first, { collection: 'items' }, { projection: { '*': 1 } }));
    const vecsBefore = byId(await findAll(first, { keyspace: 'shop', collection: 'vecs' }, { projection: { '*': 1 } }));
    expect(itemsBefore.find((d) => d._id === 42)).toEqual({ _id: 42, kind: 'replaced' });
    expect(itemsBefore.some((d) => d.restocked === true)).toBe(true);
    await first.close();

    // Reopen through a file: URL this time.
    const second = new VectorDB('token', pathToFileURL(dir).href);
    expect(await cmd(second, { findKeyspaces: {} })).toEqual(keyspacesBefore);
    expect([...((keyspacesBefore.status!.keyspaces as string[]) ?? [])].sort()).toEqual([KS, 'shop']);
    expect(await cmd(second, { findCollections: { options: { explain: true } } }, { keyspace: KS })).toEqual(collectionsBefore);
    expect(collectionsBefore.status!.collections).toEqual([{ name: 'items', options: { ...DEFAULT_HYBRID_OPTIONS, indexing: { deny: ['secret'] }, defaultId: { type: 'objectId' } } }]);
    expect(await cmd(second, { findCollections: { options: { explain: true } } }, { keyspace: 'shop' })).toEqual(shopBefore);

    const itemsAfter = byId(await findAll(second, { collection: 'items' }, { projection: { '*': 1 } }));
    expect(itemsAfter).toEqual(itemsBefore);
    for (const doc of itemsAfter) expect(Object.keys(doc)[0]).toBe('_id');
    expect(byId(await findAll(second, { keyspace: 'shop', collection: 'vecs' }, { projection: { '*': 1 } }))).toEqual(vecsBefore);
    expect(vecsBefore).toEqual(byId(VECTORS));
    expect(await cmd(second, { findOne: { filter: { _id: generated[0] } } }, { collection: 'items' })).toEqual({
      data: { document: { _id: generated[0], made: 'here', secret: 'not indexed' } },
    });

    // Dropped things stay dropped, and the names are free again with no old data.
    expect((await cmd(second, { find: {} }, { collection: 'dropped' })).errors![0]!.errorCode).toBe('UNKNOWN_COLLECTION_OR_TABLE');
    expect((await cmd(second, { findCollections: {} }, { keyspace: 'doomed' })).errors![0]!.errorCode).toBe('UNKNOWN_KEYSPACE');
    await ok(second, { createCollection: { name: 'dropped' } }, { keyspace: KS });
    expect(await cmd(second, { find: {} }, { collection: 'dropped' })).toEqual({ data: { documents: [], nextPageState: null } });

    // Indexes answer like a full scan; the collection definition still rules (defaultId, indexing).
    await expectIndexesMatchScan(second, 'items');
    expect((await cmd(second, { find: { filter: { secret: 's' } } }, { collection: 'items' })).errors![0]!.errorCode).toBe('FILTER_PATH_UNINDEXED');
    const newId = (await ok(second, { insertOne: { document: { color: 'red', n: -1 } } }, { collection: 'items' })).status!.insertedIds as unknown[];
    expect(Object.keys(newId[0] as object)).toEqual(['$objectId']);
    expectError(await cmd(second, { insertOne: { document: { _id: 'item-000' } } }, { collection: 'items' }), 'DOCUMENT_ALREADY_EXISTS');
    expectError(await cmd(second, { insertOne: { document: { _id: 'bad', $vector: [1, 2] } } }, { keyspace: 'shop', collection: 'vecs' }), 'INVALID_VECTOR_LENGTH');
    expectError(await cmd(second, { createCollection: { name: 'vecs', options: { vector: { dimension: 4 } } } }, { keyspace: 'shop' }), 'EXISTING_COLLECTION_DIFFERENT_SETTINGS');

    // A vector sort still sees the stored vectors (euclidean: v1 is nearest to itself).
    const nearest = await ok(second, { find: { sort: { $vector: [0.1, 0.2, 0.3] }, options: { limit: 2 } } }, { keyspace: 'shop', collection: 'vecs' });
    expect((nearest.data as { documents: Doc[] }).documents.map((d) => d._id)).toEqual(['v1', 'v2']);

    // Writes after the reopen persist through a third opening as well.
    await ok(second, { updateOne: { filter: { _id: 'item-001' }, update: { $set: { third: true } } } }, { collection: 'items' });
    await second.close();
    const third = new VectorDB('token', dir);
    expect(await cmd(third, { findOne: { filter: { third: true }, projection: { third: 1 } } }, { collection: 'items' })).toEqual({
      data: { document: { _id: 'item-001', third: true } },
    });
    expect(await cmd(third, { findCollections: {} }, { keyspace: KS })).toEqual({ status: { collections: ['dropped', 'items'] } });
    await expectIndexesMatchScan(third, 'items');
    await third.close();
  });

  it('the collection limit counts collections found on disk', async () => {
    const dir = tempDir();
    const first = new VectorDB('token', dir);
    for (const name of ['a', 'b', 'c', 'd', 'e']) await ok(first, { createCollection: { name } }, { keyspace: KS });
    await first.close();
    const second = new VectorDB('token', dir);
    expectError(await cmd(second, { createCollection: { name: 'f' } }, { keyspace: KS }), 'TOO_MANY_COLLECTIONS');
    await second.close();
  });

  it('a collection created after reopening never sees data of older collections', async () => {
    const dir = tempDir();
    const first = new VectorDB('token', dir);
    await ok(first, { createCollection: { name: 'old' } }, { keyspace: KS });
    await ok(first, { insertOne: { document: { _id: 1, v: 'old' } } }, { collection: 'old' });
    await first.close();
    const second = new VectorDB('token', dir);
    await ok(second, { createCollection: { name: 'young' } }, { keyspace: KS });
    expect(await cmd(second, { find: {} }, { collection: 'young' })).toEqual({ data: { documents: [], nextPageState: null } });
    await ok(second, { insertOne: { document: { _id: 1, v: 'young' } } }, { collection: 'young' });
    expect(await cmd(second, { find: {} }, { collection: 'old' })).toEqual({ data: { documents: [{ _id: 1, v: 'old' }], nextPageState: null } });
    await second.close();
    const third = new VectorDB('token', dir);
    expect(await cmd(third, { find: { filter: { v: 'young' } } }, { collection: 'young' })).toEqual({ data: { documents: [{ _id: 1, v: 'young' }], nextPageState: null } });
    expect(await cmd(third, { find: { filter: { v: 'young' } } }, { collection: 'old' })).toEqual({ data: { documents: [], nextPageState: null } });
    await third.close();
  });
});

describe('lifecycle around close', () => {
  it('close is idempotent; commands after close are refused with DATABASE_NOT_OPEN', async () => {
    const db = new VectorDB('token', tempDir());
    await db.connect();
    // Answered from the open database (no await for it), then refused once closed.
    expect((await db.command({ findKeyspaces: {} }, { keyspace: null })).status).toEqual({ keyspaces: ['default_keyspace'] });
    await db.close();
    await db.close();
    const error = await db.command({ findKeyspaces: {} }, { keyspace: null }).then(
      (response) => response.errors?.[0],
      (e: unknown) => e,
    );
    expect((error as { errorCode?: string }).errorCode).toBe('DATABASE_NOT_OPEN');
  });

  it('two VectorDB objects in one process share a directory; closing one leaves the other working', async () => {
    const dir = tempDir();
    const a = new VectorDB('token', dir);
    const b = new VectorDB('token', dir);
    await ok(a, { createCollection: { name: 'c' } }, { keyspace: KS });
    await ok(b, { insertOne: { document: { _id: 'from-b' } } }, { collection: 'c' });
    expect(await cmd(a, { find: {} }, { collection: 'c' })).toEqual({ data: { documents: [{ _id: 'from-b' }], nextPageState: null } });
    await a.close();
    await ok(b, { insertOne: { document: { _id: 'after-a-closed' } } }, { collection: 'c' });
    await b.close();
    const c = new VectorDB('token', dir);
    expect(await cmd(c, { countDocuments: { filter: {} } }, { collection: 'c' })).toEqual({ status: { count: 2 } });
    await c.close();
  });

  it('writes acknowledged while close() runs are all there after reopening', async () => {
    const dir = tempDir();
    const db = new VectorDB('token', dir);
    await ok(db, { createCollection: { name: 'c' } }, { keyspace: KS });
    const writes = Array.from({ length: 60 }, (_, i) =>
      cmd(db, { insertOne: { document: { _id: i, v: `value-${i}` } } }, { collection: 'c' }).then(
        (response) => (response.errors ? undefined : i),
        () => undefined,
      ),
    );
    const closing = db.close();
    const acknowledged = (await Promise.all(writes)).filter((i): i is number => i !== undefined);
    await closing;
    const reopened = new VectorDB('token', dir);
    const all = await findAll(reopened, { collection: 'c' });
    for (const i of acknowledged) expect(all).toContainEqual({ _id: i, v: `value-${i}` });
    for (const doc of all) expect(doc).toEqual({ _id: doc._id, v: `value-${doc._id as number}` });
    await reopened.close();
  });
});

function expectError(response: CommandResponse, code: string): void {
  expect(response.errors?.[0]?.errorCode, JSON.stringify(response)).toBe(code);
}
