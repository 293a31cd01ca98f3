/**
 * vectordb-local's public surface in a browser or an Electron renderer (the `browser` export condition,
 * bundled by scripts/build-browser.js): the same as index.ts minus homes of databases and their admin,
 * which need Node. `new VectorDB(token, 'name')` opens the IndexedDB database `name`.
 */
export * from './portable.js';
