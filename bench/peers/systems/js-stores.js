/**
 * The pure-JavaScript peers: Vectra (a JSON file of items, an exact scan with a metadata filter), Orama
 * (an in-memory index of documents with a vector property, saved with its own `save` as JSON), and the
 * baseline, a plain JS loop over the vectors (for the filter, over the rows of the category only).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exactTopK } from '../../lib/exact.js';

export async function vectra(ctx) {
  const { LocalIndex } = await import('vectra');
  let index;
  return {
    settings: [{ label: 'exact scan' }],
    async load() {
      index = new LocalIndex(ctx.workDir);
      await index.createIndex();
      await index.beginUpdate();
      for (let i = 0; i < ctx.n; i++) await index.insertItem({ id: String(i), vector: Array.from(ctx.row(i)), metadata: { cat: ctx.cats[i] } });
      await index.endUpdate();
    },
    apply() {},
    async search(vector, cat) {
      const found = await index.queryItems(Array.from(vector), '', ctx.k, cat === undefined ? undefined : { cat: { $eq: cat } });
      return found.map((r) => Number(r.item.id));
    },
    close() {},
    reopen() {
      index = new LocalIndex(ctx.workDir);
    },
  };
}

/** Orama's `similarity` is a floor on the cosine of what it returns: lower finds more and sorts more. */
const ORAMA_SIMILARITIES = [0.8, 0.6, 0.4, 0.2, 0, -1];

export async function orama(ctx) {
  const { create, insertMultiple, search, save, load } = await import('@orama/orama');
  const file = join(ctx.workDir, 'orama.json');
  const schema = { cat: 'number', embedding: `vector[${ctx.dim}]` };
  let db;
  let similarity;
  return {
    settings: ORAMA_SIMILARITIES.map((s) => ({ label: `similarity ${s}`, similarity: s })),
    async load() {
      db = create({ schema });
      await insertMultiple(db, Array.from({ length: ctx.n }, (_, i) => ({ id: String(i), cat: ctx.cats[i], embedding: Array.from(ctx.row(i)) })), 1000);
    },
    apply(setting) {
      similarity = setting.similarity;
    },
    async search(vector, cat) {
      // includeVectors: without it, Orama nulls the vector of every document it returns, in its own store.
      const params = { mode: 'vector', vector: { value: vector, property: 'embedding' }, similarity, limit: ctx.k, includeVectors: true };
      const found = await search(db, cat === undefined ? params : { ...params, where: { cat: { eq: cat } } });
      return found.hits.map((hit) => Number(hit.id));
    },
    close() {
      writeFileSync(file, JSON.stringify(save(db)));
    },
    async reopen() {
      db = create({ schema });
      load(db, JSON.parse(readFileSync(file, 'utf8')));
    },
  };
}

export async function jsLoop(ctx) {
  let rowsOfCat;
  return {
    settings: [{ label: 'exact scan' }],
    // Nothing to store: the vectors are the process's Float32Array.
    persistent: false,
    load() {
      const lists = Array.from({ length: ctx.cats.reduce((m, c) => Math.max(m, c + 1), 0) }, () => []);
      for (let i = 0; i < ctx.n; i++) lists[ctx.cats[i]].push(i);
      rowsOfCat = lists.map((list) => Uint32Array.from(list));
    },
    apply() {},
    search(vector, cat) {
      return exactTopK(vector, ctx.vectors, ctx.dim, ctx.n, ctx.k, cat === undefined ? undefined : rowsOfCat[cat]);
    },
  };
}
