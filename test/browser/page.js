/**
 * The test page's script: the browser bundle (through the page's import map, as a renderer or web app
 * would import it) and the shared workload, driven by the browser test and bench/browser-vector.js
 * through `window.vdb`; every step is also written on the page (the screenshot in docs/).
 */
import * as entry from 'vectordb-local';
import { LIMITS, loadCollection, queryCollection, vectorQps } from '/scenario.js';

const { VectorDB } = entry;

// The log survives reloads of this tab (sessionStorage), so the page tells the whole story.
const logElement = document.querySelector('#log');
const log = (line) => {
  logElement.textContent += `${line}\n`;
  sessionStorage.setItem('vdb-log', logElement.textContent);
};
logElement.textContent = sessionStorage.getItem('vdb-log') ?? '';
if (logElement.textContent !== '') log('--- page reloaded ---');

let db;

window.vdb = {
  async open(name) {
    db = await new VectorDB('page-token', name, undefined, { limits: LIMITS }).connect();
    log(`opened IndexedDB database '${name}'; collections: ${JSON.stringify(await db.findAllCollectionsNames())}`);
  },
  /** A Data API server through fetch (HttpTransport): `url` as `new VectorDB(token, url)` takes it. */
  async openRemote(url, token) {
    db = await new VectorDB(token, url).connect();
    log(`connected to the Data API at ${url}; collections: ${JSON.stringify(await db.findAllCollectionsNames())}`);
  },
  async load(documents) {
    const started = performance.now();
    await loadCollection(db, 'items', documents);
    log(`inserted ${documents.length} documents with ${documents[0].$vector.length}-dimension vectors in ${Math.round(performance.now() - started)} ms`);
  },
  async query(vector) {
    const answers = await queryCollection(await db.collection('items'), vector);
    log(`documents: ${answers.all}; category c2: ${answers.category.length}; 500 <= n < 540: ${answers.range.length}; combined filter: ${answers.combined.length}`);
    log(`vector search top 3: ${answers.vector.slice(0, 3).map(([id, s]) => `${id} ${s}`).join(', ')}`);
    log(`filtered vector search top 3: ${answers.filteredVector.slice(0, 3).map(([id, s]) => `${id} ${s}`).join(', ')}`);
    return answers;
  },
  /** Tries to open a database this page does not hold; resolves to the error's code (or 'opened'). */
  async tryOpen(name) {
    try {
      const other = await new VectorDB('page-token', name).connect();
      await other.close();
      log(`second tab: opened '${name}'`);
      return { code: 'opened' };
    } catch (error) {
      log(`second tab: ${error.code}: ${error.message}`);
      return { code: error.code, message: error.message };
    }
  },
  async qps(queries, rounds) {
    const qps = await vectorQps(await db.collection('items'), queries, rounds);
    log(`vector search: ${qps.toFixed(0)} queries/s`);
    return qps;
  },
  /** What the bundle exports, and what VectorDB.fromDatabaseId (homes need a disk) rejects with. */
  async surface() {
    const byId = await VectorDB.fromDatabaseId('t', 'id').then(
      () => 'connected',
      (error) => `${error.name}: ${error.message}`,
    );
    return { VectorDB: typeof entry.VectorDB, Filter: typeof entry.Filter, VectorDBAdmin: typeof entry.VectorDBAdmin, byId };
  },
  /** A line from the test, for the page's story (e.g. what another tab was told). */
  note(line) {
    log(line);
  },
  async close() {
    await db.close();
    log('closed');
  },
};
