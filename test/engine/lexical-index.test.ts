/**
 * The collection's inverted index against brute force: after hundreds of single-document batches (so the
 * statistics' deltas are folded into the base), updates, deletes and an insertMany, a `$lexical` sort returns
 * exactly the documents holding every term, in the BM25 order computed from the documents themselves (exact
 * statistics); and the same after the database is closed and reopened.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VectorDB } from '../../src/index.js';
import { DEFAULT_ANALYZER, queryTerms, tokenize } from '../../src/query/analyzers.js';
import { bm25Score, termFrequencies } from '../../src/query/bm25.js';
import { rng } from '../support/random.js';
import { tempDir } from '../support/temp.js';

const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape', 'honey', 'ice', 'jam'];

const tokenCache = new Map<string, string[]>();
const tokensOf = (text: string): string[] => tokenCache.get(text) ?? tokenCache.set(text, tokenize(text, DEFAULT_ANALYZER)).get(text)!;

/** Ids of the documents holding every query term, best BM25 first (ties by id), from the texts alone; `keep` filters after scoring. */
function bruteForce(texts: ReadonlyMap<string, string>, query: string, limit: number, keep: (id: string) => boolean = () => true): string[] {
  const terms = queryTerms(query, DEFAULT_ANALYZER);
  const docs = [...texts].map(([id, text]) => ({ id, tokens: tokensOf(text) }));
  const total = docs.reduce((sum, d) => sum + d.tokens.length, 0);
  const documentsWith = new Map(terms.map((t) => [t, docs.filter((d) => d.tokens.includes(t)).length]));
  const stats = { documents: docs.length, meanLength: total / docs.length, documentsWith };
  return docs
    .filter((d) => terms.every((t) => d.tokens.includes(t)) && keep(d.id))
    .map((d) => ({ id: d.id, score: bm25Score(termFrequencies(d.tokens), d.tokens.length, terms, stats) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((d) => d.id);
}

describe('lexical index', () => {
  it('matches brute-force BM25 after many batches, updates and deletes, and after a reopen', async () => {
    const dir = path.join(tempDir('vectordb-lexical-'), 'db');
    const random = rng(29);
    const text = () => Array.from({ length: 2 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
    const texts = new Map<string, string>();
    const queries = ['apple', 'banana cherry', 'fig grape honey', 'jam', 'ice apple'];
    const check = async (db: VectorDB) => {
      const docs = await db.collection('docs');
      for (const query of queries) {
        const found = await docs.findPage({ sort: { $lexical: query }, limit: 25, projection: { _id: 1 } });
        expect(found.results.map((d) => d._id), query).toEqual(bruteForce(texts, query, 25));
      }
    };
    {
      await using db = new VectorDB('t', dir);
      const docs = await db.createCollection('docs');
      for (let i = 0; i < 300; i++) {
        const id = `d${String(i).padStart(4, '0')}`;
        texts.set(id, text());
        await docs.insertOne({ _id: id, $lexical: texts.get(id) });
      }
      for (let i = 0; i < 300; i += 7) {
        const id = `d${String(i).padStart(4, '0')}`;
        texts.set(id, text());
        await docs.updateOne({ _id: id }, { $set: { $lexical: texts.get(id) } });
      }
      for (let i = 3; i < 300; i += 11) {
        const id = `d${String(i).padStart(4, '0')}`;
        texts.delete(id);
        await docs.deleteOne({ _id: id });
      }
      const more = Array.from({ length: 60 }, (_, i) => ({ _id: `e${String(i).padStart(4, '0')}`, $lexical: text() }));
      for (const doc of more) texts.set(doc._id, doc.$lexical);
      await docs.insertMany(more);
      await check(db);
    }
    await using reopened = new VectorDB('t', dir);
    await check(reopened);
  });

  it('stays exact while queries (hot postings in memory) and writes interleave, with and without a filter', async () => {
    const random = rng(2929);
    const text = () => Array.from({ length: 2 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
    const texts = new Map<string, string>();
    const id = (i: number) => `d${String(i).padStart(4, '0')}`;
    await using db = new VectorDB('t', path.join(tempDir('vectordb-lexical-'), 'db'));
    const docs = await db.createCollection('docs');
    const initial = Array.from({ length: 400 }, (_, i) => ({ _id: id(i), n: i, $lexical: text() }));
    for (const doc of initial) texts.set(doc._id, doc.$lexical);
    await docs.insertMany(initial);
    // 'honey' alone: a term first read with others (its ordinals not in key order).
    const queries = ['apple', 'banana cherry', 'fig grape honey', 'ice apple', 'honey'];
    // Limits 3 and 40: the best few picked by a bounded heap, or everything ranked; {n >= 300} turns most down.
    const check = async (label: string) => {
      for (const query of queries) {
        for (const limit of [3, 40]) {
          const found = await docs.findPage({ sort: { $lexical: query }, limit, projection: { _id: 1 } });
          expect(found.results.map((d) => d._id), `${label}: ${query} / ${limit}`).toEqual(bruteForce(texts, query, limit));
        }
        const filtered = await docs.findPage({ filter: { n: { $gte: 300 } }, sort: { $lexical: query }, limit: 5, projection: { _id: 1 } });
        expect(filtered.results.map((d) => d._id), `${label}: ${query} filtered`).toEqual(bruteForce(texts, query, 5, (d) => Number(d.slice(1)) >= 300));
      }
    };
    await check('loaded');
    for (let step = 0; step < 40; step++) {
      const i = Math.floor(random() * 500);
      const kind = step % 4;
      if (kind === 0 || !texts.has(id(i))) {
        texts.set(id(i), text());
        await docs.upsertOne({ _id: id(i), n: i, $lexical: texts.get(id(i)) });
      } else if (kind === 1) {
        texts.set(id(i), text());
        await docs.updateOne({ _id: id(i) }, { $set: { $lexical: texts.get(id(i)) } });
      } else if (kind === 2) {
        texts.delete(id(i));
        await docs.deleteOne({ _id: id(i) });
      } else {
        // A query running while a write is in flight, then the check after it.
        texts.set(id(i), text());
        const [during] = await Promise.all([docs.findPage({ sort: { $lexical: 'apple' }, limit: 400, projection: { _id: 1, $lexical: 1 } }), docs.updateOne({ _id: id(i) }, { $set: { $lexical: texts.get(id(i)) } })]);
        for (const doc of during.results) expect(tokenize(String(doc.$lexical), DEFAULT_ANALYZER)).toContain('apple');
      }
      await check(`step ${step}`);
    }
    await docs.deleteMany({});
    texts.clear();
    await check('cleared');
  });
});
