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

/** Ids of the documents holding every query term, best BM25 first (ties by id), from the texts alone. */
function bruteForce(texts: ReadonlyMap<string, string>, query: string, limit: number): string[] {
  const terms = queryTerms(query, DEFAULT_ANALYZER);
  const docs = [...texts].map(([id, text]) => ({ id, tokens: tokenize(text, DEFAULT_ANALYZER) }));
  const total = docs.reduce((sum, d) => sum + d.tokens.length, 0);
  const documentsWith = new Map(terms.map((t) => [t, docs.filter((d) => d.tokens.includes(t)).length]));
  const stats = { documents: docs.length, meanLength: total / docs.length, documentsWith };
  return docs
    .filter((d) => terms.every((t) => d.tokens.includes(t)))
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
});
