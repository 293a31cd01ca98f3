/**
 * vectordb-local itself, through its public client API (the built dist/): `insertMany` then
 * `waitForIndex()` to load, `findVector` (a `find` with a `$vector` sort, `_id` projection, the
 * per-query `efSearch`) to search, the `cat` filter planned by the database itself.
 */
import { createRequire } from 'node:module';
import { EF_SWEEP } from './settings.js';

const NAME = 'peers';

/** `options`: more VectorDB options (ours-native-nocache: `bodyCacheBytes: 0`, RSS without the body caches). */
export function ours(backend, options = {}) {
  return async (ctx) => {
    const { VectorDB } = await import(new URL('index.js', ctx.distUrl));
    const open = () => new VectorDB('peers', ctx.workDir, undefined, { vectorBackend: backend, ...options });
    let db;
    let collection;
    let efSearch;
    return {
      settings: EF_SWEEP.map((ef) => ({ label: `efSearch ${ef}`, ef })),
      async load() {
        db = open();
        collection = await db.createCollection({ name: NAME, options: { vector: { dimension: ctx.dim, metric: 'cosine', index: { m: 16, efConstruction: 200 } } } });
        // Documents are made a slice at a time (as a loader streaming a file would), the client chunks them.
        for (let from = 0; from < ctx.n; from += 1000) {
          const documents = [];
          for (let i = from; i < Math.min(ctx.n, from + 1000); i++) documents.push({ _id: i, cat: ctx.cats[i], $vector: Array.from(ctx.row(i)) });
          await collection.insertMany(documents);
        }
        await collection.waitForIndex();
      },
      apply(setting) {
        efSearch = setting.ef;
      },
      async search(vector, cat) {
        const options = { limit: ctx.k, efSearch, projection: { _id: 1 }, ...(cat === undefined ? {} : { filter: { cat } }) };
        return (await collection.findVector(vector, options)).map((d) => d._id);
      },
      /** What the body caches hold now (db.stats().cachedBytes; undefined on a build without it). */
      async cachedBytes() {
        return (await db.stats()).cachedBytes;
      },
      async close() {
        await db.close();
      },
      /** The packages the package loads at its first on-disk open (not at import): module loading is not timed. */
      preload() {
        const require = createRequire(ctx.distUrl);
        require('classic-level');
        if (backend === 'native') require('hnswlib-node');
      },
      async reopen() {
        db = open();
        collection = await db.collection(NAME);
      },
    };
  };
}
