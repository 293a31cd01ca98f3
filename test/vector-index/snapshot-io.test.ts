/**
 * How index bytes leave and enter the backends without holding the event loop: hnswlib-wasm's files
 * go through our by-reference IndexedDB (never a host's global one), its MEMFS growth is patched,
 * and an index refuses changes while it is being serialized (hnswlib-node writes it from a worker
 * thread). Small data; no timing assertions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createVectorIndex, loadVectorIndex, nativeBackendAvailable, type BackendName } from '../../src/vector-index/index-backend.js';
import { MemoryIndexedDb, type MemoryDatabase, type MemoryRequest } from '../../src/vector-index/memory-idb.js';
import { clustered, row } from './data.js';

const nativeOk = await nativeBackendAvailable();
const backends: BackendName[] = nativeOk ? ['wasm', 'native'] : ['wasm'];

function settle<T>(request: MemoryRequest<T>): Promise<T> {
  return new Promise((resolve) => {
    request.onsuccess = () => resolve(request.result);
  });
}

describe('the in-memory IndexedDB', () => {
  it('upgrades once, keeps records by reference and lists them through the index', async () => {
    const idb = new MemoryIndexedDb();
    const upgrades: number[] = [];
    const opening = idb.open('/mount', 21);
    opening.onupgradeneeded = () => {
      upgrades.push(21);
      const db = opening.result;
      const store = db.createObjectStore('FILE_DATA');
      store.createIndex('timestamp', 'timestamp');
      expect(store.indexNames.contains('timestamp')).toBe(true);
    };
    const db: MemoryDatabase = await settle(opening);
    expect(await settle(idb.open('/mount', 21))).toBe(db);
    expect(upgrades).toEqual([21]);

    const contents = new Uint8Array([1, 2, 3]);
    const record = { timestamp: new Date(2000), mode: 0o100644, contents };
    const tx = db.transaction(['FILE_DATA'], 'readwrite');
    tx.objectStore('FILE_DATA').put(record, '/mount/b');
    tx.objectStore('FILE_DATA').put({ timestamp: new Date(1000), contents }, '/mount/a');
    await new Promise<void>((resolve) => (tx.oncomplete = () => resolve()));

    const read = db.transaction(['FILE_DATA'], 'readonly');
    const got = await settle(read.objectStore('FILE_DATA').get('/mount/b'));
    expect(got).toBe(record); // no structured clone

    const listed: [string, number][] = [];
    const cursorTx = db.transaction(['FILE_DATA'], 'readonly');
    const cursorRequest = cursorTx.objectStore('FILE_DATA').index('timestamp').openKeyCursor();
    const completed = new Promise<void>((resolve) => (cursorTx.oncomplete = () => resolve()));
    cursorRequest.onsuccess = () => {
      const cursor = cursorRequest.result;
      if (cursor === null) return;
      listed.push([cursor.primaryKey, (cursor.key as Date).getTime()]);
      cursor.continue();
    };
    await completed;
    expect(listed).toEqual([
      ['/mount/a', 1000],
      ['/mount/b', 2000],
    ]);
  });
});

describe('hnswlib-wasm file traffic', () => {
  const g = globalThis as { indexedDB?: unknown };
  afterEach(() => {
    delete g.indexedDB;
  });

  it('never touches a global indexedDB, and loads with the patched MEMFS growth', async () => {
    // A host IndexedDB (an Electron renderer's, fake-indexeddb/auto): IDBFS must not use it.
    g.indexedDB = new Proxy(
      {},
      {
        get() {
          throw new Error('the host IndexedDB was used');
        },
      },
    );
    const dim = 16;
    const n = 300;
    const data = clustered(5, n, dim, 4);
    const index = await createVectorIndex({ dimension: dim, metric: 'cosine', backend: 'wasm', capacity: 16 });
    index.add(Array.from({ length: n }, (_, i) => i), data);
    const bytes = await index.serialize();
    const back = await loadVectorIndex(bytes, { dimension: dim, metric: 'cosine' });
    expect(back.search(row(data, 7, dim), 1)[0]?.label).toBe(7);
    expect(back.size).toBe(n);
    const { appliedPatches } = await import('../../src/vector-index/wasm-glue.js');
    expect(appliedPatches).toEqual(['memfs-growth', 'emval-handle-get', 'embind-type-lookup', 'wasm-bytes']);
    index.dispose();
    back.dispose();
  });
});

describe.each(backends)('%s: serializing', (backend) => {
  it('refuses changes until the bytes are out, then accepts them; parts concatenate to serialize()', async () => {
    const dim = 8;
    const data = clustered(9, 64, dim, 2);
    const index = await createVectorIndex({ dimension: dim, metric: 'euclidean', backend, capacity: 16 });
    index.add(Array.from({ length: 32 }, (_, i) => i), data.subarray(0, 32 * dim));
    const saving = index.serializeParts();
    expect(() => index.add([40], data.subarray(40 * dim, 41 * dim))).toThrow(/being saved/);
    expect(() => index.remove([1])).toThrow(/being saved/);
    expect(index.search(row(data, 3, dim), 1)[0]?.label).toBe(3); // reads go on
    const parts = await saving;
    const whole = await index.serialize();
    expect(Buffer.concat(parts)).toEqual(Buffer.from(whole));
    index.add(Array.from({ length: 32 }, (_, i) => 32 + i), data.subarray(32 * dim));
    const back = await loadVectorIndex(Buffer.concat(parts), { dimension: dim, metric: 'euclidean' });
    expect(back.size).toBe(32); // the graph as it was when saved
    expect(index.size).toBe(64);
    index.dispose();
    back.dispose();
  });
});
